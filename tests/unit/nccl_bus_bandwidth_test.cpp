// nccl-tests' bus-bandwidth factor (issue #16: one rank reported busbw =
// algbw, a device copy presented as bus traffic).
#include <catch2/catch.hpp>

#include "bus_bandwidth.h"

using strata::nccl::all_reduce_bus_factor;

TEST_CASE("all-reduce bus factor is nccl-tests' 2(n-1)/n, and 0 for a single rank") {
    CHECK(all_reduce_bus_factor(1) == 0.0);
    CHECK(all_reduce_bus_factor(2) == Approx(1.0));
    CHECK(all_reduce_bus_factor(8) == Approx(1.75));
    CHECK(all_reduce_bus_factor(0) == 0.0);
}
