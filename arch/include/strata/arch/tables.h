// Facts about GPUs, toolkits and drivers that decisions rest on. Every row
// carries its source in a comment in tables.cpp.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace strata::arch {

// A compute capability written as an SM number: 9.0 -> 90, 12.1 -> 121.
inline uint32_t cc_major(uint32_t sm) {
    return sm / 10;
}
inline uint32_t cc_minor(uint32_t sm) {
    return sm % 10;
}
std::string cc_text(uint32_t sm);  // 121 -> "12.1"

struct ArchInfo {
    uint32_t sm;
    std::string_view architecture;  // "Hopper"
    std::string_view products;      // "H100, H200, GH200"
    bool tegra;                     // SASS for desktop and Tegra never cross
    std::string_view first_cuda;    // first toolkit that can build SASS for it
    std::string_view removed_in;    // toolkit that dropped it, "" if still built
};

const std::vector<ArchInfo>& architectures();
const ArchInfo* find_architecture(uint32_t sm);

// The compute capabilities a family target (sm_100f, compute_120f) runs on.
std::vector<uint32_t> family_members(uint32_t family_sm);

// Parses "90", "9.0", "sm_90", "compute_90", "sm_90a"; nullopt if not a CC.
std::optional<uint32_t> parse_compute_capability(std::string_view text);

// A driver version as the kernel module prints it: "580.65.06".
struct DriverVersion {
    uint32_t major = 0, minor = 0, patch = 0;
    std::string text;
    bool operator<(const DriverVersion& other) const;
};
std::optional<DriverVersion> parse_driver_version(std::string_view text);

// A CUDA release, as 13.1 -> {13, 1}.
struct CudaVersion {
    uint32_t major = 0, minor = 0;
    std::string text() const;
    bool operator<(const CudaVersion& other) const {
        return major != other.major ? major < other.major : minor < other.minor;
    }
    bool operator<=(const CudaVersion& other) const { return !(other < *this); }
};

// The newest CUDA release whose toolkit driver this Linux driver satisfies
// ("580.65.06" -> 13.0); nullopt for drivers older than every row.
std::optional<CudaVersion> cuda_supported_by_driver(const DriverVersion& driver);

// Minor-version compatibility: the oldest driver branch that runs any
// toolkit of this CUDA major (13 -> 580); nullopt if unknown.
std::optional<uint32_t> minor_version_compat_floor(uint32_t cuda_major);

// The CUDA release (and so driver) that can JIT a PTX ISA version ("9.1" -> 13.1).
std::optional<CudaVersion> cuda_for_ptx_isa(uint32_t isa_major, uint32_t isa_minor);

// ZSTD-compressed fat-binary images need a driver of the CUDA 12.4 (R550) generation.
const DriverVersion& zstd_minimum_driver();

}  // namespace strata::arch
