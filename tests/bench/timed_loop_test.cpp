// The benchmark runner's timed loop under Google Benchmark itself (Debian's
// 1.7.1), on the CPU: fake strata benchmarks whose "launches" are busy-waits.
// Issue #16 found two faults that only Google Benchmark's own behaviour shows:
//   1. a benchmark whose validation failed returned before its loop on the
//      second repetition without skipping, and Google Benchmark aborts the
//      whole program ("Benchmark returned before State::KeepRunning()
//      returned false!"): every result of the plugin was lost;
//   2. hot runs timed a batch of launches as one iteration, so Google
//      Benchmark kept going until batch x min_time of wall time.
// Issue #41 found three more that would lose a GPU run's results:
//   3. a collective reported its busbw on every run and the loop forwarded
//      each, so a cold run of a few microseconds sent ~10^5 records and the
//      supervisor stopped the worker: now kept as counters, sent once per
//      repetition, and any other per-run record is capped;
//   4. a cold run costs a flush and a synchronisation beside its few
//      microseconds of device time, and Google Benchmark ran cold runs until
//      their device time reached the minimum: ~10^5 runs per repetition.
//      A cold repetition is now bounded in runs and in wall time;
//   5. a runner over its budget skips what is left, with the reason.
// And one the driver benchmarks showed under load:
//   6. a repetition skipped after an earlier one of the same benchmark had
//      run (the budget spent midway, or a run failing) returned before its
//      loop, so it reported 0 iterations; Google Benchmark's ComputeStats
//      checks that every repetition has the first one's count and aborted
//      the runner: every result of the plugin was lost. Later skips happen
//      inside the started loop, which reports the same count.
// Exit 0 when all hold, with the evidence printed; run by ctest.
#include "timed_loop.h"

#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <map>
#include <string>

