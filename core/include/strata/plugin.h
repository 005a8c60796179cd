/*
 * strata plugin ABI — the only header a plugin sees.
 *
 * A plugin is a shared library that exports exactly one symbol,
 * `strata_plugin_entry`, which returns a pointer to a constant descriptor.
 * The core loads it (normally inside a `strata worker` child process, so a
 * crash or hang cannot take the suite down), checks the ABI version, and calls
 * the descriptor's task functions with a host callback table through which the
 * plugin reports facts, checks, measurements and log lines.
 *
 * Rules of the boundary
 *  - Pure C: only C types cross (strings as pointer + length, integers,
 *    doubles, function pointers). No C++ type, no exception, and no memory
 *    allocated on one side and freed on the other. Everything the plugin
 *    passes to a callback only has to live until the callback returns.
 *  - Every struct that crosses starts with `struct_size`, then the ABI
 *    major and minor it was built against. The reader of a struct looks only
 *    at fields that lie inside `struct_size`, so new fields are appended at
 *    the end and bump the minor version; anything else bumps the major.
 *  - The loader refuses a descriptor whose major differs from its own and
 *    says both versions.
 *  - Enumerations cross as int32_t fields (C leaves an enum's size to the
 *    compiler, and the host must be able to hold any value a plugin sends);
 *    the enum types name the values.
 *  - Plugins must not write to stdout: the worker's protocol channel is
 *    separate, but a plugin's own output is only kept as diagnostics. Use
 *    `host->log` instead.
 *
 * ABI history
 *   1.0  first version: descriptor, probe, selftest, benchmarks, host table.
 *   1.1  STRATA_LAYER_FRAMEWORK.
 *   1.2  strata_check.about_device / device.
 *   1.3  strata_plugin_descriptor.release_benchmarks.
 *   1.4  strata_plugin_descriptor.benchmark_flags (STRATA_BENCHMARKS_DRIVER_API).
 *   1.5  strata_plugin_descriptor.benchmark_gpus (benchmarks that need several GPUs).
 */
#ifndef STRATA_PLUGIN_H
#define STRATA_PLUGIN_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define STRATA_PLUGIN_ABI_MAJOR 1
#define STRATA_PLUGIN_ABI_MINOR 5

/** Name of the one symbol every plugin exports. */
#define STRATA_PLUGIN_ENTRY_SYMBOL "strata_plugin_entry"

#if defined(__GNUC__)
#define STRATA_PLUGIN_EXPORT __attribute__((visibility("default")))
#else
#define STRATA_PLUGIN_EXPORT
#endif

/** A string that is not necessarily NUL-terminated. `data` may be NULL when
 *  `size` is 0. The host validates it as UTF-8 and replaces invalid bytes. */
typedef struct strata_str {
    const char* data;
    size_t size;
} strata_str;

/** Wraps a string literal: STRATA_STR("driver"). */
#define STRATA_STR(literal) \
    { (literal), sizeof(literal) - 1 }

/** The layers of the stack, in the order strata checks them. A failure in one
 *  layer gates the self-tests of every later layer. Values are part of the
 *  ABI and never change; new layers get new numbers. */
typedef enum strata_layer {
    STRATA_LAYER_HOST = 1,
    STRATA_LAYER_CONTAINER = 2,
    STRATA_LAYER_DRIVER = 3,
    STRATA_LAYER_DEVICE = 4,
    STRATA_LAYER_RUNTIME = 5,
    STRATA_LAYER_LIBRARY = 6,
    STRATA_LAYER_KERNEL = 7,
    /* 1.1: the frameworks built on the stack (PyTorch, JAX, ...). Checked
     * last: a framework's problem must not gate the proof of the stack. */
    STRATA_LAYER_FRAMEWORK = 8
} strata_layer;

/** Outcome of a check as a plugin reports it. The core adds its own
 *  statuses (skip for gated layers, crashed, timeout) for whole tasks. */
typedef enum strata_status {
    STRATA_STATUS_PASS = 0,
    STRATA_STATUS_WARN = 1,
    STRATA_STATUS_FAIL = 2,
    STRATA_STATUS_SKIP = 3,
    STRATA_STATUS_ERROR = 4
} strata_status;

