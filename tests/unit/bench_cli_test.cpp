// `strata bench` on this GPU-less host: the plan, each runner's visible skip,
// and --side-by-side end to end with two real library folders (the toolkit's
// and NCCL 2.27.7 from PyPI): each build's workers report their own files and
// versions, a build is never compared with itself, and the benchmarks skip.
#include <catch2/catch.hpp>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <vector>

#include "benchmark_results.h"
#include "results_merge.h"
#include "support/run_process.h"

using strata::test::line_count;
using strata::test::run_process;
using strata::test::strata_binary;

namespace {

bool has(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}

const std::string toolkit = STRATA_TEST_CUDA_LIBRARY_DIR;
const std::string wheel = STRATA_TEST_WHEELS_DIR "/nccl/nvidia/nccl/lib";

}  // namespace

TEST_CASE("strata bench plans, then says why nothing ran") {
    auto result = run_process({strata_binary(), "bench", "--level", "quick"});
    INFO(result.out << result.err);
    CHECK(result.exit_code == 1);
    CHECK(has(result.err, "planned: "));
    // 35 benchmarks cold and hot, and the driver plugin's 27 hot only (driver
    // API); its 5 copies between GPUs need two, and are not planned on one.
    CHECK(has(result.err, "planned: 97 run(s) (benchmark x mode) x 5 repetition(s) on 1 GPU(s), about "));
    for (const char* plugin : {"cublas", "cudart", "cudnn", "driver", "nccl"})
        CHECK(has(result.out, std::string(plugin) + ": benchmarks skipped: no usable GPU (no NVIDIA driver"));
    CHECK(has(result.out, "nothing was measured"));
    auto filtered = run_process({strata_binary(), "bench", "--filter", "all_reduce"});
    CHECK(has(filtered.err, "planned: 8 run(s)"));
    auto driver = run_process({strata_binary(), "bench", "--filter", "^driver/copy/"});
    CHECK(has(driver.err, "planned: 6 run(s)"));  // hot only
    // The filter sees the runner's full names, modes included.
    auto hot = run_process({strata_binary(), "bench", "--filter", "all_reduce.*mode:hot"});
    CHECK(has(hot.err, "planned: 4 run(s)"));
    CHECK(has(filtered.out, "nccl: benchmarks skipped"));
    CHECK_FALSE(has(filtered.out, "cublas"));
}

TEST_CASE("bench --device all numbers the GPUs as CUDA does, not as NVML counts them") {
    // Issue #41: NVML sees every GPU of the node; the runner's device number
    // is CUDA's, which CUDA_VISIBLE_DEVICES narrows. Two GPUs, one visible.
    std::vector<std::string> fake = {"LD_LIBRARY_PATH=" STRATA_TEST_FAKE_DRIVER_DIR,
                                     "STRATA_FAKE_CUDA=devices=2"};
    auto both = run_process({strata_binary(), "bench", "--device", "all", "--filter", "all_reduce"}, fake);
    INFO(both.err);
    CHECK(has(both.err, "planned: 8 run(s) (benchmark x mode) x 5 repetition(s) on 2 GPU(s)"));
    fake.push_back("CUDA_VISIBLE_DEVICES=1");
    auto one = run_process({strata_binary(), "bench", "--device", "all", "--filter", "all_reduce"}, fake);
    INFO(one.err);
    CHECK(has(one.err, "on 1 GPU(s)"));
    CHECK_FALSE(has(one.out + one.err, "GPU 1"));
}

TEST_CASE("strata bench: bad options are one-line errors with exit 2") {
    for (std::vector<std::string> args : {std::vector<std::string>{"--level", "forever"},
                                          {"--filter", "("},
                                          {"--filter", "no-such-benchmark"},
                                          {"--device", "first"},
                                          {"--side-by-side", "only=/usr"},
                                          {"--side-by-side", "a=/nonexistent", "b=/usr"}}) {
        args.insert(args.begin(), {strata_binary(), "bench"});
        auto result = run_process(args);
        INFO(args[2] << ": " << result.err);
        CHECK(result.exit_code == 2);
        CHECK(line_count(result.err) == 1);
    }
}

