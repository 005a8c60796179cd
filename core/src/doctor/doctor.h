// Runs the suite: the core's probes, every plugin's probe in its own worker,
// then the self-tests in layer order, gated by failed layers.
#pragma once

#include <chrono>
#include <optional>
#include <string>

#include "diagnosis/health_rules.h"
#include "frameworks/framework_layer.h"
#include "model/report.h"
#include "plugins/discovery.h"
#include "probes/probe_context.h"

namespace strata {

struct RunOptions {
    std::string executable;  // this strata binary, re-executed as the worker
    PluginSearchOptions plugins;
    std::optional<std::chrono::milliseconds> timeout;  // overrides every plugin's deadline
    bool selftests = true;
    bool frameworks_scanned = true;  // the framework layer (off for `doctor --level health`)
    FrameworkOptions frameworks;     // which Python environments, and --sm/--driver targets
    HealthOptions health;            // --kernel-log, --expect-gpus
    bool prove_frameworks = false;   // import each framework found (--prove-frameworks)
    // `doctor --level health` judges the node: a library missing from the
    // system's search path (cuDNN, NCCL) is no fault of the node, since
    // clusters often ship them as pip wheels with each job's environment.
    bool missing_library_fails = true;
    // When set, every plugin task must end by then: each worker's deadlines
    // are cut to the time left, and a self-test with no time left is skipped.
    std::optional<std::chrono::steady_clock::time_point> deadline;
};

// Facts describing this build (strata.version, ...), added first.
void add_build_facts(Report& report);

// `strata doctor`: probes, plugins, self-tests.
Report run_doctor(const RunOptions& options, const ProbeContext& context);

// `strata env`: probes and plugin probes, no self-tests.
Report run_environment(const RunOptions& options, const ProbeContext& context);

// `strata plugins`: load each plugin in a worker and describe it.
Report run_load_report(const RunOptions& options);

}  // namespace strata
