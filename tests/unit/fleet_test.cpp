// Slurm hostlists and the fleet's outlier rule, on synthetic records.
#include "fleet.h"

#include <unistd.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>

#include "benchmark_metric.h"
#include "change_text.h"
#include "fleet_report.h"
#include "hostlist.h"
#include "model/usage_error.h"
#include "record.h"
#include "rollout.h"

using namespace strata;
using namespace strata::fleet;

namespace {

using Names = std::vector<std::string>;

// A node whose benchmark "b" took `ns` per iteration in each of 3 repetitions.
NodeRecord node(const std::string& name, double ns, const std::string& gpu = "NVIDIA H200") {
    NodeRecord record;
    record.node = name;
    record.path = name + ".json";
    record.strata = true;
    record.measured = true;
    record.environment = {{"gpus", Json::array({{{"index", 0}, {"name", gpu}}})},
                          {"driver", {{"nvml", "580.65.06"}}}};
    bench::BenchmarkSeries series;
    series.name = "b";
    series.samples = {ns, ns, ns};
    record.results.series.push_back(series);
    record.results.index["b"] = 0;
    return record;
}

}  // namespace

TEST_CASE("hostlists expand as Slurm writes them") {
    CHECK(expand_hostlist("n[1-3]") == Names{"n1", "n2", "n3"});
    CHECK(expand_hostlist("gpu[001-003,010]") == Names{"gpu001", "gpu002", "gpu003", "gpu010"});
    CHECK(expand_hostlist("login,n[1-2]") == Names{"login", "n1", "n2"});
    CHECK(expand_hostlist("rack[1-2]-n[1-2]") == Names{"rack1-n1", "rack1-n2", "rack2-n1", "rack2-n2"});
    CHECK(expand_hostlist("n1,n1,n[1-2]") == Names{"n1", "n2"});
    CHECK(expand_hostlist("n[8-11]") == Names{"n8", "n9", "n10", "n11"});
    CHECK(expand_hostlist("gpu[001-128]").size() == 128);
}

TEST_CASE("malformed and oversized hostlists are refused with a reason") {
    for (const char* bad :
         {"n[1-", "n1]", "n[[1]]", "n[3-1]", "n[a-b]", "n[]", "", ",", "n[1 -2]", "n[1-2]]"})
        CHECK_THROWS_AS(expand_hostlist(bad), UsageError);
    CHECK_THROWS_WITH(expand_hostlist("n[1-100000000]"), Catch::Contains("more than"));
    CHECK_THROWS_WITH(expand_hostlist("a[1-1000]b[1-1000]c[1-1000]"), Catch::Contains("more than"));
    CHECK_THROWS_WITH(expand_hostlist("n[99999999999999999999]"), Catch::Contains("numbers"));
}

TEST_CASE("a node name that holds hostlist syntax is shown as one quoted name") {
    // Issue #37: a record naming itself "n[1-128]" or "a,b" read as many nodes.
    CHECK(compress_hostlist({"n[1-128]"}) == "\"n[1-128]\"");
    CHECK(compress_hostlist({"a,b", "n1", "n2"}) == "\"a,b\",n[1-2]");
}

TEST_CASE("hostlists compress to Slurm's form") {
    CHECK(compress_hostlist({"n3", "n1", "n2", "n5"}) == "n[1-3,5]");
    CHECK(compress_hostlist({"n014", "n203"}) == "n[014,203]");
    CHECK(compress_hostlist({"gpu099", "gpu100", "gpu101"}) == "gpu[099-101]");
    CHECK(compress_hostlist({"n9", "n10"}) == "n[9-10]");
    CHECK(compress_hostlist({"login", "n1"}) == "login,n1");
    CHECK(compress_hostlist({"vm"}) == "vm");
    for (const char* list : {"gpu[001-128]", "n[1-3,7,9-12],login[1-2]", "a[1-2]-b[07-09]"}) {
        Names names = expand_hostlist(list);
        CHECK(expand_hostlist(compress_hostlist(names)).size() == names.size());
    }
}

