// nccl-tests' bus bandwidth: algbw (bytes / time) times a factor per
// collective, so that figures are comparable across rank counts and with
// the links' own speed. For all-reduce the factor is 2(n-1)/n: a single rank
// moves nothing over any bus, so its busbw is 0 (as nccl-tests prints),
// whatever its algbw (a device-local copy).
#pragma once

namespace strata::nccl {

inline double all_reduce_bus_factor(int ranks) {
    return ranks > 0 ? 2.0 * (ranks - 1) / ranks : 0.0;
}

}  // namespace strata::nccl
