/*
 * Configuration of strata's fault-injection driver libraries (the fake
 * libcuda.so.1 and libnvidia-ml.so.1 under tests/fakes). Test fixtures only:
 * they are never installed.
 *
 * Both read the environment variable STRATA_FAKE_CUDA, a list of key=value
 * pairs separated by ';', e.g.
 *     STRATA_FAKE_CUDA="version=12040;devices=2;cc=9.0;name=NVIDIA H200"
 *
 * A file strata-fake-cuda.conf beside the library, in the same syntax (';' or
 * newlines between pairs), is applied after the variable: copies of the fake
 * in two directories can stand for two driver versions.
 *
 * Keys (unknown keys are ignored; a malformed number keeps the default):
 *   init=<CUresult>        what cuInit returns (default 0). 100 = no device,
 *                          803 = kernel module / user-mode mismatch,
 *                          804 = forward compatibility on unsupported GPU.
 *   version=<int>          what cuDriverGetVersion reports (default 13000);
 *                          also NVML's CUDA driver version.
 *   devices=<n>            number of GPUs (default 1). The fake libcuda
 *                          honours CUDA_VISIBLE_DEVICES (indices only), as the
 *                          driver does; the fake NVML sees every GPU.
 *   cc=<major.minor>       compute capability of every GPU (default 9.0).
 *   name=<text>            device name (default "Fake GPU").
 *   mem_mb=<n>             total memory per GPU in MiB (default 81920).
 *   module_load=<CUresult> what cuModuleLoadData/Ex return (default 0).
 *                          209 = no image for this GPU, 222 = PTX too new,
 *                          200 = invalid image.
 *   nvml_driver=<text>     NVML's driver version string (default 580.65.06).
 *   nvml_init=<nvmlReturn> what nvmlInit_v2 returns (default 0);
 *                          18 = "Driver/library version mismatch".
 *   mig=<0|1>              MIG mode every GPU reports through NVML.
 *   compute_mode=<0..3>    NVML compute mode of every GPU (default 0);
 *                          1 exclusive thread, 2 prohibited, 3 exclusive process.
 *   ctx_set_current=<CUresult> what cuCtxSetCurrent returns (default 0).
 *   strict_contexts=<0|1>  cuDevicePrimaryCtxRetain fails with 999 while an
 *                          earlier primary context is retained and not yet
 *                          released: a leak shows on the next GPU.
 *   jit_ms=<n>             loading a PTX image takes n ms (default 0), unless
 *                          the compute cache has it: as the real driver, the
 *                          fake keeps JIT results in $CUDA_CACHE_PATH (or
 *                          $HOME/.nv/ComputeCache) across processes, unless
 *                          CUDA_CACHE_DISABLE=1 was set when cuInit ran.
 *
 *   ptx_load=<CUresult>    what loading a PTX image returns (default 0), with
 *                          a JIT error log: the driver's JIT refuses the PTX
 *                          while cubins still load. 218 = invalid PTX.
 *
 * A fat binary handed to cuModuleLoadData/Ex (a container, magic 0xBA55ED50)
 * is read as the driver reads it: SASS for the GPU (same major, minor not
 * above it) loads at no cost; else PTX of an architecture not above the GPU
 * is JIT-compiled at jit_ms (cached as PTX text is); else 209.
 *   load_dump=<dir>        each fat binary loaded is written there, named by
 *                          the 64-bit FNV-1a of its bytes: <hash>.fatbin
 *   fatbin_refuse=<hash>   the fat binary with that FNV-1a (16 hex digits)
 *                          is refused with 218 and a JIT error log
 *
 * The calls the driver-facing benchmarks make (streams, events, async
 * copies, pools, pinned memory, contexts, graphs) run on a simulated device:
 * each stream has a timeline, work advances it by what it would take, and
 * cuEventElapsedTime reads it, so the figures the benchmarks report are
 * exactly what these keys say (floating-point numbers):
 *   gbps.h2d=<GB/s>, gbps.d2h=<GB/s>   pinned host memory (default 25, 26)
 *   gbps.pageable=<GB/s>   pageable host memory, either way (default 10)
 *   gbps.d2d=<GB/s>        device to device, bytes counted once (default 1500)
 *   gbps.peer=<GB/s>       a copy between GPUs with peer access enabled (default 50)
 *   gbps.peer_staged=<GB/s>  the same without peer access: staged through
 *                          host memory (default 12)
 *   peer_latency_us, staged_latency_us  what each such copy costs besides
 *                          its bytes (default 2 and 10)
 *   p2p=<0|1>              whether the GPUs can reach each other directly
 *                          (cuDeviceCanAccessPeer; default 1)
 *   kernel_us=<us>         a kernel (or graph node) on the device (default 2)
 *   kernels_run=<0|1>      launches of strata's probe kernel compute on the
 *                          host (default 0: a driver that drops work)
 *   delay_us.<entry>=<us>  a host-visible cost added to that entry point:
 *                          delay_us.cuMemAlloc_v2=40, delay_us.cuMemHostRegister_v2=900,
 *                          delay_us.cuLaunchKernel=5, delay_us.cuCtxCreate_v2=300,
 *                          delay_us.cuInit=800 (a process's first cuInit only) ...
 *                          (the exported name, as the benchmarks resolve it)
 *
 * GPU health, through NVML; each value may be a comma-separated list, one
 * value per GPU, the last repeating ("pcie_width=16,8": GPU 1 and later x8):
 *   ecc_uncorrected=<n>, ecc_corrected=<n>    volatile ECC error counts
 *   ecc_uncorrected_total=<n>, ecc_corrected_total=<n>   aggregate counts
 *   retired_pending=<0|1>  retired pages waiting for a reset
 *   remap_uncorrectable=<n>, remap_correctable=<n>, remap_pending=<0|1>,
 *   remap_failed=<0|1>     row remapping (A100 and later)
 *   clock_reasons=<mask>   nvmlClocksEventReasons bits (0x8 hw_slowdown, ...)
 *   temp=<C>, temp_slowdown=<C>       GPU temperature and its slowdown
 *                          threshold (default 40 and 87)
 *   pcie_gen, pcie_gen_max, pcie_width, pcie_width_max   (default 5, 5, 16, 16)
 *   nvlinks=<n>            NVLink links the GPU has (default 0: none)
 *   nvlink_down=<n>        how many of them are down (default 0)
 *   max_sm_clock=<MHz>     the maximum SM clock (default 1980)
 *   fabric_state=<0-3>     NVSwitch fabric registration: 0 not supported (no
 *                          NVSwitch, the default), 1 not started, 2 in
 *                          progress, 3 completed
 *   fabric_status=<nvmlReturn>  the registration's result
 *
 * A launch succeeds but does no work, so results read back unchanged: the
 * fake is a driver that silently drops kernels, which verification must catch.
 */
#ifndef STRATA_FAKE_CONFIG_H
#define STRATA_FAKE_CONFIG_H

typedef struct fake_config {
    int init;
    int version;
    int devices;
    int cc_major;
    int cc_minor;
    char name[96];
    long long mem_mb;
    int module_load;
    char nvml_driver[64];
    int nvml_init;
    int mig;
    int compute_mode;
    int ctx_set_current;
    int strict_contexts;
    int jit_ms;
    int ptx_load;
    int kernels_run;
    char load_dump[512];
    char fatbin_refuse[32];
} fake_config;

/* Parsed once, on first use. */
const fake_config* fake_config_get(void);

/* A per-GPU health key's value for GPU `gpu` (the lists above), or `fallback`
 * when the key is absent or malformed. */
long long fake_config_per_gpu(const char* key, unsigned gpu, long long fallback);

/* A key without a field of its own (gbps.h2d, delay_us.cuMemAlloc_v2, ...) as
 * a number, or `fallback` when it is absent or malformed. */
double fake_config_number(const char* key, double fallback);

#endif
