// The probes the core runs itself, with no plugin and no CUDA. Each reads the
// machine through a ProbeContext and adds facts and checks to the report.
#pragma once

#include "model/report.h"
#include "probes/probe_context.h"

namespace strata {

void probe_host(const ProbeContext& context, Report& report);         // OS, kernel, CPU, PCI
void probe_container(const ProbeContext& context, Report& report);    // container and NVIDIA_* env
void probe_driver(const ProbeContext& context, Report& report);       // kernel module, libcuda
void probe_search_path(const ProbeContext& context, Report& report);  // stubs, duplicate copies
// Device nodes and CUDA_VISIBLE_DEVICES; run after the driver layer, since
// node checks are gated by a failed driver.
void probe_devices(const ProbeContext& context, Report& report);

// All of the above, in layer order.
void run_core_probes(const ProbeContext& context, Report& report);

// Shorthands the probes share.
void add_fact(Report& report, Layer layer, std::string key, Json value, std::string source);
Check make_check(std::string id, Layer layer, Status status, std::string summary, std::string evidence = {},
                 std::string remedy = {}, std::vector<std::string> facts = {});

}  // namespace strata