typedef enum strata_value_type {
    STRATA_VALUE_STRING = 0,
    STRATA_VALUE_INT = 1,
    STRATA_VALUE_DOUBLE = 2, /* must be finite: the report is strict JSON */
    STRATA_VALUE_BOOL = 3
} strata_value_type;

typedef enum strata_log_level {
    STRATA_LOG_DEBUG = 0,
    STRATA_LOG_INFO = 1,
    STRATA_LOG_WARNING = 2,
    STRATA_LOG_ERROR = 3
} strata_log_level;

/** One observed value and where it came from.
 *  Example: key "driver.libcuda.version", string "580.65.06",
 *  source "cuDriverGetVersion". */
typedef struct strata_fact {
    uint32_t struct_size;
    uint16_t abi_major;
    uint16_t abi_minor;
    strata_str key; /* stable dotted id: "<layer>.<plugin>.<what>" */
    int32_t type;   /* a strata_value_type */
    strata_str string_value;
    int64_t int_value;
    double double_value;
    int32_t bool_value;
    strata_str source;
} strata_fact;

/** A judgement with a stable dotted id ("runtime.cudart.device_count").
 *  `fact_keys` names the facts it rests on; `remedy` tells a person what to
 *  do and is empty when the check passes. The id is the same on every node:
 *  a check about one GPU sets `about_device` and `device` (its CUDA ordinal)
 *  instead of putting the ordinal in the id (ABI 1.2; zero-initialised, a
 *  check is about no particular GPU). */
typedef struct strata_check {
    uint32_t struct_size;
    uint16_t abi_major;
    uint16_t abi_minor;
    strata_str id;
    int32_t layer;  /* a strata_layer */
    int32_t status; /* a strata_status */
    strata_str summary;
    strata_str evidence;
    strata_str remedy;
    const strata_str* fact_keys;
    size_t fact_key_count;
    /* ABI 1.2 */
    int32_t about_device; /* non-zero: the check is about the GPU `device` */
    int32_t device;       /* CUDA device ordinal */
} strata_check;

/** One number produced by a self-test or benchmark, with its unit
 *  ("ms", "GB/s", "TFLOP/s", "count"). */
typedef struct strata_measurement {
    uint32_t struct_size;
    uint16_t abi_major;
    uint16_t abi_minor;
    strata_str name;
    double value; /* must be finite */
    strata_str unit;
} strata_measurement;

/** Callbacks the core gives every task. `context` is opaque to the plugin
 *  and is passed back as the first argument of every call. The table is
 *  valid only during the task call it was passed to. */
typedef struct strata_host_api {
    uint32_t struct_size;
    uint16_t abi_major;
    uint16_t abi_minor;
    void* context;
    void (*emit_fact)(void* context, const strata_fact* fact);
    void (*emit_check)(void* context, const strata_check* check);
    void (*emit_measurement)(void* context, const strata_measurement* measurement);
    void (*log)(void* context, int32_t level /* a strata_log_level */, strata_str message);
} strata_host_api;

/** Result of a task function. Anything but STRATA_TASK_OK means the task
 *  itself could not do its work (not that a check failed: failed checks are
 *  reported through emit_check and the task still returns OK). */
typedef enum strata_task_result { STRATA_TASK_OK = 0, STRATA_TASK_FAILED = 1 } strata_task_result;

/** A task: probe (facts and checks, must work without a GPU) or selftest
 *  (launch work and verify it against a reference).
 *  [in] host  callback table, valid for the duration of the call. */
typedef strata_task_result (*strata_task_fn)(const strata_host_api* host);

/** Times `iterations` runs of a benchmark on `stream` (a cudaStream_t passed
 *  as void*) and writes the elapsed device time in milliseconds, measured
 *  with CUDA events on that stream, to `elapsed_ms`. */
typedef strata_task_result (*strata_benchmark_run_fn)(const strata_host_api* host, void* stream,
                                                      uint64_t iterations, double* elapsed_ms);

/** Checks the benchmark's output once, before any timing. */
typedef strata_task_result (*strata_benchmark_validate_fn)(const strata_host_api* host, void* stream);

