// The pieces of strata's HTML pages: escaping of untrusted names, the ratio
// axis, and the plots' structure (the browser test checks their pixels).
#include <catch2/catch.hpp>
#include <cmath>
#include <cstring>
#include <random>
#include <string>

#include "probes/probes.h"
#include "report/html/html_page.h"
#include "report/html/html_text.h"
#include "report/html/svg_chart.h"
#include "report/writers.h"

using namespace strata;

namespace {

size_t count(const std::string& text, const std::string& needle) {
    size_t n = 0;
    for (size_t at = text.find(needle); at != std::string::npos; at = text.find(needle, at + 1)) ++n;
    return n;
}

// Whether `text` is valid UTF-8 holding no character the HTML standard
// calls a parse error (controls but whitespace, noncharacters).
bool clean_utf8(const std::string& text) {
    for (size_t i = 0; i < text.size();) {
        auto b = static_cast<unsigned char>(text[i]);
        size_t length = b < 0x80 ? 1 : (b >> 5) == 6 ? 2 : (b >> 4) == 14 ? 3 : (b >> 3) == 30 ? 4 : 0;
        if (length == 0 || i + length > text.size()) return false;
        char32_t c = length == 1 ? b : length == 2 ? b & 0x1F : length == 3 ? b & 0x0F : b & 0x07;
        for (size_t k = 1; k < length; ++k) {
            if ((static_cast<unsigned char>(text[i + k]) & 0xC0) != 0x80) return false;
            c = (c << 6) | (static_cast<unsigned char>(text[i + k]) & 0x3F);
        }
        if ((c < 0x20 && c != '\t' && c != '\n' && c != '\r') || (c >= 0x7F && c <= 0x9F)) return false;
        if ((c >= 0xD800 && c <= 0xDFFF) || (c & 0xFFFE) == 0xFFFE || (c >= 0xFDD0 && c <= 0xFDEF))
            return false;
        i += length;
    }
    return true;
}

}  // namespace

TEST_CASE("html_escape: markup, quotes and ampersands become references") {
    CHECK(html_escape("<script>alert('x')</script>") == "&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;");
    CHECK(html_escape("a & b \"c\"") == "a &amp; b &quot;c&quot;");
    CHECK(html_escape("&amp;") == "&amp;amp;");  // a reference in a name is shown, not decoded
    CHECK(html_escape("caf\xc3\xa9 \xe2\x9c\x93 \xf0\x9f\x9a\x80") ==
          "caf\xc3\xa9 \xe2\x9c\x93 \xf0\x9f\x9a\x80");
    CHECK(html_escape("tab\tnew\nline") == "tab\tnew\nline");
}

TEST_CASE("html_escape: what no valid page may hold becomes U+FFFD") {
    const std::string r = "\xEF\xBF\xBD";
    CHECK(html_escape(std::string("nul\0x", 5)) == "nul" + r + "x");
    CHECK(html_escape("bell\a del\x7f") == "bell" + r + " del" + r);
    CHECK(html_escape("c1 \xc2\x85") == "c1 " + r);                  // U+0085, a C1 control
    CHECK(html_escape("cut \xe2\x9c") == "cut " + r + r);            // a sequence cut short
    CHECK(html_escape("overlong \xc0\xaf") == "overlong " + r + r);  // '/' in two bytes
    CHECK(html_escape("surrogate \xed\xa0\x80") == "surrogate " + r + r + r);
    CHECK(html_escape("nonchar \xef\xbf\xbe") == "nonchar " + r);  // U+FFFE
    CHECK(html_escape("nonchar \xef\xb7\x90") == "nonchar " + r);  // U+FDD0
}

TEST_CASE("html_escape: any bytes give clean UTF-8 with no markup character") {
    std::mt19937 random(42);
    std::uniform_int_distribution<int> byte(0, 255), length(0, 64);
    for (int n = 0; n < 20000; ++n) {
        std::string input(static_cast<size_t>(length(random)), '\0');
        for (char& c : input) c = static_cast<char>(byte(random));
        std::string out = html_escape(input);
        INFO("input #" << n);
        REQUIRE(clean_utf8(out));
        REQUIRE(out.find_first_of("<>\"'") == std::string::npos);
        for (size_t at = out.find('&'); at != std::string::npos; at = out.find('&', at + 1)) {
            bool reference = out.compare(at, 5, "&amp;") == 0 || out.compare(at, 4, "&lt;") == 0 ||
                             out.compare(at, 4, "&gt;") == 0 || out.compare(at, 6, "&quot;") == 0 ||
                             out.compare(at, 5, "&#39;") == 0;
            REQUIRE(reference);
        }
    }
}

TEST_CASE("svg_number: short, fixed, finite") {
    CHECK(svg_number(12.5) == "12.5");
    CHECK(svg_number(300) == "300");
    CHECK(svg_number(-0.254) == "-0.25");
    CHECK(svg_number(-0.001) == "0");
    CHECK(svg_number(NAN) == "0");
    CHECK(svg_number(INFINITY) == "0");
}

TEST_CASE("RatioScale: a log axis that covers its values and 1, factors as far either side") {
    RatioScale scale({0.92, 1.01}, 100, 500);
    CHECK(scale.low() < 0.92);
    CHECK(scale.high() > 1.01);
    CHECK(scale.x(scale.low()) == Approx(100));
    CHECK(scale.x(scale.high()) == Approx(500));
    // Log scale: the pixel distance of x0.99 below 1 equals that of x1/0.99 above.
    CHECK(scale.x(1) - scale.x(0.99) == Approx(scale.x(1 / 0.99) - scale.x(1)));
    CHECK(scale.x(0.5) == Approx(100));  // outside the domain: at its edge
    CHECK(scale.x(NAN) == scale.x(1));   // no value: on the no-change line, never off the plot
    std::vector<double> ticks = scale.ticks();
    REQUIRE(ticks.size() >= 3);
    for (double t : ticks) CHECK((t >= scale.low() && t <= scale.high()));
    CHECK(scale.label(0.92) ==
          "\xE2\x88\x92"
          "8%");
    CHECK(scale.label(1.0) == "0%");
    CHECK(scale.label(1.025) == "+2.5%");
}