namespace {

using Clock = std::chrono::steady_clock;
constexpr double kLaunchMs = 0.01;  // one fake launch: 10 us of busy work

// What the fake launches really took, wall clock, preemption included: the
// reference for the per-iteration time Google Benchmark reports.
double busy_total_ms = 0;
uint64_t busy_total_launches = 0;

strata_task_result busy(const strata_host_api*, void*, uint64_t launches, double* elapsed_ms) {
    auto start = Clock::now();
    while (std::chrono::duration<double, std::milli>(Clock::now() - start).count() < kLaunchMs * launches) {
    }
    *elapsed_ms = std::chrono::duration<double, std::milli>(Clock::now() - start).count();
    busy_total_ms += *elapsed_ms;
    busy_total_launches += launches;
    return STRATA_TASK_OK;
}
// A collective: reports its bus bandwidth through the host, as the NCCL plugin does.
strata_task_result reports_busbw(const strata_host_api* host, void* stream, uint64_t launches,
                                 double* elapsed_ms) {
    strata_measurement m{};
    m.struct_size = sizeof m;
    m.abi_major = STRATA_PLUGIN_ABI_MAJOR;
    m.abi_minor = STRATA_PLUGIN_ABI_MINOR;
    m.name = {"busbw", 5};
    m.value = 123.5;
    m.unit = {"GB/s", 4};
    host->emit_measurement(host->context, &m);
    return busy(host, stream, launches, elapsed_ms);
}

// A chatty collective: a measurement and a log line on every run.
strata_task_result chatty(const strata_host_api* host, void* stream, uint64_t launches, double* elapsed_ms) {
    std::string line = "run of " + std::to_string(launches);
    host->log(host->context, STRATA_LOG_INFO, {line.data(), line.size()});
    return reports_busbw(host, stream, launches, elapsed_ms);
}

// A cold run of a kernel far shorter than its flush and synchronisation:
// 1 us of device time, while the flush below costs 100 us of wall time.
constexpr double kShortRunMs = 0.001;
constexpr double kFlushMs = 0.1;
uint64_t short_runs = 0;
strata_task_result short_run(const strata_host_api*, void*, uint64_t launches, double* elapsed_ms) {
    short_runs += launches;
    *elapsed_ms = kShortRunMs * static_cast<double>(launches);
    return STRATA_TASK_OK;
}
void slow_flush() {
    auto start = Clock::now();
    while (std::chrono::duration<double, std::milli>(Clock::now() - start).count() < kFlushMs) {
    }
}

strata_task_result fails_validation(const strata_host_api*, void*) {
    return STRATA_TASK_FAILED;
}

// Benchmarks that fail, or spend the runner's budget, once their timed runs
// have reached a given device time: Google Benchmark decides on the manual
// time alone, so which repetition that falls in is fixed. Hot: 0.03 ms per
// launch, so the loop batches 17 launches and the iteration count Google
// Benchmark predicts is no multiple of 17 (a repetition skipped inside the
// loop then reported the prediction, a measured one the whole batches).
// Cold: 25 ms per run, one run per repetition.
struct Trigger {
    double per_launch_ms = 0.03;
    double timed_ms = 0;                  // so far, the warm-up's included
    double fail_after_ms = 1e30;          // runs after this much fail
    double spend_budget_after_ms = 1e30;  // and after this, the budget is spent
    strata::bench::TimedTarget* target = nullptr;
};
Trigger hot_failing, hot_budget, cold_failing{25}, cold_budget{25};

template <Trigger* T>
strata_task_result triggered(const strata_host_api*, void*, uint64_t launches, double* elapsed_ms) {
    if (T->timed_ms >= T->fail_after_ms) return STRATA_TASK_FAILED;
    if (T->timed_ms >= T->spend_budget_after_ms) T->target->stop_at = Clock::now();
    *elapsed_ms = T->per_launch_ms * static_cast<double>(launches);
    T->timed_ms += *elapsed_ms;
    return STRATA_TASK_OK;
}

strata_benchmark fake(const char* name, strata_task_result (*validate)(const strata_host_api*, void*)) {
    strata_benchmark b{};
    b.struct_size = sizeof b;
    b.abi_major = STRATA_PLUGIN_ABI_MAJOR;
    b.abi_minor = STRATA_PLUGIN_ABI_MINOR;
    b.name = {name, std::char_traits<char>::length(name)};
    b.parameters = {"", 0};
    b.run = busy;
    b.validate = validate;
    b.bytes_per_iteration = 1 << 20;
    return b;
}

// Collects each run as Google Benchmark reports it.
class Collector : public benchmark::ConsoleReporter {
public:
    void ReportRuns(const std::vector<Run>& runs) override {
        for (const Run& run : runs) {
            if (run.run_type != Run::RT_Iteration) continue;
            Seen& seen = by_name[run.run_name.function_name];
            ++seen.repetitions;
            seen.errors += run.error_occurred ? 1 : 0;
            seen.iterations = run.iterations;
            // In the benchmark's unit: per second by GetTimeUnitMultiplier.
            seen.real_ms = run.GetAdjustedRealTime() / benchmark::GetTimeUnitMultiplier(run.time_unit) * 1e3;
            for (const auto& [counter, value] : run.counters) seen.counters[counter] = value.value;
        }
        ConsoleReporter::ReportRuns(runs);
    }
    struct Seen {
        int repetitions = 0, errors = 0;
        int64_t iterations = 0;
        double real_ms = 0;
        std::map<std::string, double> counters;
    };
    std::map<std::string, Seen> by_name;
};

}  // namespace

