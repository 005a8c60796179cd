#include "timed_loop.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <string>
#include <utility>

namespace strata::bench {

namespace {

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

// Warm-up through the full path, validation once, and the hot batch size:
// enough launches per timed region for about half a millisecond. Every call
// on a broken target skips again: each repetition must end in the loop or in
// SkipWithError.
bool prepare(TimedTarget& t, benchmark::State& state) {
    if (!t.prepared) {
        t.prepared = true;
        double ms = 0;
        if (t.benchmark->run(t.host, t.stream, 2, &ms) != STRATA_TASK_OK) {
            t.broken = true;
            t.broken_reason = "the warm-up run failed (see the worker's log)";
        } else if (t.benchmark->validate && t.benchmark->validate(t.host, t.stream) != STRATA_TASK_OK) {
            t.broken = true;
            t.broken_reason = "validation failed: the output does not match the reference (see the log)";
        } else if (!t.cold && t.benchmark->run(t.host, t.stream, 1, &ms) == STRATA_TASK_OK && ms > 0) {
            t.batch = static_cast<uint64_t>(std::clamp(std::ceil(0.5 / ms), 1.0, 1000.0));
        }
    }
    if (t.broken) state.SkipWithError(t.broken_reason);
    return !t.broken;
}

// The host a timed run sees: the worker's, with each measurement the plugin
// reports (NCCL's busbw, algbw, ranks) also kept, last value per name, to
// become a counter of the results.
struct RecordingHost {
    strata_host_api api{};
    const strata_host_api* forward = nullptr;
    std::map<std::pair<std::string, std::string>, double> last;  // (name, unit) -> value

    explicit RecordingHost(const strata_host_api* host) : forward(host) {
        if (host) api = *host;
        api.struct_size = sizeof api;
        api.abi_major = STRATA_PLUGIN_ABI_MAJOR;
        api.abi_minor = STRATA_PLUGIN_ABI_MINOR;
        api.context = this;
        api.emit_fact = [](void* self, const strata_fact* fact) {
            auto* me = static_cast<RecordingHost*>(self);
            if (me->forward && me->forward->emit_fact) me->forward->emit_fact(me->forward->context, fact);
        };
        api.emit_check = [](void* self, const strata_check* check) {
            auto* me = static_cast<RecordingHost*>(self);
            if (me->forward && me->forward->emit_check) me->forward->emit_check(me->forward->context, check);
        };
        api.log = [](void* self, int32_t level, strata_str message) {
            auto* me = static_cast<RecordingHost*>(self);
            if (me->forward && me->forward->log) me->forward->log(me->forward->context, level, message);
        };
        api.emit_measurement = [](void* self, const strata_measurement* m) {
            auto* me = static_cast<RecordingHost*>(self);
            if (m && std::isfinite(m->value)) me->last[{text(m->name), text(m->unit)}] = m->value;
            if (me->forward && me->forward->emit_measurement)
                me->forward->emit_measurement(me->forward->context, m);
        };
    }

    // Counters in base units: a rate in GB/s becomes <name>_bytes_per_second.
    void add_counters(benchmark::State& state) const {
        for (const auto& [key, value] : last) {
            const auto& [name, unit] = key;
            if (unit == "GB/s")
                state.counters[name + "_bytes_per_second"] = value * 1e9;
            else if (unit == "count" || unit.empty())
                state.counters[name] = value;
        }
    }
};

}  // namespace

void run_timed(benchmark::State& state, TimedTarget& t) {
    if (!prepare(t, state)) return;
    ClockSample before = t.clocks ? t.clocks->sample() : ClockSample{};
    range_push(t.domain, text(t.benchmark->name) + (t.cold ? " cold" : " hot"));
    const uint64_t batch = t.cold ? 1 : t.batch;
    RecordingHost recording(t.host);
    double total_ms = 0;
    uint64_t launches = 0;
    while (state.KeepRunningBatch(static_cast<benchmark::IterationCount>(batch))) {
        if (t.cold && t.flush_l2) t.flush_l2();  // not timed: outside the events
        double ms = 0;
        range_push(t.domain, "timed");
        strata_task_result rc = t.benchmark->run(&recording.api, t.stream, batch, &ms);
        nvtxDomainRangePop(t.domain);
        if (rc != STRATA_TASK_OK || !(ms > 0)) {
            state.SkipWithError("a timed run failed");
            break;
        }
        // The whole batch's time: Google Benchmark divides by the `batch`
        // iterations this pass counted.
        state.SetIterationTime(ms / 1e3);
        total_ms += ms;
        launches += batch;
    }
    nvtxDomainRangePop(t.domain);
    ClockSample after = t.clocks ? t.clocks->sample() : ClockSample{};
    using Counter = benchmark::Counter;
    if (t.benchmark->bytes_per_iteration > 0)
        state.counters["bytes_per_second"] =
            Counter(t.benchmark->bytes_per_iteration, Counter::kIsIterationInvariantRate);
    if (t.benchmark->flops_per_iteration > 0)
        state.counters["flops_per_second"] =
            Counter(t.benchmark->flops_per_iteration, Counter::kIsIterationInvariantRate);
    // Against HBM's peak only where HBM is what bounds it: not for GEMMs,
    // convolutions or collectives, whose bytes are not all memory traffic.
    if (launches > 0 && t.memory_bound && t.peak_gbps > 0 && t.benchmark->bytes_per_iteration > 0) {
        double gbps =
            t.benchmark->bytes_per_iteration / (total_ms / static_cast<double>(launches) / 1e3) / 1e9;
        state.counters["percent_of_peak_bandwidth"] = 100 * gbps / t.peak_gbps;
    }
    if (before.ok()) state.counters["sm_clock_mhz_before"] = before.sm_mhz;
    if (after.ok()) state.counters["sm_clock_mhz_after"] = after.sm_mhz;
    if (after.limits >= 0) state.counters["clock_limit_reasons"] = after.limits;
    recording.add_counters(state);
    state.SetLabel(std::string(t.cold ? "cold" : "hot") + ", batch " + std::to_string(batch));
}

}  // namespace strata::bench
