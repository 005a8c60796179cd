#include "doctor/doctor.h"

#include <algorithm>
#include <future>
#include <thread>

#include "diagnosis/fact_access.h"
#include "diagnosis/image_verdicts.h"
#include "diagnosis/rules.h"
#include "doctor/build_info.h"
#include "doctor/kernel_images.h"
#include "doctor/plugin_tasks.h"
#include "frameworks/framework_proof.h"
#include "probes/kernel_log.h"
#include "probes/probes.h"

namespace strata {

namespace {

// A self-test is not started with less time than this left before the run's
// deadline: it would only be killed.
constexpr std::chrono::seconds kLeastTaskTime{2};

// Probes every plugin, each in its own worker, several at once (workers are
// separate processes; only the folding into the report is sequential, in
// discovery order, so the report does not depend on timing). Returns the
// records of those that loaded, sorted by layer for the self-test pass.
std::vector<std::pair<PluginCandidate, PluginRecord>> probe_plugins(const RunOptions& options,
                                                                    const std::string& task, Report& report) {
    std::vector<PluginCandidate> candidates = discover_plugins(options.plugins, options.executable);
    std::vector<std::future<TaskOutcome>> running(candidates.size());
    // At most this many workers at a time, so a directory of many plugins
    // cannot fork without bound; each worker mostly waits on the loader.
    const size_t wave = std::max<size_t>(4, std::thread::hardware_concurrency());
    auto start = [&](size_t i) {
        if (i < candidates.size() && !candidates[i].refusal)
            running[i] = std::async(std::launch::async, [&options, &candidate = candidates[i], &task] {
                return execute_plugin_task(options, candidate, task);
            });
    };
    for (size_t i = 0; i < std::min(wave, candidates.size()); ++i) start(i);
    std::vector<std::pair<PluginCandidate, PluginRecord>> loaded;
    for (size_t i = 0; i < candidates.size(); ++i) {
        const PluginCandidate& candidate = candidates[i];
        PluginRecord record = candidate.refusal ? refuse_plugin(candidate, report)
                                                : fold_plugin_outcome(candidate, task, running[i].get(),
                                                                      report, options.missing_library_fails);
        start(i + wave);  // one finished (in order): the next may begin
        if (record.state == PluginState::loaded) loaded.emplace_back(candidate, record);
        report.add_plugin(std::move(record));
    }
    std::stable_sort(loaded.begin(), loaded.end(), [](const auto& a, const auto& b) {
        return layer_rank(a.second.layer.value_or(Layer::host)) <
               layer_rank(b.second.layer.value_or(Layer::host));
    });
    return loaded;
}

}  // namespace

void add_build_facts(Report& report) {
    const BuildInfo& info = build_info();
    add_fact(report, Layer::host, "strata.version", info.version, "build");
    add_fact(report, Layer::host, "strata.git_revision", info.git_revision, "build");
    add_fact(report, Layer::host, "strata.build_type", info.build_type, "build");
    add_fact(report, Layer::host, "strata.cuda_toolkit", info.cuda_toolkit, "build");
    add_fact(report, Layer::host, "strata.kernel_architectures", info.architectures, "build");
}

Report run_doctor(const RunOptions& options, const ProbeContext& context) {
    Report report;
    add_build_facts(report);
    // Reading the frameworks (asking each Python interpreter for its path,
    // then their files) needs nothing from the other probes: it runs beside
    // them. The loader model is built first, so the threads only read it.
    (void)context.library_search();
    std::future<FrameworkLayer> frameworks;
    if (options.frameworks_scanned)
        frameworks = std::async(std::launch::async, [&context, &options] {
            return scan_framework_layer(context, options.frameworks);
        });
    run_core_probes(context, report);
    probe_kernel_log(context, options.health.kernel_log, report);
    auto loaded = probe_plugins(options, "probe", report);
    // Reading strata's own fat binaries is static, like a probe: never gated.
    check_own_kernel_images(options.executable, report);
    run_diagnosis_rules(context, report);
    judge_node_health(context, options.health, report);
    // Static too (files only, nothing imported), and last in layer order, so
    // its findings gate none of the self-tests below.
    if (frameworks.valid()) {
        FrameworkLayer layer = frameworks.get();
        judge_framework_layer(layer, framework_targets(options.frameworks, gpus_from_facts(report)), report);
        // Importing is opt-in: it runs the frameworks' own code.
        if (options.prove_frameworks)
            prove_frameworks(layer, fact_int(report, "device.count").value_or(0), {}, report);
    } else
        report.add_check(make_check("framework.found", Layer::framework, Status::skip,
                                    "frameworks not read: not part of this level (run the full doctor)"));
    if (!options.selftests) return report;
    for (const auto& [candidate, record] : loaded) {
        if (!record.has_selftest) continue;
        Layer layer = record.layer.value_or(Layer::host);
        // A self-test launches work, so its own layer must be sound too.
        if (auto gate = report.gate_through(layer)) {
            Check check = report.gated_check(std::string(layer_name(layer)) + "." + record.name + ".selftest",
                                             layer, record.name + " self-test", *gate);
            check.origin = record.name;
            report.add_check(std::move(check));
            continue;
        }
        if (options.deadline && std::chrono::steady_clock::now() + kLeastTaskTime >= *options.deadline) {
            Check check = make_check(
                std::string(layer_name(layer)) + "." + record.name + ".selftest", layer, Status::skip,
                record.name + " self-test skipped: the run's time budget is spent", "", "");
            check.origin = record.name;
            report.add_check(std::move(check));
            continue;
        }
        run_plugin_task(options, candidate, "selftest", report);
    }
    return report;
}

Report run_environment(const RunOptions& options, const ProbeContext& context) {
    RunOptions probes_only = options;
    probes_only.selftests = false;
    return run_doctor(probes_only, context);
}

Report run_load_report(const RunOptions& options) {
    Report report;
    add_build_facts(report);
    probe_plugins(options, "describe", report);
    return report;
}

}  // namespace strata
