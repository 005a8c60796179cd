// node_exporter textfile metrics: the exposition format's escaping and
// uniqueness rules, and a Google-Benchmark-written file's benchmarks as
// metrics that promtool accepts.
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "benchmark_metrics.h"
#include "benchmark_results.h"
#include "probes/run_program.h"
#include "report/prometheus_text.h"
#include "report/writers.h"

using namespace strata;

TEST_CASE("label values are escaped and duplicate samples dropped") {
    PrometheusText text;
    text.family("strata_x", "help with \\ and\nnewline");
    text.sample("strata_x", {{"name", "a\"b\\c\nd"}}, 1);
    text.sample("strata_x", {{"name", "a\"b\\c\nd"}}, 2);  // the same series again
    text.sample("strata_x", {{"name", "e"}}, std::numeric_limits<double>::infinity());
    text.family("strata_empty", "no samples: not written");
    CHECK(text.render() ==
          "# HELP strata_x help with \\\\ and\\nnewline\n"
          "# TYPE strata_x gauge\n"
          "strata_x{name=\"a\\\"b\\\\c\\nd\"} 1\n"
          "strata_x{name=\"e\"} +Inf\n");
}

TEST_CASE("free text becomes a metric name part") {
    CHECK(prometheus_name_part("busbw (B/s)") == "busbw_b_s");
    CHECK(prometheus_name_part("bytes_per_second") == "bytes_per_second");
    CHECK(prometheus_name_part("9lives") == "_9lives");
    CHECK(prometheus_name_part("!!!") == "unnamed");
}

TEST_CASE("a Google Benchmark file's benchmarks as metrics that promtool accepts") {
    bench::ResultsFile results =
        bench::read_results_file(std::string(STRATA_TEST_BENCH_FIXTURES) + "/google_benchmark_base.json");
    PrometheusText text;
    fleet::add_benchmark_metrics(text, results);
    std::string rendered = text.render();
    CHECK(rendered.find("strata_benchmark_seconds{benchmark=\"BM_copy/4096\"} ") != std::string::npos);
    CHECK(rendered.find("strata_benchmark_bytes_per_second{benchmark=\"BM_copy/65536\"} ") !=
          std::string::npos);
    CHECK(rendered.find("strata_benchmark_failed{benchmark=\"BM_copy/4096\"} 0") != std::string::npos);
    CHECK(rendered.find("_mean") == std::string::npos);  // aggregates summarise repetitions already read

    const char* promtool = "/usr/bin/promtool";
    if (::access(promtool, X_OK) != 0) {
        WARN("promtool not installed (scripts/setup --test installs it): the format is not checked by it");
        return;
    }
    std::filesystem::path file = std::filesystem::temp_directory_path() /
                                 ("strata-prometheus-test-" + std::to_string(::getpid()) + ".prom");
    std::ofstream(file) << rendered;
    ProgramResult checked =
        run_program({"/bin/sh", "-c", std::string(promtool) + " check metrics < " + file.string()},
                    std::chrono::seconds(60));
    std::filesystem::remove(file);
    INFO(checked.output << checked.problem);
    CHECK(checked.ok);
}

TEST_CASE("a check set aside with --ignore-check is exported as skipped, its real status beside it") {
    // Issue #38 item 8: the README's alert (strata_check_status >= 3) paged
    // on checks the operator had set aside.
    Report report;
    Check ecc;
    ecc.id = "health.ecc";
    ecc.layer = Layer::device;
    ecc.status = Status::fail;
    ecc.summary = "uncorrectable ECC errors";
    ecc.device = 0;
    report.add_check(ecc);
    Check nvlink = ecc;
    nvlink.id = "health.nvlink";
    report.add_check(nvlink);
    report.ignore_checks({"health.nv*"});
    std::string text = render_prometheus(report, {"doctor", "2026-12-07T00:00:00Z", {}});
    CHECK(text.find("strata_check_status{check=\"health.ecc\",layer=\"device\",gpu=\"0\"} 3\n") !=
          std::string::npos);
    CHECK(text.find("strata_check_status{check=\"health.nvlink\",layer=\"device\",gpu=\"0\"} 1\n") !=
          std::string::npos);
    CHECK(text.find("strata_check_ignored{check=\"health.nvlink\",layer=\"device\",gpu=\"0\"} 3\n") !=
          std::string::npos);
    CHECK(text.find("strata_check_ignored{check=\"health.ecc\"") == std::string::npos);
    CHECK(text.find("strata_checks{status=\"ignored\"} 1\n") != std::string::npos);
    CHECK(text.find("strata_checks{status=\"fail\"} 1\n") != std::string::npos);
}