int main(int argc, char** argv) {
    strata_benchmark broken = fake("broken", fails_validation);
    strata_benchmark hot = fake("hot", nullptr);
    strata_benchmark collective = fake("collective", nullptr);
    collective.run = reports_busbw;
    strata_benchmark chatty_collective = fake("chatty", nullptr);
    chatty_collective.run = chatty;
    strata_benchmark short_kernel = fake("short", nullptr);
    short_kernel.run = short_run;
    strata_benchmark late = fake("late", nullptr);
    strata_benchmark hot_fails = fake("hot_fails", nullptr), hot_over = fake("hot_over", nullptr);
    strata_benchmark cold_fails = fake("cold_fails", nullptr), cold_over = fake("cold_over", nullptr);
    hot_fails.run = triggered<&hot_failing>;
    hot_over.run = triggered<&hot_budget>;
    cold_fails.run = triggered<&cold_failing>;
    cold_over.run = triggered<&cold_budget>;
    strata::bench::TimedTarget broken_target, hot_target, collective_target, chatty_target, cold_target,
        late_target, hot_fails_target, hot_over_target, cold_fails_target, cold_over_target;
    broken_target.benchmark = &broken;
    hot_target.benchmark = &hot;
    collective_target.benchmark = &collective;
    chatty_target.benchmark = &chatty_collective;
    cold_target.benchmark = &short_kernel;
    cold_target.cold = true;
    cold_target.flush_l2 = slow_flush;
    late_target.benchmark = &late;
    late_target.stop_at = Clock::now();  // the runner's budget is spent before it starts
    // Hot: the first repetition (with Google Benchmark's estimate) takes
    // about 35 ms of device time, each later one about 28: a failure after
    // 70 ms falls inside the third, a budget spent after 40 ms before it.
    hot_fails_target.benchmark = &hot_fails;
    hot_failing.fail_after_ms = 70;
    hot_over_target.benchmark = &hot_over;
    hot_budget.spend_budget_after_ms = 40;
    hot_budget.target = &hot_over_target;
    // Cold: the warm-up's two runs (50 ms), then one 25 ms run per repetition.
    for (auto* t : {&cold_fails_target, &cold_over_target}) {
        t->cold = true;
        t->flush_l2 = [] {};
    }
    cold_fails_target.benchmark = &cold_fails;
    cold_failing.fail_after_ms = 100;
    cold_over_target.benchmark = &cold_over;
    cold_budget.spend_budget_after_ms = 75;
    cold_budget.target = &cold_over_target;
    // The worker's host: what reaches strata, counted.
    struct Counts {
        int measurements = 0, logs = 0;
    } forwarded;
    strata_host_api host{};
    host.struct_size = sizeof host;
    host.context = &forwarded;
    host.emit_measurement = [](void* context, const strata_measurement*) {
        ++static_cast<Counts*>(context)->measurements;
    };
    host.log = [](void* context, int32_t, strata_str) { ++static_cast<Counts*>(context)->logs; };
    collective_target.host = &host;
    chatty_target.host = &host;
    constexpr int kRepetitions = 3;
    for (auto& [name, target] : {std::pair{"broken", &broken_target},
                                 {"hot", &hot_target},
                                 {"collective", &collective_target},
                                 {"chatty", &chatty_target},
                                 {"cold", &cold_target},
                                 {"late", &late_target},
                                 {"hot_fails", &hot_fails_target},
                                 {"hot_over", &hot_over_target},
                                 {"cold_fails", &cold_fails_target},
                                 {"cold_over", &cold_over_target}})
        strata::bench::register_timed(name, *target, kRepetitions);
    benchmark::Initialize(&argc, argv);
    Collector collector;
    auto started = Clock::now();
    benchmark::RunSpecifiedBenchmarks(&collector);
    double wall_s = std::chrono::duration<double>(Clock::now() - started).count();
    benchmark::Shutdown();

    int failures = 0;
    auto expect = [&](bool ok, const std::string& what) {
        std::printf("%s %s\n", ok ? "ok  " : "FAIL", what.c_str());
        failures += ok ? 0 : 1;
    };
    const auto& b = collector.by_name["broken"];
    expect(b.repetitions == 3 && b.errors == 3,
           "a failed validation skips each of the 3 repetitions with its reason (" +
               std::to_string(b.errors) + " of " + std::to_string(b.repetitions) +
               "), and the program goes on");
    const auto& h = collector.by_name["hot"];
    expect(hot_target.batch > 1, "hot runs batch launches (batch " + std::to_string(hot_target.batch) + ")");
    expect(h.iterations > 0 && h.iterations % static_cast<int64_t>(hot_target.batch) == 0,
           "iterations count launches, in whole batches (" + std::to_string(h.iterations) + ")");
    // Against what a launch really took on this machine, so a loaded CI host
    // (preempted busy-waits) does not make a correct loop look wrong.
    double launch_ms = busy_total_launches ? busy_total_ms / static_cast<double>(busy_total_launches) : 0;
    expect(h.real_ms > 0.5 * kLaunchMs && h.real_ms > 0.5 * launch_ms && h.real_ms < 2 * launch_ms,
           "the time per iteration is one launch's (" + std::to_string(h.real_ms * 1e3) +
               " us, a launch took " + std::to_string(launch_ms * 1e3) + " us on average)");
    // Issue #16, finding 5: a collective's busbw reaches the results, in bytes per second.
    const auto& c = collector.by_name["collective"];
    auto busbw = c.counters.find("busbw_bytes_per_second");
    expect(busbw != c.counters.end() && busbw->second == 123.5e9,
           "busbw reported by the plugin is a counter of the results (" +
               (busbw == c.counters.end() ? std::string("absent") : std::to_string(busbw->second)) + ")");
    expect(forwarded.measurements > 0, "and still reaches strata through the worker's host");
    // Issue #41: per repetition, not per run.
    const auto& chatter = collector.by_name["chatty"];
    auto calls = static_cast<int>(chatter.repetitions) * 12;  // Google Benchmark's estimate calls, generously
    expect(chatter.iterations > 1000 && forwarded.measurements <= 2 * calls,
           "a collective measured on each of " + std::to_string(chatter.iterations) +
               " runs sends its measurements once per call, not per run (" +
               std::to_string(forwarded.measurements) + " sent)");
    // Plus the two untimed runs of the warm-up and the batch calibration.
    expect(forwarded.logs <= strata::bench::kMaxForwardedRecords + 2 && forwarded.logs > 0,
           "its per-run log lines are capped at " + std::to_string(strata::bench::kMaxForwardedRecords) +
               ", besides the warm-up's (" + std::to_string(forwarded.logs) + " sent)");
    expect(chatter.counters.count("records_not_forwarded") == 1, "and the results count what was not sent");
    // Cold runs: bounded by the wall budget per repetition, not by device time alone.
    const auto& cold = collector.by_name["cold"];
    double wall_budget_ms = strata::bench::kColdWallPerMinTime * 20;  // min_time 0.02 s
    auto cold_bound = static_cast<uint64_t>(kRepetitions * (wall_budget_ms / kFlushMs + 2));
    expect(cold.repetitions == kRepetitions && cold.errors == 0 && short_runs >= kRepetitions &&
               short_runs <= cold_bound + 2,
           "cold: " + std::to_string(short_runs) + " flushed runs in " + std::to_string(kRepetitions) +
               " repetitions, at most " + std::to_string(cold_bound) +
               " within the wall budget (device time alone would ask for " +
               std::to_string(static_cast<int>(kRepetitions * 20 / kShortRunMs)) + ")");
    expect(cold.iterations == 1 && std::fabs(cold.real_ms - kShortRunMs) < 1e-6,
           "a cold repetition is one iteration timed as the mean run (" + std::to_string(cold.real_ms * 1e3) +
               " us)");
    expect(cold.counters.count("cold_runs") == 1 && cold.counters.at("cold_runs") >= 1,
           "and counts its flushed runs");
    const auto& over = collector.by_name["late"];
    expect(over.repetitions == kRepetitions && over.errors == kRepetitions,
           "a benchmark after the runner's budget is skipped with the reason, every repetition");
    // Finding 6: reaching this line at all is the test (the runner aborted,
    // once two repetitions had measured and a third was skipped); the first
    // two keep their results, the last says why not.
    for (const char* name : {"hot_fails", "hot_over", "cold_fails", "cold_over"}) {
        const auto& seen = collector.by_name[name];
        expect(seen.repetitions == kRepetitions && seen.errors == 1,
               std::string(name) + ": two repetitions measured, the last skipped with the reason (" +
                   std::to_string(seen.errors) + " skipped)");
    }
    // Each repetition stops near the minimum time in launches, not batch x min_time.
    expect(wall_s < 6 * 0.02 * 4 * 10 * std::max(1.0, launch_ms / kLaunchMs),
           "the run takes about repetitions x min_time (" + std::to_string(wall_s) + " s)");
    return failures == 0 ? 0 : 1;
}
