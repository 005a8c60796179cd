// The framework layer's judgements: for each installed framework, whether its
// device code runs on each GPU (or --sm target), whether its CUDA build suits
// the driver, and whether the loader gives it the CUDA libraries it was
// built with. Static: nothing is imported or launched, so nothing is gated.
#pragma once

#include <string>
#include <vector>

#include "frameworks/framework_install.h"
#include "frameworks/python_environments.h"
#include "model/report.h"
#include "probes/nvml_gpus.h"

namespace strata {

// What the framework builds are judged against.
struct FrameworkTargets {
    std::vector<GpuInfo> gpus;   // the GPUs present, or those named with --sm
    std::string driver_version;  // "570.86.10"; "" unknown
    bool gpus_given = false;     // --sm: the user's targets, not this machine's
    bool driver_given = false;   // --driver
};

// framework.found, then per CUDA build framework.architectures.<id>,
// framework.cuda_driver.<id> and framework.libraries.<id>.
void rule_frameworks(const std::vector<PythonEnvironment>& environments,
                     const std::vector<FrameworkInstall>& installs, const FrameworkTargets& targets,
                     Report& report);

// "9.0.0" is older than "9.1.0.70": compared over the components both have,
// so a file name's three components can be held against a wheel's four.
bool version_older(std::string_view candidate, std::string_view wanted);

}  // namespace strata
