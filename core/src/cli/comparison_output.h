// How `strata compare` and `strata bench --side-by-side` print a comparison:
// a text or Markdown table, notes, the geometric mean, the benchmarks only one
// side has, and warnings (on stderr); or JSON.
#pragma once

#include "comparison.h"
#include "model/fact.h"

namespace strata::cli {

void print_comparison(const bench::Comparison& result, bool markdown);
Json comparison_json(const bench::Comparison& result);

// 1234.5 ns -> "1.234 us"
std::string time_text(double ns);

}  // namespace strata::cli
