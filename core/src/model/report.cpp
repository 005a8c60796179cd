#include "model/report.h"

#include <fnmatch.h>

#include <algorithm>

namespace strata {

std::string Gate::reason() const {
    return std::string(layer_name(failed_layer)) + " layer failed: " + failures;
}

void Report::add_fact(Fact fact) {
    auto it = fact_index_.find(fact.key);
    if (it != fact_index_.end()) {
        facts_[it->second] = std::move(fact);
        return;
    }
    fact_index_.emplace(fact.key, facts_.size());
    facts_.push_back(std::move(fact));
}

void Report::add_check(Check check) {
    checks_.push_back(std::move(check));
}

void Report::add_plugin(PluginRecord record) {
    plugins_.push_back(std::move(record));
}

void Report::add_measurement(Measurement measurement) {
    measurements_.push_back(std::move(measurement));
}

const Fact* Report::find_fact(std::string_view key) const {
    auto it = fact_index_.find(std::string(key));
    return it == fact_index_.end() ? nullptr : &facts_[it->second];
}

const Check* Report::find_check(std::string_view id) const {
    for (const Check& check : checks_)
        if (check.id == id) return &check;
    return nullptr;
}

const Check* Report::find_check(std::string_view id, int device) const {
    for (const Check& check : checks_)
        if (check.id == id && check.device == device) return &check;
    return nullptr;
}

std::string Report::failure_summaries(Layer layer, bool gating_only) const {
    std::string out;
    for (const Check& check : checks_)
        if (check.layer == layer && is_failure(check.status) &&
            !(gating_only && check.id.rfind("health.", 0) == 0))
            out += (out.empty() ? "" : " / ") + check.summary;
    return out;
}

namespace {

// The first layer, in checking order, up to `last` that has a failure that
// gates (node health does not).
std::optional<Gate> first_failed_layer(const Report& report, Layer last, bool include_last) {
    if (!layer_is_gated(last)) return std::nullopt;
    for (Layer earlier : all_layers) {
        int rank = layer_rank(earlier), limit = layer_rank(last);
        if (rank > limit || (rank == limit && !include_last)) break;
        std::string failures = report.failure_summaries(earlier, true);
        if (!failures.empty()) return Gate{earlier, std::move(failures)};
    }
    return std::nullopt;
}

}  // namespace

std::optional<Gate> Report::gate_for(Layer layer) const {
    return first_failed_layer(*this, layer, false);
}

std::optional<Gate> Report::gate_through(Layer layer) const {
    return first_failed_layer(*this, layer, true);
}

Check Report::gated_check(std::string id, Layer layer, std::string what, const Gate& gate) const {
    Check check;
    check.id = std::move(id);
    check.layer = layer;
    check.status = Status::skip;
    check.summary = std::move(what) + " skipped: " + gate.reason();
    check.evidence = "not run because an earlier layer failed";
    return check;
}

std::vector<LayerSummary> Report::layer_summaries() const {
    std::vector<LayerSummary> out;
    for (Layer layer : all_layers) {
        const Check* worst = nullptr;
        int counted = 0;
        for (const Check& check : checks_) {
            if (check.layer != layer) continue;
            ++counted;
            if (!worst || severity(check.status) > severity(worst->status)) worst = &check;
        }
        auto gate = gate_for(layer);
        if (worst && worst->status == Status::skip && gate) {
            // Only skips here, and an earlier layer failed: that is the reason.
            out.push_back({layer, Status::skip, "skipped: " + gate->reason()});
        } else if (worst) {
            std::string summary =
                worst->status == Status::pass
                    ? std::to_string(counted) + (counted == 1 ? " check passed" : " checks passed")
                : is_failure(worst->status) ? failure_summaries(layer)
                                            : worst->summary;
            out.push_back({layer, worst->status, std::move(summary)});
        } else if (gate) {
            out.push_back({layer, Status::skip, "skipped: " + gate->reason()});
        } else {
            out.push_back({layer, Status::skip, "nothing to check: no plugin covers this layer"});
        }
    }
    return out;
}

int Report::exit_code() const {
    bool failed = std::any_of(checks_.begin(), checks_.end(),
                              [](const Check& check) { return is_failure(check.status) && !check.ignored; });
    return failed ? 1 : 0;
}

void Report::ignore_checks(const std::vector<std::string>& patterns) {
    for (Check& check : checks_)
        if (matches_ignore_pattern(check.id, patterns)) check.ignored = true;
}

bool matches_ignore_pattern(const std::string& id, const std::vector<std::string>& patterns) {
    for (const std::string& pattern : patterns)
        if (::fnmatch(pattern.c_str(), id.c_str(), 0) == 0) return true;
    return false;
}

}  // namespace strata
