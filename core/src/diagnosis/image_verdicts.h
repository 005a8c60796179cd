// Which image of each file's device code each GPU would load (native SASS, a
// PTX JIT, or none), judged by arch/ — shared by the check of strata's own
// kernels and the check of the libraries' fat binaries.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "model/report.h"
#include "probes/nvml_gpus.h"

namespace strata {

// The GPUs the driver plugin reported (CUDA's numbering) and the driver's
// version (NVML's, else the kernel module's); empty when the plugin did not run.
GpuDiscovery gpus_from_facts(const Report& report);

struct FileVerdicts {
    Status worst = Status::pass;  // pass native, warn JIT only, fail no image
    std::string evidence;        // "GPU 0 (H200, CC 9.0): libx.so -> sm_90 (native)", a line per GPU and file
    std::string first_problem;   // the first GPU and file with the worst verdict, with arch/'s reason
    size_t files_with_code = 0;  // files that hold any device code (others are skipped)
    size_t files_failing = 0;    // of those, files with no image for some GPU
    // The warning is a few fat binaries this driver refuses in a library
    // that runs native (arch::BinaryDecision::driver_refused), not PTX JIT.
    bool worst_is_refusal = false;
    // Per GPU and file, each fat binary whose code for that GPU is PTX alone
    // (arch::BinaryDecision::jit_fat_binaries): what loading the file hands
    // the driver's JIT. The bytes are the whole container, header included.
    struct JitFatBinary {
        uint32_t sm = 0;
        std::string file;
        uint64_t offset = 0, bytes = 0;
        std::string image;  // the PTX compiled: "compute_90"
    };
    std::vector<JitFatBinary> jit_fat_binaries;
};

// What to do about FileVerdicts::worst_is_refusal: nothing urgent.
std::string refused_code_remedy();

FileVerdicts judge_files(const std::vector<std::string>& files, const std::vector<GpuInfo>& gpus,
                         const std::string& driver_version);

// `path` relative to `base` where it lies under it, else `path` as given:
// how a framework's files are named (torch/lib/libtorch_cuda.so).
std::string path_under(const std::string& path, const std::string& base);

// FileVerdicts::jit_fat_binaries as a fact's value, by GPU and file (paths
// relative to `base` where they lie under it): [{"cc": "9.0", "file":
// "torch/lib/libtorch_cuda.so", "fat_binaries": [[offset, bytes], ...]}].
Json jit_fat_binaries_json(const std::vector<FileVerdicts::JitFatBinary>& fat_binaries,
                           const std::string& base);

}  // namespace strata