TEST_CASE("RatioScale: wide spans get factor ticks, at least four") {
    RatioScale wide({0.45, 2.1}, 0, 100);
    std::vector<double> ticks = wide.ticks();
    CHECK(ticks.size() >= 4);
    CHECK(wide.label(2) ==
          "\xC3\x97"
          "2");
    RatioScale huge({1e-4, 1e4}, 0, 100);
    CHECK(huge.ticks().size() <= 10);
    CHECK(huge.ticks().size() >= 4);
}

TEST_CASE("forest plot: one row per benchmark, group headings once, marks by decision") {
    ForestPlot plot;
    plot.title = "t";
    plot.threshold = 0.03;
    plot.rows.push_back({"a", "driver-facing", "go", "+0.1% time", "d", 1.0, 0.99, 1.01, {}});
    plot.rows.push_back(
        {"b<", "driver-facing", "no-go", "+8.7% time", "d", 0.92, 0.91, 0.93, {{"n1", 0.9}, {"n2", 0.94}}});
    plot.rows.push_back({"c",
                         "kernels and libraries",
                         "inconclusive",
                         "-",
                         "d",
                         std::nullopt,
                         std::nullopt,
                         std::nullopt,
                         {}});
    std::string svg = render_forest_plot(plot);
    CHECK(count(svg, "<g class=\"row ") == 3);
    CHECK(count(svg, ">driver-facing</text>") == 1);
    CHECK(count(svg, ">kernels and libraries</text>") == 1);
    CHECK(count(svg, "<line class=\"ci\"") == 2);  // the row without a ratio draws none
    CHECK(count(svg, "<circle class=\"mark\"") == 1);
    CHECK(count(svg, "<rect class=\"mark\"") == 1);
    CHECK(count(svg, "<circle class=\"point\"") == 2);
    CHECK(svg.find("data-name=\"b&lt;\"") != std::string::npos);
    CHECK(svg.find("data-low=\"0.91\"") != std::string::npos);
}

TEST_CASE("heat map: a cell per node and benchmark, binned, outliers framed, rows titled") {
    HeatMap map;
    map.title = "h";
    map.columns = {"gemm", "copy"};
    map.rows = {"n1", "n2"};
    map.deviation = {{-0.15, 0.0}, {0.001, NAN}};
    map.outlier = {{true, false}, {false, false}};
    std::string svg = render_heat_map(map);
    CHECK(count(svg, "<rect class=\"cell ") == 4 + 2);  // and the legend's "not measured" and "outlier"
    CHECK(count(svg, "<rect class=\"cell c0 outlier\"") == 1);  // 15% worse: the worst bin, framed
    CHECK(count(svg, "<rect class=\"cell c4\"") == 2);          // within 1%
    CHECK(count(svg, "<rect class=\"cell missing\"") == 1 + 1);
    CHECK(count(svg, "outlier\"") == 1 + 1);
    CHECK(svg.find("<title>n1: worst -15.0% performance against the median, on gemm</title>") !=
          std::string::npos);
    CHECK(svg.find("<title>n2: worst +0.1% performance against the median, on gemm</title>") !=
          std::string::npos);
}

TEST_CASE("render_table escapes every cell and caption") {
    HtmlTable table{"<cap>", {"h&"}, {true}, {{"<td>"}}, {"fail"}};
    std::string html = render_table(table);
    CHECK(html.find("<caption>&lt;cap&gt;</caption>") != std::string::npos);
    CHECK(html.find("<th scope=\"col\">h&amp;</th>") != std::string::npos);
    CHECK(html.find("<tr class=\"fail\"><td class=\"num\">&lt;td&gt;</td></tr>") != std::string::npos);
}

TEST_CASE("doctor's page and Markdown show a hostile check as text, never as markup") {
    Report report;
    Check check =
        make_check("plugin.x", Layer::library, Status::fail, "<img src=x onerror=alert(1)> | *bold*");
    check.evidence = "line one\n<script>alert(2)</script>\x1b[8m";
    check.remedy = "[click](http://evil.example)";
    report.add_check(check);
    std::string html = render_html(report, RunInfo{"doctor", "2026-12-08T00:00:00Z", {}});
    CHECK(html.find("<img") == std::string::npos);
    CHECK(html.find("<script") == std::string::npos);
    CHECK(html.find("&lt;img src=x onerror=alert(1)&gt;") != std::string::npos);
    CHECK(html.find("\x1b") == std::string::npos);
    CHECK(html.find("<details open>") != std::string::npos);  // a failing check starts open
    std::string markdown = render_markdown(report);
    // Every '<' is escaped, or a tag strata writes itself.
    for (size_t at = markdown.find('<'); at != std::string::npos; at = markdown.find('<', at + 1)) {
        bool own = false;
        for (const char* tag : {"<br>", "<details>", "</details>", "<summary>", "</summary>"})
            own |= markdown.compare(at, std::strlen(tag), tag) == 0;
        INFO(markdown.substr(at, 20));
        CHECK((own || (at > 0 && markdown[at - 1] == '\\')));
    }
    CHECK(markdown.find("\\[click\\](http://evil.example)") != std::string::npos);  // no link
    CHECK(markdown.find("\\<img src=x onerror=alert(1)> \\| \\*bold\\*") != std::string::npos);
}
