/*
 * What the fake libcuda's files share: the initialisation check, the delay
 * a configuration puts on an entry point, and the simulated device.
 */
#ifndef STRATA_FAKE_CUDA_INTERNAL_H
#define STRATA_FAKE_CUDA_INTERNAL_H

#include <cuda.h>

/* cuInit's result, or CUDA_ERROR_NOT_INITIALIZED before it succeeded. */
CUresult fake_require_init(void);

/* Waits delay_us.<entry> microseconds (0 when unset): a host-visible cost of
 * that entry point, as a slower or faster driver would have. */
void fake_delay(const char* entry);

/* Runs a launch on the simulated device: its time on the stream's timeline,
 * and, with kernels_run=1, strata's probe kernel computed on the host. */
void fake_run_kernel(CUstream stream, unsigned blocks, unsigned threads, void** parameters);

/* Whether `from`'s context enabled peer access to `to`'s
 * (cuCtxEnablePeerAccess), and the current context. */
int fake_peer_access(CUcontext from, CUcontext to);
CUcontext fake_current_context(void);

#endif
