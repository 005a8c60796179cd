#include "report/html/html_page.h"

#include "report/html/html_text.h"

namespace strata {

namespace {

// Okabe and Ito's colour-blind-safe palette: blue for good, vermillion for
// bad, orange for unsettled; every coloured mark also carries its word.
constexpr std::string_view kStyle = R"css(
:root { --go: #0072b2; --nogo: #d55e00; --unsure: #e69f00; --muted: #5f6368; }
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, "DejaVu Sans", sans-serif;
  margin: 24px auto; max-width: 1180px; padding: 0 16px; color: #1f2328; }
h1 { font-size: 22px; margin: 0 0 8px; } h2 { font-size: 18px; margin: 28px 0 8px; }
h3 { font-size: 15px; margin: 18px 0 6px; }
code, .mono { font-family: ui-monospace, "DejaVu Sans Mono", Menlo, monospace; font-size: 12.5px; }
table { border-collapse: collapse; margin: 8px 0 16px; font-size: 13px; max-width: 100%; }
caption { text-align: left; font-weight: 600; padding: 4px 0; }
th, td { border: 1px solid #d0d7de; padding: 3px 8px; vertical-align: top; text-align: left;
  overflow-wrap: anywhere; }
th { background: #f6f8fa; }
td.num, table.figures td + td { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
.badge { display: inline-block; min-width: 5.5em; text-align: center; border-radius: 3px; padding: 0 6px;
  font-weight: 600; font-size: 12px; border: 2px solid; }
.badge.go, .badge.pass { color: #fff; background: var(--go); border-color: var(--go); }
.badge.no-go, .badge.fail, .badge.error { color: #fff; background: var(--nogo); border-color: var(--nogo); }
.badge.inconclusive, .badge.warn { color: #1f2328; background: #fff; border-color: var(--unsure); border-style: dashed; }
.badge.skip { color: var(--muted); background: #fff; border-color: #c0c4c8; border-style: dotted; }
tr.no-go td, tr.fail td, tr.error td { background: #fbeee6; }
tr.inconclusive td, tr.warn td { background: #fdf6e3; }
.decision { font-size: 20px; }
details { margin: 2px 0; } summary { cursor: pointer; }
.check { margin: 3px 0; } .check .id { font-weight: 600; }
.evidence { white-space: pre-wrap; margin: 4px 0 8px 2em; color: #333; }
.note { color: var(--muted); }
svg { display: block; max-width: 100%; height: auto; font-family: inherit; }
svg text { font-size: 12px; fill: #1f2328; } svg .axis text, svg .heading { fill: var(--muted); }
svg .grid { stroke: #e5e7ea; } svg .axis line.base { stroke: #888; }
svg .band { fill: #0072b2; fill-opacity: 0.08; } svg .no-change { stroke: #555; }
svg .threshold { stroke: var(--nogo); stroke-dasharray: 4 3; }
svg .go .ci, svg .go .mark { stroke: var(--go); fill: var(--go); }
svg .no-go .ci, svg .no-go .mark { stroke: var(--nogo); fill: var(--nogo); }
svg .inconclusive .ci, svg .inconclusive .mark { stroke: #b07800; fill: #fff; }
svg .ci { stroke-width: 2.5; } svg .mark { stroke-width: 2; }
svg .point { fill: #1f2328; fill-opacity: 0.55; stroke: none; }
svg .point.base { fill: #888; } svg .point.new { fill: var(--go); }
svg .median { stroke: #1f2328; stroke-width: 2; }
svg .cell.missing { fill: #fff; stroke: #ddd; }
svg .c0 { fill: #b34700; } svg .c1 { fill: #e07b39; } svg .c2 { fill: #f2b183; } svg .c3 { fill: #fbe0cb; }
svg .c4 { fill: #f2f2f2; } svg .c5 { fill: #d6e6f4; } svg .c6 { fill: #a6c8e4; } svg .c7 { fill: #5b9bd0; }
svg .c8 { fill: #0072b2; }
svg .cell.outlier { stroke: #000; stroke-width: 2.5; }
@media print { body { margin: 0; max-width: none; } details { break-inside: avoid; } }
)css";

}  // namespace

std::string element(std::string_view tag, std::string_view text, std::string_view css_class) {
    std::string out = "<" + std::string(tag);
    if (!css_class.empty()) out += " class=\"" + html_escape(css_class) + "\"";
    return out + ">" + html_escape(text) + "</" + std::string(tag) + ">\n";
}

std::string bullet_list(const std::vector<std::string>& items) {
    if (items.empty()) return "";
    std::string out = "<ul>\n";
    for (const std::string& item : items) out += element("li", item);
    return out + "</ul>\n";
}

std::string badge(std::string_view word, std::string_view css_class) {
    return "<span class=\"badge " + html_escape(css_class) + "\">" + html_escape(word) + "</span>";
}

std::string status_badge(Status status) {
    std::string name(status_name(status));
    return badge(name, name);
}

std::string details(std::string_view summary_html, std::string_view content_html, bool open) {
    return std::string(open ? "<details open>" : "<details>") + "<summary>" + std::string(summary_html) +
           "</summary>\n" + std::string(content_html) + "</details>\n";
}

std::string render_table(const HtmlTable& table) {
    // A table of figures after its first column (a heat map's, thousands of
    // rows) is right-aligned by one class, not a class per cell.
    bool figures = table.numeric.size() > 1 && !table.numeric[0];
    for (size_t c = 1; c < table.numeric.size(); ++c) figures = figures && table.numeric[c];
    std::string out = figures ? "<table class=\"figures\">\n" : "<table>\n";
    if (!table.caption.empty()) out += "<caption>" + html_escape(table.caption) + "</caption>\n";
    out += "<thead><tr>";
    for (const std::string& header : table.headers)
        out += "<th scope=\"col\">" + html_escape(header) + "</th>";
    out += "</tr></thead>\n<tbody>\n";
    for (size_t r = 0; r < table.rows.size(); ++r) {
        const std::string& css = r < table.row_classes.size() ? table.row_classes[r] : std::string();
        out += css.empty() ? "<tr>" : "<tr class=\"" + html_escape(css) + "\">";
        const std::vector<std::string>& row = table.rows[r];
        for (size_t c = 0; c < row.size(); ++c) {
            bool numeric = !figures && c < table.numeric.size() && table.numeric[c];
            out += (numeric ? "<td class=\"num\">" : "<td>") + html_escape(row[c]) + "</td>";
        }
        out += "</tr>\n";
    }
    return out + "</tbody>\n</table>\n";
}

std::string html_document(std::string_view title, std::string_view body_html) {
    std::string out = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n";
    out += "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n";
    out += "<title>" + html_escape(title) + "</title>\n<style>" + std::string(kStyle) + "</style>\n";
    out += "</head>\n<body>\n<main>\n";
    out += body_html;
    return out + "</main>\n</body>\n</html>\n";
}

}  // namespace strata
