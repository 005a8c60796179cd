// The report: every fact, check and plugin outcome of one strata run.
#pragma once

#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "model/check.h"
#include "model/fact.h"
#include "model/measurement.h"
#include "model/plugin_record.h"

namespace strata {

// Why a layer's dependent work was not run: an earlier layer failed.
struct Gate {
    Layer failed_layer;
    std::string failures;  // that layer's failed checks' summaries, joined by " / "

    std::string reason() const;
};

struct LayerSummary {
    Layer layer;
    Status status;
    std::string summary;
};

class Report {
public:
    // A fact with a key already present replaces the earlier value.
    void add_fact(Fact fact);
    void add_check(Check check);
    void add_plugin(PluginRecord record);
    void add_measurement(Measurement measurement);

    const std::vector<Fact>& facts() const { return facts_; }
    const std::vector<Check>& checks() const { return checks_; }
    const std::vector<PluginRecord>& plugins() const { return plugins_; }
    const std::vector<Measurement>& measurements() const { return measurements_; }
    const Fact* find_fact(std::string_view key) const;
    const Check* find_check(std::string_view id) const;
    // The check `id` about GPU `device` (per-GPU checks share their id).
    const Check* find_check(std::string_view id, int device) const;

    // The earliest layer before `layer` with a failed check, if any. Work in
    // `layer` that needs the earlier layers to function is then skipped.
    std::optional<Gate> gate_for(Layer layer) const;
    // The same, counting failures in `layer` itself: what gates a self-test.
    std::optional<Gate> gate_through(Layer layer) const;

    // A check that would have run in `layer` but is gated.
    Check gated_check(std::string id, Layer layer, std::string what, const Gate& gate) const;

    // One line per layer, worst status first; empty layers say so.
    std::vector<LayerSummary> layer_summaries() const;

    // 0 every check passed (warnings allowed), 1 something failed.
    int exit_code() const;
    // Marks the checks whose id matches a shell pattern as ignored.
    void ignore_checks(const std::vector<std::string>& patterns);

    // The summaries of the layer's failed checks, joined with " / ".
    // gating_only: only the failures that gate later layers, which are all
    // but node health (health.*): its verdict drains a node whose stack may
    // still work, and must not keep the self-tests from proving that it does.
    std::string failure_summaries(Layer layer, bool gating_only = false) const;

private:
    std::vector<Fact> facts_;
    std::unordered_map<std::string, size_t> fact_index_;
    std::vector<Check> checks_;
    std::vector<PluginRecord> plugins_;
    std::vector<Measurement> measurements_;
};

// Whether a check id matches one of --ignore-check's shell patterns: the one
// rule doctor, record, fleet and rollout set checks aside by.
bool matches_ignore_pattern(const std::string& id, const std::vector<std::string>& patterns);

}  // namespace strata
