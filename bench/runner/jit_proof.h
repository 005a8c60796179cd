// The JIT proof of what is installed (`strata bench --jit-installed`): each
// installed fat binary whose code for this GPU is PTX alone is loaded through
// the driver, with the JIT cache disabled, exactly as the framework's CUDA
// runtime would hand it over — the whole container, header and all — and
// unloaded. Nothing is launched: loading is what the JIT proves. Results are
// Google Benchmark JSON like every other benchmark:
//   driver/jit_installed/<install>/<file>@0x<offset>/device:N
//       one repetition per pass: the load's host time, the driver's
//       jit_wall_ms, fatbin_bytes; a refused load is an error entry carrying
//       the driver's error and JIT log (rollout: no-go where the base loaded it)
//   driver/jit_installed/total/device:N
//       per pass, the sum over every fat binary, judged like any benchmark.
#pragma once

#include "bench_settings.h"
#include "strata/plugin.h"

namespace strata::bench {

strata_task_result run_jit_proof(const strata_host_api& host, const BenchSettings& settings);

}  // namespace strata::bench
