// `strata compare` end to end on files Google Benchmark itself wrote
// (tests/bench: Debian's 1.7.1; BM_sum does twice the work in "new"), and on
// malformed, truncated and mismatched files.
#include <catch2/catch.hpp>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "support/run_process.h"

using strata::test::line_count;
using strata::test::run_process;
using strata::test::scratch_path;
using strata::test::strata_binary;

namespace {

const std::string base = STRATA_TEST_BENCH_FIXTURES "/google_benchmark_base.json";
const std::string next = STRATA_TEST_BENCH_FIXTURES "/google_benchmark_new.json";

std::string read(const std::string& path) {
    std::ifstream in(path);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
}

std::string write(const std::string& name, const std::string& text) {
    std::string path = scratch_path(name);
    std::ofstream(path) << text;
    return path;
}

}  // namespace

TEST_CASE("compare finds the benchmark that got slower, with significance") {
    auto result = run_process({strata_binary(), "compare", base, next, "--json"});
    INFO(result.err);
    REQUIRE(result.exit_code == 0);
    auto comparison = nlohmann::json::parse(result.out);
    REQUIRE(comparison["benchmarks"].size() == 3);
    for (const auto& row : comparison["benchmarks"]) {
        CHECK(row["base_repetitions"] == 8);
        CHECK(row["new_repetitions"] == 8);
        if (row["name"] == "BM_sum/16384") {
            CHECK(row["verdict"] == "slower");
            CHECK(row["ratio"].get<double>() > 1.5);
            CHECK(row["p_value"].get<double>() < 0.001);  // 8 vs 8, fully separated
        }
    }
    CHECK(comparison["geometric_mean_ratio"].get<double>() > 0);
    // Debian builds Google Benchmark in debug mode; compare passes on its warning.
    CHECK(result.err.find("debug build of Google Benchmark") != std::string::npos);
}

TEST_CASE("the rollout gate: --fail-above exits 1 only for a significant slowdown beyond it") {
    CHECK(run_process({strata_binary(), "compare", base, next, "--fail-above", "5%"}).exit_code == 1);
    CHECK(run_process({strata_binary(), "compare", base, next, "--fail-above", "150"}).exit_code == 0);
    // The same file against itself: every verdict "same", nothing trips.
    auto self = run_process({strata_binary(), "compare", base, base, "--fail-above", "1%", "--json"});
    CHECK(self.exit_code == 0);
    auto self_comparison =
        nlohmann::json::parse(self.out);  // named: a range-for over a temporary's member dangles
    for (const auto& row : self_comparison["benchmarks"]) CHECK(row["verdict"] == "same");
    auto text = run_process({strata_binary(), "compare", base, next, "--fail-above", "5"});
    CHECK(text.out.find("BM_sum/16384") != std::string::npos);
    CHECK(text.out.find("slower (gate)") != std::string::npos);
    // A change in the metric's own terms, as rollout and fleet say it (issue #38 item 4).
    CHECK(text.out.find("+100.1% time (slower)") != std::string::npos);
    CHECK(text.out.find("geometric mean over 3 benchmark(s): +6.1% time (slower)") != std::string::npos);
    auto markdown = run_process({strata_binary(), "compare", base, next, "--markdown"});
    CHECK(markdown.out.rfind("| benchmark | base | new | change | p | verdict |", 0) == 0);
}

TEST_CASE("compare warns when the runs differ in GPU, driver or libraries") {
    auto document = nlohmann::json::parse(read(next));
    document["context"]["strata"] = {{"clock_policy", "locked 1980 MHz"},
                                     {"environment",
                                      {{"device.0.name", {{"value", "NVIDIA H200"}}},
                                       {"library.cublas.version_text", {{"value", "13.1.0"}}}}}};
    auto other = document;
    other["context"]["strata"]["environment"]["device.0.name"]["value"] = "NVIDIA H100 80GB HBM3";
    other["context"]["strata"]["environment"]["library.cublas.version_text"]["value"] = "13.0.2";
    other["context"]["strata"]["clock_policy"] = "default";
    auto a = write("compare-a.json", document.dump());
    auto b = write("compare-b.json", other.dump());
    auto result = run_process({strata_binary(), "compare", a, b});
    CHECK(result.exit_code == 0);
    CHECK(result.err.find("device.0.name differs: NVIDIA H200 in base, NVIDIA H100 80GB HBM3 in new") !=
          std::string::npos);
    CHECK(result.err.find("library.cublas.version_text differs: 13.1.0 in base, 13.0.2 in new") !=
          std::string::npos);
    CHECK(result.err.find("clock policy differs: locked 1980 MHz in base, default in new") !=
          std::string::npos);
}

