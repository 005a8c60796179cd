// The CUDA runtime against the driver: minor-version compatibility within a
// major, a driver floor per major (arch/ tables), nothing across majors.
#include "diagnosis/fact_access.h"
#include "diagnosis/rules.h"
#include "probes/probes.h"
#include "strata/arch/tables.h"

namespace strata {

void rule_runtime_vs_driver(Report& report) {
    auto runtime = fact_int(report, "runtime.cudart.version");
    auto driver = fact_int(report, "driver.cuda.version");
    if (!driver) driver = fact_int(report, "driver.nvml.cuda_version");
    if (!runtime || !driver || *runtime <= 0 || *driver <= 0) return;
    auto runtime_major = static_cast<uint32_t>(*runtime / 1000);
    auto floor = arch::minor_version_compat_floor(runtime_major);
    std::string needs = "this runtime needs ≥ " + std::to_string(runtime_major) + ".0" +
                        (floor ? " (driver ≥ " + std::to_string(*floor) + ")" : "");
    std::string summary = "driver supports CUDA " + cuda_version_text(*driver) + "; runtime is CUDA " +
                          cuda_version_text(*runtime);
    std::vector<std::string> facts = {"driver.cuda.version", "runtime.cudart.version"};
    if (*driver / 1000 < *runtime / 1000) {
        report.add_check(
            make_check("runtime.driver_compatibility", Layer::runtime, Status::fail,
                       "driver supports CUDA " + cuda_version_text(*driver) + "; " + needs,
                       summary + " (cudart answers error 35, \"driver version is insufficient\")",
                       "update the NVIDIA driver" +
                           (floor ? " to branch " + std::to_string(*floor) + " or newer" : std::string()) +
                           ", or install a runtime (and framework build) for CUDA " +
                           cuda_version_text(*driver) + " or older",
                       facts));
        return;
    }
    if (*driver < *runtime) {
        report.add_check(
            make_check("runtime.driver_compatibility", Layer::runtime, Status::warn,
                       summary + ": runs through minor-version compatibility",
                       "APIs new in CUDA " + cuda_version_text(*runtime) +
                           " and PTX it emits need a driver for CUDA " + cuda_version_text(*runtime),
                       "update the driver if a program JIT-compiles PTX or uses features newer than CUDA " +
                           cuda_version_text(*driver),
                       facts));
        return;
    }
    report.add_check(make_check("runtime.driver_compatibility", Layer::runtime, Status::pass,
                                summary + ": the driver is new enough", "", "", facts));
}

}  // namespace strata
