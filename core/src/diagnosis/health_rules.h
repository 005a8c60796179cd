// Node health, judged: is this GPU node fit to run work? Xid events from the
// kernel log matched to GPUs by PCI address (also GPUs that have since
// disappeared), memory health (ECC counts, retired pages, row remapping),
// throttling and heat, PCIe and NVLink links, the expected number of GPUs,
// and GPUs far below the node's median (stragglers). One check per concern
// for the whole node, naming the GPUs at fault, so a fleet groups them:
//   health.xid, health.memory, health.throttling, health.pcie,
//   health.nvlink, health.gpu_count, health.stragglers
// A check whose facts no source gave is left out, not passed.
#pragma once

#include <optional>
#include <string>

#include "model/report.h"
#include "probes/probe_context.h"

namespace strata {

struct HealthOptions {
    std::string kernel_log;             // --kernel-log FILE; empty: the live log
    std::optional<long> expected_gpus;  // --expect-gpus N
};

void judge_node_health(const ProbeContext& context, const HealthOptions& options, Report& report);

enum class HealthVerdict { healthy, warning, drain, unknown };
std::string_view health_verdict_name(HealthVerdict verdict);

// drain: a check failed (not ignored); unknown: a health.* check could not
// look (skip: NVML down, the kernel log unreadable), so the node must not be
// resumed on this run's word; warning: a health.* check warns; healthy
// otherwise.
HealthVerdict health_verdict(const Report& report);

// "0000:3B:00.0", "00000000:3b:00.0", "0000:3b:00" -> "0000:3b:00"; "" when
// the text is not a PCI address.
std::string canonical_pci(const std::string& address);

}  // namespace strata
