// nccl-tests' definitions (doc/PERFORMANCE.md and each src/<collective>.cu's
// GetBw): busbw = algbw x 2(n-1)/n for all_reduce; (n-1)/n for all_gather,
// reduce_scatter and alltoall; 1 for broadcast, reduce and sendrecv. The
// size S of all_gather, reduce_scatter and alltoall is the whole array
// (count per rank x n).
#include <catch2/catch.hpp>

#include "bus_bandwidth.h"

using strata::nccl::bus_factor;
using strata::nccl::Collective;
using strata::nccl::rank_counts;

TEST_CASE("nccl-tests' bus factors, per collective and rank count") {
    CHECK(bus_factor(Collective::all_reduce, 1) == 0.0);
    CHECK(bus_factor(Collective::all_reduce, 2) == Approx(1.0));
    CHECK(bus_factor(Collective::all_reduce, 8) == Approx(1.75));
    for (Collective c : {Collective::all_gather, Collective::reduce_scatter, Collective::all_to_all}) {
        CHECK(bus_factor(c, 1) == 0.0);
        CHECK(bus_factor(c, 2) == Approx(0.5));
        CHECK(bus_factor(c, 8) == Approx(0.875));
    }
    for (Collective c : {Collective::broadcast, Collective::reduce, Collective::send_recv}) {
        CHECK(bus_factor(c, 1) == 1.0);
        CHECK(bus_factor(c, 8) == 1.0);
    }
    for (Collective c : {Collective::all_reduce, Collective::all_gather, Collective::send_recv})
        CHECK(bus_factor(c, 0) == 0.0);
}

TEST_CASE("what each rank sends and receives, for a size counted as nccl-tests counts it") {
    // 8 ranks, S = 1024 elements.
    CHECK(rank_counts(Collective::all_reduce, 1024, 8).send == 1024);
    CHECK(rank_counts(Collective::all_reduce, 1024, 8).receive == 1024);
    CHECK(rank_counts(Collective::all_gather, 1024, 8).send == 128);
    CHECK(rank_counts(Collective::all_gather, 1024, 8).receive == 1024);
    CHECK(rank_counts(Collective::reduce_scatter, 1024, 8).send == 1024);
    CHECK(rank_counts(Collective::reduce_scatter, 1024, 8).receive == 128);
    CHECK(rank_counts(Collective::all_to_all, 1024, 8).send == 1024);
    CHECK(rank_counts(Collective::broadcast, 1024, 8).receive == 1024);
    // A size that does not divide: each part is whole, the array a multiple of n.
    CHECK(rank_counts(Collective::all_gather, 1000, 3).send == 333);
    CHECK(rank_counts(Collective::all_gather, 1000, 3).receive == 999);
    // One rank: the part is the whole.
    CHECK(rank_counts(Collective::all_to_all, 1024, 1).send == 1024);
}
