// Facts a pasted log shows beside its error that change what the error means.
// Four are read here:
//  - the loader taking cuda-compat's libcuda (an ldconfig or ldd line, a
//    path on LD_LIBRARY_PATH): a driver-version mismatch (803) then means the
//    compat package is in the way of a host driver that does not want it;
//  - a CUDA_VISIBLE_DEVICES value that selects no GPU (empty, -1, NoDevFiles,
//    an unexpanded shell variable): a no-device error then means the process
//    hid the GPUs, not that the driver is missing;
//  - a CUDA toolkit (nvcc -V, a cuda-X.Y directory) newer than the CUDA the
//    driver supports (nvidia-smi's header, a driver version), in a log of a
//    program that compiles device code at run time (JAX/XLA, CuPy, numba,
//    Triton, NVRTC): "no kernel image" then means code that toolkit compiled
//    is newer than the driver can load. A framework's prebuilt kernels
//    (PyTorch's) are not compiled by the toolkit, so there it still means
//    the GPU's architecture.
// (The LD_LIBRARY_PATH value beside a version mismatch is search_path_evidence.h.)
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "explain/explain.h"

namespace strata {

class DeciderContext {
public:
    // `lower` is `line` in ASCII lower case; `line_number` is 1-based.
    void read(std::string_view line, std::string_view lower, size_t line_number);

    // The finding that re-reads `decider` in the light of the log, ranked just
    // above it; empty when the log shows nothing that changes its meaning.
    std::optional<Finding> reread(const Finding& decider) const;

    // Whether a line showed the driver's version (and so a driver).
    bool shows_driver_version() const { return driver_version_shown_; }

    // Every lower-case word read() looks for: a line holding none of them
    // tells it nothing (explain skips such lines unread).
    static std::vector<std::string_view> words();

private:
    struct Shown {
        std::string value;  // as the log spells it
        std::string line_text;
        size_t line_number = 0;
    };
    std::optional<Shown> compat_libcuda_;
    std::optional<Shown> hiding_visible_devices_;
    std::optional<Shown> libcuda_present_;
    struct Release {
        uint32_t major = 0, minor = 0;
        Shown shown;
    };
    std::optional<Release> toolkit_;
    std::optional<Release> driver_cuda_;
    bool compiles_at_run_time_ = false;
    bool driver_version_shown_ = false;
};

}  // namespace strata
