// Which image of strata's probe kernel a GPU runs: shared by the self-test,
// which proves each one, and the module-load benchmarks, which time one.
#pragma once

#include "strata_kernels/probe_images.h"

namespace strata::driver {

// Whether a GPU of compute capability `cc` (major*10+minor) can run the
// image: SASS needs the same major and a minor no newer than the GPU's; PTX
// needs a target no newer than the GPU (the driver JIT-compiles it).
inline bool runs_on(const kernels::ProbeImage& image, int cc) {
    if (image.ptx) return image.sm <= cc;
    return image.sm / 10 == cc / 10 && image.sm % 10 <= cc % 10;
}

// The image the driver would pick for the GPU among one kind (SASS or PTX):
// the newest target that runs on it; null when none does.
inline const kernels::ProbeImage* best_image(int cc, bool ptx) {
    size_t count = 0;
    const kernels::ProbeImage* images = kernels::probe_images(&count);
    const kernels::ProbeImage* best = nullptr;
    for (size_t i = 0; i < count; ++i)
        if (images[i].ptx == ptx && runs_on(images[i], cc) && (!best || images[i].sm > best->sm))
            best = &images[i];
    return best;
}

}  // namespace strata::driver