TEST_CASE("malformed, truncated and mismatched files are one-line errors with exit 2") {
    std::string text = read(base);
    auto truncated = write("truncated.json", text.substr(0, text.size() / 2));
    auto not_results = write("not-results.json", R"({"checks": []})");
    auto wrong_type = write("wrong-type.json",
                            R"({"benchmarks": [{"name": "x", "real_time": "fast", "time_unit": "ns"}]})");
    // Found by fuzz_benchmark_results: a number too large for a double is out_of_range, not a parse error.
    auto overflow =
        write("overflow.json", R"({"benchmarks": [{"name": "x", "real_time": 1e999, "time_unit": "ns"}]})");
    auto bad_unit =
        write("bad-unit.json", R"({"benchmarks": [{"name": "x", "real_time": 1, "time_unit": "ps"}]})");
    auto bad_flag = write(
        "bad-flag.json",
        R"({"benchmarks": [{"name": "x", "error_occurred": "yes", "real_time": 1, "time_unit": "ns"}]})");
    auto other =
        write("other.json", R"({"benchmarks": [{"name": "BM_other", "real_time": 1, "time_unit": "ns"}]})");
    struct Case {
        std::vector<std::string> args;
        std::string error_part;
    };
    const std::vector<Case> cases = {
        {{truncated, next}, ": not valid JSON (parse error at line "},
        {{base, not_results}, ": not a Google Benchmark results file (no \"benchmarks\" array)"},
        {{wrong_type, base}, ": benchmarks[0]: \"real_time\" is not a non-negative number"},
        {{bad_unit, base}, ": benchmarks[0]: unknown time_unit 'ps'"},
        {{overflow, base}, "overflow.json: not valid JSON ("},
        {{bad_flag, base}, ": benchmarks[0]: "},
        {{base, other}, "no benchmark in common between "},
        {{base, "/nonexistent/results.json"}, "cannot read '/nonexistent/results.json'"},
        {{base, next, "--threshold", "lots"}, "--threshold takes a percentage such as 2 or 2%, not 'lots'"},
        {{base}, ""},
    };
    for (const Case& c : cases) {
        std::vector<std::string> argv = {strata_binary(), "compare"};
        argv.insert(argv.end(), c.args.begin(), c.args.end());
        auto result = run_process(argv);
        INFO(result.err);
        CHECK(result.exit_code == 2);
        CHECK(line_count(result.err) == 1);
        CHECK(result.err.rfind("strata: error: ", 0) == 0);
        CHECK(result.err.find(c.error_part) != std::string::npos);
    }
}

namespace {

// Runs a Google Benchmark program built by the tests, writing its JSON.
std::string run_google_benchmark(const std::string& program, const std::string& name) {
    std::string out = scratch_path(name);
    // 20 ms per repetition: long enough that a busy CI host's preemptions
    // (a few ms each) cannot hide the 3x slowdown the test asserts.
    auto run = run_process({program, "--benchmark_repetitions=5", "--benchmark_min_time=0.02",
                            "--benchmark_out=" + out, "--benchmark_out_format=json"});
    REQUIRE(run.exit_code == 0);
    return out;
}

}  // namespace

