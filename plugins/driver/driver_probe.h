// The driver plugin's probe: what libcuda and NVML say about the driver and
// every GPU, as facts. Judgements that need other layers' facts (container,
// kernel module, runtime) are the core's diagnosis rules.
#pragma once

#include "reporter.h"

namespace strata::driver {

void probe_driver_and_devices(const plugin::Reporter& report);

}  // namespace strata::driver
