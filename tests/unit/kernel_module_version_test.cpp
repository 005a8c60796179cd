#include "probes/kernel_module_version.h"

#include <catch2/catch.hpp>

using namespace strata;

TEST_CASE("proprietary kernel module version line") {
    auto parsed = parse_kernel_module_version(
        "NVRM version: NVIDIA UNIX x86_64 Kernel Module  580.65.06  Sun Jul 27 07:09:29 UTC 2025\n"
        "GCC version:  gcc version 12.2.0 (Debian 12.2.0-14)\n");
    REQUIRE(parsed);
    CHECK(parsed->version == "580.65.06");
    CHECK_FALSE(parsed->open_module);
    CHECK(parsed->gcc_version == "gcc version 12.2.0 (Debian 12.2.0-14)");
}

TEST_CASE("open kernel module version line, two-part version") {
    auto parsed = parse_kernel_module_version(
        "NVRM version: NVIDIA UNIX Open Kernel Module for x86_64  595.84  Release Build  (dvs-builder@U16)  "
        "Thu Oct  2 00:00:00 UTC 2025\nGCC version:  gcc version 13.3.0\n");
    REQUIRE(parsed);
    CHECK(parsed->version == "595.84");
    CHECK(parsed->open_module);
}

TEST_CASE("aarch64 open module") {
    auto parsed = parse_kernel_module_version(
        "NVRM version: NVIDIA UNIX Open Kernel Module for aarch64  570.172.08  Release Build\n");
    REQUIRE(parsed);
    CHECK(parsed->version == "570.172.08");
}

TEST_CASE("text without a version is rejected") {
    CHECK_FALSE(parse_kernel_module_version(""));
    CHECK_FALSE(parse_kernel_module_version("NVRM version: NVIDIA UNIX x86_64 Kernel Module\n"));
    CHECK_FALSE(parse_kernel_module_version("GCC version: 12.2.0\n"));
    CHECK_FALSE(parse_kernel_module_version("NVRM version: 1.2.3.4 5. .6\n"));
}
