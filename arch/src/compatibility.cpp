#include "strata/arch/compatibility.h"

#include <algorithm>
#include <map>
#include <set>
#include <tuple>
#include <utility>

namespace strata::arch {

namespace {

bool family_contains(uint32_t family_sm, uint32_t sm) {
    auto members = family_members(family_sm);
    return std::find(members.begin(), members.end(), sm) != members.end();
}

bool is_tegra(uint32_t sm) {
    const ArchInfo* info = find_architecture(sm);
    return info && info->tegra;
}

std::string name_of(const FatbinImage& image) {
    return image.target_name();
}

// Reasons name the image and the rule, so a person can see what to rebuild.
Decision sass(const FatbinImage& image, const Target& target) {
    std::string gpu = "CC " + cc_text(target.sm);
    switch (image.variant) {
        case Variant::arch_specific:
            if (image.sm == target.sm)
                return {Verdict::native, name_of(image) + " is built for exactly " + gpu};
            return {Verdict::none,
                    name_of(image) + " runs only on CC " + cc_text(image.sm) + " (arch-specific 'a')"};
        case Variant::family_specific:
            if (family_contains(image.sm, target.sm))
                return {Verdict::native, name_of(image) + " covers the family " + gpu + " belongs to"};
            return {Verdict::none,
                    name_of(image) + " runs only on the sm_" + std::to_string(image.sm) + "f family"};
        case Variant::plain: break;
    }
    if (cc_major(image.sm) != cc_major(target.sm))
        return {Verdict::none, name_of(image) + " SASS runs only on CC " +
                                   std::to_string(cc_major(image.sm)) + ".x (the major version must match)"};
    if (cc_minor(image.sm) > cc_minor(target.sm))
        return {Verdict::none, name_of(image) + " needs CC " + cc_text(image.sm) + " or a later " +
                                   std::to_string(cc_major(image.sm)) + ".x"};
    if (image.sm != target.sm && (is_tegra(image.sm) || is_tegra(target.sm)))
        return {Verdict::none, name_of(image) + " SASS does not cross between desktop and Tegra GPUs"};
    return {Verdict::native, name_of(image) + " runs natively on " + gpu};
}

Decision ptx(const FatbinImage& image, const Target& target) {
    std::string gpu = "CC " + cc_text(target.sm);
    if (image.variant == Variant::arch_specific && image.sm != target.sm)
        return {Verdict::none, name_of(image) + " PTX compiles only for CC " + cc_text(image.sm)};
    if (image.variant == Variant::family_specific && !family_contains(image.sm, target.sm))
        return {Verdict::none,
                name_of(image) + " PTX compiles only for the sm_" + std::to_string(image.sm) + "f family"};
    if (image.sm > target.sm)
        return {Verdict::none, name_of(image) + " PTX needs CC " + cc_text(image.sm) + " or newer"};
    if (target.driver) {
        auto needed = cuda_for_ptx_isa(image.version_major, image.version_minor);
        auto supported = cuda_supported_by_driver(*target.driver);
        std::string isa = std::to_string(image.version_major) + "." + std::to_string(image.version_minor);
        if (needed && (!supported || *supported < *needed))
            return {Verdict::none, name_of(image) + " is PTX ISA " + isa + ", which needs a CUDA " +
                                       needed->text() + " driver; driver " + target.driver->text +
                                       " supports CUDA " +
                                       (supported ? supported->text() : "older than 10.2") +
                                       " (error 222, unsupported PTX version)"};
    }
    return {Verdict::jit, name_of(image) + " PTX is JIT-compiled for " + gpu + " at first load"};
}

int rank(const FatbinImage& image) {
    // Among images the GPU can run: the closest SM wins, arch-specific over
    // family over plain (the most specialised code the driver would pick).
    int variant = image.variant == Variant::arch_specific     ? 2
                  : image.variant == Variant::family_specific ? 1
                                                              : 0;
    return static_cast<int>(image.sm) * 4 + variant;
}

}  // namespace

std::string_view verdict_name(Verdict verdict) {
    switch (verdict) {
        case Verdict::native: return "native";
        case Verdict::jit: return "jit";
        case Verdict::none: return "none";
    }
    return "none";
}

Decision decide_image(const FatbinImage& image, const Target& target) {
    if (image.kind == ImageKind::ltoir)
        return {Verdict::none,
                name_of(image) + " is LTO-IR, linked at run time by nvJitLink, not loaded as is"};
    if (image.kind == ImageKind::unknown)
        return {Verdict::none,
                "image kind " + std::to_string(image.raw_kind) + " is not one this strata knows"};
    if (image.compression == Compression::zstd && target.driver && *target.driver < zstd_minimum_driver())
        return {Verdict::none, name_of(image) + " is ZSTD-compressed, which needs driver " +
                                   zstd_minimum_driver().text + " (CUDA 12.4) or newer; driver " +
                                   target.driver->text + " reports an invalid image (error 200)"};
    return image.kind == ImageKind::sass ? sass(image, target) : ptx(image, target);
}

// decide_file over pointers: per registered fat binary, without copying images.
static FileDecision decide_images(const std::vector<const FatbinImage*>& images, const Target& target) {
    FileDecision best;
    const FatbinImage* best_native = nullptr;
    const FatbinImage* best_jit = nullptr;
    std::string native_reason, jit_reason, driver_refusal;
    for (const FatbinImage* candidate : images) {
        const FatbinImage& image = *candidate;
        Decision decision = decide_image(image, target);
        if (decision.verdict == Verdict::native && (!best_native || rank(image) > rank(*best_native))) {
            best_native = &image;
            native_reason = decision.reason;
        } else if (decision.verdict == Verdict::jit && (!best_jit || rank(image) > rank(*best_jit))) {
            best_jit = &image;
            jit_reason = decision.reason;
        } else if (decision.verdict == Verdict::none && target.driver && driver_refusal.empty() &&
                   decide_image(image, {target.sm, std::nullopt}).verdict != Verdict::none) {
            // The image fits the GPU; only the driver refuses it (ZSTD, PTX ISA).
            driver_refusal = decision.reason;
        }
    }
    if (best_native) return {Verdict::native, best_native, native_reason};
    if (best_jit)
        return {Verdict::jit, best_jit, jit_reason + " (expect a slow first launch; cached afterwards)"};
    // SASS first, then PTX, each by SM: "sm_75 sm_80 sm_120 compute_120".
    std::set<std::tuple<int, uint32_t, std::string>> present;
    for (const FatbinImage* image : images)
        if (image->kind == ImageKind::sass || image->kind == ImageKind::ptx)
            present.insert({image->kind == ImageKind::sass ? 0 : 1, image->sm, image->target_name()});
    std::string have;
    for (const auto& [kind, sm, name] : present) have += (have.empty() ? "" : " ") + name;
    if (!driver_refusal.empty()) {
        best.reason = "no image CC " + cc_text(target.sm) + " can use with driver " + target.driver->text +
                      " (has: " + have + "): " + driver_refusal;
        return best;
    }
    best.reason = "no image for CC " + cc_text(target.sm) +
                  " (has: " + (have.empty() ? "no SASS or PTX" : have) +
                  ") — expect 'no kernel image is available for execution on the device' (error 209)";
    return best;
}

FileDecision decide_file(const std::vector<FatbinImage>& images, const Target& target) {
    std::vector<const FatbinImage*> pointers;
    pointers.reserve(images.size());
    for (const FatbinImage& image : images) pointers.push_back(&image);
    return decide_images(pointers, target);
}

namespace {

// A registered fat binary with no image for the target that is code for
// other GPUs: SASS of other architectures, PTX only for newer ones. NVIDIA's
// libraries register per-architecture kernels and dispatch among them
// (cuBLAS's sm_50/60/61-only kernels, cuBLASLt's sm_86- and sm_90-only
// ones), so such a fat binary is never launched here while others run: it is
// counted, not decisive. The price: a translation unit someone forgot to
// build for this GPU is not caught while the others run. PTX this GPU could
// run but the driver refuses (an ISA too new for it) was meant to run here.
bool meant_for_other_gpus(const std::vector<const FatbinImage*>& group, uint32_t target_sm) {
    return std::none_of(group.begin(), group.end(), [&](const FatbinImage* image) {
        return image->kind == ImageKind::ptx && image->sm <= target_sm;
    });
}

}  // namespace

BinaryDecision decide_binary(const BinaryListing& listing, const Target& target) {
    BinaryDecision out;
    const auto& images = listing.scan.images;
    const Registration& registration = listing.registration;
    bool per_container = std::any_of(registration.code_images.begin(), registration.code_images.end(),
                                     [](const std::vector<size_t>& group) { return !group.empty(); });
    if (!per_container) {
        // No registration (or nothing registered carries code): every image
        // counts, best wins, but for link stubs, which define no kernel.
        std::vector<const FatbinImage*> counted;
        for (const FatbinImage& image : images)
            if (!in_kernel_less_container(listing, image)) counted.push_back(&image);
        FileDecision decision = decide_images(counted, target);
        out.verdict = decision.verdict;
        out.image = decision.image ? decision.image->target_name() : "";
        out.reason = decision.reason;
        if (decision.verdict == Verdict::jit)
            out.jit_fat_binaries.push_back({decision.image->container, decision.image->target_name()});
        return out;
    }
    auto worse = [](Verdict a, Verdict b) { return static_cast<int>(a) > static_cast<int>(b); };
    bool first = true;
    std::string excused_reason;
    auto fold = [&](Verdict verdict, std::string image, std::string reason) {
        if (first || worse(verdict, out.verdict)) {
            out.verdict = verdict;
            out.image = std::move(image);
            out.reason = std::move(reason);
            first = false;
        }
    };
    for (const std::vector<size_t>& indices : registration.code_images) {
        if (indices.empty()) continue;  // no SASS or PTX (LTO-IR only, empty), or no kernel at all
        std::vector<const FatbinImage*> group;
        for (size_t i : indices) group.push_back(&images[i]);
        FileDecision decision = decide_images(group, target);
        ++out.registered;
        if (decision.verdict == Verdict::jit)
            out.jit_fat_binaries.push_back(
                {images[indices.front()].container, decision.image->target_name()});
        ++(decision.verdict == Verdict::native ? out.native
           : decision.verdict == Verdict::jit  ? out.jit
                                               : out.none);
        if (decision.verdict == Verdict::none && target.driver &&
            decide_images(group, {target.sm, std::nullopt}).verdict != Verdict::none) {
            // Runs here on a newer driver (checked first: ZSTD-compressed SASS for
            // this GPU is not code for other GPUs): weighed against the rest below.
            ++out.driver_refused;
            if (out.refused_reason.empty()) out.refused_reason = decision.reason;
            continue;
        }
        if (decision.verdict == Verdict::none && meant_for_other_gpus(group, target.sm)) {
            ++out.for_other_gpus;
            // Counted and named in the reason; decisive only when nothing else runs.
            if (excused_reason.empty()) excused_reason = decision.reason;
            continue;
        }
        fold(decision.verdict, decision.image ? decision.image->target_name() : "", decision.reason);
    }
    if (out.native < out.driver_refused) {
        // More refused than native, or nothing native: they decide. (cuDNN
        // 9.26's tensor-IR engines on CC 7.5: 1 native, 1 PTX ISA 9.4 only.)
        fold(Verdict::none, "", out.refused_reason);
        out.driver_refused = 0;
        out.refused_reason.clear();
    }
    if (first) {
        // Every fat binary with kernels is for other GPUs: nothing here runs.
        out.verdict = Verdict::none;
        out.reason = excused_reason;
        out.for_other_gpus = 0;
    }
    if (out.disagree()) {
        std::string counts = std::to_string(out.native) + " native, " + std::to_string(out.jit) +
                             " PTX JIT only, " + std::to_string(out.none) + " without an image";
        std::vector<std::string> excused;
        if (out.for_other_gpus)
            excused.push_back(std::to_string(out.for_other_gpus) +
                              " of them code for other GPUs only, which a library dispatches there");
        if (out.driver_refused)
            excused.push_back(std::to_string(out.driver_refused) +
                              " of them refused by this driver while the rest runs native, which fail "
                              "a call that launches them here");
        for (size_t i = 0; i < excused.size(); ++i)
            counts += (i == 0 ? " (" : "; ") + excused[i] + (i + 1 == excused.size() ? ")" : "");
        out.reason = "of " + std::to_string(out.registered) + " registered fat binaries " + counts +
                     "; the worst: " + out.reason;
        if (out.driver_refused) out.reason += "; refused: " + out.refused_reason;
    }
    return out;
}

}  // namespace strata::arch