TEST_CASE("side by side: each build's own files and versions, then the benchmarks skip") {
    INFO("the PyPI build is installed by scripts/setup --test into " << wheel);
    REQUIRE(std::filesystem::exists(wheel + "/libnccl.so.2"));
    auto result =
        run_process({strata_binary(), "bench", "--side-by-side", "toolkit=" + toolkit, "pypi=" + wheel});
    INFO(result.out << result.err);
    CHECK(result.exit_code == 1);
    std::string toolkit_real = std::filesystem::canonical(toolkit).string();
    CHECK(has(result.out, "toolkit (" + toolkit_real + "):\n"));
    CHECK(has(result.out, "  nccl 2.28.9 " + toolkit_real + "/libnccl.so.2\n"));
    CHECK(has(result.out, "  cudnn 9.19.0 " + toolkit_real + "/libcudnn.so.9\n"));
    CHECK(has(result.out, "pypi (" + std::filesystem::canonical(wheel).string() + "):\n"));
    CHECK(has(result.out, "  nccl 2.27.7 " + std::filesystem::canonical(wheel).string() + "/libnccl.so.2\n"));
    CHECK(has(result.out, "benchmarks skipped: no usable GPU (no NVIDIA driver"));
}

TEST_CASE("side by side refuses a build compared with itself, and a folder nothing came from") {
    auto same = run_process({strata_binary(), "bench", "--side-by-side", "a=" + toolkit, "b=" + toolkit});
    CHECK(same.exit_code == 2);
    CHECK(same.err ==
          "strata: error: builds a and b loaded exactly the same files: that would compare a build with "
          "itself\n");
    auto empty = run_process({strata_binary(), "bench", "--side-by-side", "a=/usr/share", "b=" + wheel});
    CHECK(empty.exit_code == 2);
    CHECK(has(empty.err, "strata: error: build a: nothing was loaded from /usr/share (the loader took: "));
}

TEST_CASE("runner output: non-finite numbers become null, runs merge under one context") {
    auto first = strata::bench::parse_benchmark_output(
        R"({"context": {"host_name": "x"}, "benchmarks": [{"name": "a", "value": nan, "s": "nan", "inf_rate": -inf}]})",
        "first.json");
    CHECK(first["benchmarks"][0]["value"].is_null());
    CHECK(first["benchmarks"][0]["s"] == "nan");  // inside a string: untouched
    CHECK(first["benchmarks"][0]["inf_rate"].is_null());
    auto second =
        strata::bench::parse_benchmark_output(R"({"benchmarks": [{"name": "b", "v": Infinity}]})", "b");
    auto merged = strata::bench::merge_runs({first, second}, {{"level", "quick"}});
    CHECK(merged["context"]["host_name"] == "x");
    CHECK(merged["context"]["strata"]["level"] == "quick");
    CHECK(merged["benchmarks"].size() == 2);
    CHECK_THROWS_WITH(strata::bench::parse_benchmark_output("{\"benchmarks\": [", "cut.json"),
                      Catch::Contains("cut.json: not valid JSON"));
}

