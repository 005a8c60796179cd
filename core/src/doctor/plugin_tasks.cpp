#include "doctor/plugin_tasks.h"

#include <algorithm>
#include <chrono>
#include <filesystem>

#include "diagnosis/install_hints.h"
#include "probes/probes.h"

namespace strata {

namespace {

std::string join_lines(const std::vector<std::string>& lines) {
    std::string out;
    for (const std::string& line : lines) out += (out.empty() ? "" : "\n") + line;
    return out;
}

std::string check_prefix(const PluginRecord& record) {
    return std::string(layer_name(record.layer.value_or(Layer::host))) + "." + record.name;
}

PluginState state_for(const TaskOutcome& outcome) {
    switch (outcome.end) {
        case TaskEnd::completed:
        case TaskEnd::task_failed: return PluginState::loaded;
        case TaskEnd::load_failed:
            return outcome.load_error && outcome.load_error->kind == "missing_dependency"
                       ? PluginState::missing_dependency
                       : PluginState::error;
        case TaskEnd::crashed: return PluginState::crashed;
        case TaskEnd::timeout: return PluginState::timeout;
        case TaskEnd::error: return PluginState::error;
    }
    return PluginState::error;
}

Status status_for(TaskEnd end, const PluginRecord& record) {
    switch (end) {
        case TaskEnd::completed: return Status::pass;
        case TaskEnd::crashed: return Status::crashed;
        case TaskEnd::timeout: return Status::timeout;
        case TaskEnd::load_failed:
            return record.state == PluginState::missing_dependency ? Status::fail : Status::error;
        case TaskEnd::task_failed:
        case TaskEnd::error: return Status::error;
    }
    return Status::error;
}

void add_outcome_check(const TaskOutcome& outcome, const PluginRecord& record, const std::string& task,
                       double duration_ms, bool missing_library_fails, Report& report) {
    Check check;
    check.duration_ms = duration_ms;
    check.origin = record.name;
    check.layer = record.layer.value_or(Layer::host);
    check.status = status_for(outcome.end, record);
    if (outcome.end == TaskEnd::load_failed) {
        check.id = check_prefix(record) + ".load";
        check.summary =
            record.state == PluginState::missing_dependency
                ? "plugin " + record.name + " cannot load: " + record.missing_library + " not found"
                : "plugin " + record.name + " cannot load: " + outcome.message;
        check.evidence = outcome.message;
        std::string hint = install_hint(record.missing_library);
        bool broken_dependency = outcome.load_error && outcome.load_error->kind == "broken_dependency";
        if (broken_dependency) {
            const std::string& library = outcome.load_error->library;
            check.summary = "plugin " + record.name + " cannot load: the library " + library +
                            " it needs is not a usable shared library (" +
                            outcome.message.substr(std::min(outcome.message.size(), library.size() + 2)) +
                            ")";
            check.status = Status::fail;  // the machine's library, not strata or the plugin
            check.remedy = "remove or replace " + library +
                           ": it is found before the real library (LD_LIBRARY_PATH, RUNPATH or ld.so.cache); "
                           "the plugin itself is fine";
        }
        check.remedy = broken_dependency ? check.remedy
                       : record.state == PluginState::missing_dependency
                           ? (hint.empty() ? "install the package that provides " + record.missing_library
                                           : "install " + hint) +
                                 "; if it is installed, add its directory to LD_LIBRARY_PATH"
                           : "rebuild or reinstall the plugin " + record.path;
        if (!missing_library_fails && record.state == PluginState::missing_dependency && !broken_dependency) {
            check.status = Status::skip;
            check.summary +=
                ": not installed system-wide, which is no fault of the node (jobs may bring "
                "their own, e.g. as pip wheels)";
        }
    } else {
        check.id = check_prefix(record) + "." + task;
        check.summary = record.name + " " + task + ": " + outcome.message;
        check.evidence = join_lines(outcome.output_tail);
        check.remedy =
            "this is a bug in the plugin or in a library it calls; the evidence holds the "
            "last lines the worker printed (rerun with `strata worker --plugin " +
            record.path + " --task " + task + "` to see everything)";
    }
    report.add_check(std::move(check));
}

}  // namespace

PluginRecord refuse_plugin(const PluginCandidate& candidate, Report& report) {
    PluginRecord record;
    record.path = candidate.path;
    record.name = candidate.name;
    record.state = PluginState::refused;
    record.message = candidate.refusal.value_or("");
    Check check = make_check("host." + record.name + ".load", Layer::host, Status::error,
                             "plugin " + record.name + " refused: " + record.message, candidate.path,
                             "make the plugin file writable by its owner only (chmod go-w), or remove it");
    check.origin = record.name;
    report.add_check(std::move(check));
    return record;
}

TaskOutcome execute_plugin_task(const RunOptions& options, const PluginCandidate& candidate,
                                const std::string& task) {
    WorkerRequest request;
    request.strata_executable = options.executable;
    request.plugin_path = candidate.path;
    request.task = task;
    request.deadline_override = options.timeout;
    if (options.timeout) request.load_deadline = std::max(request.load_deadline, *options.timeout);
    if (options.deadline) {
        // Every deadline of the worker is cut to the run's time left.
        using std::chrono::milliseconds;
        auto left =
            std::chrono::duration_cast<milliseconds>(*options.deadline - std::chrono::steady_clock::now());
        left = std::max(left, milliseconds(1000));
        request.load_deadline = std::min(request.load_deadline, left);
        request.default_task_deadline = std::min(request.default_task_deadline, left);
        request.max_declared_deadline = std::min(request.max_declared_deadline, left);
        if (request.deadline_override) request.deadline_override = std::min(*request.deadline_override, left);
    }
    return run_worker_task(request);
}

PluginRecord run_plugin_task(const RunOptions& options, const PluginCandidate& candidate,
                             const std::string& task, Report& report) {
    return fold_plugin_outcome(candidate, task, execute_plugin_task(options, candidate, task), report);
}

PluginRecord fold_plugin_outcome(const PluginCandidate& candidate, const std::string& task,
                                 TaskOutcome outcome, Report& report, bool missing_library_fails) {
    PluginRecord record = outcome.plugin.value_or(PluginRecord{});
    record.path = candidate.path;
    if (record.name.empty()) record.name = candidate.name;
    record.state = state_for(outcome);
    if (record.state != PluginState::loaded) record.message = outcome.message;
    if (outcome.load_error) record.missing_library = outcome.load_error->library;
    // A plugin that could not load never told its layer; a missing library
    // belongs to the layer of that library, so it gates what it should.
    bool broken_dependency = outcome.load_error && outcome.load_error->kind == "broken_dependency";
    if (!record.layer && (record.state == PluginState::missing_dependency || broken_dependency))
        record.layer = layer_of_library(std::filesystem::path(record.missing_library).filename().string());

    Layer layer = record.layer.value_or(Layer::host);
    for (Fact& fact : outcome.facts) {
        fact.layer = layer;
        report.add_fact(std::move(fact));
    }
    // The task's time, shared among the checks it produced (JUnit's
    // per-test time adds up to the time the task took).
    const bool adds_outcome_check = outcome.end != TaskEnd::completed && task != "describe";
    const size_t produced = outcome.checks.size() + (adds_outcome_check ? 1 : 0);
    const double share_ms = produced ? static_cast<double>(outcome.elapsed.count()) / produced : 0;
    for (Check& check : outcome.checks) {
        check.origin = record.name;
        check.duration_ms = share_ms;
        if (check.id == "plugin.abi_violation") {
            check.id = check_prefix(record) + ".abi_violation";
            check.layer = layer;
        }
        report.add_check(std::move(check));
    }
    for (Measurement& measurement : outcome.measurements) {
        measurement.origin = record.name;
        report.add_measurement(std::move(measurement));
    }
    if (adds_outcome_check) add_outcome_check(outcome, record, task, share_ms, missing_library_fails, report);
    return record;
}

}  // namespace strata
