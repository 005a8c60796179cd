// The parent side of isolation: starts `strata worker` for one plugin task,
// reads its JSON Lines, enforces the deadline (SIGTERM, a grace period, then
// SIGKILL) and turns whatever happened into a TaskOutcome. Never throws for
// anything the child does; throws std::runtime_error when strata itself cannot
// start one (no descriptors or processes left), which is exit 3.
#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <vector>

#include "model/check.h"
#include "model/fact.h"
#include "model/measurement.h"
#include "model/plugin_record.h"
#include "worker/protocol.h"

namespace strata {

struct WorkerRequest {
    std::string strata_executable;  // re-executed as `strata worker ...`
    std::string plugin_path;
    std::string task;  // describe, probe, selftest
    // Extra environment for the child, "NAME=value" (e.g. LD_LIBRARY_PATH).
    std::vector<std::string> environment;
    // Until the plugin has loaded and said hello.
    std::chrono::milliseconds load_deadline{10'000};
    // For the task itself: the override if given, else the plugin's own
    // default for the task, else `default_task_deadline`.
    std::optional<std::chrono::milliseconds> deadline_override;
    std::chrono::milliseconds default_task_deadline{30'000};
    // A plugin's declared deadline is capped here: it may ask for more time
    // than the default, not for as long as it likes.
    std::chrono::milliseconds max_declared_deadline{300'000};
    std::chrono::milliseconds grace{2'000};
};

enum class TaskEnd { completed, task_failed, load_failed, crashed, timeout, error };

struct TaskOutcome {
    TaskEnd end = TaskEnd::error;
    std::string message;                 // one line, for everything but `completed`
    std::optional<PluginRecord> plugin;  // from hello
    std::optional<protocol::LoadError> load_error;
    std::vector<Fact> facts;
    std::vector<Check> checks;
    std::vector<Measurement> measurements;
    std::vector<protocol::LogLine> logs;
    std::vector<std::string> output_tail;  // last lines the child wrote to stdout/stderr
    std::chrono::milliseconds elapsed{0};
};

TaskOutcome run_worker_task(const WorkerRequest& request);

// "SIGSEGV (Segmentation fault)"
std::string describe_signal(int signal_number);

}  // namespace strata