TEST_CASE("identical nodes have no outlier: the MAD of 0 is floored") {
    std::vector<NodeRecord> records;
    for (int i = 1; i <= 5; ++i) records.push_back(node("n" + std::to_string(i), 1000.0));
    records.push_back(node("n6", 1020.0));  // 2% slower: within 3 x the 1% floor
    FleetResult result = analyze_fleet(records, {});
    CHECK(result.attention.empty());
    records.back() = node("n6", 1150.0);  // 15% slower
    result = analyze_fleet(records, {});
    REQUIRE(result.attention == Names{"n6"});
    REQUIRE(result.problems.size() == 1);
    CHECK(result.problems[0].kind == ProblemKind::outlier);
    CHECK(result.problems[0].deviations[0].deviation == Approx(-0.15 / 1.15).epsilon(1e-9));
    // A faster node is never an outlier.
    records.back() = node("n6", 500.0);
    CHECK(analyze_fleet(records, {}).attention.empty());
}

TEST_CASE("an outlier must also pass --min-deviation") {
    std::vector<NodeRecord> records;
    for (int i = 1; i <= 5; ++i) records.push_back(node("n" + std::to_string(i), 1000.0));
    records.push_back(node("n6", 1060.0));
    FleetOptions options;
    CHECK(analyze_fleet(records, options).attention == Names{"n6"});
    options.min_deviation = 0.10;
    CHECK(analyze_fleet(records, options).attention.empty());
}

TEST_CASE("a spread-out group judges by its own MAD") {
    std::vector<NodeRecord> records;
    const double times[] = {1000, 1100, 900, 1050, 950, 1150};  // MAD ~50 ns: 5%
    for (int i = 0; i < 6; ++i) records.push_back(node("n" + std::to_string(i + 1), times[i]));
    CHECK(analyze_fleet(records, {}).attention.empty());
}

TEST_CASE("groups of different GPUs are judged apart, and a small group says so") {
    std::vector<NodeRecord> records;
    for (int i = 1; i <= 4; ++i) records.push_back(node("h" + std::to_string(i), 1000.0));
    records.push_back(node("a1", 3000.0, "NVIDIA A100"));  // slower hardware, not an outlier
    FleetResult result = analyze_fleet(records, {});
    CHECK(result.attention.empty());
    REQUIRE(result.groups.size() == 2);
    bool small = false;
    for (const FleetGroup& group : result.groups)
        small = small || (group.nodes == Names{"a1"} && !group.too_small.empty());
    CHECK(small);
    CHECK(render_fleet_text(result).find("a1 (1 node), too small to judge performance (3 nodes needed)") !=
          std::string::npos);
}

TEST_CASE("drain commands refuse node names that are not plain host names") {
    FleetResult result;
    result.attention = {"n1", "n[1-100]", "-x"};
    result.node_reason = {{"n1", "driver.nvml fails"}, {"n[1-100]", "x"}, {"-x", "y"}};
    DrainPlan plan = drain_commands(result);
    REQUIRE(plan.commands.size() == 1);
    CHECK(plan.commands[0] == Names{"scontrol", "update", "nodename=n1", "state=drain",
                                    "reason=strata-fleet: driver.nvml fails"});
    CHECK(plan.refused == Names{"n[1-100]", "-x"});
    CHECK(shell_command(plan.commands[0]) ==
          "scontrol update nodename=n1 state=drain 'reason=strata-fleet: driver.nvml fails'");
}

TEST_CASE("a drain reason carries no control sequence to an admin's terminal") {
    // Issue #37: a record's check id reached scontrol with raw escapes.
    FleetResult result;
    result.attention = {"n1"};
    result.node_reason = {{"n1",
                           "health.xid\x1b[8m fails\x07\r\n\xc2\x9b"
                           "2J done\x7f"}};
    DrainPlan plan = drain_commands(result);
    REQUIRE(plan.commands.size() == 1);
    const std::string& reason = plan.commands[0].back();
    CHECK(reason == "reason=strata-fleet: health.xid [8m fails    2J done ");
    for (char c : reason) CHECK((static_cast<unsigned char>(c) >= 0x20 && c != 0x7f));
}