/** One benchmark. Bytes and FLOPs per iteration let the harness derive
 *  GB/s and TFLOP/s; either may be 0 when it does not apply. */
typedef struct strata_benchmark {
    uint32_t struct_size;
    uint16_t abi_major;
    uint16_t abi_minor;
    strata_str name;       /* "stream/triad" */
    strata_str parameters; /* "n=67108864,dtype=f32" */
    double bytes_per_iteration;
    double flops_per_iteration;
    strata_benchmark_validate_fn validate; /* may be NULL */
    strata_benchmark_run_fn run;
} strata_benchmark;

/** What a plugin is and what it can do. Returned by strata_plugin_entry;
 *  must stay valid until the library is unloaded. */
typedef struct strata_plugin_descriptor {
    uint32_t struct_size;
    uint16_t abi_major;
    uint16_t abi_minor;
    strata_str name;        /* short, unique: "cudart" */
    strata_str version;     /* the plugin's own version */
    strata_str description; /* one line */
    int32_t layer;          /* a strata_layer */
    /* Sonames the plugin cannot work without, checked with dlopen before any
     * task runs; a missing one is reported by name with where strata looked.
     * Libraries whose absence is itself a finding (libcuda for the driver
     * plugin) are not listed. */
    const strata_str* required_libraries;
    size_t required_library_count;
    strata_task_fn probe;    /* required */
    strata_task_fn selftest; /* may be NULL */
    const strata_benchmark* benchmarks;
    size_t benchmark_count;
    /* Default deadlines in seconds for each task; 0 means the core's default. */
    uint32_t probe_timeout_s;
    uint32_t selftest_timeout_s;
    /* ABI 1.3; may be NULL. Frees what the benchmarks keep between calls
     * (library handles, communicators, device buffers). The harness calls it
     * once, after the last benchmark, while its stream and the CUDA context
     * still exist: a static destructor would run after main returns, when
     * the CUDA runtime may already be torn down. Read it only when
     * struct_size covers it. */
    strata_task_fn release_benchmarks;
    /* ABI 1.4; zero-initialised means none. A set of strata_benchmark_flags.
     * Read it only when struct_size covers it. */
    uint32_t benchmark_flags;
    /* ABI 1.5; may be NULL (every benchmark needs one GPU). Parallel to
     * `benchmarks`: how many GPUs each needs at least (0 and 1 mean one). A
     * benchmark between GPUs (a peer copy) runs on the harness's GPU and the
     * next one CUDA numbers; where fewer GPUs are visible the harness does
     * not run it and says why, so a one-GPU node reports no error for it.
     * Read it only when struct_size covers it. */
    const uint32_t* benchmark_gpus;
} strata_plugin_descriptor;

/** How the harness runs a plugin's benchmarks (ABI 1.4). */
enum strata_benchmark_flags {
    /* The benchmarks call the driver API (libcuda) alone. The harness makes
     * the context and the stream with the driver API, so `stream` is a
     * CUstream, and the CUDA runtime is never initialised in that worker:
     * what is measured is the driver's own cost, and the benchmarks run under
     * any libcuda, the fault-injection one included. The harness sets
     * CUDA_CACHE_DISABLE=1 before cuInit, so a PTX load is a real JIT. They
     * run hot only: an L2 flush means nothing to an allocation, a context or
     * a copy engine. */
    STRATA_BENCHMARKS_DRIVER_API = 1u
};

/** The entry point every plugin exports. */
typedef const strata_plugin_descriptor* (*strata_plugin_entry_fn)(void);

STRATA_PLUGIN_EXPORT const strata_plugin_descriptor* strata_plugin_entry(void);

/* Helper for plugin authors: the designated initialisers for a struct's
 * header, so the remaining fields can be named and the rest are zero:
 *   strata_check check = {STRATA_STRUCT_HEADER(strata_check), .id = STRATA_STR("x.y")};
 * (Designated, so -Wmissing-field-initializers stays quiet in C and C++20.) */
#define STRATA_STRUCT_HEADER(type) \
    .struct_size = sizeof(type), .abi_major = STRATA_PLUGIN_ABI_MAJOR, .abi_minor = STRATA_PLUGIN_ABI_MINOR

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* STRATA_PLUGIN_H */
