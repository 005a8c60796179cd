// The driver plugin's self-test: on every GPU, load each image of the probe
// kernel on its own through the driver API (each SASS the GPU can run, then
// the PTX through the JIT), launch it, verify the result against the CPU and
// record the load (JIT) time. This is what proves a PTX fallback works.
#pragma once

#include "reporter.h"

namespace strata::driver {

void selftest_images(const plugin::Reporter& report);

}  // namespace strata::driver
