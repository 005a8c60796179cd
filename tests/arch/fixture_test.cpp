// Binaries nvcc built at test time with known -gencode sets: the exact image
// list, and the verdict for a matrix of targets.
#include <algorithm>
#include <catch2/catch.hpp>

#include "strata/arch/binary.h"
#include "strata/arch/compatibility.h"
#include "strata/arch/image_info.h"
#include "strata/arch/mapped_file.h"

using namespace strata::arch;

namespace {

struct Loaded {
    MappedFile file;
    BinaryListing listing;
};

Loaded load(const std::string& name) {
    auto file = MappedFile::open(std::string(STRATA_ARCH_FIXTURES) + "/" + name);
    INFO(name);
    REQUIRE(file);
    auto listing = read_binary(file->bytes());
    REQUIRE(listing);
    CHECK(listing->scan.warnings.empty());
    return {std::move(*file), std::move(*listing)};
}

// "sass sm_80 none" for each image, in file order.
std::vector<std::string> describe(const BinaryListing& listing) {
    std::vector<std::string> out;
    for (const FatbinImage& image : listing.scan.images)
        out.push_back(std::string(image_kind_name(image.kind)) + " " + image.target_name() + " " +
                      std::string(compression_name(image.compression)));
    return out;
}

Verdict verdict(const BinaryListing& listing, uint32_t sm, const char* driver = nullptr) {
    Target target{sm, driver ? parse_driver_version(driver) : std::nullopt};
    return decide_file(listing.scan.images, target).verdict;
}

using V = std::vector<std::string>;

}  // namespace

TEST_CASE("SASS only: an sm_80 cubin runs on 8.6 natively but not on 9.0") {
    Loaded sm80 = load("sm80.o");
    CHECK(describe(sm80.listing) == V{"sass sm_80 none"});
    CHECK(verdict(sm80.listing, 80) == Verdict::native);
    CHECK(verdict(sm80.listing, 86) == Verdict::native);
    CHECK(verdict(sm80.listing, 89) == Verdict::native);
    CHECK(verdict(sm80.listing, 87) == Verdict::none);  // Tegra: no binary compatibility
    CHECK(verdict(sm80.listing, 90) == Verdict::none);
    CHECK(verdict(sm80.listing, 75) == Verdict::none);
    auto decision = decide_file(sm80.listing.scan.images, {90, {}});
    CHECK(decision.reason.find("no image for CC 9.0 (has: sm_80)") == 0);
    CHECK(decision.reason.find("error 209") != std::string::npos);

    Loaded both = load("sass_only.o");
    CHECK(describe(both.listing) == V{"sass sm_80 none", "sass sm_90 none"});
    auto on90 = decide_file(both.listing.scan.images, {90, {}});
    REQUIRE(on90.image);
    CHECK(on90.image->target_name() == "sm_90");
    CHECK(verdict(both.listing, 100) == Verdict::none);
}

TEST_CASE("PTX only: compute_120 JITs on 12.1 but not on 10.0, and not on an older driver") {
    Loaded ptx = load("ptx_only.o");
    CHECK(describe(ptx.listing) == V{"ptx compute_120 zstd"});
    const FatbinImage& image = ptx.listing.scan.images.at(0);
    CHECK(image.version_major == 9);
    CHECK(image.version_minor == 0);
    CHECK(verdict(ptx.listing, 120) == Verdict::jit);
    CHECK(verdict(ptx.listing, 121) == Verdict::jit);
    CHECK(verdict(ptx.listing, 100) == Verdict::none);
    CHECK(verdict(ptx.listing, 121, "580.65.06") == Verdict::jit);
    auto old = decide_file(ptx.listing.scan.images, {121, parse_driver_version("575.51.03")});
    CHECK(old.verdict == Verdict::none);
    CHECK(
        old.reason.find("PTX ISA 9.0, which needs a CUDA 13.0 driver; driver 575.51.03 supports CUDA 12.9") !=
        std::string::npos);
    auto text = image_contents(image);
    REQUIRE(text);
    auto header = parse_ptx_header(*text);
    REQUIRE(header);
    CHECK(header->isa_version == "9.0");
    CHECK(header->target == "sm_120");
}

