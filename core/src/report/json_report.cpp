#include <ctime>
#include <map>

#include "diagnosis/health_rules.h"
#include "report/writers.h"

namespace strata {

std::string utc_timestamp_now() {
    std::time_t now = std::time(nullptr);
    std::tm utc{};
    gmtime_r(&now, &utc);
    char text[32];
    std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &utc);
    return text;
}

Json environment_to_json(const Report& report) {
    Json environment = Json::object();
    for (const Fact& fact : report.facts())
        environment[fact.key] = {
            {"value", fact.value}, {"source", fact.source}, {"layer", layer_name(fact.layer)}};
    return environment;
}

const Json& environment_value(const Json& environment, const std::string& key) {
    static const Json none;
    auto it = environment.find(key);
    if (it == environment.end() || !it->is_object() || !it->contains("value")) return none;
    return (*it)["value"];
}

Json report_to_json(const Report& report, const RunInfo& run) {
    Json checks = Json::array();
    std::map<std::string, int> counts;
    for (const Check& check : report.checks()) {
        ++counts[std::string(status_name(check.status))];
        checks.push_back({{"id", check.id},
                          {"layer", layer_name(check.layer)},
                          {"status", status_name(check.status)},
                          {"summary", check.summary},
                          {"evidence", check.evidence},
                          {"remedy", check.remedy},
                          {"facts", check.facts},
                          {"origin", check.origin},
                          {"device", check.device ? Json(*check.device) : Json(nullptr)},
                          {"duration_ms", check.duration_ms}});
        if (check.ignored) checks.back()["ignored"] = true;
    }
    Json layers = Json::array();
    for (const LayerSummary& layer : report.layer_summaries())
        layers.push_back({{"name", layer_name(layer.layer)},
                          {"status", status_name(layer.status)},
                          {"summary", layer.summary}});
    Json plugins = Json::array();
    for (const PluginRecord& plugin : report.plugins()) {
        Json benchmarks = Json::array();
        for (const BenchmarkInfo& b : plugin.benchmarks) benchmarks.push_back(b.name);
        plugins.push_back({{"name", plugin.name},
                           {"path", plugin.path},
                           {"state", plugin_state_name(plugin.state)},
                           {"message", plugin.message},
                           {"layer", plugin.layer ? Json(layer_name(*plugin.layer)) : Json(nullptr)},
                           {"version", plugin.version},
                           {"abi", {{"major", plugin.abi_major}, {"minor", plugin.abi_minor}}},
                           {"missing_library", plugin.missing_library},
                           {"has_selftest", plugin.has_selftest},
                           {"benchmarks", benchmarks}});
    }
    Json measurements = Json::array();
    for (const Measurement& m : report.measurements())
        measurements.push_back(
            {{"origin", m.origin}, {"name", m.name}, {"value", m.value}, {"unit", m.unit}});
    Json summary = Json::object();
    for (const char* status : {"pass", "warn", "fail", "skip", "error", "crashed", "timeout"})
        summary[status] = counts[status];
    return {{"schema_version", report_schema_version},
            {"command", run.command},
            {"created_at", run.created_at},
            {"duration_ms", run.duration.count()},
            {"exit_code", report.exit_code()},
            {"summary", summary},
            {"health", std::string(health_verdict_name(health_verdict(report)))},
            {"layers", layers},
            {"checks", checks},
            {"plugins", plugins},
            {"measurements", measurements},
            {"environment", environment_to_json(report)}};
}

}  // namespace strata
