#include <catch2/catch.hpp>
#include <sstream>

#include "model/report.h"
#include "probes/probes.h"
#include "report/writers.h"

using namespace strata;

TEST_CASE("a failed layer gates later layers and names itself") {
    Report report;
    report.add_check(make_check("host.ok", Layer::host, Status::pass, "fine"));
    report.add_check(
        make_check("driver.kernel_module", Layer::driver, Status::fail, "no NVIDIA kernel module loaded"));
    report.add_check(make_check("driver.libcuda", Layer::driver, Status::fail, "libcuda.so.1 not found"));

    CHECK_FALSE(report.gate_for(Layer::host));
    CHECK_FALSE(report.gate_for(Layer::driver));  // a layer does not gate itself
    auto gate = report.gate_for(Layer::runtime);
    REQUIRE(gate);
    CHECK(gate->failed_layer == Layer::driver);
    CHECK(gate->reason() == "driver layer failed: no NVIDIA kernel module loaded / libcuda.so.1 not found");

    auto summaries = report.layer_summaries();
    REQUIRE(summaries.size() == all_layers.size());
    CHECK(summaries[0].status == Status::pass);
    CHECK(summaries[2].status == Status::fail);
    CHECK(summaries[2].summary == "no NVIDIA kernel module loaded / libcuda.so.1 not found");
    CHECK(summaries[4].status == Status::skip);
    CHECK(summaries[4].summary ==
          "skipped: driver layer failed: no NVIDIA kernel module loaded / libcuda.so.1 not found");
    CHECK(report.exit_code() == 1);
}

TEST_CASE("the earliest failed layer is the gate") {
    Report report;
    report.add_check(make_check("device.nodes", Layer::device, Status::crashed, "boom"));
    report.add_check(make_check("container.caps", Layer::container, Status::fail, "no compute"));
    auto gate = report.gate_for(Layer::kernel);
    REQUIRE(gate);
    CHECK(gate->failed_layer == Layer::container);
}

TEST_CASE("warnings and skips do not fail the run") {
    Report report;
    report.add_check(make_check("host.a", Layer::host, Status::warn, "hmm"));
    report.add_check(make_check("host.b", Layer::host, Status::skip, "later"));
    CHECK(report.exit_code() == 0);
    CHECK_FALSE(report.gate_for(Layer::kernel));
    report.add_check(make_check("runtime.c", Layer::runtime, Status::timeout, "slow"));
    CHECK(report.exit_code() == 1);
}

TEST_CASE("a fact with the same key replaces the earlier one") {
    Report report;
    add_fact(report, Layer::host, "host.x", 1, "first");
    add_fact(report, Layer::host, "host.x", 2, "second");
    REQUIRE(report.facts().size() == 1);
    CHECK(report.find_fact("host.x")->value == 2);
    CHECK(report.find_fact("host.x")->source == "second");
}

TEST_CASE("JUnit stays well-formed XML whatever text a check carries") {
    // Issue #37: a U+FFFE in a package's version made the JUnit file invalid
    // XML, and CI dropped the whole report. Bytes that are not UTF-8 too.
    Report report;
    report.add_check(make_check(
        "framework.found", Layer::framework, Status::fail,
        "torch 2.7.0\xEF\xBF\xBE, cuDNN \xFF\xFE 9 <b>&\"'\x01 \xED\xA0\x80 \xF0\x9F\x9A\x80", "", ""));
    std::string xml = render_junit(report, RunInfo{"doctor", "2026-12-07T00:00:00Z", {}});
    CHECK(xml.find("\xEF\xBF\xBE") == std::string::npos);  // U+FFFE
    CHECK(xml.find('\xFF') == std::string::npos);
    CHECK(xml.find("\xED\xA0\x80") == std::string::npos);  // an encoded surrogate
    CHECK(xml.find('\x01') == std::string::npos);
    CHECK(xml.find("torch 2.7.0\xEF\xBF\xBD, cuDNN \xEF\xBF\xBD\xEF\xBF\xBD 9 "
                   "&lt;b&gt;&amp;&quot;&apos;\xEF\xBF\xBD") != std::string::npos);
    CHECK(xml.find("\xF0\x9F\x9A\x80") != std::string::npos);  // a real character beyond the BMP stays
}

TEST_CASE("evidence is wrapped between words to a terminal's width, and left whole for a pipe") {
    // Issue #38 item 11: long evidence lines ran past the terminal's edge.
    strata::Report report;
    strata::Check check;
    check.id = "framework.libraries.cupy";
    check.layer = strata::Layer::framework;
    check.status = strata::Status::fail;
    check.summary = "CuPy 13.3.0: libnvrtc.so.12 is missing";
    std::string evidence = "fail:";
    for (int i = 0; i < 30; ++i) evidence += " word" + std::to_string(i);
    evidence += " /a/path/that/is/longer/than/the/whole/width/of/the/terminal/libnvrtc.so.12";
    check.evidence = evidence;
    report.add_check(check);
    std::string whole = strata::render_layer_checks(report, strata::Layer::framework, false);
    CHECK(whole.find(evidence) != std::string::npos);
    std::string wrapped = strata::render_layer_checks(report, strata::Layer::framework, false, 60);
    std::istringstream lines(wrapped);
    std::string text_again;
    size_t evidence_lines = 0;
    for (std::string line; std::getline(lines, line);) {
        if (line.find("word") == std::string::npos && line.find("/a/path") == std::string::npos) continue;
        ++evidence_lines;
        if (line.find("/a/path") == std::string::npos) CHECK(line.size() <= 60);
        if (evidence_lines > 1) CHECK(line.rfind("                     ", 0) == 0);  // hanging indent
        std::istringstream words(line);
        for (std::string word; words >> word;) text_again += (text_again.empty() ? "" : " ") + word;
    }
    CHECK(evidence_lines > 3);
    CHECK(text_again == "evidence: " + evidence);  // nothing lost, no word cut
}
