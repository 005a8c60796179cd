// Renderings of a rollout decision: text for a terminal, Markdown for the
// change ticket, JSON (docs/rollout.schema.json) with the decision at its top.
#pragma once

#include <string>

#include "model/fact.h"
#include "rollout.h"

namespace strata::fleet {

inline constexpr const char* rollout_schema_version = "1.1.0";

std::string render_rollout_text(const RolloutResult& result);
std::string render_rollout_markdown(const RolloutResult& result);
Json rollout_to_json(const RolloutResult& result);
// One self-contained page: the decision and its reasons, what changed,
// compatibility, then a forest plot of every benchmark (grouped as the text
// groups them) with the table of its numbers.
std::string render_rollout_html(const RolloutResult& result);

}  // namespace strata::fleet