TEST_CASE("an unreadable record is set aside for the fleet, and refused whole for a rollout") {
    namespace fs = std::filesystem;
    fs::path dir = fs::temp_directory_path() / ("strata-records-" + std::to_string(::getpid()));
    fs::create_directories(dir);
    // Files written by Google Benchmark itself, and one cut off mid-write.
    const fs::path written = STRATA_TEST_BENCH_FIXTURES "/google_benchmark_base.json";
    fs::copy_file(written, dir / "a.json", fs::copy_options::overwrite_existing);
    fs::copy_file(written, dir / "c.json", fs::copy_options::overwrite_existing);
    {
        std::ifstream in(written);
        std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        std::ofstream(dir / "b.json") << text.substr(0, text.size() / 2);
    }
    RecordSet set = read_record_set({dir.string()});
    REQUIRE(set.records.size() == 2);
    CHECK(set.records[0].path == (dir / "a.json").string());
    CHECK(set.records[1].path == (dir / "c.json").string());
    REQUIRE(set.unreadable.size() == 1);
    CHECK(set.unreadable[0].path == (dir / "b.json").string());
    CHECK(set.unreadable[0].reason.find("b.json") != std::string::npos);
    CHECK_THROWS_AS(read_records({dir.string()}), UsageError);

    FleetResult result = analyze_fleet(set.records, {}, set.unreadable);
    CHECK(result.needs_attention());
    CHECK(render_fleet_text(result).find("FAIL  unreadable record") != std::string::npos);
    CHECK(fleet_to_json(result)["unreadable"].size() == 1);
    CHECK(render_fleet_prometheus(result).find("strata_fleet_unreadable_records 1") != std::string::npos);

    // Nothing readable at all is bad input, with the first file's reason.
    fs::remove(dir / "a.json");
    fs::remove(dir / "c.json");
    try {
        read_record_set({dir.string()});
        FAIL("no readable record must throw");
    } catch (const UsageError& error) {
        CHECK(std::string(error.what()).find("b.json") != std::string::npos);
    }
    fs::remove_all(dir);
}

TEST_CASE("a rollout never calls a ratio it cannot form within the threshold") {
    // Issue #37: a time of 0 (or times 600 orders of magnitude apart) made
    // the ratio infinite: "+inf%", within the threshold, go.
    auto side = [](double ns) {
        NodeRecord record = node("n1", ns);
        record.results.series[0].samples.assign(10, ns);
        return std::vector<NodeRecord>{record};
    };
    RolloutOptions options;
    for (auto [base, candidate] : {std::pair{100.0, 0.0}, {1e300, 1e-300}, {0.0, 100.0}}) {
        RolloutResult result = decide_rollout(side(base), side(candidate), options);
        REQUIRE(result.benchmarks.size() == 1);
        INFO(base << " -> " << candidate << ": " << result.benchmarks[0].reason);
        CHECK(result.benchmarks[0].decision != Decision::go);
        CHECK(change_of(result.benchmarks[0]).find("inf") == std::string::npos);
    }
}

TEST_CASE("a plain Google Benchmark file is judged on real time, not on rates of CPU time") {
    // Issue #38 item 5: Google Benchmark divides bytes_per_second by the CPU
    // time unless the benchmark uses real or manual time; rollout judged that
    // rate and said go where compare, on real time, said 1.2x slower.
    const std::string written = STRATA_TEST_BENCH_FIXTURES "/google_benchmark_base.json";
    bench::ResultsFile file = bench::read_results_file(written);
    const bench::BenchmarkSeries* copy = file.find("BM_copy/4096");
    REQUIRE(copy);
    CHECK_FALSE(copy->rates_per_wall_second);
    REQUIRE(copy->counters.count("bytes_per_second"));
    CHECK(choose_metric({copy}, "auto").metric == "real_time");
    CHECK(choose_metric({copy}, "auto").cpu_rates_set_aside);
    CHECK(choose_metric({copy}, "bytes_per_second").metric == "bytes_per_second");

    RolloutOptions options;
    RolloutResult result = decide_rollout(read_records({written}), read_records({written}), options);
    for (const BenchmarkJudgement& judged : result.benchmarks) CHECK(judged.metric == "real_time");
    CHECK(std::find(result.notes.begin(), result.notes.end(), kCpuRatesNote) != result.notes.end());

    // Manual or real time (what strata's runner uses) makes the rate one of
    // wall-clock time, and auto prefers it.
    for (const char* run_name : {"BM_copy/4096/manual_time", "BM_copy/4096/real_time/repeats:3"}) {
        bench::ResultsFile timed = bench::parse_results(
            std::string(R"({"benchmarks":[{"name":"x","run_name":")") + run_name +
                R"(","run_type":"iteration","real_time":5,"cpu_time":2,"time_unit":"ns","bytes_per_second":1e9}]})",
            "timed.json");
        const bench::BenchmarkSeries& series = timed.series.at(0);
        CHECK(series.name == "BM_copy/4096");
        CHECK(series.rates_per_wall_second);
        CHECK(choose_metric({&series}, "auto").metric == "bytes_per_second");
        CHECK_FALSE(choose_metric({&series}, "auto").cpu_rates_set_aside);
    }
    CHECK_FALSE(bench::timed_by_wall_clock("BM_real_time_copy/4096"));
    CHECK_FALSE(bench::timed_by_wall_clock("BM/process_time"));
}

