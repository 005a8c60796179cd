#include "report/html/svg_chart.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "report/html/html_text.h"

namespace strata {

namespace {

bool usable(double ratio) {
    return std::isfinite(ratio) && ratio > 0;
}

// What fits left of a plot's 390 px at 12 px type (about 7 px a character).
constexpr size_t kLabelCharacters = 52;

// A name cut to what fits its column; the full name stays in the <title>.
std::string fitted(const std::string& text, size_t characters) {
    if (text.size() <= characters) return text;
    size_t cut = characters - 1;
    while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80) --cut;  // not mid-character
    return text.substr(0, cut) + "\xE2\x80\xA6";                                      // U+2026
}

std::string attribute(const char* name, const std::string& value) {
    return std::string(" ") + name + "=\"" + html_escape(value) + "\"";
}

std::string number_attribute(const char* name, double value) {
    char buffer[40];
    std::snprintf(buffer, sizeof buffer, "%.9g", value);
    return std::string(" ") + name + "=\"" + buffer + "\"";
}

std::string text(double x, double y, const std::string& content, const char* anchor = "start",
                 const char* css = nullptr) {
    return "<text x=\"" + svg_number(x) + "\" y=\"" + svg_number(y) + "\"" +
           (std::string(anchor) == "start" ? "" : std::string(" text-anchor=\"") + anchor + "\"") +
           (css ? std::string(" class=\"") + css + "\"" : "") + ">" + html_escape(content) + "</text>";
}

std::string line(double x1, double y1, double x2, double y2, const char* css) {
    return "<line class=\"" + std::string(css) + "\" x1=\"" + svg_number(x1) + "\" y1=\"" + svg_number(y1) +
           "\" x2=\"" + svg_number(x2) + "\" y2=\"" + svg_number(y2) + "\"/>";
}

std::string svg_open(const std::string& css, double width, double height, const std::string& title) {
    return "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"" + css + "\" width=\"" + svg_number(width) +
           "\" height=\"" + svg_number(height) + "\" viewBox=\"0 0 " + svg_number(width) + " " +
           svg_number(height) + "\" role=\"img\"" + attribute("aria-label", title) +
           " data-scale=\"log\">\n<title>" + html_escape(title) + "</title>\n";
}

// The grid lines and labels of a ratio axis from `top` to `bottom`, labelled below.
std::string ratio_axis(const RatioScale& scale, double top, double bottom, const std::string& caption) {
    std::string out = "<g class=\"axis\">";
    for (double tick : scale.ticks()) {
        double x = scale.x(tick);
        out += "<g class=\"tick\"" + number_attribute("data-value", tick) + ">" +
               line(x, top, x, bottom, "grid") + text(x, bottom + 14, scale.label(tick), "middle") + "</g>";
    }
    out += line(scale.x(1), top, scale.x(1), bottom, "no-change");
    double middle = (scale.x(scale.low()) + scale.x(scale.high())) / 2;
    return out + text(middle, bottom + 32, caption, "middle") + "</g>\n";
}

// An estimate's mark, its shape saying the decision as its colour does:
// a disc for go, a square for no-go, a hollow diamond for inconclusive.
std::string decision_mark(const std::string& decision, double x, double y) {
    if (decision == "no-go")
        return "<rect class=\"mark\" x=\"" + svg_number(x - 5) + "\" y=\"" + svg_number(y - 5) +
               "\" width=\"10\" height=\"10\"/>";
    if (decision == "go")
        return "<circle class=\"mark\" cx=\"" + svg_number(x) + "\" cy=\"" + svg_number(y) + "\" r=\"5\"/>";
    return "<polygon class=\"mark\" points=\"" + svg_number(x) + "," + svg_number(y - 6) + " " +
           svg_number(x + 6) + "," + svg_number(y) + " " + svg_number(x) + "," + svg_number(y + 6) + " " +
           svg_number(x - 6) + "," + svg_number(y) + "\"/>";
}

}  // namespace

RatioScale::RatioScale(const std::vector<double>& values, double left, double right, double min_half_span)
    : low_(1 / (1 + min_half_span)), high_(1 + min_half_span), left_(left), right_(right) {
    for (double v : values)
        if (usable(v)) {
            low_ = std::min(low_, v);
            high_ = std::max(high_, v);
        }
    // A margin of 6% of the span, so no mark sits on the plot's edge.
    double pad = (std::log(high_) - std::log(low_)) * 0.06;
    low_ = std::exp(std::log(low_) - pad);
    high_ = std::exp(std::log(high_) + pad);
}

