#include "change_text.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace strata::bench {

namespace {

bool is_time(const std::string& metric) {
    return metric == "real_time" || metric == "cpu_time";
}

bool is_rate(const std::string& metric) {
    return metric.ends_with("_per_second") || metric == "busbw" || metric.ends_with("bandwidth");
}

}  // namespace

std::string metric_word(const std::string& metric) {
    if (is_time(metric)) return "time";
    if (metric.ends_with("bytes_per_second") || metric == "busbw") return "GB/s";
    if (metric == "flops_per_second") return "FLOP/s";
    if (metric == "items_per_second") return "items/s";
    return metric;
}

std::string direction_word(double ratio, const std::string& metric, bool bigger_is_better) {
    if (std::fabs(ratio - 1) < 5e-4) return "no change";
    bool better = bigger_is_better ? ratio > 1 : ratio < 1;
    if (is_time(metric) || is_rate(metric)) return better ? "faster" : "slower";
    return better ? "better" : "worse";
}

std::string signed_change(double ratio) {
    char text[32];
    if (ratio > 0.1 && ratio < 10)
        std::snprintf(text, sizeof text, "%+.1f%%", (ratio - 1) * 100);
    else
        std::snprintf(text, sizeof text, "x%.3g", ratio);
    return text;
}

std::string change_text(double ratio, const std::string& metric, bool bigger_is_better,
                        std::optional<double> low, std::optional<double> high) {
    std::string out = signed_change(ratio) + " " + metric_word(metric);
    if (low && high)
        out +=
            " [" + signed_change(std::min(*low, *high)) + ", " + signed_change(std::max(*low, *high)) + "]";
    return out + " (" + direction_word(ratio, metric, bigger_is_better) + ")";
}

std::string time_text(double ns) {
    char text[32];
    // Past a million seconds "%.3f" would outgrow the buffer and be cut
    // without its unit; such a time is corrupt or hostile, shown as it is.
    if (ns >= 1e15)
        std::snprintf(text, sizeof text, "%.3g s", ns / 1e9);
    else if (ns >= 1e9)
        std::snprintf(text, sizeof text, "%.3f s", ns / 1e9);
    else if (ns >= 1e6)
        std::snprintf(text, sizeof text, "%.3f ms", ns / 1e6);
    else if (ns >= 1e3)
        std::snprintf(text, sizeof text, "%.3f us", ns / 1e3);
    else
        std::snprintf(text, sizeof text, "%.1f ns", ns);
    return text;
}

}  // namespace strata::bench
