#include "benchmark_results.h"

#include <cmath>
#include <fstream>
#include <sstream>

#include "model/usage_error.h"

namespace strata::bench {

namespace {

double to_nanoseconds(double value, const std::string& unit, const std::string& where) {
    if (unit == "ns") return value;
    if (unit == "us") return value * 1e3;
    if (unit == "ms") return value * 1e6;
    if (unit == "s") return value * 1e9;
    throw UsageError(where + ": unknown time_unit '" + unit + "'");
}

const Json& field(const Json& entry, const char* name, const std::string& where) {
    auto it = entry.find(name);
    if (it == entry.end()) throw UsageError(where + ": no \"" + std::string(name) + "\"");
    return *it;
}

// One entry of "benchmarks" into its series: a repetition's time, the median
// aggregate, or the error the benchmark reported.
void read_entry(const Json& entry, const std::string& where, std::map<std::string, size_t>& index,
                ResultsFile& out) {
    if (!entry.is_object()) throw UsageError(where + ": not an object");
    const Json& name_field = field(entry, "name", where);
    if (!name_field.is_string()) throw UsageError(where + ": \"name\" is not a string");
    std::string name = entry.value("run_name", name_field.get<std::string>());
    auto [slot, added] = index.try_emplace(name, out.series.size());
    if (added) out.series.push_back({name, {}, std::nullopt, {}});
    BenchmarkSeries& series = out.series[slot->second];
    if (entry.value("error_occurred", false)) {
        series.error = entry.value("error_message", std::string("the benchmark reported an error"));
        return;
    }
    const Json& time = field(entry, "real_time", where);
    const Json& unit = field(entry, "time_unit", where);
    if (!time.is_number() || !std::isfinite(time.get<double>()) || time.get<double>() < 0)
        throw UsageError(where + ": \"real_time\" is not a non-negative number");
    if (!unit.is_string()) throw UsageError(where + ": \"time_unit\" is not a string");
    double ns = to_nanoseconds(time.get<double>(), unit.get<std::string>(), where);
    std::string run_type = entry.value("run_type", std::string("iteration"));
    if (run_type == "iteration")
        series.samples.push_back(ns);
    else if (run_type == "aggregate" && entry.value("aggregate_name", std::string()) == "median")
        series.reported_median_ns = ns;
}

}  // namespace

const BenchmarkSeries* ResultsFile::find(const std::string& name) const {
    for (const BenchmarkSeries& s : series)
        if (s.name == name) return &s;
    return nullptr;
}

ResultsFile parse_results(const std::string& text, const std::string& path) {
    Json document;
    try {
        document = Json::parse(text);
    } catch (const Json::exception& error) {  // parse_error, and out_of_range for 1e999
                                              // nlohmann says where: "parse error at line 3, column 1: ..."
        std::string what = error.what();
        size_t at = what.find("parse error");
        throw UsageError(path + ": not valid JSON (" + (at == std::string::npos ? what : what.substr(at)) +
                         ")");
    }
    if (!document.is_object() || !document.contains("benchmarks") || !document["benchmarks"].is_array())
        throw UsageError(path + ": not a Google Benchmark results file (no \"benchmarks\" array)");
    ResultsFile out;
    out.path = path;
    if (document.contains("context") && document["context"].is_object()) out.context = document["context"];
    std::map<std::string, size_t> index;
    size_t position = 0;
    for (const Json& entry : document["benchmarks"]) {
        std::string where = path + ": benchmarks[" + std::to_string(position++) + "]";
        try {
            read_entry(entry, where, index, out);
        } catch (const Json::exception& error) {  // a field of the wrong type
            throw UsageError(where + ": " + error.what());
        }
    }
    if (out.series.empty()) throw UsageError(path + ": holds no benchmark results");
    return out;
}

ResultsFile read_results_file(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw UsageError("cannot read '" + path + "'");
    std::stringstream text;
    text << in.rdbuf();
    return parse_results(text.str(), path);
}

}  // namespace strata::bench
