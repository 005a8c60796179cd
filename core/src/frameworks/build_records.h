// What each framework records about its own build, read from its files:
// torch/version.py, the jax-cudaNN plugin's name and pins (or jaxlib's local
// version), TensorFlow's build_info.py, CuPy's _wheel.json, ONNX Runtime's
// build_and_package_info.py. Fills cuda_build/cuda_version/cuda_source,
// cudnn_version, nccl_version and build_kind; JAX's release mismatches.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "frameworks/distributions.h"
#include "frameworks/framework_install.h"
#include "strata/arch/tables.h"

namespace strata {

void read_build_record(const FrameworkKind& kind, FrameworkInstall& install,
                       const std::vector<const Distribution*>& dists);

// After its files are read: the CUDA version from the binaries where no
// record says it (the linked runtime's soname), and from its PTX ISA where
// that is newer than the record (a jax plugin whose runtime floor says 12.1
// but whose PTX needs 12.3). Says which in cuda_source.
void derive_cuda_from_binaries(FrameworkInstall& install);

// The CUDA release a build record names: "12.1" -> 12 and 1; "12" or "13.x"
// (any minor) -> the major alone; nullopt where it names none. Read by hand
// with at most five digits a number: records come from files in site-packages.
struct CudaRelease {
    uint32_t major = 0;
    std::optional<uint32_t> minor;
    // As a version to compare, a major alone as its .0.
    arch::CudaVersion version() const { return {major, minor.value_or(0)}; }
};
std::optional<CudaRelease> parse_cuda_release(std::string_view text);

}  // namespace strata
