// Loading strata's probe kernel as a module: the newest cubin the GPU runs,
// and the PTX through the driver's JIT compiler (the harness disabled the
// compute cache, so every load compiles). The JIT's own wall time
// (CU_JIT_WALL_TIME) is kept as the counter jit_wall_ms, and a refused load
// logs the driver's error and JIT log.
#pragma once

#include "benchmark_case.h"

namespace strata::driver::bench {

enum ModuleVariant { kModuleCubin = 0, kModulePtx = 1 };

bool validate_module_load(const Case& c, const Run& run);
bool run_module_load(const Case& c, const Run& run, uint64_t iterations, double* elapsed_ms);

// The probe kernel's module and function for the launch benchmarks, loaded
// once (a cubin where one runs on the GPU, else the PTX); null with the
// reason logged when it cannot load.
CUfunction probe_function(const Run& run);
void release_modules();

}  // namespace strata::driver::bench
