#include "timed_loop.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <string>
#include <utility>

namespace strata::bench {

namespace {

// Of a plugin's error, kept in a skipped benchmark's reason.
constexpr size_t kMaxErrorText = 400;

std::string text(strata_str s) {
    return {s.data, s.size};
}

void range_push(nvtxDomainHandle_t domain, const std::string& name) {
    nvtxEventAttributes_t attributes{};
    attributes.version = NVTX_VERSION;
    attributes.size = NVTX_EVENT_ATTRIB_STRUCT_SIZE;
    attributes.messageType = NVTX_MESSAGE_TYPE_ASCII;
    attributes.message.ascii = name.c_str();
    nvtxDomainRangePushEx(domain, &attributes);
}

// The host a timed run sees: the worker's, except that measurements (NCCL's
// busbw, algbw, ranks) are kept, last value per name, to become counters of
// the results and to be sent on once per repetition, and everything else is
// sent on only up to the target's kMaxForwardedRecords: a run is a few
// microseconds, and a record per run would flood the worker protocol.
struct RecordingHost {
    strata_host_api api{};
    TimedTarget* target = nullptr;
    std::map<std::pair<std::string, std::string>, double> last;  // (name, unit) -> value
    std::string last_error;  // the last error-level log line, at most kMaxErrorText bytes

    explicit RecordingHost(TimedTarget& t) : target(&t) {
        if (t.host) api = *t.host;
        api.struct_size = sizeof api;
        api.abi_major = STRATA_PLUGIN_ABI_MAJOR;
        api.abi_minor = STRATA_PLUGIN_ABI_MINOR;
        api.context = this;
        api.emit_fact = [](void* self, const strata_fact* fact) {
            auto* me = static_cast<RecordingHost*>(self);
            if (const strata_host_api* host = me->forward(); host && host->emit_fact)
                host->emit_fact(host->context, fact);
        };
        api.emit_check = [](void* self, const strata_check* check) {
            auto* me = static_cast<RecordingHost*>(self);
            if (const strata_host_api* host = me->forward(); host && host->emit_check)
                host->emit_check(host->context, check);
        };
        api.log = [](void* self, int32_t level, strata_str message) {
            auto* me = static_cast<RecordingHost*>(self);
            if (level >= STRATA_LOG_ERROR && message.data)
                me->last_error.assign(message.data, std::min(message.size, kMaxErrorText));
            if (const strata_host_api* host = me->forward(); host && host->log)
                host->log(host->context, level, message);
        };
        api.emit_measurement = [](void* self, const strata_measurement* m) {
            auto* me = static_cast<RecordingHost*>(self);
            if (m && std::isfinite(m->value)) me->last[{text(m->name), text(m->unit)}] = m->value;
        };
    }

    // The worker's host while the target may still send records; null after.
    const strata_host_api* forward() {
        if (target->forwarded_records >= kMaxForwardedRecords) {
            ++target->dropped_records;
            return nullptr;
        }
        ++target->forwarded_records;
        return target->host;
    }

    // Once per repetition: the last value of each measurement.
    void send_measurements() const {
        const strata_host_api* host = target->host;
        if (!host || !host->emit_measurement) return;
        for (const auto& [key, value] : last) {
            strata_measurement m{};
            m.struct_size = sizeof m;
            m.abi_major = STRATA_PLUGIN_ABI_MAJOR;
            m.abi_minor = STRATA_PLUGIN_ABI_MINOR;
            m.name = {key.first.data(), key.first.size()};
            m.unit = {key.second.data(), key.second.size()};
            m.value = value;
            host->emit_measurement(host->context, &m);
        }
    }

