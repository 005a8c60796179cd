// Diagnosis rules: judgements that correlate facts from several layers (the
// core's probes and the plugins' probes), run after every probe and before
// any self-test so a failure they find gates the self-tests it should.
#pragma once

#include "model/report.h"
#include "probes/probe_context.h"

namespace strata {

void run_diagnosis_rules(const ProbeContext& context, Report& report);

// One rule each (exposed for tests).
void rule_cuda_init(const ProbeContext& context, Report& report);       // driver.cuda_init
void rule_driver_versions_agree(Report& report);                        // driver.version_agreement
void rule_nvml_init(Report& report);                                    // driver.nvml_init
void rule_runtime_vs_driver(Report& report);                            // runtime.driver_compatibility
void rule_device_counts(const ProbeContext& context, Report& report);   // device.count_agreement
void rule_compute_mode(Report& report);                                 // device.compute_mode
void rule_library_copies(const ProbeContext& context, Report& report);  // library.<plugin>.copies
void rule_library_cuda(Report& report);                                 // library.<lib>.cuda_compatibility
void rule_library_images(Report& report);                               // library.<plugin>.images

// "libcuda.so.580.65.06" in a path -> "580.65.06"; "" if the name has none.
std::string version_from_library_path(std::string_view path, std::string_view soname_stem);

// "libnccl.so.2.27.7" -> "libnccl.so.2"; a name without ".so." is returned whole.
std::string soname_from_file_name(std::string_view name);

}  // namespace strata
