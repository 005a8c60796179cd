#include "bench_settings.h"

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
    std::string modes = env("STRATA_BENCH_MODES", "cold,hot");
    out.cold = modes.find("cold") != std::string::npos;
    out.hot = modes.find("hot") != std::string::npos;
    return out;
}

int level_repetitions(const std::string& level) {
    return level == "long" ? 30 : level == "standard" ? 10 : 5;
}

double level_min_time_s(const std::string& level) {
    return level == "long" ? 0.5 : level == "standard" ? 0.1 : 0.02;
}

}  // namespace strata::bench
