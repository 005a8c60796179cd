// The Prometheus text exposition format (version 0.0.4) as node_exporter's
// textfile collector reads it: one HELP and TYPE line per family, then its
// samples; label values escaped; no timestamps (node_exporter refuses a whole
// file whose samples carry them).
#pragma once

#include <map>
#include <string>
#include <utility>
#include <vector>

namespace strata {

using PrometheusLabels = std::vector<std::pair<std::string, std::string>>;

class PrometheusText {
public:
    // Declares a family (a second declaration of the same name is ignored).
    // `type`: "gauge" or "counter". Names must be valid metric names.
    void family(const std::string& name, const std::string& help, const std::string& type = "gauge");
    // A sample of a declared family. Non-finite values are written as
    // Prometheus spells them (NaN, +Inf, -Inf). A sample whose labels repeat
    // an earlier one of the family is dropped (Prometheus rejects duplicates).
    void sample(const std::string& name, const PrometheusLabels& labels, double value);
    std::string render() const;

private:
    struct Family {
        std::string help, type;
        std::vector<std::string> lines;
        std::vector<std::string> label_sets;  // rendered, to refuse duplicates
    };
    std::vector<std::string> order_;
    std::map<std::string, Family> families_;
};

// A metric-name-safe form of free text: [a-zA-Z0-9_], lower case, runs of
// anything else folded to one '_' ("busbw (B/s)" -> "busbw_b_s").
std::string prometheus_name_part(const std::string& text);

}  // namespace strata
