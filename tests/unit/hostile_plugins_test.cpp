// Plugins that attack the process running them: strata must survive each,
// stop it, and say what happened.
#include <sys/resource.h>

#include <catch2/catch.hpp>

#include "support/run_process.h"
#include "worker/supervisor.h"

using namespace strata;
using namespace std::chrono_literals;

namespace {

TaskOutcome run_hostile(const std::string& plugin, std::chrono::milliseconds max_declared = 300'000ms) {
    WorkerRequest request;
    request.strata_executable = test::strata_binary();
    request.plugin_path = test::hostile_plugin(plugin);
    request.task = "probe";
    request.grace = 300ms;
    request.max_declared_deadline = max_declared;
    return run_worker_task(request);
}

bool has_fact(const TaskOutcome& outcome, const std::string& key) {
    for (const Fact& fact : outcome.facts)
        if (fact.key == key) return true;
    return false;
}

}  // namespace

TEST_CASE("a plugin cannot kill strata: its signals to strata and strata's group are refused") {
    // This test process is the worker's parent: were the signal delivered,
    // the test binary would die here.
    TaskOutcome outcome = run_hostile("kill_parent");
    INFO(outcome.message);
    CHECK(outcome.end == TaskEnd::completed);
    CHECK_FALSE(has_fact(outcome, "runtime.test_kill_parent.parent"));
    CHECK_FALSE(has_fact(outcome, "runtime.test_kill_parent.parent_group"));
    CHECK(has_fact(outcome, "runtime.test_kill_parent.answer"));  // and it ran to its end
}

TEST_CASE("a plugin that floods facts is stopped at the cap, and strata's memory stays bounded") {
    auto started = std::chrono::steady_clock::now();
    TaskOutcome outcome = run_hostile("flood");
    auto elapsed = std::chrono::steady_clock::now() - started;
    CHECK(outcome.end == TaskEnd::error);
    CHECK(outcome.message.find("worker sent more than") != std::string::npos);
    CHECK(outcome.message.find("stopped it") != std::string::npos);
    CHECK(outcome.facts.size() <= 100'000);
    CHECK(elapsed < 60s);  // it would run forever otherwise
    rusage usage{};
    ::getrusage(RUSAGE_SELF, &usage);
    CHECK(usage.ru_maxrss < 1024 * 1024);  // KiB: well under 1 GiB (3.2 GB before the cap)
}

TEST_CASE("a plugin's declared deadline is capped") {
    // It declares 4e9 seconds and hangs; the cap (1 s here, 300 s by default)
    // is what strata waits.
    auto started = std::chrono::steady_clock::now();
    TaskOutcome outcome = run_hostile("declared_hang", 1000ms);
    CHECK(outcome.end == TaskEnd::timeout);
    CHECK(outcome.message.find("within 1.0 s") != std::string::npos);
    CHECK(std::chrono::steady_clock::now() - started < 10s);
}
