// nccl-tests' sizes and bus bandwidth (doc/PERFORMANCE.md; src/*.cu, the
// GetBw of each collective): algbw = S / t, with S the benchmark's size in
// bytes — for all_gather, reduce_scatter and alltoall the whole array, every
// rank's part of it together (count per rank x ranks); busbw = algbw x a
// factor per collective, so that figures are comparable across rank counts
// and with the links' own speed: 2(n-1)/n for all_reduce; (n-1)/n for
// all_gather, reduce_scatter and alltoall; 1 for broadcast, reduce and
// send/recv. A single rank moves nothing over any bus under the first two
// groups, so its busbw is 0 there (as nccl-tests prints), whatever its algbw.
#pragma once

#include <cstddef>

namespace strata::nccl {

enum class Collective { all_reduce, all_gather, reduce_scatter, broadcast, reduce, all_to_all, send_recv };

inline const char* collective_name(Collective c) {
    switch (c) {
        case Collective::all_reduce: return "all_reduce";
        case Collective::all_gather: return "all_gather";
        case Collective::reduce_scatter: return "reduce_scatter";
        case Collective::broadcast: return "broadcast";
        case Collective::reduce: return "reduce";
        case Collective::all_to_all: return "alltoall";
        case Collective::send_recv: return "sendrecv";
    }
    return "";
}

inline double bus_factor(Collective c, int ranks) {
    if (ranks <= 0) return 0.0;
    switch (c) {
        case Collective::all_reduce: return 2.0 * (ranks - 1) / ranks;
        case Collective::all_gather:
        case Collective::reduce_scatter:
        case Collective::all_to_all: return static_cast<double>(ranks - 1) / ranks;
        case Collective::broadcast:
        case Collective::reduce:
        case Collective::send_recv: return 1.0;
    }
    return 0.0;
}

// The elements each rank sends and receives for a benchmark of `total`
// elements (S / element size), nccl-tests' way: all_gather receives the
// whole array from a 1/n part per rank, reduce_scatter the reverse; alltoall
// sends and receives the whole array in n parts; the rest move it whole.
struct RankCounts {
    size_t send = 0, receive = 0;
};

inline RankCounts rank_counts(Collective c, size_t total, int ranks) {
    size_t part = ranks > 0 ? total / static_cast<size_t>(ranks) : 0;
    switch (c) {
        case Collective::all_gather: return {part, part * static_cast<size_t>(ranks)};
        case Collective::reduce_scatter: return {part * static_cast<size_t>(ranks), part};
        case Collective::all_to_all:
            return {part * static_cast<size_t>(ranks), part * static_cast<size_t>(ranks)};
        default: return {total, total};
    }
}

}  // namespace strata::nccl
