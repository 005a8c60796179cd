// Each fault-injection plugin in a real worker process: every failure gets
// its own status and message, and the parent always finishes.
#include <sys/stat.h>

#include <catch2/catch.hpp>
#include <filesystem>

#include "doctor/doctor.h"
#include "support/run_process.h"
#include "worker/supervisor.h"

using namespace strata;
using namespace std::chrono_literals;

namespace {

TaskOutcome run(const std::string& plugin, std::optional<std::chrono::milliseconds> deadline = std::nullopt) {
    WorkerRequest request;
    request.strata_executable = test::strata_binary();
    request.plugin_path = test::test_plugin(plugin);
    request.task = "probe";
    request.deadline_override = deadline;
    request.grace = 300ms;
    return run_worker_task(request);
}

std::string joined(const std::vector<std::string>& lines) {
    std::string out;
    for (const auto& line : lines) out += line + "\n";
    return out;
}

}  // namespace

TEST_CASE("a plugin that succeeds reports facts, checks, measurements and logs") {
    TaskOutcome outcome = run("ok");
    INFO(outcome.message);
    CHECK(outcome.end == TaskEnd::completed);
    REQUIRE(outcome.plugin);
    CHECK(outcome.plugin->name == "test_ok");
    CHECK(outcome.plugin->has_selftest);
    REQUIRE(outcome.facts.size() == 2);
    CHECK(outcome.facts[0].key == "runtime.test_ok.answer");
    CHECK(outcome.facts[0].value == 42);
    REQUIRE(outcome.checks.size() == 1);
    CHECK(outcome.checks[0].status == Status::pass);
    REQUIRE(outcome.measurements.size() == 1);
    CHECK(outcome.measurements[0].value == 1.5);
    REQUIRE(outcome.logs.size() == 1);
    CHECK(outcome.logs[0].message == "probe finished");
}

TEST_CASE("a process the plugin leaves behind does not hold the task open") {
    auto started = std::chrono::steady_clock::now();
    TaskOutcome outcome = run("lingering_child");
    CHECK(outcome.end == TaskEnd::completed);
    CHECK(outcome.checks.size() == 1);
    CHECK(std::chrono::steady_clock::now() - started < 3s);  // the helper sleeps 5 s
}

TEST_CASE("a segfault becomes crashed, with the signal and the last stderr lines") {
    TaskOutcome outcome = run("segfault");
    CHECK(outcome.end == TaskEnd::crashed);
    CHECK(outcome.message == "worker crashed with SIGSEGV (Segmentation fault) while running probe");
    CHECK(joined(outcome.output_tail).find("test plugin: about to dereference NULL") != std::string::npos);
}

TEST_CASE("an abort becomes crashed with SIGABRT") {
    TaskOutcome outcome = run("abort");
    CHECK(outcome.end == TaskEnd::crashed);
    CHECK(outcome.message.find("SIGABRT") != std::string::npos);
    CHECK(joined(outcome.output_tail).find("about to abort") != std::string::npos);
}

TEST_CASE("a hang past the deadline is killed: SIGTERM, then SIGKILL") {
    auto started = std::chrono::steady_clock::now();
    TaskOutcome outcome = run("hang");  // the plugin declares a 1 s probe deadline
    auto elapsed = std::chrono::steady_clock::now() - started;
    CHECK(outcome.end == TaskEnd::timeout);
    CHECK(outcome.message ==
          "probe did not finish within 1.0 s; sent SIGTERM, then SIGKILL after the grace period");
    CHECK(elapsed < 10s);

    SECTION("--timeout overrides the plugin's own deadline") {
        TaskOutcome overridden = run("hang", 200ms);
        CHECK(overridden.end == TaskEnd::timeout);
        CHECK(overridden.message.find("within 0.2 s") != std::string::npos);
    }
}

TEST_CASE("a plugin that exits non-zero is an error naming the status") {
    TaskOutcome outcome = run("exit_nonzero");
    CHECK(outcome.end == TaskEnd::error);
    CHECK(outcome.message == "worker exited with status 7 before finishing probe");
    CHECK(joined(outcome.output_tail).find("exiting with status 7") != std::string::npos);
}

TEST_CASE("garbage on the protocol channel is an error quoting it") {
    TaskOutcome outcome = run("garbage");
    CHECK(outcome.end == TaskEnd::error);
    CHECK(outcome.message == "unparsable output from worker (not JSON): 'this is not JSON {{{'");
}

TEST_CASE("another ABI major is refused with both versions") {
    TaskOutcome outcome = run("wrong_abi");
    CHECK(outcome.end == TaskEnd::load_failed);
    REQUIRE(outcome.load_error);
    CHECK(outcome.load_error->kind == "abi_mismatch");
    std::string minor = std::to_string(STRATA_PLUGIN_ABI_MINOR);
    CHECK(outcome.message.find("plugin ABI 2." + minor + " is not compatible with this strata's ABI 1." +
                               minor) != std::string::npos);
}

