// Will an image, or a whole file, run on a GPU of a given compute capability
// with a given driver? native (SASS the GPU executes), jit (PTX the driver
// compiles at load), or none, each with a reason a person understands.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "strata/arch/fatbin.h"
#include "strata/arch/tables.h"

namespace strata::arch {

enum class Verdict { native, jit, none };
std::string_view verdict_name(Verdict verdict);

struct Target {
    uint32_t sm = 0;                      // 90 for CC 9.0
    std::optional<DriverVersion> driver;  // unknown: driver gates are not applied
};

struct Decision {
    Verdict verdict = Verdict::none;
    std::string reason;
};

Decision decide_image(const FatbinImage& image, const Target& target);

struct FileDecision {
    Verdict verdict = Verdict::none;
    const FatbinImage* image = nullptr;  // the image the driver would pick
    std::string reason;
};

// The best image for the target: exact-match SASS, else the newest compatible
// SASS, else the newest PTX the driver can JIT.
FileDecision decide_file(const std::vector<FatbinImage>& images, const Target& target);

}  // namespace strata::arch
