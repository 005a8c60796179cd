// A benchmark results file in Google Benchmark's JSON format (what
// `--benchmark_out_format=json` writes, and what `strata bench` writes, with
// strata's environment record under context.strata). Read strictly: anything
// malformed is a one-line error naming the file and the entry.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "model/fact.h"

namespace strata::bench {

// Which time of each repetition is read: wall-clock (Google Benchmark's
// real_time, what GPU work is judged by) or the CPU time of the thread.
enum class TimeMetric { real_time, cpu_time };

// A benchmark's identity from Google Benchmark's run_name: the name with the
// run-configuration arguments it appends last stripped — /min_time:…,
// /min_warmup_time:…, /repeats:…, /iterations:…, /manual_time, /real_time,
// /process_time — so runs at two levels (`--level quick` writes repeats:5,
// `standard` repeats:10) are the same benchmark. /threads:N stays: it is
// other work.
std::string benchmark_identity(std::string_view run_name);

// Whether the run name carries /real_time or /manual_time among the
// run-configuration parts benchmark_identity() strips.
bool timed_by_wall_clock(std::string_view run_name);

// One fat binary of the JIT proof (driver/jit_installed/<install>/<file>@0x…,
// not its total): it proves a load. Its time is one of thousands and counts in
// driver/jit_installed/total, which is judged like any benchmark; the fat
// binary itself is judged on whether it loaded (`rollout`: no-go where the
// base loaded it and the candidate refused it), never on its time.
bool is_load_proof(std::string_view name);

struct BenchmarkSeries {
    std::string name;                          // benchmark_identity of run_name, without aggregate suffixes
    std::vector<double> samples;               // the chosen time of each repetition, in nanoseconds
    std::optional<double> reported_median_ns;  // the "median" aggregate, when only aggregates were kept
    std::string error;                         // error_message, when the benchmark reported one
    // User counters (bytes_per_second, busbw, ...): each repetition's value,
    // by counter name, in file order.
    std::map<std::string, std::vector<double>> counters;
    // Whether its rate counters are per wall-clock second. Google Benchmark
    // divides a rate counter by the CPU time of the timed thread unless the
    // benchmark uses real or manual time, which its run name then says
    // (/real_time, /manual_time; strata's runner uses manual time). A GPU
    // benchmark's CPU time is mostly waiting, so a rate of it means nothing.
    bool rates_per_wall_second = false;
};

struct ResultsFile {
    std::string path;
    Json context = Json::object();
    std::vector<BenchmarkSeries> series;            // in file order
    std::unordered_map<std::string, size_t> index;  // name -> position in series
    const BenchmarkSeries* find(const std::string& name) const;
};

// A results file is refused beyond this size (256 MiB: Google Benchmark
// writes about 1 KB per repetition).
inline constexpr size_t kMaxResultsFileBytes = 256u << 20;

// Throws UsageError ("FILE: ...") for an unreadable, oversized, deeply
// nested, truncated or malformed file. Complexity rows (BigO, RMS) and
// aggregates other than the median are skipped: they summarise repetitions
// already read.
// The same from a parsed document; an empty "benchmarks" array gives a file
// with no series (a record of a run that measured nothing).
ResultsFile results_from_document(const Json& document, const std::string& path,
                                  TimeMetric metric = TimeMetric::real_time);
ResultsFile read_results_file(const std::string& path, TimeMetric metric = TimeMetric::real_time);
ResultsFile parse_results(const std::string& text, const std::string& path,
                          TimeMetric metric = TimeMetric::real_time);

}  // namespace strata::bench
