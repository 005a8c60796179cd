// Will an image, or a whole file, run on a GPU of a given compute capability
// with a given driver? native (SASS the GPU executes), jit (PTX the driver
// compiles at load), or none, each with a reason a person understands.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "strata/arch/binary.h"
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

// The verdict for a whole binary. A host binary's registered fat binaries
// are loaded one by one (one per translation unit), so each is decided on its
// own and the worst decides: a library whose fat binaries mostly carry sm_80
// SASS and PTX and a few sm_90 SASS JIT-compiles most kernels on CC 9.0,
// though "any image native" would say otherwise. Containers the runtime never
// registers (kept for device-side linking) do not count. Without a
// registration (a cubin, a raw fat binary, an archive) the best image decides.
struct BinaryDecision {
    Verdict verdict = Verdict::none;
    std::string image;      // target of the image picked in the deciding fat binary, "" for none
    std::string reason;     // with "N of M registered fat binaries" when there are several
    size_t registered = 0;  // registered fat binaries with device code (0: decided over all images)
    size_t native = 0, jit = 0, none = 0;  // of those, by verdict
    // Of `none`: code for other GPUs only (kernels a library dispatches on
    // other GPUs); they never decide while another fat binary runs.
    size_t for_other_gpus = 0;
    // Of `none`: fat binaries this GPU could run but the driver refuses (PTX
    // of an ISA newer than it compiles, ZSTD it cannot read). A few of them
    // in a library that otherwise runs native do not decide: NVIDIA supports
    // its libraries on an older driver of the same CUDA major (minor-version
    // compatibility), so they hold code dispatched on other GPUs, or a call
    // that fails. `refused_reason` says why the first one is refused; they
    // do not decide the verdict and callers warn. Where they outnumber the
    // native fat binaries (or none is native), they decide as any fat binary
    // without an image, and this stays 0.
    size_t driver_refused = 0;
    std::string refused_reason;
    // The fat binaries (containers, by file offset) whose code for the
    // target is PTX alone, with the PTX the driver would compile for each
    // ("compute_90"): what a loader of this file hands the driver's JIT. For
    // a file without a registration, the container of the picked PTX.
    struct JitFatBinary {
        uint64_t offset = 0;
        std::string image;
    };
    std::vector<JitFatBinary> jit_fat_binaries;
    // Several registered fat binaries with different verdicts: the counts
    // matter; a unanimous answer reads as one image's would.
    bool disagree() const {
        return registered > 1 && native != registered && jit != registered && none != registered;
    }
};
BinaryDecision decide_binary(const BinaryListing& listing, const Target& target);

}  // namespace strata::arch
