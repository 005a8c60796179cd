#include "tuning_log.h"

#include <dlfcn.h>
#include <unistd.h>

#include <array>
#include <cstdlib>
#include <fstream>
#include <sstream>

namespace strata::nccl {

namespace {

// NCCL's own order (ncclAlgoStr, ncclProtoStr), for the numeric lines of NCCL
// before 2.19.
constexpr std::array<const char*, 7> kAlgorithms = {
    "Tree", "Ring", "CollNetDirect", "CollNetChain", "NVLS", "NVLSTree", "PAT"};
constexpr std::array<const char*, 3> kProtocols = {"LL", "LL128", "Simple"};

template <size_t N>
std::string name_of(const std::string& token, const std::array<const char*, N>& names) {
    if (token.empty() || token.find_first_not_of("0123456789") != std::string::npos) return token;
    unsigned long index = std::strtoul(token.c_str(), nullptr, 10);
    return index < N ? names[index] : token;
}

constexpr const char* kVariables[] = {"NCCL_DEBUG", "NCCL_DEBUG_SUBSYS", "NCCL_DEBUG_FILE"};

}  // namespace

std::map<uint64_t, TunedChoice> parse_tuning_log(std::istream& in) {
    std::map<uint64_t, TunedChoice> out;
    const std::string marker = " Bytes -> Algo ";
    std::string line;
    while (std::getline(in, line)) {
        size_t at = line.find(marker);
        if (at == std::string::npos || at == 0) continue;
        size_t digits = line.find_last_not_of("0123456789", at - 1);
        digits = digits == std::string::npos ? 0 : digits + 1;
        if (digits == at || at - digits > 19) continue;  // no size, or one beyond 64 bits
        uint64_t bytes = std::strtoull(line.c_str() + digits, nullptr, 10);
        std::istringstream rest(line.substr(at + marker.size()));
        std::string algorithm, word, protocol;
        if (!(rest >> algorithm)) continue;
        if (rest >> word && word == "proto") rest >> protocol;
        out[bytes] = {name_of(algorithm, kAlgorithms), name_of(protocol, kProtocols)};
    }
    return out;
}

ResetDebugFn find_reset_debug() {
    return reinterpret_cast<ResetDebugFn>(dlsym(RTLD_DEFAULT, "ncclResetDebugInit"));
}

TuningLog::TuningLog(ResetDebugFn reset) : reset_(reset) {
    if (std::getenv("NCCL_DEBUG")) {
        why_ = "NCCL_DEBUG is set by the user, so strata leaves NCCL's log alone";
        return;
    }
    if (!reset_) {
        why_ = "this NCCL has no ncclResetDebugInit, so its log could not be turned off before timing";
        return;
    }
    const char* tmp = std::getenv("TMPDIR");
    std::string pattern = std::string(tmp && *tmp ? tmp : "/tmp") + "/strata-nccl-XXXXXX";
    if (!mkdtemp(pattern.data())) {
        why_ = "no private directory for NCCL's log could be made under " + pattern;
        return;
    }
    directory_ = pattern;
    file_ = directory_ + "/nccl.log";
    setenv("NCCL_DEBUG", "INFO", 1);
    setenv("NCCL_DEBUG_SUBSYS", "TUNING", 1);
    setenv("NCCL_DEBUG_FILE", file_.c_str(), 1);
    reset_();  // in case anything in this process already made NCCL read them
}

TuningLog::~TuningLog() {
    turn_off();
}

std::map<uint64_t, TunedChoice> TuningLog::finish() {
    std::map<uint64_t, TunedChoice> out;
    if (!active()) return out;
    std::ifstream in(file_);
    out = parse_tuning_log(in);
    turn_off();
    return out;
}

void TuningLog::turn_off() {
    if (!active()) return;
    for (const char* name : kVariables) unsetenv(name);
    reset_();  // NCCL reads the (now unset) variables again at its next log call: no log
    unlink(file_.c_str());
    rmdir(directory_.c_str());
    directory_.clear();
}

}  // namespace strata::nccl