double RatioScale::x(double ratio) const {
    double r = usable(ratio) ? std::clamp(ratio, low_, high_) : 1.0;
    return left_ + (right_ - left_) * (std::log(r) - std::log(low_)) / (std::log(high_) - std::log(low_));
}

std::vector<double> RatioScale::ticks() const {
    std::vector<double> out;
    if (high_ / low_ <= 3) {
        // Percent steps: the smallest that gives at most 8 ticks.
        double span = (high_ - low_) * 100;
        double step = 50;
        for (double s : {0.5, 1.0, 2.0, 5.0, 10.0, 20.0, 25.0, 50.0})
            if (span / s <= 8) {
                step = s;
                break;
            }
        for (double p = std::ceil((low_ - 1) * 100 / step) * step; p <= (high_ - 1) * 100 + 1e-9; p += step)
            out.push_back(1 + p / 100);
        return out;
    }
    // 1-2-5 per decade; finer where that leaves fewer than four.
    for (const std::vector<double>& mantissas :
         {std::vector<double>{1, 2, 5}, std::vector<double>{1, 1.5, 2, 3, 5, 7}}) {
        out.clear();
        for (int decade = -12; decade <= 12; ++decade)
            for (double m : mantissas) {
                double v = m * std::pow(10.0, decade);
                if (v >= low_ && v <= high_) out.push_back(v);
            }
        if (out.size() >= 4) break;
    }
    if (out.size() > 9) {  // wide spans: powers of ten only
        std::vector<double> decades;
        for (double v : out)
            if (std::fabs(std::log10(v) - std::round(std::log10(v))) < 1e-9) decades.push_back(v);
        out = decades;
    }
    return out;
}

std::string RatioScale::label(double ratio) const {
    char buffer[32];
    if (high_ / low_ <= 3) {
        double percent = (ratio - 1) * 100;
        if (std::fabs(percent) < 1e-9) return "0%";
        std::snprintf(buffer, sizeof buffer,
                      std::fabs(percent - std::round(percent)) < 1e-9 ? "%+.0f%%" : "%+.1f%%", percent);
        std::string out = buffer;
        if (out[0] == '-') out.replace(0, 1, "\xE2\x88\x92");  // U+2212, the minus sign
        return out;
    }
    std::snprintf(buffer, sizeof buffer, "\xC3\x97%g", ratio);  // "×0.5"
    return buffer;
}

std::string render_forest_plot(const ForestPlot& plot) {
    constexpr double width = 1120, label_right = 390, plot_left = 400, plot_right = 760, row_height = 22;
    constexpr double top = 34;
    std::vector<double> values = {1 - plot.threshold};
    for (const ForestRow& row : plot.rows) {
        for (const auto& v : {row.estimate, row.low, row.high})
            if (v) values.push_back(*v);
        for (const auto& [node, v] : row.points) values.push_back(v);
    }
    RatioScale scale(values, plot_left, plot_right, plot.threshold * 1.5);
    size_t lines = plot.rows.size();
    for (size_t i = 0; i < plot.rows.size(); ++i)
        if (!plot.rows[i].group.empty() && (i == 0 || plot.rows[i].group != plot.rows[i - 1].group)) ++lines;
    double bottom = top + row_height * static_cast<double>(lines) + 6;
    std::string out = svg_open("forest", width, bottom + 44, plot.title);
    double floor_x = scale.x(1 - plot.threshold);
    out += "<rect class=\"band\" x=\"" + svg_number(floor_x) + "\" y=\"" + svg_number(top) + "\" width=\"" +
           svg_number(plot_right - floor_x) + "\" height=\"" + svg_number(bottom - top) +
           "\"><title>within the threshold: a go</title></rect>\n";
    out += ratio_axis(scale, top, bottom, "performance, CAND against BASE (log scale; right is better)");
    out += "<g class=\"threshold-marker\"" + number_attribute("data-value", 1 - plot.threshold) + ">" +
           line(floor_x, top - 6, floor_x, bottom, "threshold") +
           text(floor_x, top - 10, "threshold " + scale.label(1 - plot.threshold), "middle") + "</g>\n";
    out += text(plot_right + 10, top - 10, "change (CAND against BASE)", "start", "heading");
    out += text(width - 4, top - 10, "decision", "end", "heading") + "\n";
    double y = top + row_height / 2;
    for (size_t i = 0; i < plot.rows.size(); ++i) {
        const ForestRow& row = plot.rows[i];
        if (!row.group.empty() && (i == 0 || row.group != plot.rows[i - 1].group)) {
            out += text(4, y + 4, row.group, "start", "heading") + "\n";
            y += row_height;
        }
        out += "<g class=\"row " + html_escape(row.decision) + "\"" + attribute("data-name", row.label);
        if (row.estimate && row.low && row.high)
            out += number_attribute("data-estimate", *row.estimate) + number_attribute("data-low", *row.low) +
                   number_attribute("data-high", *row.high);
        out += "><title>" + html_escape(row.description) + "</title>";
        out += text(label_right, y + 4, fitted(row.label, kLabelCharacters), "end");
        if (row.estimate && row.low && row.high) {
            out += line(scale.x(*row.low), y, scale.x(*row.high), y, "ci");
            out += decision_mark(row.decision, scale.x(*row.estimate), y);
        }
        // One node is the estimate itself: its dot would only hide the mark.
        if (row.points.size() > 1)
            for (const auto& [node, value] : row.points)
                out += "<circle class=\"point\" cx=\"" + svg_number(scale.x(value)) + "\" cy=\"" +
                       svg_number(y + 7) + "\" r=\"2.5\"><title>" +
                       html_escape(node + ": " + scale.label(value)) + "</title></circle>";
        out += text(plot_right + 10, y + 4, fitted(row.change, 40));
        out += text(width - 4, y + 4, row.decision, "end", "verdict") + "</g>\n";
        y += row_height;
    }
    return out + "</svg>\n";
}

