#include "strata/arch/tables.h"

#include <catch2/catch.hpp>

using namespace strata::arch;

TEST_CASE("compute capabilities parse in every spelling people use") {
    CHECK(parse_compute_capability("90") == 90u);
    CHECK(parse_compute_capability("9.0") == 90u);
    CHECK(parse_compute_capability("sm_90") == 90u);
    CHECK(parse_compute_capability("sm_90a") == 90u);
    CHECK(parse_compute_capability("compute_120f") == 120u);
    CHECK(parse_compute_capability("12.1") == 121u);
    CHECK_FALSE(parse_compute_capability("9"));
    CHECK_FALSE(parse_compute_capability("9.10"));
    CHECK_FALSE(parse_compute_capability("abc"));
    CHECK_FALSE(parse_compute_capability(""));
    CHECK_FALSE(parse_compute_capability("sm_"));
}

TEST_CASE("driver versions parse and order") {
    auto a = parse_driver_version("580.65.06");
    REQUIRE(a);
    CHECK(a->major == 580);
    CHECK(a->patch == 6);
    auto b = parse_driver_version("570.26");
    REQUIRE(b);
    CHECK(*b < *a);
    CHECK_FALSE(parse_driver_version("580"));
    CHECK_FALSE(parse_driver_version("13.0"));  // a CUDA version, not a driver
    CHECK_FALSE(parse_driver_version("580.65.06.1"));
    CHECK_FALSE(parse_driver_version("580.x"));
}

TEST_CASE("the CUDA release a driver supports comes from the toolkit-driver table") {
    auto cuda = [](const char* driver) {
        return cuda_supported_by_driver(*parse_driver_version(driver))->text();
    };
    CHECK(cuda("580.65.06") == "13.0");
    CHECK(cuda("580.126.09") == "13.0");
    CHECK(cuda("590.44.01") == "13.1");
    CHECK(cuda("575.51.03") == "12.9");
    CHECK(cuda("570.124.06") == "12.8");
    CHECK(cuda("560.35.03") == "12.6");  // no 12.7 was released
    CHECK(cuda("525.60.13") == "12.0");
    CHECK(cuda("470.57.02") == "11.4");
    CHECK_FALSE(cuda_supported_by_driver(*parse_driver_version("390.157")));
}

TEST_CASE("PTX ISA versions map to the CUDA release that can JIT them") {
    CHECK(cuda_for_ptx_isa(9, 0)->text() == "13.0");
    CHECK(cuda_for_ptx_isa(9, 1)->text() == "13.1");
    CHECK(cuda_for_ptx_isa(8, 5)->text() == "12.5");
    CHECK(cuda_for_ptx_isa(8, 6)->text() == "12.7");  // never released: no 12.6 driver takes it
    CHECK(cuda_for_ptx_isa(7, 0)->text() == "11.0");
    CHECK_FALSE(cuda_for_ptx_isa(5, 0));
}

TEST_CASE("minor-version compatibility floors, ZSTD rule, families and the architecture table") {
    CHECK(minor_version_compat_floor(13) == 580u);
    CHECK(minor_version_compat_floor(12) == 525u);
    CHECK(minor_version_compat_floor(11) == 450u);
    CHECK_FALSE(minor_version_compat_floor(10));
    CHECK(zstd_minimum_driver().text == "550.54.14");
    CHECK(family_members(100) == std::vector<uint32_t>{100, 103});
    CHECK(family_members(120) == std::vector<uint32_t>{120, 121});
    CHECK(family_members(110) == std::vector<uint32_t>{110});
    for (uint32_t sm : {75u, 80u, 86u, 87u, 88u, 89u, 90u, 100u, 103u, 110u, 120u, 121u}) {
        INFO("sm_" << sm);
        REQUIRE(find_architecture(sm));
        CHECK(find_architecture(sm)->removed_in.empty());
    }
    CHECK(find_architecture(70)->removed_in == "13.0");
    CHECK(find_architecture(87)->tegra);
    CHECK(find_architecture(90)->architecture == "Hopper");
}
