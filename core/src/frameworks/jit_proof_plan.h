// What `strata bench --jit-installed` hands the driver: every fat binary of
// every installed framework (and the packages built on it) whose code for
// the GPU is PTX alone — the ones the driver's JIT compiles when the
// framework loads them, exactly as `strata frameworks` judges them (its
// framework.<id>.jit_fat_binaries facts), but without the driver gate: PTX
// the installed driver refuses is handed over too, so a rollout sees which
// driver compiles it. The runner loads each one with the JIT cache disabled
// (bench/runner/jit_proof.h); nothing is launched.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "frameworks/framework_layer.h"
#include "model/fact.h"

namespace strata {

struct JitProofItem {
    std::string
        name;  // "torch/torch/lib/libtorch_cuda.so@0x1a2b40": install id, file under site-packages, offset
    std::string file;  // the absolute path the runner reads
    uint64_t offset = 0, bytes = 0;
    std::string image;  // the PTX the driver compiles: "compute_90"
};

struct JitProofPlan {
    std::vector<JitProofItem> items;
    // Installs left out, and why (an environment others could write, when
    // strata runs as root: its code is compiled by the driver as strata).
    std::vector<std::string> left_out;
    size_t installs = 0;  // installs with device code that were judged
};

// For a GPU of compute capability `sm` (90 for 9.0).
JitProofPlan plan_jit_proof(const FrameworkLayer& layer, uint32_t sm);

// The list the runner reads (STRATA_BENCH_JIT_LIST): {"fat_binaries": [{"name",
// "file", "offset", "bytes", "image"}, ...]}.
Json jit_proof_list(const JitProofPlan& plan);

}  // namespace strata
