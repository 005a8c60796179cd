#include "diagnosis/rules.h"

namespace strata {

void run_diagnosis_rules(const ProbeContext& context, Report& report) {
    rule_cuda_init(context, report);
    rule_driver_versions_agree(report);
    rule_nvml_init(report);
    rule_device_counts(context, report);
    rule_compute_mode(report);
    rule_runtime_vs_driver(report);
    rule_library_copies(context, report);
    rule_library_cuda(report);
    rule_library_images(report);
}

}  // namespace strata
