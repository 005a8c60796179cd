// Which algorithm and protocol NCCL chose for each message size, read from
// the tuning lines NCCL writes under NCCL_DEBUG=INFO, NCCL_DEBUG_SUBSYS=TUNING.
//
// NCCL writes such a line for every collective it enqueues, so the log must
// be on only while the choices are made (one untimed all-reduce per size) and
// off again before any timing: a file write inside each timed enqueue would
// be measured. NCCL reads NCCL_DEBUG once; ncclResetDebugInit makes it read
// the variables again. That function is exported but deprecated, so it is
// looked up at run time, and where it is missing the log is never turned on.
//
// The file lives in a private directory (mkdtemp, mode 0700), not at a
// predictable /tmp path another user could create first.
#pragma once

#include <cstdint>
#include <istream>
#include <map>
#include <string>

namespace strata::nccl {

struct TunedChoice {
    std::string algorithm;  // "Ring", "Tree", "NVLS", ... as NCCL names it
    std::string protocol;   // "LL", "LL128", "Simple"
};

// Message size in bytes -> NCCL's choice, from tuning lines of any NCCL
// version: "AllReduce: 8388608 Bytes -> Algo Ring proto LL128 channel..."
// (2.19 and later) or "8388608 Bytes -> Algo 1 proto 2 time 16.7" (older,
// numbers). The last line for a size wins; other lines are ignored.
std::map<uint64_t, TunedChoice> parse_tuning_log(std::istream& in);

// This process's ncclResetDebugInit, or null where NCCL has none.
using ResetDebugFn = void (*)();
ResetDebugFn find_reset_debug();

class TuningLog {
public:
    // Turns NCCL's tuning log on, into a private file, before the first
    // communicator exists. Inactive (why() says why) when the user set
    // NCCL_DEBUG, when there is no `reset` (this NCCL cannot turn its log
    // off again), or when no private directory can be made.
    explicit TuningLog(ResetDebugFn reset = find_reset_debug());
    ~TuningLog();  // turns the log off if still on, removes the file
    TuningLog(const TuningLog&) = delete;
    TuningLog& operator=(const TuningLog&) = delete;

    bool active() const { return !directory_.empty(); }
    const std::string& why() const { return why_; }
    const std::string& file() const { return file_; }
    // Reads the choices once, then turns the log off and removes the file.
    std::map<uint64_t, TunedChoice> finish();

private:
    void turn_off();

    std::string directory_, file_, why_;
    ResetDebugFn reset_ = nullptr;
};

}  // namespace strata::nccl
