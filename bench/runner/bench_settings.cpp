#include "bench_settings.h"

#include <algorithm>
#include <cstdlib>

namespace strata::bench {

namespace {

std::string env(const char* name, std::string fallback) {
    const char* value = std::getenv(name);
    return value && *value ? value : fallback;
}

}  // namespace

BenchSettings settings_from_environment() {
    BenchSettings out;
    out.out_path = env("STRATA_BENCH_OUT", "");
    out.level = env("STRATA_BENCH_LEVEL", "quick");
    out.filter = env("STRATA_BENCH_FILTER", ".");
    out.repetitions = std::atoi(env("STRATA_BENCH_REPETITIONS", "0").c_str());
    out.device = std::atoi(env("STRATA_BENCH_DEVICE", "0").c_str());
    out.budget_s = std::max(0.0, std::atof(env("STRATA_BENCH_BUDGET_S", "0").c_str()));
    out.jit_list = env("STRATA_BENCH_JIT_LIST", "");
    std::string modes = env("STRATA_BENCH_MODES", "cold,hot");
    out.cold = modes.find("cold") != std::string::npos;
    out.hot = modes.find("hot") != std::string::npos;
    return out;
}

}  // namespace strata::bench