TEST_CASE("SASS + PTX: native where the SASS fits, JIT everywhere newer") {
    Loaded fixture = load("sass_ptx.o");
    CHECK(describe(fixture.listing) == V{"sass sm_80 none", "ptx compute_80 zstd"});
    CHECK(verdict(fixture.listing, 86) == Verdict::native);
    CHECK(verdict(fixture.listing, 90) == Verdict::jit);
    CHECK(verdict(fixture.listing, 120) == Verdict::jit);
    CHECK(verdict(fixture.listing, 75) == Verdict::none);
}

TEST_CASE("arch-specific and family-specific targets") {
    Loaded fixture = load("arch_family.o");
    CHECK(describe(fixture.listing) == V{"sass sm_90a none", "sass sm_100f none", "ptx compute_120f zstd"});
    const auto& images = fixture.listing.scan.images;
    // sm_90a runs on 9.0 only.
    CHECK(decide_image(images[0], {90, {}}).verdict == Verdict::native);
    CHECK(decide_image(images[0], {100, {}}).verdict == Verdict::none);
    // sm_100f runs on the 10.0 family: 10.0 and 10.3, not 11.0 or 12.0.
    CHECK(decide_image(images[1], {100, {}}).verdict == Verdict::native);
    CHECK(decide_image(images[1], {103, {}}).verdict == Verdict::native);
    CHECK(decide_image(images[1], {110, {}}).verdict == Verdict::none);
    // compute_120f compiles for 12.0 and 12.1 only.
    CHECK(decide_image(images[2], {121, {}}).verdict == Verdict::jit);
    CHECK(decide_image(images[2], {103, {}}).verdict == Verdict::none);
    CHECK(verdict(fixture.listing, 89) == Verdict::none);
}

TEST_CASE("relocatable device code (-rdc=true): images in __nv_relfatbin, SASS compressed by default") {
    Loaded fixture = load("rdc.o");
    CHECK(describe(fixture.listing) == V{"sass sm_86 zstd", "ptx compute_86 zstd"});
    CHECK(fixture.listing.scan.images[0].section == "__nv_relfatbin");
    CHECK(fixture.listing.scan.images[1].options == "--compile-only");
    auto cubin = image_contents(fixture.listing.scan.images[0]);
    REQUIRE(cubin);
    auto info = read_cubin_info(*cubin);
    REQUIRE(info);
    CHECK(info->elf_type == 1);  // ET_REL
    CHECK(info->sm == 86);
}

TEST_CASE("compression: -compress-all (ZSTD), --compress-mode=speed (LZ4), none") {
    Loaded zstd = load("compress_all.o");
    CHECK(describe(zstd.listing) == V{"sass sm_89 zstd", "ptx compute_89 zstd"});
    Loaded lz4 = load("compress_lz4.o");
    CHECK(describe(lz4.listing) == V{"sass sm_75 lz4", "ptx compute_75 lz4"});
    Loaded none = load("compress_none.o");
    CHECK(describe(none.listing) == V{"sass sm_75 none", "ptx compute_75 none"});
    // The same cubin decompresses to what the uncompressed build holds.
    for (const Loaded* fixture : {&zstd, &lz4, &none}) {
        auto cubin = image_contents(fixture->listing.scan.images[0]);
        REQUIRE(cubin);
        CHECK(cubin->size() == fixture->listing.scan.images[0].uncompressed_size);
        auto info = read_cubin_info(*cubin);
        REQUIRE(info);
        CHECK(info->toolkit.rfind("13.", 0) == 0);
    }
    auto lz4_cubin = image_contents(lz4.listing.scan.images[0]);
    auto none_cubin = image_contents(none.listing.scan.images[0]);
    CHECK(*lz4_cubin == *none_cubin);
    // ZSTD needs a CUDA 12.4 (R550) driver; LZ4 does not.
    CHECK(verdict(zstd.listing, 89, "545.23.06") == Verdict::none);
    CHECK(decide_file(zstd.listing.scan.images, {89, parse_driver_version("545.23.06")})
              .reason.find("ZSTD-compressed") != std::string::npos);
    CHECK(verdict(zstd.listing, 89, "550.54.14") == Verdict::native);
    CHECK(verdict(lz4.listing, 75, "545.23.06") == Verdict::native);
}

