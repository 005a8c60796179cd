// `strata arch`'s output side: image tables, verdicts per target, and the
// set of compute capabilities each file runs on, as text or JSON.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "binaries/binary_scan.h"
#include "strata/arch/compatibility.h"

namespace strata {

struct ArchTarget {
    uint32_t sm = 0;
    std::string label;  // "CC 9.0" or "GPU 0 (NVIDIA H200, CC 9.0)"
};

struct ArchOptions {
    std::vector<ArchTarget> targets;  // empty: list coverage instead of verdicts
    std::optional<arch::DriverVersion> driver;
    bool details = false;  // every image, with what its contents say (decompresses)
};

std::string render_arch_text(const ScanResult& scan, const ArchOptions& options);
// One "strata: error: PATH: reason" line per file that could not be read,
// for standard error; the text report counts them as unreadable.
std::string arch_errors_text(const ScanResult& scan);
// Compact, strict JSON, streamed: a library can hold tens of thousands of images.
std::string arch_to_json(const ScanResult& scan, const ArchOptions& options, int exit_code);
// 2 if a file could not be read, else 1 if a file with device code cannot run
// on a target, else 0.
int arch_exit_code(const ScanResult& scan, const ArchOptions& options);

// The compute capabilities (from arch's table) a file runs on natively / by JIT.
struct Coverage {
    std::vector<uint32_t> native, jit;
};
Coverage coverage_of(const arch::BinaryListing& listing, const std::optional<arch::DriverVersion>& driver);

}  // namespace strata
