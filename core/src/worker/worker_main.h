// The child side of isolation: `strata worker --plugin PATH --task TASK`.
// Loads one plugin, runs one task, and streams JSON Lines on the protocol
// descriptor (STRATA_WORKER_FD, or stdout when run by hand).
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include "strata/plugin.h"

namespace strata {

enum class WorkerTask { describe, probe, selftest, bench };

// Runs a loaded plugin's benchmarks. The strata binary has none (it links no
// CUDA); the benchmark runner (bench/runner) is a worker that supplies one.
using BenchTask = std::function<strata_task_result(const strata_plugin_descriptor&, const strata_host_api&)>;

std::optional<WorkerTask> parse_worker_task(std::string_view name);

// Returns the process exit status: 0 when the protocol stream was written to
// the end (even if the plugin failed to load: that is reported in-band).
int run_worker(const std::string& plugin_path, WorkerTask task, const BenchTask& bench = {});

}  // namespace strata