TEST_CASE("a bare cubin, a raw fatbin, a shared library and a static archive") {
    Loaded cubin = load("kernel.cubin");
    CHECK(cubin.listing.format == BinaryFormat::cubin);
    CHECK(describe(cubin.listing) == V{"sass sm_86 none"});
    Loaded fatbin = load("kernel.fatbin");
    CHECK(fatbin.listing.format == BinaryFormat::fatbin);
    CHECK(describe(fatbin.listing) == V{"sass sm_80 none", "ptx compute_80 zstd"});
    Loaded shared = load("libshared.so");
    CHECK(shared.listing.format == BinaryFormat::elf);
    // nvcc 13 always device-links: the TU's images and the link step's.
    for (const std::string& image : describe(shared.listing))
        CHECK((image == "sass sm_75 none" || image == "sass sm_90 none"));
    CHECK(shared.listing.scan.images.size() >= 2);
    Loaded archive = load("libarchive.a");
    CHECK(archive.listing.format == BinaryFormat::archive);
    CHECK(describe(archive.listing) == V{"sass sm_80 none", "sass sm_90 none", "ptx compute_120 zstd"});
    CHECK(archive.listing.scan.images[0].section == "sass_only.o:.nv_fatbin");
    CHECK(archive.listing.scan.images[2].section == "ptx_only.o:.nv_fatbin");
}

TEST_CASE("each registered fat binary is judged on its own: the worst translation unit decides") {
    Loaded two = load("libtwo_units.so");
    REQUIRE(two.listing.registration.has_segment);
    // Unit A, unit B, and nvcc's kernel-less link stub (nvcc's default architecture).
    CHECK(two.listing.registration.offsets.size() == 3);
    // Any-image-native would say native: the file does carry sm_90 SASS.
    CHECK(decide_file(two.listing.scan.images, {90, std::nullopt}).verdict == Verdict::native);
    BinaryDecision on_hopper = decide_binary(two.listing, {90, std::nullopt});
    CHECK(on_hopper.verdict == Verdict::jit);  // unit A has only sm_80 SASS and compute_80 PTX
    CHECK(on_hopper.registered == 2);          // the stub defines no kernel and does not count
    CHECK(on_hopper.native == 1);
    CHECK(on_hopper.jit == 1);
    CHECK(on_hopper.reason.find("of 2 registered fat binaries 1 native, 1 PTX JIT only") !=
          std::string::npos);
    // Unit B has sm_90 SASS only: on CC 8.0 it is code for another GPU (as
    // NVIDIA's libraries register per-architecture kernels), counted but not
    // decisive while unit A runs.
    BinaryDecision on_ampere = decide_binary(two.listing, {80, std::nullopt});
    CHECK(on_ampere.verdict == Verdict::native);
    CHECK(on_ampere.none == 1);
    CHECK(on_ampere.for_other_gpus == 1);
    CHECK(on_ampere.reason.find("1 of them code for other GPUs only") != std::string::npos);
    // When nothing registered can run, the file cannot.
    CHECK(decide_binary(two.listing, {75, std::nullopt}).verdict == Verdict::none);
    // A plain object or cubin has no registration: the best image decides, as before.
    Loaded object = load("sass_ptx.o");
    CHECK(object.listing.registration.offsets.empty());
    CHECK(decide_binary(object.listing, {90, std::nullopt}).verdict == Verdict::jit);
    CHECK(decide_binary(object.listing, {90, std::nullopt}).registered == 0);
}

