// One self-contained HTML page (`--html FILE`): inline CSS, inline SVG, no
// script, font, image or anything else fetched, so it reads the same offline,
// attached to a ticket or printed. The builders here take plain text and
// escape it; only the pieces they and svg_chart.h return are markup.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "model/status.h"

namespace strata {

// The numbers behind a plot, or any list of facts, as a table a screen reader
// walks and a person copies from.
struct HtmlTable {
    std::string caption;
    std::vector<std::string> headers;
    std::vector<bool> numeric;  // per column: right-aligned (figures)
    std::vector<std::vector<std::string>> rows;
    std::vector<std::string> row_classes;  // per row, optional: a CSS class ("no-go", "fail")
};
std::string render_table(const HtmlTable& table);

// "<p>…</p>", "<h2>…</h2>", "<li>…</li>"…: `tag` wrapped around escaped text.
std::string element(std::string_view tag, std::string_view text, std::string_view css_class = "");
// A list of plain-text items.
std::string bullet_list(const std::vector<std::string>& items);
// A decision or status word as a badge: its text, and a colour and border
// style that tell it apart without colour too.
std::string badge(std::string_view word, std::string_view css_class);
std::string status_badge(Status status);
// Collapsible: the summary always shown, the rest on demand.
std::string details(std::string_view summary_html, std::string_view content_html, bool open = false);

// The whole page: <!DOCTYPE html>, the title, the stylesheet and `body_html`.
std::string html_document(std::string_view title, std::string_view body_html);

}  // namespace strata