    // Counters in base units: a rate in GB/s becomes <name>_bytes_per_second;
    // a time in ms keeps its name, which says its unit (the driver's
    // jit_wall_ms), and is smaller-is-better wherever it is judged.
    void add_counters(benchmark::State& state) const {
        for (const auto& [key, value] : last) {
            const auto& [name, unit] = key;
            if (unit == "GB/s")
                state.counters[name + "_bytes_per_second"] = value * 1e9;
            else if (unit == "count" || unit == "ms" || unit.empty())
                state.counters[name] = value;
        }
    }
};

// Warm-up through the full path, validation once, and the hot batch size:
// enough launches per timed region for about half a millisecond. Every call
// on a broken target skips again: each repetition must end in the loop or in
// SkipWithError. The reason carries the plugin's last error (the driver's
// error and JIT log of a refused module), so results and rollouts name it.
bool prepare(TimedTarget& t, benchmark::State& state) {
    if (!t.prepared) {
        t.prepared = true;
        RecordingHost recording(t);
        auto because = [&](const char* what, const char* otherwise) {
            return std::string(what) + ": " +
                   (recording.last_error.empty() ? otherwise : recording.last_error);
        };
        double ms = 0;
        if (t.benchmark->run(&recording.api, t.stream, 2, &ms) != STRATA_TASK_OK) {
            t.broken = true;
            t.broken_reason = because("the warm-up run failed", "see the worker's log");
        } else if (t.benchmark->validate &&
                   t.benchmark->validate(&recording.api, t.stream) != STRATA_TASK_OK) {
            t.broken = true;
            t.broken_reason =
                because("validation failed", "the output does not match the reference (see the log)");
        } else if (!t.cold && t.benchmark->run(&recording.api, t.stream, 1, &ms) == STRATA_TASK_OK &&
                   ms > 0) {
            t.batch = static_cast<uint64_t>(std::clamp(std::ceil(0.5 / ms), 1.0, 1000.0));
        }
    }
    if (t.broken) state.SkipWithError(t.broken_reason.c_str());
    return !t.broken;
}

// Ends a repetition that measures nothing with the iteration count a
// measured one reports: Google Benchmark's ComputeStats checks that every
// repetition of a benchmark has the first one's count and aborts the whole
// runner otherwise. A repetition that returned before its loop reported 0;
// one skipped inside a batched loop, the predicted count rather than the
// whole batches a measured one runs. So the loop is run to its end, without
// work, and the repetition skipped after it.
void skip_repetition(benchmark::State& state, const TimedTarget& t, const std::string& reason) {
    if (t.cold)
        for (auto _ : state) {
        }
    else
        while (state.KeepRunningBatch(static_cast<benchmark::IterationCount>(t.batch))) {
        }
    state.SkipWithError(reason.c_str());
}

// The time of one timed region, or 0 when the run failed.
double timed_region(TimedTarget& t, RecordingHost& recording, uint64_t launches) {
    double ms = 0;
    range_push(t.domain, "timed");
    strata_task_result rc = t.benchmark->run(&recording.api, t.stream, launches, &ms);
    nvtxDomainRangePop(t.domain);
    return rc == STRATA_TASK_OK && ms > 0 ? ms : 0;
}

std::string failed_run(const RecordingHost& recording) {
    return "a timed run failed" + (recording.last_error.empty() ? "" : ": " + recording.last_error);
}

// Hot: batches of launches until Google Benchmark has its minimum time.
// Returns the total time and counts the launches.
double run_hot(benchmark::State& state, TimedTarget& t, RecordingHost& recording, uint64_t& launches) {
    double total_ms = 0;
    while (state.KeepRunningBatch(static_cast<benchmark::IterationCount>(t.batch))) {
        double ms = timed_region(t, recording, t.batch);
        if (ms == 0) {
            skip_repetition(state, t, failed_run(recording));
            break;
        }
        // The whole batch's time: Google Benchmark divides by the `batch`
        // iterations this pass counted.
        state.SetIterationTime(ms / 1e3);
        total_ms += ms;
        launches += t.batch;
    }
    return total_ms;
}

// Cold: one iteration holding flushed single runs until their device time
// reaches the minimum time, kMaxColdRunsPerRepetition runs, or the wall
// budget; its time is their mean.
double run_cold(benchmark::State& state, TimedTarget& t, RecordingHost& recording, uint64_t& launches) {
    double total_ms = 0;
    const auto wall_end =
        SteadyClock::now() + std::chrono::duration_cast<SteadyClock::duration>(
                                 std::chrono::duration<double>(kColdWallPerMinTime * t.min_time_s));
    for (auto _ : state) {
        do {
            if (t.flush_l2) t.flush_l2();  // not timed: outside the events
            double ms = timed_region(t, recording, 1);
            if (ms == 0) {
                // Inside the one-iteration loop, which reports its 1 iteration.
                state.SkipWithError(failed_run(recording).c_str());
                return 0;
            }
            total_ms += ms;
            ++launches;
        } while (total_ms < t.min_time_s * 1e3 && launches < kMaxColdRunsPerRepetition &&
                 SteadyClock::now() < wall_end);
        state.SetIterationTime(total_ms / static_cast<double>(launches) / 1e3);
    }
    state.counters["cold_runs"] = static_cast<double>(launches);
    return total_ms;
}

}  // namespace

void run_timed(benchmark::State& state, TimedTarget& t) {
    if (SteadyClock::now() >= t.stop_at) {
        skip_repetition(state, t, "not run: the runner's time budget (STRATA_BENCH_BUDGET_S) was spent");
        return;
    }
    if (!prepare(t, state)) return;
    ClockSample before = t.clocks ? t.clocks->sample() : ClockSample{};
    range_push(t.domain, text(t.benchmark->name) + (t.cold ? " cold" : " hot"));
    RecordingHost recording(t);
    uint64_t launches = 0;
    double total_ms =
        t.cold ? run_cold(state, t, recording, launches) : run_hot(state, t, recording, launches);
    nvtxDomainRangePop(t.domain);
    recording.send_measurements();
    ClockSample after = t.clocks ? t.clocks->sample() : ClockSample{};
    // Per launch in both modes: a cold repetition reports one iteration
    // timed as the mean of its runs.
    using Counter = benchmark::Counter;
    if (t.benchmark->bytes_per_iteration > 0)
        state.counters["bytes_per_second"] =
            Counter(t.benchmark->bytes_per_iteration, Counter::kIsIterationInvariantRate);
    if (t.benchmark->flops_per_iteration > 0)
        state.counters["flops_per_second"] =
            Counter(t.benchmark->flops_per_iteration, Counter::kIsIterationInvariantRate);
    // Against HBM's peak only where HBM is what bounds it: not for GEMMs,
    // convolutions or collectives, whose bytes are not all memory traffic.
    // Against both roofs: the theoretical one (memory clock x bus width) and
    // the copy this runner measured on the same GPU.
    if (launches > 0 && total_ms > 0 && t.memory_bound && t.benchmark->bytes_per_iteration > 0) {
        double gbps =
            t.benchmark->bytes_per_iteration / (total_ms / static_cast<double>(launches) / 1e3) / 1e9;
        if (t.peak_gbps > 0) state.counters["percent_of_peak_bandwidth"] = 100 * gbps / t.peak_gbps;
        if (t.copy_roof_gbps > 0) state.counters["percent_of_copy_roof"] = 100 * gbps / t.copy_roof_gbps;
    }
    if (before.ok()) state.counters["sm_clock_mhz_before"] = before.sm_mhz;
    if (after.ok()) state.counters["sm_clock_mhz_after"] = after.sm_mhz;
    if (after.limits >= 0) state.counters["clock_limit_reasons"] = after.limits;
    if (t.dropped_records > 0) state.counters["records_not_forwarded"] = t.dropped_records;
    recording.add_counters(state);
    state.SetLabel(t.cold ? "cold, " + std::to_string(launches) + " flushed run(s)"
                          : "hot, batch " + std::to_string(t.batch));
}

benchmark::internal::Benchmark* register_timed(const std::string& name, TimedTarget& target,
                                               int repetitions) {
    TimedTarget* registered = &target;
    auto* b = benchmark::RegisterBenchmark(
                  name.c_str(), [registered](benchmark::State& state) { run_timed(state, *registered); })
                  ->UseManualTime()
                  ->Unit(benchmark::kMicrosecond)
                  ->Repetitions(repetitions);
    // Cold: run_cold decides how many flushed runs a repetition holds; Google
    // Benchmark's own estimate would follow the device time alone and pay
    // the flush and synchronisation of up to 10^5 runs per repetition.
    if (target.cold)
        b->Iterations(1);
    else
        b->MinTime(target.min_time_s);
    return b;
}

}  // namespace strata::bench
