// strata record --level quick|standard|long --out FILE
//
// One self-contained document per node and run (fleet/src/record.h): the
// environment, every check of `doctor`, and every benchmark repetition.
// Without a usable GPU the record is still written, its benchmarks marked not
// measured; the exit status is doctor's.
#include <cstdlib>
#include <iostream>

#include "benchmark_metrics.h"
#include "cli/benchmark_session.h"
#include "cli/commands.h"
#include "cli/run_options.h"
#include "diagnosis/fact_access.h"
#include "model/usage_error.h"
#include "record_document.h"
#include "report/atomic_file.h"
#include "report/writers.h"

namespace strata::cli {

namespace {

// Why no benchmark can run here, or "" when one can.
std::string why_not_measured(const Report& report, const std::string& executable) {
    if (!runner_available(executable))
        return "this strata was built without the benchmark runner (no CUDA toolkit at build time)";
    if (fact_int(report, "device.count").value_or(0) > 0 &&
        fact_int(report, "driver.cuda.init_result") == std::optional<long long>(0))
        return "";
    // The driver layer's first failure says why (no libcuda, cuInit's error).
    for (const Check& check : report.checks())
        if (check.layer == Layer::driver && is_failure(check.status))
            return "no usable GPU: " + check.summary;
    return "no usable GPU: the driver reports none";
}

}  // namespace

std::function<int()> register_record(CLI::App& app, const std::string& executable) {
    struct Options {
        PluginOptions plugins;
        EnvironmentOptions environments;
        BenchmarkRequest request;
        std::string out, prometheus, node;
        std::vector<std::string> ignore_checks;
        HealthOptions health;
        bool no_benchmarks = false;
    };
    auto options = std::make_shared<Options>();
    CLI::App* command = app.add_subcommand(
        "record",
        "Write one record of this node: environment, every doctor check, every benchmark repetition");
    add_plugin_options(*command, options->plugins);
    add_environment_options(*command, options->environments);
    command->add_option("--out", options->out, "Where to write the record (JSON)")
        ->required()
        ->check(non_empty_path());
    add_benchmark_options(*command, options->request);
    command->add_flag("--no-benchmarks", options->no_benchmarks, "Record the environment and checks only");
    command->add_option(
        "--node", options->node,
        "The node's name in the record (default: SLURMD_NODENAME, else NODE_NAME, else the host "
        "name)");
    add_prometheus_option(*command, options->prometheus);
    add_ignore_check_option(*command, options->ignore_checks);
    add_health_options(*command, options->health);

    return [options, executable]() {
        benchmark_filter(options->request.filter);  // bad usage is refused before anything runs
        if (options->node.find_first_of(" \t\n\r/") != std::string::npos)
            throw UsageError("--node '" + options->node + "': a node name has no spaces or slashes");
        // Every output is proved writable before minutes of benchmarks run.
        prepare_output_file(options->out);
        if (!options->prometheus.empty()) prepare_output_file(options->prometheus);
        RunOptions run = make_run_options(options->plugins, options->environments, executable);
        run.health = options->health;
        fleet::RecordParts parts;
        parts.created_at = utc_timestamp_now();
        parts.level = options->request.level;
        parts.scheduler = fleet::scheduler_context([](const char* name) { return std::getenv(name); });
        parts.node = options->node;
        std::vector<std::string> notes;  // the JIT proof's
        auto started = std::chrono::steady_clock::now();
        Report report = run_doctor(run, ProbeContext::live());
        report.ignore_checks(options->ignore_checks);
        RunInfo info{"record", parts.created_at,
                     std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() -
                                                                           started)};
        parts.doctor = report_to_json(report, info);
        parts.not_measured =
            options->no_benchmarks ? "not asked for (--no-benchmarks)" : why_not_measured(report, executable);
        // A rollout must prove the fleet's own PTX through the candidate's JIT.
        if (options->request.level != "quick") options->request.jit_installed = true;
        if (parts.not_measured.empty()) {
            // doctor's environment record, not a second probe of the same machine
            Json environment = environment_to_json(report);
            BenchmarkSession session = run_benchmarks(run, options->request, &environment);
            parts.benchmarks = std::move(session.merged);
            parts.skipped = std::move(session.skipped);
            notes = std::move(session.notes);
            if (!parts.benchmarks) parts.not_measured = "every benchmark was skipped";
        }
        Json record = fleet::make_record(parts);
        write_file_atomically(options->out, to_json_text(record, 2) + "\n");
        if (!options->prometheus.empty()) {
            PrometheusText metrics;
            add_report_metrics(metrics, report, info);
            metrics.family("strata_benchmarks_measured",
                           "1 when the record holds measured benchmarks, else 0");
            metrics.sample("strata_benchmarks_measured", {}, parts.benchmarks ? 1 : 0);
            if (parts.benchmarks)
                fleet::add_benchmark_metrics(metrics,
                                             bench::results_from_document(*parts.benchmarks, options->out));
            write_prometheus_file(options->prometheus, metrics.render());
        }
        const Json& summary = parts.doctor["summary"];
        std::cout << "record: " << options->out << " (node "
                  << record["strata_record"]["node"].get<std::string>() << ")\n"
                  << "checks: " << summary.value("pass", 0) << " pass, " << summary.value("warn", 0)
                  << " warn, "
                  << summary.value("fail", 0) + summary.value("error", 0) + summary.value("crashed", 0) +
                         summary.value("timeout", 0)
                  << " fail, " << summary.value("skip", 0) << " skip\n";
        if (parts.benchmarks)
            std::cout << "benchmarks: " << (*parts.benchmarks)["benchmarks"].size() << " results\n";
        else
            std::cout << "benchmarks: not measured (" << parts.not_measured << ")\n";
        for (const std::string& skipped : parts.skipped) std::cout << "  skipped: " << skipped << "\n";
        for (const std::string& note : notes) std::cout << "  " << note << "\n";
        return report.exit_code();
    };
}

}  // namespace strata::cli
