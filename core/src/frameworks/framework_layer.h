// The framework layer as a whole: find the Python environments, read the
// frameworks installed there, record them as facts and judge them (checks
// in diagnosis/framework_rules). Runs in the core: it needs arch/ and the
// loader's search path, and imports nothing, so it needs no worker.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "diagnosis/framework_rules.h"
#include "frameworks/python_environments.h"
#include "model/report.h"
#include "probes/probe_context.h"

namespace strata {

struct FrameworkOptions {
    EnvironmentRequest environments;
    std::vector<uint32_t> sms;  // --sm: judge for these instead of the GPUs present
    std::string driver;         // --driver: judge against this instead of the installed one
    // Judged for where no GPU is present and no --sm given (`strata
    // explain` takes the GPU an error message names).
    std::vector<uint32_t> sms_without_gpu;
};

// The targets: --sm / --driver where given, else what `present` found.
FrameworkTargets framework_targets(const FrameworkOptions& options, const GpuDiscovery& present);

struct FrameworkLayer {
    std::vector<PythonEnvironment> environments;
    std::vector<FrameworkInstall> installs;
};

// Finds the environments and reads their frameworks: files only, so it can
// run beside the plugin probes (it asks context.library_search(), which the
// caller initialises first when other threads use the context). Throws
// UsageError for a --python or --site-packages that does not exist.
FrameworkLayer scan_framework_layer(const ProbeContext& context, const FrameworkOptions& options);

// Adds the framework.* facts and checks for what was read.
void judge_framework_layer(const FrameworkLayer& layer, const FrameworkTargets& targets, Report& report);

}  // namespace strata
