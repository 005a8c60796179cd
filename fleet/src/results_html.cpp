#include "results_html.h"

#include <algorithm>
#include <cstdio>

#include "change_text.h"
#include "report/html/html_page.h"
#include "report/html/html_text.h"
#include "report/html/svg_chart.h"
#include "statistics.h"

namespace strata::fleet {

namespace {

std::vector<double> relative(const std::vector<double>& values, double reference) {
    std::vector<double> out;
    if (!(reference > 0)) return out;
    for (double v : values) out.push_back(v / reference);
    return out;
}

std::string verdict_class(bench::Verdict verdict) {
    switch (verdict) {
        case bench::Verdict::slower: return "no-go";
        case bench::Verdict::faster: return "go";
        case bench::Verdict::inconclusive: return "inconclusive";
        case bench::Verdict::same: return "";
    }
    return "";
}

// The median of a rate counter over the repetitions, as "12.3 GB/s" ("" without one).
std::string rate_text(const bench::BenchmarkSeries& series, const char* counter, double scale,
                      const char* unit) {
    auto it = series.counters.find(counter);
    if (it == series.counters.end() || it->second.empty()) return "";
    char text[48];
    std::snprintf(text, sizeof text, "%.3g %s", bench::median(it->second) / scale, unit);
    return text;
}

std::string pair_section(const ComparedRuns& pair, const std::string& metric) {
    const bench::Comparison& comparison = *pair.comparison;
    std::string heading = pair.new_name + " against " + pair.base_name;
    std::string out = element("h2", heading);
    size_t counts[4] = {0, 0, 0, 0};
    for (const bench::ComparisonRow& row : comparison.rows) ++counts[static_cast<int>(row.verdict)];
    std::string summary =
        std::to_string(comparison.rows.size()) +
        " benchmark(s): " + std::to_string(counts[static_cast<int>(bench::Verdict::slower)]) + " slower, " +
        std::to_string(counts[static_cast<int>(bench::Verdict::faster)]) + " faster, " +
        std::to_string(counts[static_cast<int>(bench::Verdict::same)]) + " the same, " +
        std::to_string(counts[static_cast<int>(bench::Verdict::inconclusive)]) + " inconclusive";
    if (comparison.geometric_mean_ratio)
        summary += "; geometric mean " + bench::change_text(*comparison.geometric_mean_ratio, metric, false);
    out += "<p class=\"decision\">" +
           (comparison.gate_tripped ? badge("gate tripped", "no-go") + " " : std::string()) +
           html_escape(summary) + "</p>\n";
    if (!comparison.warnings.empty())
        out += element("h3", "Not comparable as they stand") + bullet_list(comparison.warnings);

    StripPlot plot;
    plot.title = "Each benchmark's repetitions, " + pair.base_name + " and " + pair.new_name +
                 ", relative to " + pair.base_name + "'s median";
    plot.axis_caption = metric + " relative to " + pair.base_name + "'s median (log scale; left is faster)";
    plot.base_name = pair.base_name;
    plot.next_name = pair.new_name;
    plot.right_heading = "change, verdict";
    HtmlTable table{"The numbers behind the plot",
                    {"benchmark", pair.base_name + " median", pair.new_name + " median", "change", "p",
                     "verdict", "repetitions", "note"},
                    {false, true, true, true, true, false, true, false},
                    {},
                    {}};
    for (const bench::ComparisonRow& row : comparison.rows) {
        std::string verdict(bench::verdict_name(row.verdict));
        std::string change = row.ratio > 0 ? bench::change_text(row.ratio, metric, false) : "-";
        StripRow strip;
        strip.label = row.name;
        strip.css_class = verdict_class(row.verdict);
        strip.right_text = change + ", " + verdict;
        strip.description = row.name + ": " + change + ", " + verdict + " (p " + bench::p_value_text(row) +
                            ")" + (row.note.empty() ? "" : "; " + row.note);
        const bench::BenchmarkSeries* base = pair.base->find(row.name);
        const bench::BenchmarkSeries* next = pair.next->find(row.name);
        if (row.base_ns > 0) {
            if (base) strip.base = relative(base->samples, row.base_ns);
            if (next) strip.next = relative(next->samples, row.base_ns);
            strip.base_median = 1.0;
            if (row.new_ns > 0) strip.next_median = row.new_ns / row.base_ns;
        }
        plot.rows.push_back(std::move(strip));
        table.rows.push_back(
            {row.name, row.base_ns > 0 ? bench::time_text(row.base_ns) : "-",
             row.new_ns > 0 ? bench::time_text(row.new_ns) : "-", change, bench::p_value_text(row), verdict,
             std::to_string(row.base_count) + " / " + std::to_string(row.new_count), row.note});
        table.row_classes.push_back(verdict_class(row.verdict));
    }
    if (!plot.rows.empty()) out += "<figure>\n" + render_strip_plot(plot) + "</figure>\n";
    out += render_table(table);
    std::vector<std::string> one_side;
    for (const std::string& name : comparison.only_in_base)
        one_side.push_back("only in " + pair.base_name + ": " + name);
    for (const std::string& name : comparison.only_in_new)
        one_side.push_back("only in " + pair.new_name + ": " + name);
    return out + bullet_list(one_side);
}

// The run's context as Google Benchmark and strata write it: its plain values.
std::string context_table(const bench::ResultsFile& results) {
    HtmlTable table{"Where the run was made", {"field", "value"}, {}, {}, {}};
    if (results.context.is_object())
        for (const auto& [key, value] : results.context.items())
            if (value.is_primitive())
                table.rows.push_back({key, value.is_string() ? value.get<std::string>() : value.dump()});
    return table.rows.empty() ? "" : render_table(table);
}

}  // namespace

std::string render_comparison_html(const std::vector<ComparedRuns>& pairs, const std::string& metric) {
    bool tripped = false;
    for (const ComparedRuns& pair : pairs) tripped |= pair.comparison->gate_tripped;
    std::string title = pairs.size() == 1
                            ? pairs[0].new_name + " against " + pairs[0].base_name
                            : std::to_string(pairs.size()) + " builds against " + pairs[0].base_name;
    std::string body = "<h1>strata compare: " + html_escape(title) + "</h1>\n";
    body += element("p", "Times are medians of the repetitions of " + metric +
                             "; a change is new over base in the metric's own terms; a verdict needs both a "
                             "significant difference and one beyond the threshold." +
                             (tripped ? " The --fail-above gate tripped." : ""));
    for (const ComparedRuns& pair : pairs) body += pair_section(pair, metric);
    return html_document("strata compare: " + title, body);
}

std::string render_results_html(const bench::ResultsFile& results, const std::vector<std::string>& notes) {
    size_t failed = 0;
    for (const bench::BenchmarkSeries& series : results.series) failed += !series.error.empty();
    std::string headline =
        std::to_string(results.series.size()) + " benchmark(s), " + std::to_string(failed) + " failed";
    const char* word = results.series.empty() ? "nothing measured" : failed ? "failed" : "measured";
    std::string body =
        "<h1>strata bench: " + badge(word, failed || results.series.empty() ? "fail" : "pass") +
        "</h1>\n<p class=\"decision\">" + html_escape(headline) + "</p>\n";
    body += bullet_list(notes);
    body += context_table(results);
    StripPlot plot;
    plot.title = "Each benchmark's repetitions relative to its median";
    plot.axis_caption = "time relative to the benchmark's median (log scale)";
    plot.base_name = "run";
    plot.right_heading = "median";
    HtmlTable table{"The numbers behind the plot",
                    {"benchmark", "repetitions", "median", "min", "max", "GB/s", "TFLOP/s", "error"},
                    {false, true, true, true, true, true, true, false},
                    {},
                    {}};
    for (const bench::BenchmarkSeries& series : results.series) {
        std::string gbps = rate_text(series, "bytes_per_second", 1e9, "GB/s");
        std::string tflops = rate_text(series, "flops_per_second", 1e12, "TFLOP/s");
        double median = series.samples.empty() ? 0 : bench::median(series.samples);
        std::string median_text = median > 0 ? bench::time_text(median) : "-";
        StripRow row;
        row.label = series.name;
        row.css_class = series.error.empty() ? "" : "no-go";
        row.right_text = series.error.empty() ? median_text + (gbps.empty() ? "" : ", " + gbps) +
                                                    (tflops.empty() ? "" : ", " + tflops)
                                              : "error: " + series.error;
        row.description = series.name + ": " + row.right_text + " over " +
                          std::to_string(series.samples.size()) + " repetition(s)";
        if (median > 0) {
            row.base = relative(series.samples, median);
            row.base_median = 1.0;
        }
        plot.rows.push_back(std::move(row));
        auto [low, high] =
            series.samples.empty()
                ? std::pair<double, double>{0, 0}
                : std::pair<double, double>{*std::min_element(series.samples.begin(), series.samples.end()),
                                            *std::max_element(series.samples.begin(), series.samples.end())};
        table.rows.push_back({series.name, std::to_string(series.samples.size()), median_text,
                              low > 0 ? bench::time_text(low) : "-", high > 0 ? bench::time_text(high) : "-",
                              gbps.empty() ? "-" : gbps, tflops.empty() ? "-" : tflops, series.error});
        table.row_classes.push_back(series.error.empty() ? "" : "fail");
    }
    if (!plot.rows.empty()) body += "<figure>\n" + render_strip_plot(plot) + "</figure>\n";
    body += render_table(table);
    return html_document("strata bench: " + headline, body);
}

}  // namespace strata::fleet
