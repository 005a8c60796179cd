// The one way strata says how a figure moved, shared by `compare`, `bench
// --side-by-side`, `rollout` and `fleet`: in the metric's own terms, signed,
// with the word for the direction. A time 17.8% longer is "+17.8% time
// (slower)", never "-15.1%" or "1.178"; a bandwidth 5% lower is "-5.0% GB/s
// (slower)". The ratio is always new over base (CAND/BASE, a node over its
// group's median) of the metric itself.
#pragma once

#include <optional>
#include <string>

namespace strata::bench {

// What the metric measures, as a reader names it: "time" for real_time and
// cpu_time, "GB/s" for byte rates and busbw, "FLOP/s", "items/s", else the
// counter's own name.
std::string metric_word(const std::string& metric);

// "slower"/"faster" for times and rates, "worse"/"better" for any other
// metric, "no change" within 0.05%.
std::string direction_word(double ratio, const std::string& metric, bool bigger_is_better);

// "+17.8%" for ratios between 0.1 and 10, else "x0.012" or "x250": the
// change of a value by `ratio`.
std::string signed_change(double ratio);

// "+17.8% time (slower)"; with an interval: "+17.8% time [+10.1%, +25.0%]
// (slower)".
std::string change_text(double ratio, const std::string& metric, bool bigger_is_better,
                        std::optional<double> low = std::nullopt, std::optional<double> high = std::nullopt);

// 1234.5 ns -> "1.234 us": a time in the unit that reads best.
std::string time_text(double ns);

}  // namespace strata::bench
