#include "nccl_tasks.h"

#include <array>
#include <cstdio>
#include <map>
#include <memory>

#include "all_reduce.h"
#include "kept_state.h"
#include "plugin_entry.h"
#include "tuning_log.h"

namespace strata::nccl {

namespace {

// Sums of up to 8 ranks of exactly representable inputs: exact in FP32.
constexpr double kTolerance = 1e-6;

std::string describe(const AllReduce::Check& check) {
    char text[200];
    std::snprintf(text, sizeof text, "largest error %.3g on rank %d at [%zu] (got %.9g, expected %.9g)",
                  check.error, check.rank, check.index, check.got, check.want);
    return text;
}

}  // namespace

void selftest_all_reduce(const plugin::Reporter& report) {
    constexpr size_t kCount = 1 << 20;
    AllReduce all_reduce(kCount, nullptr);
    std::string result;
    bool ok = false;
    if (all_reduce.run(kCount)) {
        auto check = all_reduce.verify(kCount);
        ok = check.problem.empty() && check.error <= kTolerance;
        result = check.problem.empty() ? describe(check) : check.problem;
    } else {
        result = all_reduce.error();
    }
    std::string what = "all-reduce (sum, 1M floats) across " + std::to_string(all_reduce.ranks()) + " GPU(s)";
    report.check("library.nccl.all_reduce", STRATA_LAYER_LIBRARY,
                 ok ? STRATA_STATUS_PASS : STRATA_STATUS_FAIL,
                 {ok ? what + " verified on every rank" : what + ": " + result, result,
                  ok ? ""
                     : "NCCL_DEBUG=INFO shows the transport NCCL chose; check P2P/NVLink with "
                       "`nvidia-smi topo -m`"});
}

namespace {

struct Config {
    size_t bytes;
    const char* parameters;
};

constexpr std::array<Config, 4> kConfigs = {{
    {size_t{1} << 20, "bytes=1048576,dtype=f32,op=sum,ranks=all_local_gpus"},
    {size_t{16} << 20, "bytes=16777216,dtype=f32,op=sum,ranks=all_local_gpus"},
    {size_t{128} << 20, "bytes=134217728,dtype=f32,op=sum,ranks=all_local_gpus"},
    {size_t{512} << 20, "bytes=536870912,dtype=f32,op=sum,ranks=all_local_gpus"},
}};

constexpr size_t kLargestBytes = kConfigs.back().bytes;

// What every size shares: one set of communicators with buffers for the
// largest size (a communicator per size would pay NCCL's set-up four times),
// and NCCL's choice of algorithm per size, read once before any timing.
struct Session {
    std::unique_ptr<AllReduce> all_reduce;
    std::map<uint64_t, TunedChoice> choices;
    std::string no_choices;  // why `choices` is empty
};

plugin::KeptState<Session, 1> kept;

std::unique_ptr<Session> open_session(cudaStream_t stream) {
    auto session = std::make_unique<Session>();
    TuningLog log;  // before the communicators exist
    session->all_reduce = std::make_unique<AllReduce>(kLargestBytes / sizeof(float), stream);
    if (!log.active()) {
        session->no_choices = log.why();
    } else if (session->all_reduce->error().empty()) {
        // One untimed all-reduce per size: NCCL logs its choice as it enqueues each.
        for (const Config& config : kConfigs) session->all_reduce->run(config.bytes / sizeof(float));
        session->choices = log.finish();  // and the log is off from here on
        if (session->choices.empty())
            session->no_choices = session->all_reduce->ranks() == 1
                                      ? "one rank: NCCL copies the buffer, no collective algorithm runs"
                                      : "NCCL logged no tuning line";
    }
    return session;
}

// The session, opened by the first benchmark call (on the harness's GPU and
// stream); null, with the error logged, when it cannot work.
Session* session_for(const strata_host_api* host, void* stream) {
    Session& session = kept.get(0, [stream] { return open_session(static_cast<cudaStream_t>(stream)); });
    if (!session.all_reduce->error().empty()) {
        plugin::Reporter(host).log(STRATA_LOG_ERROR, session.all_reduce->error());
        return nullptr;
    }
    return &session;
}

std::string choice_text(const Session& session, size_t bytes) {
    auto found = session.choices.find(bytes);
    if (found == session.choices.end())
        return "unknown (" +
               (session.no_choices.empty() ? "no tuning line for this size" : session.no_choices) + ")";
    return found->second.algorithm +
           (found->second.protocol.empty() ? "" : ", protocol " + found->second.protocol);
}

template <size_t I>
strata_task_result validate(const strata_host_api* host, void* stream) {
    constexpr size_t count = kConfigs[I].bytes / sizeof(float);
    Session* session = session_for(host, stream);
    if (!session || !session->all_reduce->run(count)) return STRATA_TASK_FAILED;
    auto check = session->all_reduce->verify(count);
    if (!check.problem.empty() || check.error > kTolerance) {
        plugin::Reporter(host).log(STRATA_LOG_ERROR, check.problem.empty() ? describe(check) : check.problem);
        return STRATA_TASK_FAILED;
    }
    plugin::Reporter(host).log(STRATA_LOG_INFO, "algorithm for " + std::to_string(kConfigs[I].bytes) +
                                                    " bytes: " + choice_text(*session, kConfigs[I].bytes));
    return STRATA_TASK_OK;
}

template <size_t I>
strata_task_result run(const strata_host_api* host, void* stream, uint64_t iterations, double* elapsed_ms) {
    Session* session = session_for(host, stream);
    AllReduce* all_reduce = session ? session->all_reduce.get() : nullptr;
    if (!all_reduce || !all_reduce->time(kConfigs[I].bytes / sizeof(float), iterations, elapsed_ms))
        return STRATA_TASK_FAILED;
    // nccl-tests: algbw = bytes / time; busbw = algbw * 2(n-1)/n for all-reduce.
    plugin::Reporter report(host);
    if (*elapsed_ms > 0 && iterations > 0) {
        double seconds = *elapsed_ms / 1e3 / static_cast<double>(iterations);
        double algbw = static_cast<double>(kConfigs[I].bytes) / seconds / 1e9;
        report.measurement("algbw", algbw, "GB/s");
        report.measurement("busbw", algbw * all_reduce->bus_factor(), "GB/s");
        report.measurement("ranks", all_reduce->ranks(), "count");
    }
    return STRATA_TASK_OK;
}

}  // namespace

const strata_benchmark* all_reduce_benchmarks(size_t* count) {
    return plugin::benchmark_table<kConfigs.size()>(count, [](auto index) {
        constexpr size_t I = decltype(index)::value;
        auto out = plugin::abi_struct<strata_benchmark>();
        out.name = STRATA_STR("nccl/all_reduce");
        out.parameters = plugin::view(kConfigs[I].parameters);
        out.bytes_per_iteration = static_cast<double>(kConfigs[I].bytes);  // algbw; busbw is measured too
        out.flops_per_iteration = 0;
        out.validate = validate<I>;
        out.run = run<I>;
        return out;
    });
}

void release_all_reduce_benchmarks(const plugin::Reporter&) {
    kept.release();
}

}  // namespace strata::nccl
