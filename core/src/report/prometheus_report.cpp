// A Report as node_exporter textfile metrics (see prometheus_text.h). The
// metric and label names are an interface (dashboards and alerts use them):
// docs/running-on-a-fleet.md lists them; change them only with a major
// version.
#include <chrono>

#include "diagnosis/fact_access.h"
#include "report/writers.h"

namespace strata {

int prometheus_status_code(Status status) {
    switch (status) {
        case Status::pass: return 0;
        case Status::skip: return 1;
        case Status::warn: return 2;
        case Status::fail: return 3;
        case Status::error: return 4;
        case Status::crashed: return 5;
        case Status::timeout: return 6;
    }
    return 4;
}

void add_report_metrics(PrometheusText& out, const Report& report, const RunInfo& run) {
    const std::string prefix = "strata_";
    out.family(prefix + "info", "strata's version and the stack it found, as labels; the value is always 1");
    auto text = [&](const char* key) { return fact_string(report, key).value_or(""); };
    std::string driver = text("driver.nvml.driver_version");
    if (driver.empty()) driver = text("driver.kernel_module.version");
    out.sample(prefix + "info",
               {{"command", run.command},
                {"version", text("strata.version")},
                {"revision", text("strata.git_revision")},
                {"driver", driver},
                {"cuda_driver", text("driver.cuda.version_text")},
                {"cuda_runtime", text("runtime.cudart.version_text")}},
               1);
    out.family(prefix + "healthy", "1 when no check failed (the command exits 0), else 0");
    out.sample(prefix + "healthy", {{"command", run.command}}, report.exit_code() == 0 ? 1 : 0);
    out.family(prefix + "gpus", "GPUs the CUDA driver reports (absent when it reported none)");
    if (auto count = fact_int(report, "device.count"))
        out.sample(prefix + "gpus", {}, static_cast<double>(*count));
    out.family(prefix + "run_duration_seconds", "How long the run took");
    out.sample(prefix + "run_duration_seconds", {{"command", run.command}},
               static_cast<double>(run.duration.count()) / 1000.0);
    out.family(prefix + "run_completed_seconds",
               "When the run ended, in seconds since the Unix epoch (a value, not a sample timestamp)");
    out.sample(prefix + "run_completed_seconds", {{"command", run.command}},
               std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count());
    out.family(prefix + "check_status",
               "Each check's status: 0 pass, 1 skip, 2 warn, 3 fail, 4 error, 5 crashed, 6 timeout "
               "(3 and above make the node unhealthy)");
    out.family(prefix + "check_ignored",
               "A failing check the operator set aside (--ignore-check), with its real status; its "
               "strata_check_status is 1 (skip), so an alert on >= 3 does not page on it");
    out.family(prefix + "checks", "How many checks ended in each status (ignored: failing but set aside)");
    std::map<std::string, int> counts = {{"pass", 0},  {"warn", 0},    {"fail", 0},    {"skip", 0},
                                         {"error", 0}, {"crashed", 0}, {"timeout", 0}, {"ignored", 0}};
    for (const Check& check : report.checks()) {
        PrometheusLabels labels = {{"check", check.id},
                                   {"layer", std::string(layer_name(check.layer))},
                                   {"gpu", check.device ? std::to_string(*check.device) : ""}};
        // As JUnit reports it: skipped, with the truth beside it.
        bool set_aside = check.ignored && is_failure(check.status);
        out.sample(prefix + "check_status", labels,
                   set_aside ? prometheus_status_code(Status::skip) : prometheus_status_code(check.status));
        if (set_aside) out.sample(prefix + "check_ignored", labels, prometheus_status_code(check.status));
        ++counts[set_aside ? "ignored" : std::string(status_name(check.status))];
    }
    for (const auto& [status, count] : counts) out.sample(prefix + "checks", {{"status", status}}, count);
    out.family(prefix + "measurement", "A figure a self-test measured, by name and unit");
    for (const Measurement& measurement : report.measurements())
        out.sample(prefix + "measurement",
                   {{"plugin", measurement.origin}, {"name", measurement.name}, {"unit", measurement.unit}},
                   measurement.value);
}

std::string render_prometheus(const Report& report, const RunInfo& run) {
    PrometheusText out;
    add_report_metrics(out, report, run);
    return out.render();
}

}  // namespace strata