TEST_CASE("results: rounds of one benchmark pool, two benchmarks under one name are refused") {
    auto entry = [](int family, int instance, int repetition) {
        nlohmann::json e = {{"name", "cudart/copy"},          {"run_name", "cudart/copy"},
                            {"run_type", "iteration"},        {"repetition_index", repetition},
                            {"real_time", 10.0 + repetition}, {"time_unit", "us"}};
        if (family >= 0) {
            e["family_index"] = family;
            e["per_family_instance_index"] = instance;
        }
        return e;
    };
    auto document = [](std::vector<nlohmann::json> entries) {
        return nlohmann::json{{"benchmarks", entries}}.dump();
    };
    // strata bench --side-by-side merges one runner process per round: the same
    // benchmark, the same family, repetition 0 each time.
    auto rounds =
        strata::bench::parse_results(document({entry(0, 0, 0), entry(0, 0, 0), entry(0, 0, 0)}), "r");
    REQUIRE(rounds.series.size() == 1);
    CHECK(rounds.series[0].samples.size() == 3);
    CHECK_THROWS_WITH(strata::bench::parse_results(document({entry(0, 0, 0), entry(1, 0, 0)}), "two.json"),
                      Catch::Contains("two.json: benchmarks[1]: a second benchmark named \"cudart/copy\""));
    CHECK_THROWS_WITH(strata::bench::parse_results(document({entry(0, 0, 0), entry(0, 1, 0)}), "p.json"),
                      Catch::Contains("a second benchmark named"));
    // Without family fields (older writers) a repetition that comes twice tells it.
    CHECK_THROWS_WITH(strata::bench::parse_results(document({entry(-1, 0, 0), entry(-1, 0, 0)}), "old.json"),
                      Catch::Contains("a second benchmark named"));
    auto repetitions = strata::bench::parse_results(document({entry(-1, 0, 0), entry(-1, 0, 1)}), "ok.json");
    CHECK(repetitions.series[0].samples.size() == 2);
}

TEST_CASE("a benchmark's identity leaves out the run settings Google Benchmark appends to its name") {
    using strata::bench::benchmark_identity;
    CHECK(benchmark_identity("driver/copy/h2d/bytes=67108864,host=pinned/mode:hot/device:0/min_time:0.020/"
                             "repeats:8/manual_time") ==
          "driver/copy/h2d/bytes=67108864,host=pinned/mode:hot/device:0");
    CHECK(benchmark_identity("BM_copy/4096/iterations:100/repeats:3/real_time") == "BM_copy/4096");
    CHECK(benchmark_identity("BM_x/min_warmup_time:0.5/process_time") == "BM_x");
    // Other work, and names that only look like settings, stay.
    CHECK(benchmark_identity("BM_copy/4096/threads:8") == "BM_copy/4096/threads:8");
    CHECK(benchmark_identity("BM_copy/4096/threads:8/real_time") == "BM_copy/4096/threads:8");
    CHECK(benchmark_identity("repeats:3") == "repeats:3");
    CHECK(benchmark_identity("BM_real_time_name") == "BM_real_time_name");
}

TEST_CASE("runs at two levels compare: the runner's names carry repeats and min_time") {
    // The driver plugin's benchmarks under the fault-injection driver, at
    // --repetitions 3 and 4: "repeats:3" and "repeats:4" in the names.
    std::vector<std::string> fake = {"LD_LIBRARY_PATH=" STRATA_TEST_FAKE_DRIVER_DIR,
                                     "STRATA_FAKE_CUDA=kernels_run=1",
                                     "HOME=" + strata::test::scratch_path("home")};
    std::string a = strata::test::scratch_path("identity_a.json"),
                b = strata::test::scratch_path("identity_b.json");
    for (auto [out, repetitions] : {std::pair{a, "3"}, std::pair{b, "4"}}) {
        auto run = run_process({strata_binary(), "bench", "--filter", "^driver/sync/stream_synchronize",
                                "--repetitions", repetitions, "--out", out},
                               fake);
        INFO(run.out << run.err);
        REQUIRE(run.exit_code == 0);
    }
    auto compared = run_process({strata_binary(), "compare", a, b, "--json"});
    INFO(compared.out << compared.err);
    REQUIRE(compared.exit_code == 0);
    auto json = nlohmann::json::parse(compared.out);
    REQUIRE(json["benchmarks"].size() == 1);
    CHECK(json["benchmarks"][0]["name"] == "driver/sync/stream_synchronize/idle_stream=1/mode:hot/device:0");
    CHECK(json["benchmarks"][0]["base_repetitions"] == 3);
    CHECK(json["benchmarks"][0]["new_repetitions"] == 4);
}