TEST_CASE("one way to say a change: the metric's own terms and the direction, in every command") {
    // Issue #38 item 4: compare said 1.198, rollout -4.8% for a 5% longer
    // time, fleet "15.1% worse" for a time 17.8% above the median.
    CHECK(bench::change_text(1.178, "real_time", false) == "+17.8% time (slower)");
    CHECK(bench::change_text(0.95, "bytes_per_second", true) == "-5.0% GB/s (slower)");
    CHECK(bench::change_text(1.05, "flops_per_second", true) == "+5.0% FLOP/s (faster)");
    CHECK(bench::change_text(0.9, "cpu_time", false, 0.85, 0.95) == "-10.0% time [-15.0%, -5.0%] (faster)");
    CHECK(bench::change_text(1.1, "launch_errors", false) == "+10.0% launch_errors (worse)");
    CHECK(bench::change_text(1.0001, "real_time", false) == "+0.0% time (no change)");
    CHECK(bench::change_text(250, "real_time", false) == "x250 time (slower)");
    CHECK(bench::change_text(1e-8, "real_time", false) == "x1e-08 time (faster)");

    // rollout: a 5% longer time is +5.0% time, not -4.8%.
    auto side = [](double ns) {
        NodeRecord record = node("n1", ns);
        record.results.series[0].samples = {ns, ns * 1.001, ns * 0.999, ns, ns * 1.002, ns * 0.998};
        return std::vector<NodeRecord>{record};
    };
    RolloutResult rollout = decide_rollout(side(100), side(105), {});
    REQUIRE(rollout.benchmarks.size() == 1);
    CHECK(change_of(rollout.benchmarks[0]).rfind("+5.0% time [", 0) == 0);
    CHECK(rollout.benchmarks[0].reason.find("(slower): worse beyond the 3.0% threshold") !=
          std::string::npos);

    // fleet: a node whose time is 17.8% above its like nodes' median.
    std::vector<NodeRecord> nodes;
    for (const char* name : {"n1", "n2", "n3", "n4"}) nodes.push_back(node(name, 100));
    nodes.push_back(node("n5", 117.8));
    FleetResult fleet = analyze_fleet(nodes, {});
    bool found = false;
    for (const FleetProblem& problem : fleet.problems)
        if (problem.kind == ProblemKind::outlier) {
            found = true;
            CHECK(problem.line.find(
                      "b (kernels and libraries) +17.8% time (slower) against their median 100 ns") !=
                  std::string::npos);
            CHECK(problem.reason == "slower than like nodes on 1 benchmark(s), worst b +17.8% time");
        }
    CHECK(found);
}

TEST_CASE("rollout sets checks aside as fleet and doctor do: --ignore-check, or marked in the record") {
    // Issue #38 item 11: rollout had no --ignore-check.
    auto with_check = [](Status status, bool ignored) {
        NodeRecord record = node("n1", 100);
        record.checks.push_back({"health.nvlink", 0, status, "NVLink link 3 down", ignored});
        return std::vector<NodeRecord>{record};
    };
    RolloutResult judged =
        decide_rollout(with_check(Status::pass, false), with_check(Status::fail, false), {});
    CHECK(judged.decision == Decision::no_go);
    RolloutOptions options;
    options.ignore_checks = {"health.nv*"};
    RolloutResult set_aside =
        decide_rollout(with_check(Status::pass, false), with_check(Status::fail, false), options);
    CHECK(set_aside.checks.empty());
    CHECK(set_aside.decision != Decision::no_go);
    RolloutResult marked = decide_rollout(with_check(Status::pass, true), with_check(Status::fail, true), {});
    CHECK(marked.checks.empty());
}