TEST_CASE("files with complexity rows, written by Google Benchmark itself, are compared") {
    std::string fast = run_google_benchmark(STRATA_TEST_COMPLEXITY_BENCHMARK_BASE, "complexity-base.json");
    std::string slow = run_google_benchmark(STRATA_TEST_COMPLEXITY_BENCHMARK_SLOW, "complexity-slow.json");
    // The file really has the rows that used to be refused.
    auto written = nlohmann::json::parse(read(fast));
    bool has_big_o = false;
    for (const auto& entry : written["benchmarks"])
        if (entry.value("aggregate_name", "") == "BigO") has_big_o = !entry.contains("real_time");
    REQUIRE(has_big_o);

    auto result = run_process({strata_binary(), "compare", "--json", fast, slow});
    INFO(result.err);
    REQUIRE(result.exit_code == 0);
    auto json = nlohmann::json::parse(result.out);
    CHECK(json["schema_version"] == "1.0.0");
    CHECK(json["metric"] == "real_time");
    std::set<std::string> names;
    for (const auto& row : json["benchmarks"]) {
        names.insert(row["name"].get<std::string>());
        CHECK(row["base_repetitions"] == 5);  // the mean, stddev, BigO and RMS rows are not repetitions
    }
    CHECK(names == std::set<std::string>{"BM_scan/1024", "BM_scan/4096", "BM_scan/16384", "BM_copy|bytes*2"});
    CHECK(json["geometric_mean_count"] == 4);
    for (const auto& row : json["benchmarks"])
        if (row["name"] == "BM_scan/16384") CHECK(row["verdict"] == "slower");

    // --metric cpu_time reads the other time; --filter keeps what matches, and
    // the geometric mean says how many rows it is over.
    auto cpu = run_process({strata_binary(), "compare", "--metric", "cpu_time", "--filter",
                            "^BM_scan/(1024|4096)$", fast, slow});
    INFO(cpu.err);
    CHECK(cpu.exit_code == 0);
    CHECK(cpu.out.find("geometric mean over 2 benchmark(s): ") != std::string::npos);
    CHECK(cpu.out.find("BM_scan/16384") == std::string::npos);
    auto none = run_process({strata_binary(), "compare", "--filter", "^nothing$", fast, slow});
    CHECK(none.exit_code == 2);
    CHECK(none.err.find("that the filter selects") != std::string::npos);
    auto bad = run_process({strata_binary(), "compare", "--filter", "(", fast, slow});
    CHECK(bad.exit_code == 2);
    CHECK(line_count(bad.err) == 1);
    CHECK(bad.err.find("is not a regular expression") != std::string::npos);

    // Markdown: the '|' in a name is escaped, so every row has six cells.
    auto markdown = run_process({strata_binary(), "compare", "--markdown", fast, slow});
    REQUIRE(markdown.exit_code == 0);
    std::istringstream lines(markdown.out);
    std::string line;
    size_t table_rows = 0;
    while (std::getline(lines, line)) {
        if (line.rfind("|", 0) != 0) continue;
        ++table_rows;
        size_t unescaped = 0;
        for (size_t i = 0; i < line.size(); ++i)
            if (line[i] == '|' && (i == 0 || line[i - 1] != '\\')) ++unescaped;
        INFO(line);
        CHECK(unescaped == 7);
    }
    CHECK(table_rows == 6);  // header, rule, four benchmarks
    CHECK(markdown.out.find("BM\\_copy\\|bytes\\*2") != std::string::npos);
}

TEST_CASE("a file where two benchmarks share a name, written by Google Benchmark itself, is refused") {
    // Pooling the two would compare a mixture of a 1024- and a 16384-element fill.
    std::string file = run_google_benchmark(STRATA_TEST_DUPLICATE_NAME_BENCHMARK, "duplicate-names.json");
    auto result = run_process({strata_binary(), "compare", file, file});
    CHECK(result.exit_code == 2);
    CHECK(line_count(result.err) == 1);
    CHECK(result.err.find("a second benchmark named \"BM_fill\"") != std::string::npos);
    CHECK(result.out.empty());
}

TEST_CASE("hostile results files: deep nesting, devices, times out of range, and their sizes") {
    // 100,000 levels of nesting crashed the recursive parser.
    std::string deep = write("deep.json", std::string(100000, '[') + std::string(100000, ']'));
    auto nested = run_process({strata_binary(), "compare", deep, base});
    CHECK(nested.exit_code == 2);
    CHECK(nested.err.find("nested deeper than 128 levels") != std::string::npos);
    // A device or a FIFO is refused, not read without end.
    auto zero = run_process({strata_binary(), "compare", "/dev/zero", base});
    CHECK(zero.exit_code == 2);
    CHECK(zero.err.find("it is a device, not a file") != std::string::npos);
    // 1e308 s is no number of nanoseconds: refused, not compared as infinity.
    std::string huge = write(
        "huge.json", R"({"benchmarks": [{"name": "BM_copy/4096", "real_time": 1e308, "time_unit": "s"}]})");
    auto range = run_process({strata_binary(), "compare", huge, base});
    CHECK(range.exit_code == 2);
    CHECK(range.err.find("time out of range") != std::string::npos);
    // 1e308 ns is a number of nanoseconds, but no table column holds its
    // digits: printed in scientific notation with its unit, and a ratio of
    // 1e-8 is not rounded to 0.000.
    auto file = [](const char* name, const char* time) {
        return write(name, std::string(R"({"benchmarks": [{"name": "x", "real_time": )") + time +
                               R"(, "time_unit": "ns"}]})");
    };
    auto vast =
        run_process({strata_binary(), "compare", file("vast-a.json", "1e308"), file("vast-b.json", "1e300")});
    INFO(vast.out);
    CHECK(vast.exit_code == 0);
    CHECK(vast.out.find("1e+299 s") != std::string::npos);
    CHECK(vast.out.find("1e+291 s") != std::string::npos);
    CHECK(vast.out.find("1e-08") != std::string::npos);
    CHECK(vast.out.find("0.000 ") == std::string::npos);
}
