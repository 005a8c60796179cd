#include "benchmark_results.h"

#include <cmath>
#include <map>
#include <set>
#include <utility>
#include <vector>

#include "model/untrusted_input.h"
#include "model/usage_error.h"
#include "report/terminal_safe_output.h"

namespace strata::bench {

namespace {

double to_nanoseconds(double value, const std::string& unit, const std::string& where) {
    double scale = unit == "ns" ? 1 : unit == "us" ? 1e3 : unit == "ms" ? 1e6 : unit == "s" ? 1e9 : 0;
    if (scale == 0) throw UsageError(where + ": unknown time_unit '" + unit + "'");
    double ns = value * scale;
    // 1e308 s is a finite number of seconds and no number of nanoseconds.
    if (!std::isfinite(ns))
        throw UsageError(where + ": time out of range (" + std::to_string(value) + " " + unit + ")");
    return ns;
}

const Json& field(const Json& entry, const char* name, const std::string& where) {
    auto it = entry.find(name);
    if (it == entry.end()) throw UsageError(where + ": no \"" + std::string(name) + "\"");
    return *it;
}

// The fields Google Benchmark writes itself; every other number is a user counter.
bool is_google_benchmark_field(const std::string& key) {
    static const std::set<std::string> fields = {"family_index",
                                                 "per_family_instance_index",
                                                 "repetitions",
                                                 "repetition_index",
                                                 "threads",
                                                 "iterations",
                                                 "real_time",
                                                 "cpu_time",
                                                 "time_unit",
                                                 "run_type",
                                                 "aggregate_name",
                                                 "aggregate_unit",
                                                 "error_occurred",
                                                 "error_message",
                                                 "label",
                                                 "name",
                                                 "run_name",
                                                 "big_o",
                                                 "rms"};
    return fields.count(key) > 0;
}

}  // namespace

std::string benchmark_identity(std::string_view run_name) {
    auto configuration = [](std::string_view part) {
        for (std::string_view key : {"min_time:", "min_warmup_time:", "repeats:", "iterations:"})
            if (part.starts_with(key)) return true;
        return part == "manual_time" || part == "real_time" || part == "process_time";
    };
    for (size_t slash = run_name.rfind('/'); slash != std::string_view::npos && slash > 0;
         slash = run_name.rfind('/')) {
        if (!configuration(run_name.substr(slash + 1))) break;
        run_name = run_name.substr(0, slash);
    }
    return std::string(run_name);
}

bool timed_by_wall_clock(std::string_view run_name) {
    std::string_view configuration = std::string_view(run_name).substr(benchmark_identity(run_name).size());
    for (std::string_view part : {"/real_time", "/manual_time"}) {
        size_t at = configuration.find(part);
        if (at != std::string_view::npos &&
            (at + part.size() == configuration.size() || configuration[at + part.size()] == '/'))
            return true;
    }
    return false;
}

bool is_load_proof(std::string_view name) {
    constexpr std::string_view prefix = "driver/jit_installed/";
    return name.starts_with(prefix) && !name.substr(prefix.size()).starts_with("total/") &&
           name.substr(prefix.size()) != "total";
}

namespace {

// Which registered benchmark each run name came from. Google Benchmark lets
// two benchmarks share a name (two BENCHMARK()s given one ->Name()) and
// writes both under one run_name; pooling their times would compare a
// mixture, so a second benchmark under a name already seen is refused. It is
// known by (family_index, per_family_instance_index), which Google Benchmark
// writes on every run since 1.6; files without them are known by a
// repetition_index that comes twice.
class RunIdentities {
public:
    // `series` is the index of the name's series, `first` whether this entry
    // created it.
    void note(const Json& entry, size_t series, bool first, const std::string& name, bool iteration,
              const std::string& where) {
        auto number = [&](const char* key) -> long long {
            auto it = entry.find(key);
            return it != entry.end() && it->is_number_integer() ? it->get<long long>() : -1;
        };
        Instance instance{number("family_index"), number("per_family_instance_index")};
        if (first) instance_of_series_.push_back(instance);
        bool other_instance = !first && instance.first >= 0 && instance_of_series_[series] != instance;
        bool repeated = false;
        if (iteration && instance.first < 0) {
            long long repetition = number("repetition_index");
            repeated = repetition >= 0 && !repetitions_without_family_[series].insert(repetition).second;
        }
        if (other_instance || repeated)
            throw UsageError(
                where + ": a second benchmark named \"" + name +
                "\" (Google Benchmark allows it, but their times cannot be told apart): give one "
                "of them another name");
    }

private:
    using Instance = std::pair<long long, long long>;  // family_index, per_family_instance_index
    std::vector<Instance> instance_of_series_;         // parallel to ResultsFile::series
    std::map<size_t, std::set<long long>> repetitions_without_family_;
};

// One entry of "benchmarks" into its series: a repetition's time, the median
// aggregate, or the error the benchmark reported.
void read_entry(const Json& entry, const std::string& where, TimeMetric metric, RunIdentities& identities,
                ResultsFile& out) {
    if (!entry.is_object()) throw UsageError(where + ": not an object");
    const Json& name_field = field(entry, "name", where);
    if (!name_field.is_string()) throw UsageError(where + ": \"name\" is not a string");
    std::string run_type = entry.value("run_type", std::string("iteration"));
    std::string aggregate = entry.value("aggregate_name", std::string());
    // Mean, stddev, cv, BigO, RMS and user-defined statistics summarise
    // repetitions read on their own rows; BigO and RMS rows have no times
    // at all. Only the median is kept, for files that hold aggregates alone.
    if (run_type == "aggregate" && aggregate != "median") return;
    std::string run_name = entry.value("run_name", name_field.get<std::string>());
    // A line break or escape in a name would forge or hide a row of every
    // report that prints it: made one line here, once, the same on both sides.
    std::string name = one_line(benchmark_identity(run_name));
    auto [slot, added] = out.index.try_emplace(name, out.series.size());
    if (added) out.series.push_back({name, {}, std::nullopt, {}, {}, timed_by_wall_clock(run_name)});
    identities.note(entry, slot->second, added, name, run_type == "iteration", where);
    BenchmarkSeries& series = out.series[slot->second];
    if (entry.value("error_occurred", false)) {
        series.error = one_line(entry.value("error_message", std::string("the benchmark reported an error")));
        return;
    }
    const char* time_field = metric == TimeMetric::cpu_time ? "cpu_time" : "real_time";
    const Json& time = field(entry, time_field, where);
    const Json& unit = field(entry, "time_unit", where);
    if (!time.is_number() || !std::isfinite(time.get<double>()) || time.get<double>() < 0)
        throw UsageError(where + ": \"" + time_field + "\" is not a non-negative number");
    if (!unit.is_string()) throw UsageError(where + ": \"time_unit\" is not a string");
    double ns = to_nanoseconds(time.get<double>(), unit.get<std::string>(), where);
    if (run_type != "iteration") {
        series.reported_median_ns = ns;
        return;
    }
    series.samples.push_back(ns);
    for (const auto& [key, value] : entry.items())
        if (value.is_number() && !is_google_benchmark_field(key) && std::isfinite(value.get<double>()))
            series.counters[key].push_back(value.get<double>());
}

}  // namespace

const BenchmarkSeries* ResultsFile::find(const std::string& name) const {
    auto at = index.find(name);
    return at == index.end() ? nullptr : &series[at->second];
}

ResultsFile results_from_document(const Json& document, const std::string& path, TimeMetric metric) {
    if (!document.is_object() || !document.contains("benchmarks") || !document["benchmarks"].is_array())
        throw UsageError(path + ": not a Google Benchmark results file (no \"benchmarks\" array)");
    ResultsFile out;
    out.path = path;
    if (document.contains("context") && document["context"].is_object()) out.context = document["context"];
    size_t position = 0;
    RunIdentities identities;
    for (const Json& entry : document["benchmarks"]) {
        std::string where = path + ": benchmarks[" + std::to_string(position++) + "]";
        try {
            read_entry(entry, where, metric, identities, out);
        } catch (const Json::exception& error) {  // a field of the wrong type
            throw UsageError(where + ": " + error.what());
        }
    }
    return out;
}

ResultsFile parse_results(const std::string& text, const std::string& path, TimeMetric metric) {
    ResultsFile out = results_from_document(parse_json_input(text, path), path, metric);
    if (out.series.empty()) throw UsageError(path + ": holds no benchmark results");
    return out;
}

ResultsFile read_results_file(const std::string& path, TimeMetric metric) {
    return parse_results(read_input_file(path, kMaxResultsFileBytes), path, metric);
}

}  // namespace strata::bench
