// Renderings of one Report: JSON (the document of record), text for a
// terminal, Markdown for bug reports, JUnit XML for CI systems.
#pragma once

#include <chrono>
#include <string>

#include "model/report.h"
#include "report/prometheus_text.h"

namespace strata {

inline constexpr const char* report_schema_version = "1.4.0";

struct RunInfo {
    std::string command;     // "doctor", "env", "plugins"
    std::string created_at;  // ISO 8601 UTC
    std::chrono::milliseconds duration{0};
};

Json report_to_json(const Report& report, const RunInfo& run);
// The environment record alone: every fact, keyed by its id.
Json environment_to_json(const Report& report);
// The value of fact `key` in such a record (one this run made, or one read
// from a file: untrusted), or null where it is absent or malformed.
const Json& environment_value(const Json& environment, const std::string& key);

// `width`: wrap evidence and fixes between words at this many columns (the
// terminal's, terminal_columns()); 0 leaves lines whole, for pipes and files.
std::string render_text(const Report& report, bool color, size_t width = 0);
// "13 passed, 0 failed, 2 warnings, 8 skipped; 6 plugin(s)": the count every
// rendering of a report closes with.
std::string check_count_line(const Report& report);
// A fact's value as text ("?" where absent): strings bare, the rest as JSON.
std::string fact_text(const Report& report, std::string_view key);
// One self-contained HTML page (report/html/html_page.h): the layers as the
// text shows them, each check's evidence and fix collapsible.
std::string render_html(const Report& report, const RunInfo& run);
// One layer's checks as render_text shows them ("" when it has none).
std::string render_layer_checks(const Report& report, Layer layer, bool color, size_t width = 0);
// The width of the terminal standard output is, or 0 when it is none.
size_t terminal_columns();
std::string render_markdown(const Report& report);
std::string render_junit(const Report& report, const RunInfo& run);
// The load report for `strata plugins`.
std::string render_plugin_table(const Report& report);

// node_exporter textfile-collector metrics (docs/prometheus.md).
std::string render_prometheus(const Report& report, const RunInfo& run);
// The same metrics added to a larger file (a record adds its benchmarks).
void add_report_metrics(PrometheusText& out, const Report& report, const RunInfo& run);
// A check's status as the value of strata_check_status.
int prometheus_status_code(Status status);

std::string utc_timestamp_now();

}  // namespace strata
