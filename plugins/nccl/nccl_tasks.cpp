#include "nccl_tasks.h"

#include <array>
#include <cstdio>
#include <map>
#include <memory>

#include "collective.h"
#include "kept_state.h"
#include "plugin_entry.h"
#include "tuning_log.h"

namespace strata::nccl {

namespace {

// Sums of up to 8 ranks of exactly representable inputs: exact in FP32.
constexpr double kTolerance = 1e-6;

std::string describe(const Collectives::Check& check) {
    char text[200];
    std::snprintf(text, sizeof text, "largest error %.3g on rank %d at [%zu] (got %.9g, expected %.9g)",
                  check.error, check.rank, check.index, check.got, check.want);
    return text;
}

}  // namespace

void selftest_all_reduce(const plugin::Reporter& report) {
    constexpr size_t kCount = 1 << 20;
    Collectives all_reduce(kCount, nullptr);
    std::string result;
    bool ok = false;
    if (all_reduce.run(Collective::all_reduce, kCount)) {
        auto check = all_reduce.verify(Collective::all_reduce, kCount);
        ok = check.problem.empty() && check.error <= kTolerance;
        result = check.problem.empty() ? describe(check) : check.problem;
    } else {
        result = all_reduce.error().empty() ? all_reduce.last_error() : all_reduce.error();
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
    Collective collective;
    const char* name;
    size_t bytes;  // nccl-tests' size S
    const char* parameters;
};

constexpr size_t MiB = size_t{1} << 20;

// all_reduce at the four sizes records have always held; the rest of
// nccl-tests' set at three (small, where latency rules; middle; large,
// where the bus does).
constexpr std::array<Config, 22> kConfigs = {{
    {Collective::all_reduce, "nccl/all_reduce", 1 * MiB,
     "bytes=1048576,dtype=f32,op=sum,ranks=all_local_gpus"},
    {Collective::all_reduce, "nccl/all_reduce", 16 * MiB,
     "bytes=16777216,dtype=f32,op=sum,ranks=all_local_gpus"},
    {Collective::all_reduce, "nccl/all_reduce", 128 * MiB,
     "bytes=134217728,dtype=f32,op=sum,ranks=all_local_gpus"},
    {Collective::all_reduce, "nccl/all_reduce", 512 * MiB,
     "bytes=536870912,dtype=f32,op=sum,ranks=all_local_gpus"},
    {Collective::all_gather, "nccl/all_gather", 1 * MiB, "bytes=1048576,dtype=f32,ranks=all_local_gpus"},
    {Collective::all_gather, "nccl/all_gather", 16 * MiB, "bytes=16777216,dtype=f32,ranks=all_local_gpus"},
    {Collective::all_gather, "nccl/all_gather", 128 * MiB, "bytes=134217728,dtype=f32,ranks=all_local_gpus"},
    {Collective::reduce_scatter, "nccl/reduce_scatter", 1 * MiB,
     "bytes=1048576,dtype=f32,op=sum,ranks=all_local_gpus"},
    {Collective::reduce_scatter, "nccl/reduce_scatter", 16 * MiB,
     "bytes=16777216,dtype=f32,op=sum,ranks=all_local_gpus"},
    {Collective::reduce_scatter, "nccl/reduce_scatter", 128 * MiB,
     "bytes=134217728,dtype=f32,op=sum,ranks=all_local_gpus"},
    {Collective::broadcast, "nccl/broadcast", 1 * MiB, "bytes=1048576,dtype=f32,root=0,ranks=all_local_gpus"},
    {Collective::broadcast, "nccl/broadcast", 16 * MiB,
     "bytes=16777216,dtype=f32,root=0,ranks=all_local_gpus"},
    {Collective::broadcast, "nccl/broadcast", 128 * MiB,
     "bytes=134217728,dtype=f32,root=0,ranks=all_local_gpus"},
    {Collective::reduce, "nccl/reduce", 1 * MiB,
     "bytes=1048576,dtype=f32,op=sum,root=0,ranks=all_local_gpus"},
    {Collective::reduce, "nccl/reduce", 16 * MiB,
     "bytes=16777216,dtype=f32,op=sum,root=0,ranks=all_local_gpus"},
    {Collective::reduce, "nccl/reduce", 128 * MiB,
     "bytes=134217728,dtype=f32,op=sum,root=0,ranks=all_local_gpus"},
    {Collective::all_to_all, "nccl/alltoall", 1 * MiB, "bytes=1048576,dtype=f32,ranks=all_local_gpus"},
    {Collective::all_to_all, "nccl/alltoall", 16 * MiB, "bytes=16777216,dtype=f32,ranks=all_local_gpus"},
    {Collective::all_to_all, "nccl/alltoall", 128 * MiB, "bytes=134217728,dtype=f32,ranks=all_local_gpus"},
    {Collective::send_recv, "nccl/sendrecv", 1 * MiB,
     "bytes=1048576,dtype=f32,peer=next,ranks=all_local_gpus"},
    {Collective::send_recv, "nccl/sendrecv", 16 * MiB,
     "bytes=16777216,dtype=f32,peer=next,ranks=all_local_gpus"},
    {Collective::send_recv, "nccl/sendrecv", 128 * MiB,
     "bytes=134217728,dtype=f32,peer=next,ranks=all_local_gpus"},
}};

constexpr size_t kLargestBytes = 512 * MiB;

// What every collective and size shares: one set of communicators with
// buffers for the largest size (a communicator per benchmark would pay
// NCCL's set-up each time), and NCCL's choice of all-reduce algorithm per
// size, read once before any timing.
struct Session {
    std::unique_ptr<Collectives> collectives;
    std::map<uint64_t, TunedChoice> choices;
    std::string no_choices;  // why `choices` is empty
};

plugin::KeptState<Session, 1> kept;

std::unique_ptr<Session> open_session(cudaStream_t stream) {
    auto session = std::make_unique<Session>();
    TuningLog log;  // before the communicators exist
    session->collectives = std::make_unique<Collectives>(kLargestBytes / sizeof(float), stream);
    if (!log.active()) {
        session->no_choices = log.why();
    } else if (session->collectives->error().empty()) {
        // One untimed all-reduce per size: NCCL logs its choice as it enqueues each.
        for (const Config& config : kConfigs)
            if (config.collective == Collective::all_reduce)
                session->collectives->run(Collective::all_reduce, config.bytes / sizeof(float));
        session->choices = log.finish();  // and the log is off from here on
        if (session->choices.empty())
            session->no_choices = session->collectives->ranks() == 1
                                      ? "one rank: NCCL copies the buffer, no collective algorithm runs"
                                      : "NCCL logged no tuning line";
    }
    return session;
}

// The session, opened by the first benchmark call (on the harness's GPU and
// stream); null, with the error logged, when it cannot work.
Session* session_for(const strata_host_api* host, void* stream) {
    Session& session = kept.get(0, [stream] { return open_session(static_cast<cudaStream_t>(stream)); });
    if (!session.collectives->error().empty()) {
        plugin::Reporter(host).log(STRATA_LOG_ERROR, session.collectives->error());
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
    constexpr Config config = kConfigs[I];
    constexpr size_t total = config.bytes / sizeof(float);
    Session* session = session_for(host, stream);
    if (!session) return STRATA_TASK_FAILED;
    if (!session->collectives->run(config.collective, total)) {
        plugin::Reporter(host).log(STRATA_LOG_ERROR, session->collectives->last_error());
        return STRATA_TASK_FAILED;
    }
    auto check = session->collectives->verify(config.collective, total);
    if (!check.problem.empty() || check.error > kTolerance) {
        plugin::Reporter(host).log(STRATA_LOG_ERROR,
                                   std::string(collective_name(config.collective)) + ": " +
                                       (check.problem.empty() ? describe(check) : check.problem));
        return STRATA_TASK_FAILED;
    }
    if (config.collective == Collective::all_reduce)
        plugin::Reporter(host).log(STRATA_LOG_INFO, "algorithm for " + std::to_string(config.bytes) +
                                                        " bytes: " + choice_text(*session, config.bytes));
    return STRATA_TASK_OK;
}

template <size_t I>
strata_task_result run(const strata_host_api* host, void* stream, uint64_t iterations, double* elapsed_ms) {
    constexpr Config config = kConfigs[I];
    constexpr size_t total = config.bytes / sizeof(float);
    Session* session = session_for(host, stream);
    Collectives* collectives = session ? session->collectives.get() : nullptr;
    if (!collectives) return STRATA_TASK_FAILED;
    if (!collectives->time(config.collective, total, iterations, elapsed_ms)) {
        plugin::Reporter(host).log(STRATA_LOG_ERROR, collectives->last_error());
        return STRATA_TASK_FAILED;
    }
    // nccl-tests: algbw = S / time; busbw = algbw x the collective's factor.
    plugin::Reporter report(host);
    if (*elapsed_ms > 0 && iterations > 0) {
        double seconds = *elapsed_ms / 1e3 / static_cast<double>(iterations);
        double algbw = collectives->moved_bytes(config.collective, total) / seconds / 1e9;
        report.measurement("algbw", algbw, "GB/s");
        report.measurement("busbw", algbw * bus_factor(config.collective, collectives->ranks()), "GB/s");
        report.measurement("ranks", collectives->ranks(), "count");
    }
    return STRATA_TASK_OK;
}

}  // namespace

const strata_benchmark* collective_benchmarks(size_t* count) {
    return plugin::benchmark_table<kConfigs.size()>(count, [](auto index) {
        constexpr size_t I = decltype(index)::value;
        auto out = plugin::abi_struct<strata_benchmark>();
        out.name = plugin::view(kConfigs[I].name);
        out.parameters = plugin::view(kConfigs[I].parameters);
        out.bytes_per_iteration = static_cast<double>(kConfigs[I].bytes);  // S; algbw and busbw are measured
        out.flops_per_iteration = 0;
        out.validate = validate<I>;
        out.run = run<I>;
        return out;
    });
}

void release_collective_benchmarks(const plugin::Reporter&) {
    kept.release();
}

}  // namespace strata::nccl