TEST_CASE("the fat binaries the JIT compiles are named one by one, whole, as a loader hands them over") {
    Loaded two = load("libtwo_units.so");
    // On CC 9.0 unit A (sm_80 SASS, compute_80 PTX) is the one JIT-compiled.
    BinaryDecision on_hopper = decide_binary(two.listing, {90, std::nullopt});
    REQUIRE(on_hopper.jit_fat_binaries.size() == 1);
    const auto& jit = on_hopper.jit_fat_binaries.front();
    CHECK(jit.image == "compute_80");
    CHECK(std::find(two.listing.registration.offsets.begin(), two.listing.registration.offsets.end(),
                    jit.offset) != two.listing.registration.offsets.end());
    // The whole container: its header says how long it is, and every image
    // of unit A lies inside it.
    auto size = container_size(two.file.bytes(), jit.offset);
    REQUIRE(size);
    CHECK(*size > 16);
    for (const FatbinImage& image : two.listing.scan.images)
        if (image.container == jit.offset) CHECK(image.offset + image.stored_size <= jit.offset + *size);
    // On CC 8.0 unit A runs native and unit B is for other GPUs: nothing JITs.
    CHECK(decide_binary(two.listing, {80, std::nullopt}).jit_fat_binaries.empty());
    // A raw .fatbin is one container, handed over whole.
    Loaded raw = load("kernel.fatbin");
    BinaryDecision raw_on_hopper = decide_binary(raw.listing, {90, std::nullopt});
    REQUIRE(raw_on_hopper.jit_fat_binaries.size() == 1);
    CHECK(raw_on_hopper.jit_fat_binaries.front().offset == 0);
    auto whole = container_size(raw.file.bytes(), 0);
    REQUIRE(whole);
    CHECK(*whole <= raw.file.bytes().size());
    // Not a container: a clear error, not a size.
    CHECK_FALSE(container_size(two.file.bytes(), 1));
    CHECK_FALSE(container_size(
        std::string_view("\x50\xed\x55\xba\x01\x00\x10\x00\xff\xff\xff\xff\xff\xff\xff\x7f", 16), 0));
}

TEST_CASE(
    "PTX the driver refuses decides, unless a few such fat binaries sit in a library that runs native") {
    const auto old_driver = parse_driver_version("570.86.15");  // CUDA 12.8: refuses CUDA 13's PTX ISA
    // Two units, one each way: the refusal does not outnumber what runs, so it does not decide.
    Loaded two = load("libtwo_units.so");
    BinaryDecision even = decide_binary(two.listing, {90, old_driver});
    CHECK(even.verdict == Verdict::native);
    CHECK(even.driver_refused == 1);
    CHECK(even.refused_reason.find("error 222") != std::string::npos);
    // Two native units and one refused: the library runs; the refusal is counted and named.
    Loaded mostly = load("libmostly_native.so");
    BinaryDecision hopper = decide_binary(mostly.listing, {90, old_driver});
    CHECK(hopper.verdict == Verdict::native);
    CHECK(hopper.registered == 3);
    CHECK(hopper.native == 2);
    CHECK(hopper.none == 1);
    CHECK(hopper.driver_refused == 1);
    CHECK(hopper.refused_reason.find("compute_80 is PTX ISA") != std::string::npos);
    CHECK(hopper.reason.find("1 of them refused by this driver") != std::string::npos);
    CHECK(hopper.reason.find("refused: ") != std::string::npos);
    // A driver that reads the ISA JIT-compiles that unit; nothing is refused.
    BinaryDecision current = decide_binary(mostly.listing, {90, parse_driver_version("580.95.05")});
    CHECK(current.verdict == Verdict::jit);
    CHECK(current.driver_refused == 0);
    // On CC 8.0 the sm_90 units are code for other GPUs and the refused unit
    // is all that is left: it decides.
    BinaryDecision ampere = decide_binary(mostly.listing, {80, old_driver});
    CHECK(ampere.verdict == Verdict::none);
    CHECK(ampere.driver_refused == 0);
    CHECK(ampere.reason.find("error 222") != std::string::npos);
}

TEST_CASE("relocatable fat binaries (-rdc) are inputs of the device link, never loaded: they do not count") {
    Loaded rdc = load("librdc.so");
    REQUIRE(rdc.listing.registration.has_segment);
    CHECK(rdc.listing.registration.relocatable >= 2);  // one per object
    bool any_relocatable_ptx = false;
    for (const FatbinImage& image : rdc.listing.scan.images)
        any_relocatable_ptx =
            any_relocatable_ptx || (image.section == "__nv_relfatbin" && image.kind == ImageKind::ptx);
    CHECK(any_relocatable_ptx);
    // The device-linked fat binary the runtime loads carries sm_80 SASS only:
    // the relocatable PTX beside it cannot rescue CC 9.0.
    CHECK(decide_file(rdc.listing.scan.images, {90, std::nullopt}).verdict == Verdict::jit);
    BinaryDecision hopper = decide_binary(rdc.listing, {90, std::nullopt});
    CHECK(hopper.verdict == Verdict::none);
    CHECK(rdc.listing.registration.unregistered_images >= 2);
    CHECK(decide_binary(rdc.listing, {80, std::nullopt}).verdict == Verdict::native);
}
