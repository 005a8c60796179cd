#include "strata/arch/tables.h"

#include <algorithm>
#include <charconv>

namespace strata::arch {

namespace {

// Sources: CUDA Programming Guide, Compute Capabilities appendix; developer.nvidia.com/cuda-gpus
// and /cuda-legacy-gpus (products); CUDA 13.0/13.1 release notes ("Offline compilation and
// library support for [Maxwell, Pascal, Volta] have been removed in CUDA Toolkit 13.0"); llvm PRs
// #136639 (sm_103/121 in PTX 8.8), #170258 (sm_101 renamed sm_110 in 13.0, sm_88 added);
// nvcc 13.0 --list-gpu-code. Collected in shared/reference/cuda-binaries-and-compatibility.md §3.1.
const std::vector<ArchInfo> table = {
    {35, "Kepler", "K40, K80", false, "5.0", "12.0"},
    {37, "Kepler", "K80", false, "6.5", "12.0"},
    {50, "Maxwell", "GTX 750, Quadro K2200", false, "6.0", "13.0"},
    {52, "Maxwell", "GTX 9xx, M40", false, "6.5", "13.0"},
    {53, "Maxwell", "Jetson Nano", true, "7.0", "13.0"},
    {60, "Pascal", "P100", false, "8.0", "13.0"},
    {61, "Pascal", "GTX 10xx, P4, P40", false, "8.0", "13.0"},
    {62, "Pascal", "Jetson TX2", true, "8.0", "13.0"},
    {70, "Volta", "V100", false, "9.0", "13.0"},
    {72, "Volta", "Jetson AGX Xavier", true, "10.0", "13.0"},
    {75, "Turing", "T4, RTX 20xx, Quadro RTX", false, "10.0", ""},
    {80, "Ampere", "A100, A30", false, "11.0", ""},
    {86, "Ampere", "A10, A40, RTX A6000, RTX 30xx", false, "11.1", ""},
    {87, "Ampere", "Jetson AGX Orin, Orin NX, Orin Nano", true, "11.4", ""},
    {88, "Ampere", "(not on NVIDIA's public table)", false, "13.0", ""},
    {89, "Ada Lovelace", "L4, L40, L40S, RTX 40xx, RTX 6000 Ada", false, "11.8", ""},
    {90, "Hopper", "H100, H200, GH200", false, "11.8", ""},
    {100, "Blackwell", "B200, GB200", false, "12.8", ""},
    {101, "Blackwell (Thor, before CUDA 13)", "Jetson Thor", true, "12.8", "13.0"},
    {103, "Blackwell Ultra", "B300, GB300", false, "12.9", ""},
    {110, "Blackwell (Thor)", "Jetson T5000, T4000", true, "13.0", ""},
    {120, "Blackwell", "RTX 50xx, RTX PRO 6000/5000/4500/4000/2000 Blackwell", false, "12.8", ""},
    {121, "Blackwell (GB10)", "DGX Spark", false, "12.9", ""},
};

// Source: CUDA 13.1 and 13.2 release notes, "CUDA Toolkit and Corresponding Driver Versions"
// (Linux x86_64 column, GA and update releases); reference sheet §4.1.
struct ToolkitDriver {
    CudaVersion cuda;
    DriverVersion driver;
};
const std::vector<ToolkitDriver>& toolkit_drivers() {
    static const std::vector<ToolkitDriver> rows = [] {
        std::vector<std::pair<CudaVersion, std::string_view>> text = {
            {{10, 2}, "440.33"},    {{11, 0}, "450.36.06"}, {{11, 1}, "455.23"},    {{11, 2}, "460.27.03"},
            {{11, 3}, "465.19.01"}, {{11, 4}, "470.42.01"}, {{11, 5}, "495.29.05"}, {{11, 6}, "510.39.01"},
            {{11, 7}, "515.43.04"}, {{11, 8}, "520.61.05"}, {{12, 0}, "525.60.13"}, {{12, 1}, "530.30.02"},
            {{12, 2}, "535.54.03"}, {{12, 3}, "545.23.06"}, {{12, 4}, "550.54.14"}, {{12, 5}, "555.42.02"},
            {{12, 6}, "560.28.03"}, {{12, 8}, "570.26"},    {{12, 9}, "575.51.03"}, {{13, 0}, "580.65.06"},
            {{13, 1}, "590.44.01"}, {{13, 2}, "595.45.04"},
        };
        std::vector<ToolkitDriver> out;
        for (auto& [cuda, driver] : text) out.push_back({cuda, *parse_driver_version(driver)});
        return out;
    }();
    return rows;
}

}  // namespace

std::string cc_text(uint32_t sm) {
    return std::to_string(cc_major(sm)) + "." + std::to_string(cc_minor(sm));
}

std::string CudaVersion::text() const {
    return std::to_string(major) + "." + std::to_string(minor);
}

const std::vector<ArchInfo>& architectures() {
    return table;
}

const ArchInfo* find_architecture(uint32_t sm) {
    for (const ArchInfo& info : table)
        if (info.sm == sm) return &info;
    return nullptr;
}

std::vector<uint32_t> family_members(uint32_t family_sm) {
    // Source: CUDA Programming Guide, Compute Capabilities appendix, Table 28 (family-specific
    // targets): 100f -> 10.0, 10.3; 103f -> 10.3; 110f -> 11.0; 120f -> 12.0, 12.1; 121f -> 12.1.
    switch (family_sm) {
        case 100: return {100, 103};
        case 120: return {120, 121};
        default: return {family_sm};
    }
}

std::optional<uint32_t> parse_compute_capability(std::string_view text) {
    for (std::string_view prefix : {"sm_", "compute_", "lto_"})
        if (text.substr(0, prefix.size()) == prefix) text.remove_prefix(prefix.size());
    if (!text.empty() && (text.back() == 'a' || text.back() == 'f')) text.remove_suffix(1);
    uint32_t major = 0, minor = 0;
    size_t dot = text.find('.');
    auto parse = [](std::string_view part, uint32_t& value) {
        auto [end, ec] = std::from_chars(part.data(), part.data() + part.size(), value);
        return ec == std::errc() && end == part.data() + part.size() && !part.empty();
    };
    if (dot != std::string_view::npos) {
        if (!parse(text.substr(0, dot), major) || !parse(text.substr(dot + 1), minor) || minor > 9)
            return std::nullopt;
    } else {
        uint32_t sm = 0;
        if (!parse(text, sm) || sm < 10) return std::nullopt;
        major = sm / 10;
        minor = sm % 10;
    }
    if (major == 0 || major > 99) return std::nullopt;
    return major * 10 + minor;
}

bool DriverVersion::operator<(const DriverVersion& other) const {
    if (major != other.major) return major < other.major;
    if (minor != other.minor) return minor < other.minor;
    return patch < other.patch;
}

std::optional<DriverVersion> parse_driver_version(std::string_view text) {
    DriverVersion out;
    out.text = std::string(text);
    uint32_t* parts[3] = {&out.major, &out.minor, &out.patch};
    size_t count = 0;
    const char* p = text.data();
    const char* end = text.data() + text.size();
    while (p < end && count < 3) {
        auto [next, ec] = std::from_chars(p, end, *parts[count]);
        if (ec != std::errc()) return std::nullopt;
        ++count;
        p = next;
        if (p < end && *p != '.') return std::nullopt;
        if (p < end) ++p;
    }
    if (count < 2 || p != end || out.major < 100) return std::nullopt;
    return out;
}

std::optional<CudaVersion> cuda_supported_by_driver(const DriverVersion& driver) {
    std::optional<CudaVersion> best;
    for (const ToolkitDriver& row : toolkit_drivers())
        if (!(driver < row.driver)) best = row.cuda;
    return best;
}

std::optional<uint32_t> minor_version_compat_floor(uint32_t cuda_major) {
    // Source: docs.nvidia.com/deploy/cuda-compatibility/minor-version-compatibility.html
    // (13.x >= 580, 12.x >= 525, 11.x >= 450); reference sheet §4.1.
    switch (cuda_major) {
        case 13: return 580;
        case 12: return 525;
        case 11: return 450;
        default: return std::nullopt;
    }
}

std::optional<CudaVersion> cuda_for_ptx_isa(uint32_t isa_major, uint32_t isa_minor) {
    // Source: NVIDIA/cuda-python cuda_bindings/utils/_ptx_utils.py ("the official PTX ISA <->
    // CUDA Release table"); 9.2-9.5 from third-party copies of later PTX ISA documents.
    // 8.6 belongs to the never-released 12.7, so no 12.6 driver takes it.
    struct Row {
        uint32_t isa_major, isa_minor;
        CudaVersion cuda;
    };
    static const Row rows[] = {
        {6, 3, {10, 0}}, {6, 4, {10, 1}}, {6, 5, {10, 2}}, {7, 0, {11, 0}}, {7, 1, {11, 1}}, {7, 2, {11, 2}},
        {7, 3, {11, 3}}, {7, 4, {11, 4}}, {7, 5, {11, 5}}, {7, 6, {11, 6}}, {7, 7, {11, 7}}, {7, 8, {11, 8}},
        {8, 0, {12, 0}}, {8, 1, {12, 1}}, {8, 2, {12, 2}}, {8, 3, {12, 3}}, {8, 4, {12, 4}}, {8, 5, {12, 5}},
        {8, 6, {12, 7}}, {8, 7, {12, 8}}, {8, 8, {12, 9}}, {9, 0, {13, 0}}, {9, 1, {13, 1}}, {9, 2, {13, 2}},
        {9, 3, {13, 3}}, {9, 4, {13, 4}}, {9, 5, {13, 5}},
    };
    for (const Row& row : rows)
        if (row.isa_major == isa_major && row.isa_minor == isa_minor) return row.cuda;
    return std::nullopt;
}

const DriverVersion& zstd_minimum_driver() {
    // Source: nvcc documentation quoted in ml-explore/mlx PR #2407 (compressed fatbins are "not
    // compatible with drivers released before CUDA Toolkit's 12.4 Release"); rapids-cmake
    // enable_fatbin_compression.cmake (>= 550.54.14). CUDA 12.4's toolkit driver is 550.54.14.
    static const DriverVersion version = *parse_driver_version("550.54.14");
    return version;
}

}  // namespace strata::arch
