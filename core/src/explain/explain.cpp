#include "explain/explain.h"

#include <regex>

#include "probes/text_util.h"

namespace strata {

namespace {

const std::vector<std::vector<std::regex>>& compiled_patterns() {
    static const std::vector<std::vector<std::regex>> compiled = [] {
        std::vector<std::vector<std::regex>> out;
        for (const ExplainRule& rule : explain_rules()) {
            auto& patterns = out.emplace_back();
            for (const std::string& pattern : rule.patterns)
                patterns.emplace_back(pattern, std::regex::ECMAScript | std::regex::icase);
        }
        return out;
    }();
    return compiled;
}

const Check* find_check(const Report& report, const std::string& id) {
    bool prefix = !id.empty() && id.back() == '.';
    const Check* worst = nullptr;
    for (const Check& check : report.checks()) {
        bool match = prefix ? check.id.rfind(id, 0) == 0 : check.id == id;
        if (match && (!worst || severity(check.status) > severity(worst->status))) worst = &check;
    }
    return worst;
}

}  // namespace

Classification classify_error(std::string_view text, bool in_container) {
    // Line by line, each capped: std::regex recurses per character, so a
    // pasted multi-megabyte log must never reach it as one subject.
    constexpr size_t kMaxLine = 4096;
    std::vector<std::string> lines;
    for (std::string_view line : split_lines(text)) lines.emplace_back(line.substr(0, kMaxLine));
    const auto& rules = explain_rules();
    const auto& patterns = compiled_patterns();
    for (size_t i = 0; i < rules.size(); ++i) {
        for (const std::regex& pattern : patterns[i]) {
            for (const std::string& line : lines) {
                std::smatch match;
                if (!std::regex_search(line, match, pattern)) continue;
                const ExplainRule& rule = rules[i];
                bool swap = in_container && !rule.failure_class_in_container.empty();
                return {&rule, swap ? rule.failure_class_in_container : rule.failure_class, match.str()};
            }
        }
    }
    return {};
}

std::vector<CauseVerdict> evaluate_causes(const ExplainRule& rule, const Report& machine) {
    std::vector<CauseVerdict> out;
    for (const ExplainCause& cause : rule.causes) {
        const Check* check = find_check(machine, cause.check_id);
        if (!check) {
            out.push_back(
                {&cause, CauseState::unknown, "no " + cause.check_id + " check ran on this machine"});
            continue;
        }
        bool holds =
            std::find(cause.holds_on.begin(), cause.holds_on.end(), check->status) != cause.holds_on.end();
        CauseState state = holds                           ? CauseState::holds
                           : check->status == Status::pass ? CauseState::ruled_out
                                                           : CauseState::unknown;
        out.push_back({&cause, state, check->id + ": " + check->summary});
    }
    return out;
}

}  // namespace strata
