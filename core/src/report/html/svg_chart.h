// The three plots strata's pages draw, as inline SVG: small enough to write
// by hand (Debian packages no maintained C++ SVG chart library; GNU plotutils'
// libplot is unmaintained and draws no accessible markup), and written so the
// figures can be checked: each mark carries its value in data-* attributes,
// each axis tick its value, so a test in a browser finds a value's pixel.
//   - a forest plot: one row per benchmark, an estimate and its interval of
//     CAND/BASE performance against a threshold (rollout);
//   - a strip plot: each repetition as a point relative to a median, two
//     sides one above the other (compare, bench);
//   - a heat map: nodes x benchmarks, each cell the node's deviation from
//     its like nodes' median (fleet).
// Ratios are drawn on a log scale, so x0.9 and x1.11 lie as far from 1.
// Every plot has a <title> (its accessible name); the page puts the numbers
// behind it in a table beside it.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace strata {

// A log scale over positive ratios onto [left, right] pixels, covering every
// value given and 1, at least `min_half_span` either side of 1.
class RatioScale {
public:
    RatioScale(const std::vector<double>& values, double left, double right, double min_half_span = 0.02);
    double x(double ratio) const;
    double low() const { return low_; }
    double high() const { return high_; }
    // Round values to label: percentages for a narrow span, factors (1-2-5)
    // for a wide one.
    std::vector<double> ticks() const;
    // "-8%", "0%", "+25%"; "x0.5", "x10" for factor ticks.
    std::string label(double ratio) const;

private:
    double low_ = 1, high_ = 1, left_ = 0, right_ = 1;
};

struct ForestRow {
    std::string label;        // the benchmark
    std::string group;        // rows of a group follow its heading (given on the first of each)
    std::string decision;     // "go", "no-go", "inconclusive": the CSS class, and the word at the right
    std::string change;       // the change in the metric's own words, at the right
    std::string description;  // the row's <title>: everything about it in a sentence
    std::optional<double> estimate, low, high;           // CAND/BASE performance: above 1 is better
    std::vector<std::pair<std::string, double>> points;  // per paired node, its performance ratio
};

struct ForestPlot {
    std::string title;
    double threshold = 0.03;  // performance below 1 - threshold is a loss that matters
    std::vector<ForestRow> rows;
};
std::string render_forest_plot(const ForestPlot& plot);

struct StripRow {
    std::string label, right_text, css_class, description;
    // Each repetition divided by the reference (BASE's median, or the run's own).
    std::vector<double> base, next;
    std::optional<double> base_median, next_median;  // likewise relative
};

struct StripPlot {
    std::string title, axis_caption;
    std::string base_name = "BASE", next_name = "NEW";  // the legend; no `next` values: one side only
    std::string right_heading;                          // over the rows' right_text
    std::vector<StripRow> rows;
};
std::string render_strip_plot(const StripPlot& plot);

struct HeatMap {
    std::string title;
    std::vector<std::string> columns;  // benchmarks
    std::vector<std::string> rows;     // nodes, in the order drawn
    // [row][column]: performance against the column's median, signed
    // (-0.15: 15% worse); NaN where the node has no value.
    std::vector<std::vector<double>> deviation;
    std::vector<std::vector<bool>> outlier;  // framed (the table beside it marks them with '!')
};
std::string render_heat_map(const HeatMap& map);

}  // namespace strata
