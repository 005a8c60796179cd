// A measured bandwidth roof for "% of peak": the theoretical HBM figure
// (memory clock x bus width) is never reached, so a streaming kernel's share
// of it mixes the kernel's quality with the memory system's. The runner
// also measures what cudaMemcpyAsync device-to-device reaches on this GPU,
// counting read and write bytes as STREAM copy does, and reports each
// memory-bound result against both.
#pragma once

#include <cuda_runtime_api.h>

namespace strata::bench {

// GB/s of the best of several 256 MiB device-to-device copies on `stream`;
// 0 when it cannot be measured (not enough memory, an error).
double measured_copy_roof_gbps(cudaStream_t stream);

}  // namespace strata::bench
