// Benchmark results files given to `strata compare`: any bytes, as JSON.
#include <cstdint>
#include <string>

#include "benchmark_results.h"
#include "comparison.h"
#include "model/usage_error.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    std::string text(reinterpret_cast<const char*>(data), size);
    try {
        auto results = strata::bench::parse_results(text, "fuzz.json");
        // A file that parses must compare with itself without surprises.
        auto comparison = strata::bench::compare_results(results, results, {});
        for (const auto& row : comparison.rows)
            if (row.ratio > 0 && row.verdict != strata::bench::Verdict::same) __builtin_trap();
    } catch (const strata::UsageError&) {
        // the one documented way to refuse input
    }
    return 0;
}
