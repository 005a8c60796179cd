// What happened when strata tried to load and run one plugin.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "model/layer.h"

namespace strata {

enum class PluginState { loaded, refused, missing_dependency, crashed, timeout, error };

std::string_view plugin_state_name(PluginState state);

struct BenchmarkInfo {
    std::string name;
    std::string parameters;
    double bytes_per_iteration = 0;
    double flops_per_iteration = 0;
    uint32_t gpus = 1;  // GPUs it needs at least (ABI 1.5 benchmark_gpus)
};

struct PluginRecord {
    std::string path;
    std::string name;  // from the descriptor, or the file name before it is known
    std::string version;
    std::string description;
    std::optional<Layer> layer;
    int abi_major = 0;
    int abi_minor = 0;
    bool has_selftest = false;
    uint32_t probe_timeout_s = 0;  // the plugin's own deadlines; 0: the core's default
    uint32_t selftest_timeout_s = 0;
    std::vector<std::string> required_libraries;
    std::vector<BenchmarkInfo> benchmarks;
    uint32_t benchmark_flags = 0;  // strata_benchmark_flags (ABI 1.4)
    PluginState state = PluginState::loaded;
    std::string message;          // why it was refused or failed; empty when loaded
    std::string missing_library;  // the exact soname, for missing_dependency
};

}  // namespace strata
