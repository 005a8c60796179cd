// The plumbing every strata plugin repeats, written once: a task function
// that hands the plugin a Reporter, a descriptor built from named fields, and
// a table of benchmarks generated from per-index descriptions.
#pragma once

#include <array>
#include <utility>

#include "reporter.h"

namespace strata::plugin {

// A strata_task_fn for a function taking a Reporter. Task functions report
// failures as checks; a C++ exception must not cross the ABI, so one that
// escapes is logged and the task reports that it could not do its work.
template <void (*Task)(const Reporter&)>
strata_task_result task(const strata_host_api* host) {
    Reporter report(host);
    try {
        Task(report);
        return STRATA_TASK_OK;
    } catch (const std::exception& error) {
        report.log(STRATA_LOG_ERROR, error.what());
    } catch (...) {
        report.log(STRATA_LOG_ERROR, "unknown exception");
    }
    return STRATA_TASK_FAILED;
}

struct DescriptorFields {
    strata_str name;
    strata_str description;
    strata_layer layer;
    const strata_str* required_libraries = nullptr;
    size_t required_library_count = 0;
    strata_task_fn probe = nullptr;
    strata_task_fn selftest = nullptr;
    const strata_benchmark* benchmarks = nullptr;
    size_t benchmark_count = 0;
    uint32_t probe_timeout_s = 30;
    uint32_t selftest_timeout_s = 120;
    strata_task_fn release_benchmarks = nullptr;
    uint32_t benchmark_flags = 0;
    const uint32_t* benchmark_gpus = nullptr;
};

inline strata_plugin_descriptor make_descriptor(const DescriptorFields& fields) {
    auto out = abi_struct<strata_plugin_descriptor>();
    out.name = fields.name;
    out.version = STRATA_STR("1.0");
    out.description = fields.description;
    out.layer = fields.layer;
    out.required_libraries = fields.required_libraries;
    out.required_library_count = fields.required_library_count;
    out.probe = fields.probe;
    out.selftest = fields.selftest;
    out.benchmarks = fields.benchmarks;
    out.benchmark_count = fields.benchmark_count;
    out.probe_timeout_s = fields.probe_timeout_s;
    out.selftest_timeout_s = fields.selftest_timeout_s;
    out.release_benchmarks = fields.release_benchmarks;
    out.benchmark_flags = fields.benchmark_flags;
    out.benchmark_gpus = fields.benchmark_gpus;
    return out;
}

// A static table of N benchmarks: describe(std::integral_constant<size_t, I>)
// returns the I-th one, so each can name its own validate<I> / run<I>
// (benchmark functions are plain C pointers and carry no state).
template <size_t N, typename Describe>
const strata_benchmark* benchmark_table(size_t* count, Describe describe) {
    static const auto table = [&]<size_t... I>(std::index_sequence<I...>) {
        return std::array<strata_benchmark, N>{describe(std::integral_constant<size_t, I>{})...};
    }
    (std::make_index_sequence<N>());
    *count = N;
    return table.data();
}

}  // namespace strata::plugin