std::string render_strip_plot(const StripPlot& plot) {
    constexpr double width = 1120, label_right = 390, plot_left = 400, plot_right = 840, row_height = 26;
    constexpr double top = 30;
    std::vector<double> values;
    for (const StripRow& row : plot.rows) {
        values.insert(values.end(), row.base.begin(), row.base.end());
        values.insert(values.end(), row.next.begin(), row.next.end());
    }
    RatioScale scale(values, plot_left, plot_right, 0.01);
    double bottom = top + row_height * static_cast<double>(plot.rows.size()) + 6;
    bool two_sides = false;
    for (const StripRow& row : plot.rows) two_sides |= !row.next.empty();
    std::string out = svg_open("strip", width, bottom + 44, plot.title);
    out += ratio_axis(scale, top, bottom, plot.axis_caption);
    // The legend: which dots are which side.
    out += "<circle class=\"point base\" cx=\"" + svg_number(plot_left) + "\" cy=\"12\" r=\"3\"/>" +
           text(plot_left + 8, 16, plot.base_name + " repetitions");
    if (two_sides)
        out += "<circle class=\"point new\" cx=\"" + svg_number(plot_left + 220) + "\" cy=\"12\" r=\"3\"/>" +
               text(plot_left + 228, 16, plot.next_name + " repetitions");
    out += text(plot_right + 10, 16, plot.right_heading, "start", "heading") + "\n";
    double y = top + row_height / 2;
    for (const StripRow& row : plot.rows) {
        out += "<g class=\"row " + html_escape(row.css_class) + "\"" + attribute("data-name", row.label) +
               "><title>" + html_escape(row.description) + "</title>";
        out += text(label_right, y + 4, fitted(row.label, kLabelCharacters), "end");
        auto side = [&](const std::vector<double>& points, const std::optional<double>& median, double at,
                        const char* css) {
            std::string marks;
            for (double v : points)
                if (usable(v))
                    marks += "<circle class=\"point " + std::string(css) + "\" cx=\"" +
                             svg_number(scale.x(v)) + "\" cy=\"" + svg_number(at) + "\" r=\"2.5\"/>";
            if (median && usable(*median))
                marks += "<g class=\"median-mark " + std::string(css) + "\"" +
                         number_attribute("data-value", *median) + ">" +
                         line(scale.x(*median), at - 5, scale.x(*median), at + 5, "median") + "</g>";
            return marks;
        };
        out += side(row.base, row.base_median, two_sides ? y - 5 : y, "base");
        if (two_sides) out += side(row.next, row.next_median, y + 5, "new");
        out += text(plot_right + 10, y + 4, fitted(row.right_text, 44)) + "</g>\n";
        y += row_height;
    }
    return out + "</svg>\n";
}

