// How `strata compare` and `strata bench --side-by-side` print a comparison:
// a text or Markdown table, notes, the geometric mean, the benchmarks only one
// side has, and warnings (on stderr); or JSON.
#pragma once

#include "comparison.h"
#include "model/fact.h"

namespace strata::cli {

void print_comparison(const bench::Comparison& result, bool markdown);
// docs/compare.schema.json describes it.
inline constexpr const char* kComparisonSchemaVersion = "1.0.0";
// `metric`: real_time or cpu_time, the time the medians are of.
Json comparison_json(const bench::Comparison& result, std::string_view metric);

}  // namespace strata::cli
