// Frameworks proven by running them (`strata frameworks --prove`, `doctor
// --prove-frameworks`): for each framework strata found by reading files,
// the environment's own interpreter imports it in a child process with a
// deadline and reports its own view — versions of CUDA, cuDNN and NCCL, the
// architectures it was built for, whether it sees a GPU and why not, the
// CUDA libraries it actually loaded (/proc/self/maps of the child) — and,
// where a GPU is usable, one small computation it checks. That view is held
// against strata's reading of the files: each disagreement is a finding, so
// the file reader has a second witness on every machine it meets. An import
// that fails is explained in its layer the way `strata explain` would.
#pragma once

#include <chrono>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "frameworks/framework_layer.h"
#include "model/report.h"

namespace strata {

struct ProofOptions {
    std::chrono::milliseconds deadline{120'000};  // per framework: a cold import of a big wheel is slow
};

// What the framework says about itself.
struct FrameworkView {
    bool imported = false;
    double import_seconds = 0;
    std::string version, cuda, cudnn, nccl;
    std::vector<std::string> architectures;  // "sm_80", "compute_90"; empty when it does not say
    std::optional<bool> gpu_usable;
    long long devices = 0;
    std::string unusable_reason;      // what it printed or raised when no GPU is usable
    std::vector<std::string> loaded;  // CUDA libraries mapped into the child, real paths
    // Their own answers (ncclGetVersion, cudnnGetVersion, cudaRuntimeGetVersion):
    // "nccl" -> "2.20.5", "cudnn" -> "8.9.2", "cudart" -> "12.1".
    std::map<std::string, std::string> loaded_versions;
    std::string import_error;           // the last line of the traceback
    std::string traceback;              // its last lines
    std::optional<bool> computed;       // the GPU computation matched the expected value
    std::string computation;            // what was computed, or why it failed
    std::string computation_traceback;  // where it raised, when it did
};

// Runs the child for one install; `problem` says why no view came back
// (a timeout, a crash, output that is not a view) and `status` is the check
// status that goes with it.
std::optional<FrameworkView> ask_framework(const FrameworkInstall& install,
                                           const PythonEnvironment* environment, const ProofOptions& options,
                                           std::string& problem, Status& status);

// The differences between the framework's view and strata's reading, one
// line each ("CUDA: strata read 12.1 in torch/version.py, torch says 12.4").
std::vector<std::string> view_disagreements(const FrameworkInstall& install, const FrameworkView& view);

// One check per install, framework.<id>.proof; `gpus_here`: GPUs the driver
// reports (a framework that sees none of them fails).
void prove_frameworks(const FrameworkLayer& layer, long long gpus_here, const ProofOptions& options,
                      Report& report);

}  // namespace strata
