// Renderings of a fleet analysis: text (one line per problem, worst first),
// JSON (docs/fleet.schema.json), Markdown, node_exporter metrics, and the
// `scontrol` commands that drain the nodes that need attention.
#pragma once

#include <string>
#include <vector>

#include "fleet.h"
#include "model/fact.h"

namespace strata::fleet {

inline constexpr const char* fleet_schema_version = "1.2.0";

std::string render_fleet_text(const FleetResult& result);
Json fleet_to_json(const FleetResult& result);
std::string render_fleet_markdown(const FleetResult& result);
std::string render_fleet_prometheus(const FleetResult& result);
// One self-contained page: the nodes that need attention (failing and missing
// first), then per group of like nodes a heat map of every node's deviation
// from the group median on every benchmark, outliers marked, and its numbers.
std::string render_fleet_html(const FleetResult& result);

// One `scontrol update nodename=N state=drain reason="strata-fleet: …"` per node
// that needs attention, as argv (run without a shell). A node name from a
// record is untrusted: one that is not a plain host name ("n[1-100]" would
// drain a hundred nodes) gets no command and is listed in `refused`.
struct DrainPlan {
    std::vector<std::vector<std::string>> commands;
    std::vector<std::string> refused;
};
DrainPlan drain_commands(const FleetResult& result);
// The command as a person would type it, quoted for a POSIX shell.
std::string shell_command(const std::vector<std::string>& argv);

}  // namespace strata::fleet