std::string render_heat_map(const HeatMap& map) {
    // A 1,000-node group has tens of thousands of cells: each is a bare rect
    // of a colour class (html_page.cpp's stylesheet, .c0-.c8; .outlier
    // frames it), its node and worst figure in the row's <title>, every
    // figure in the table beside the map, so the page stays a few megabytes.
    constexpr double label_width = 190, cell_width = 26, cell_height = 14, header = 150;
    // Deviation bins, worse to better: Okabe-Ito's vermillion and blue ramps.
    static constexpr double kEdges[] = {-0.10, -0.05, -0.02, -0.01, 0.01, 0.02, 0.05, 0.10};
    static constexpr const char* kBins[] = {"10% or more worse", "5 to 10% worse",  "2 to 5% worse",
                                            "1 to 2% worse",     "within 1%",       "1 to 2% better",
                                            "2 to 5% better",    "5 to 10% better", "10% or more better"};
    const std::string size =
        "\" width=\"" + svg_number(cell_width - 2) + "\" height=\"" + svg_number(cell_height - 2) + "\"";
    double grid_width = cell_width * static_cast<double>(map.columns.size());
    double width = label_width + grid_width + 250;
    double height = header + cell_height * static_cast<double>(map.rows.size()) + 10;
    height = std::max(height, header + 11 * 16.0 + 10);  // the legend: nine bins, missing, outlier
    std::string out = svg_open("heat", width, height, map.title);
    out.replace(out.find(" data-scale=\"log\""), 17, "");
    for (size_t c = 0; c < map.columns.size(); ++c) {
        double x = label_width + cell_width * (static_cast<double>(c) + 0.5);
        out += "<text class=\"column\" transform=\"translate(" + svg_number(x + 4) + "," +
               svg_number(header - 6) + ") rotate(-60)\"><title>" + html_escape(map.columns[c]) + "</title>" +
               html_escape(fitted(map.columns[c], 26)) + "</text>";
    }
    out += "\n";
    char figure[32];
    for (size_t r = 0; r < map.rows.size(); ++r) {
        double y = header + cell_height * static_cast<double>(r);
        const std::vector<double> none;
        const std::vector<double>& values = r < map.deviation.size() ? map.deviation[r] : none;
        // The row's title names the node and its worst benchmark: what a
        // pointer over any of its cells shows.
        std::string row_title = map.rows[r];
        size_t worst = values.size();
        for (size_t c = 0; c < values.size() && c < map.columns.size(); ++c)
            if (std::isfinite(values[c]) && (worst == values.size() || values[c] < values[worst])) worst = c;
        if (worst < values.size()) {
            std::snprintf(figure, sizeof figure, "%+.1f%%", values[worst] * 100);
            row_title += ": worst " + std::string(figure) + " performance against the median, on " +
                         map.columns[worst];
        }
        out += "<g class=\"node\"" + attribute("data-node", map.rows[r]) + "><title>" +
               html_escape(row_title) + "</title>" +
               text(label_width - 6, y + cell_height - 3, fitted(map.rows[r], 28), "end");
        for (size_t c = 0; c < map.columns.size(); ++c) {
            double value = c < values.size() ? values[c] : NAN;
            bool outlier = r < map.outlier.size() && c < map.outlier[r].size() && map.outlier[r][c];
            std::string x = svg_number(label_width + cell_width * static_cast<double>(c) + 1);
            std::string bin = "missing";
            if (std::isfinite(value))
                bin = "c" + std::to_string(std::upper_bound(std::begin(kEdges), std::end(kEdges), value) -
                                           std::begin(kEdges));
            // An outlier's frame is a class of its cell, not another element:
            // a group whose every node is an outlier costs no more bytes.
            out += "<rect class=\"cell " + bin + (outlier ? " outlier" : "") + "\" x=\"" + x + "\" y=\"" +
                   svg_number(y + 1) + size + "/>";
        }
        out += "</g>\n";
    }
    double legend_x = label_width + grid_width + 16;
    out += "<g class=\"legend\">" +
           text(legend_x, header - 6, "performance against the median", "start", "heading");
    for (size_t b = 0; b < 9; ++b) {
        double y = header + 16.0 * static_cast<double>(8 - b);
        out += "<rect class=\"c" + std::to_string(b) + "\" x=\"" + svg_number(legend_x) + "\" y=\"" +
               svg_number(y) + "\" width=\"12\" height=\"12\"/>" + text(legend_x + 18, y + 10, kBins[b]);
    }
    double y = header + 16.0 * 9;
    out += "<rect class=\"cell missing\" x=\"" + svg_number(legend_x) + "\" y=\"" + svg_number(y) +
           "\" width=\"12\" height=\"12\"/>" + text(legend_x + 18, y + 10, "not measured");
    out += "<rect class=\"cell c4 outlier\" x=\"" + svg_number(legend_x) + "\" y=\"" + svg_number(y + 16) +
           "\" width=\"12\" height=\"12\"/>" + text(legend_x + 18, y + 26, "outlier (framed)");
    return out + "</g>\n</svg>\n";
}

}  // namespace strata