TEST_CASE("a missing shared library is named exactly") {
    TaskOutcome outcome = run("missing_dependency");
    CHECK(outcome.end == TaskEnd::load_failed);
    REQUIRE(outcome.load_error);
    CHECK(outcome.load_error->kind == "missing_dependency");
    CHECK(outcome.load_error->library == "libstrata_test_ghost.so");
    CHECK(outcome.message.find("cannot open shared object file") != std::string::npos);
}

TEST_CASE("an undefined symbol is named exactly") {
    TaskOutcome outcome = run("undefined_symbol");
    CHECK(outcome.end == TaskEnd::load_failed);
    REQUIRE(outcome.load_error);
    CHECK(outcome.load_error->kind == "undefined_symbol");
    CHECK(outcome.load_error->library == "strata_test_symbol_nobody_defines");
    CHECK(outcome.message.find("undefined symbol: strata_test_symbol_nobody_defines") != std::string::npos);
}

TEST_CASE("a declared required library that is absent is named, with where strata looked") {
    TaskOutcome outcome = run("required_missing");
    CHECK(outcome.end == TaskEnd::load_failed);
    REQUIRE(outcome.load_error);
    CHECK(outcome.load_error->library == "libstrata-absent.so.7");
    CHECK(outcome.message.find("searched") != std::string::npos);
    CHECK(outcome.message.find("/etc/ld.so.cache") != std::string::npos);
}

TEST_CASE("a worker binary that does not exist is an error, not a hang") {
    WorkerRequest request;
    request.strata_executable = "/nonexistent/strata";
    request.plugin_path = test::test_plugin("ok");
    request.task = "probe";
    TaskOutcome outcome = run_worker_task(request);
    CHECK(outcome.end == TaskEnd::error);
    CHECK(outcome.message == "could not start the worker /nonexistent/strata");
}

TEST_CASE("a full doctor run reports every plugin, each with its own status") {
    // A world-writable copy of a good plugin must be refused, not loaded.
    std::filesystem::path dir = test::scratch_path("writable-plugin");
    std::filesystem::create_directories(dir);
    std::filesystem::path writable = dir / "libstrata_plugin_writable.so";
    std::filesystem::copy_file(test::test_plugin("ok"), writable,
                               std::filesystem::copy_options::overwrite_existing);
    ::chmod(writable.c_str(), 0666);

    RunOptions options;
    options.executable = test::strata_binary();
    options.plugins.include_builtin = false;
    options.plugins.paths = {test::test_plugin_directory(), writable.string()};
    options.timeout = 1500ms;
    Report report = run_doctor(options, ProbeContext::live());
    std::filesystem::remove_all(dir);

    std::map<std::string, PluginState> states;
    for (const PluginRecord& plugin : report.plugins()) states[plugin.name] = plugin.state;
    CHECK(states.size() == 13);
    CHECK(states["test_lingering_child"] == PluginState::loaded);
    CHECK(states["test_undefined_symbol"] == PluginState::error);
    CHECK(states["test_ok"] == PluginState::loaded);
    CHECK(states["test_selftest_library"] == PluginState::loaded);
    CHECK(states["test_segfault"] == PluginState::crashed);
    CHECK(states["test_abort"] == PluginState::crashed);
    CHECK(states["test_hang"] == PluginState::timeout);
    CHECK(states["test_exit_nonzero"] == PluginState::error);
    CHECK(states["test_garbage"] == PluginState::error);
    CHECK(states["test_wrong_abi"] == PluginState::error);
    CHECK(states["test_missing_dependency"] == PluginState::missing_dependency);
    CHECK(states["test_required_missing"] == PluginState::missing_dependency);
    CHECK(states["writable"] == PluginState::refused);

    const Check* refused = report.find_check("host.writable.load");
    REQUIRE(refused);
    CHECK(refused->summary.find("writable by everyone") != std::string::npos);
    const Check* crashed = report.find_check("runtime.test_segfault.probe");
    REQUIRE(crashed);
    CHECK(crashed->status == Status::crashed);
    const Check* missing = report.find_check("library.test_missing_dependency.load");
    REQUIRE(missing);
    CHECK(missing->summary ==
          "plugin test_missing_dependency cannot load: libstrata_test_ghost.so not found");

    // Self-tests run only where the earlier layers passed; on a host without
    // a driver they are gated with the failed layer as the reason.
    if (auto gate = report.gate_for(Layer::library)) {
        const Check* gated = report.find_check("library.test_selftest_library.selftest");
        REQUIRE(gated);
        CHECK(gated->status == Status::skip);
        CHECK(gated->summary.find(gate->reason()) != std::string::npos);
    } else {
        const Check* ran = report.find_check("library.test_selftest_library.selftest_ok");
        REQUIRE(ran);
        CHECK(ran->status == Status::pass);
    }
    CHECK(report.exit_code() == 1);
}
