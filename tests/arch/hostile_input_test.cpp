// Malformed input of every kind: a clear error (or a clean partial listing),
// never a crash or a read out of bounds. Runs under ASan + UBSan in CI.
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <tuple>
#include <vector>

#include "strata/arch/binary.h"
#include "strata/arch/compatibility.h"
#include "strata/arch/image_info.h"
#include "strata/arch/mapped_file.h"

using namespace strata::arch;

namespace {

void put16(std::string& s, size_t at, uint16_t v) {
    std::memcpy(s.data() + at, &v, 2);
}
void put32(std::string& s, size_t at, uint32_t v) {
    std::memcpy(s.data() + at, &v, 4);
}
void put64(std::string& s, size_t at, uint64_t v) {
    std::memcpy(s.data() + at, &v, 8);
}

// One container with one entry of `kind` for `sm`, carrying `payload`.
std::string container(uint16_t kind, uint32_t sm, const std::string& payload, uint64_t flags = 0x11,
                      uint16_t major = 1, uint16_t minor = 8) {
    std::string entry(0x40, '\0');
    put16(entry, 0, kind);
    put16(entry, 2, 0x0101);
    put32(entry, 4, 0x40);
    put64(entry, 8, payload.size());
    put16(entry, 0x18, minor);
    put16(entry, 0x1A, major);
    put32(entry, 0x1C, sm);
    put64(entry, 0x28, flags);
    entry += payload;
    std::string header(16, '\0');
    put32(header, 0, 0xBA55ED50);
    put16(header, 4, 1);
    put16(header, 6, 16);
    put64(header, 8, entry.size());
    return header + entry;
}

Expected<BinaryListing> read(const std::string& bytes) {
    return read_binary(bytes);
}

}  // namespace

TEST_CASE("a synthetic fat binary lists its image") {
    auto listing = read(container(2, 90, std::string(64, 'x')));
    REQUIRE(listing);
    REQUIRE(listing->scan.images.size() == 1);
    CHECK(listing->scan.images[0].target_name() == "sm_90");
    CHECK(listing->scan.images[0].compression == Compression::none);
    CHECK(listing->scan.warnings.empty());
}

TEST_CASE("containers are found across the scanner's search windows, wherever they start") {
    // After each container the magic is searched 1 MiB at a time from its
    // end: put the next one across that window's edge, one exactly on an
    // edge, and one several windows further on.
    const size_t window = size_t{1} << 20;
    std::string bytes = container(2, 80, std::string(16, 'a'));
    bytes.resize(bytes.size() + window - 2, '\0');  // its magic straddles the edge
    bytes += container(2, 90, std::string(16, 'b'));
    bytes.resize(bytes.size() + window, '\0');  // starts exactly on the edge
    bytes += container(2, 100, std::string(16, 'c'));
    bytes.resize(bytes.size() + 4 * window + 3, '\0');
    bytes += container(1, 120, std::string(16, 'd'));
    auto listing = read(bytes);
    REQUIRE(listing);
    std::vector<std::string> targets;
    for (const auto& image : listing->scan.images) targets.push_back(image.target_name());
    CHECK(targets == std::vector<std::string>{"sm_80", "sm_90", "sm_100", "compute_120"});
}

TEST_CASE("unknown image kinds are kept and named, never fatal") {
    auto listing = read(container(0x40, 100, std::string(8, 'x')));
    REQUIRE(listing);
    REQUIRE(listing->scan.images.size() == 1);
    CHECK(listing->scan.images[0].kind == ImageKind::unknown);
    CHECK(listing->scan.images[0].target_name() == "kind64_100");
    CHECK(decide_image(listing->scan.images[0], {100, {}}).reason ==
          "image kind 64 is not one this strata knows");
}

TEST_CASE("every truncation of a valid fat binary is refused or listed cleanly") {
    std::string good = container(1, 80, std::string(".version 9.0\n.target sm_80\n") + std::string(4, '\0'));
    for (size_t n = 0; n <= good.size(); ++n) {
        auto listing = read(good.substr(0, n));
        if (listing) CHECK(listing->scan.images.size() <= 1);
    }
    auto cut = read(good.substr(0, good.size() - 1));
    REQUIRE(cut);
    CHECK(cut->scan.images.empty());
    REQUIRE(cut->scan.warnings.size() == 1);
    CHECK(cut->scan.warnings[0].find("past the end") != std::string::npos);
}

TEST_CASE("oversized lengths are refused with the offending values") {
    std::string bytes = container(2, 90, std::string(64, 'x'));
    SECTION("container size") {
        put64(bytes, 8, ~uint64_t{0});
        auto listing = read(bytes);
        REQUIRE(listing);
        REQUIRE(listing->scan.warnings.size() == 1);
        CHECK(listing->scan.warnings[0] ==
              "(fatbin): container at 0x0 declares 0xffffffffffffffff bytes of entries, past the end of "
              "(fatbin)");
    }
    SECTION("payload size") {
        put64(bytes, 16 + 8, uint64_t{1} << 62);
        auto listing = read(bytes);
        REQUIRE(listing);
        CHECK(listing->scan.images.empty());
        CHECK(listing->scan.warnings.at(0).find("runs past its container") != std::string::npos);
    }
    SECTION("entry header size") {
        put32(bytes, 16 + 4, 0xffffffff);
        auto listing = read(bytes);
        REQUIRE(listing);
        CHECK(listing->scan.images.empty());
        CHECK_FALSE(listing->scan.warnings.empty());
    }
    SECTION("a header smaller than the base header cannot loop forever") {
        put32(bytes, 16 + 4, 0);
        auto listing = read(bytes);
        REQUIRE(listing);
        CHECK(listing->scan.warnings.at(0).find("header version 0x101 and size 0x0") != std::string::npos);
    }
}

TEST_CASE("compressed payloads that lie are errors when decompressed, not crashes") {
    std::string bytes = container(2, 90, std::string(16, '\x42'), 0x8011);
    put32(bytes, 16 + 0x10, 16);    // compressed size
    put64(bytes, 16 + 0x38, 4096);  // claimed uncompressed size
    auto listing = read(bytes);
    REQUIRE(listing);
    REQUIRE(listing->scan.images.size() == 1);
    CHECK(listing->scan.images[0].compression == Compression::zstd);
    auto contents = image_contents(listing->scan.images[0]);
    CHECK_FALSE(contents);
    CHECK(contents.error().rfind("zstd: ", 0) == 0);

    put64(bytes, 16 + 0x28, 0x2011);  // now LZ4
    auto lz4 = read(bytes);
    REQUIRE(lz4);
    CHECK_FALSE(image_contents(lz4->scan.images[0]));

    put64(bytes, 16 + 0x38, uint64_t{1} << 40);  // absurd size: refused before allocating
    auto huge = read(bytes);
    REQUIRE(huge);
    CHECK(image_contents(huge->scan.images[0]).error().find("uncompressed size") != std::string::npos);

    put32(bytes, 16 + 0x10, 1000);  // compressed size beyond the payload
    auto beyond = read(bytes);
    REQUIRE(beyond);
    CHECK(beyond->scan.images.empty());
}

TEST_CASE("ELF headers that point outside the file are refused with the offsets") {
    std::string elf(64, '\0');
    std::memcpy(elf.data(),
                "\x7f"
                "ELF",
                4);
    elf[4] = 2;
    elf[5] = 1;
    put16(elf, 58, 64);
    put16(elf, 60, 3);
    put64(elf, 40, 0x1000);
    auto outside = read(elf);
    REQUIRE_FALSE(outside);
    CHECK(outside.error() == "section table at 0x1000 lies outside the file (0x40 bytes)");

    elf.resize(64 + 64 * 2, '\0');
    put64(elf, 40, 64);
    put16(elf, 60, 2);
    put32(elf, 64 + 64 + 4, 1);                  // section 1: PROGBITS
    put64(elf, 64 + 64 + 24, 0x10);              // offset
    put64(elf, 64 + 64 + 32, ~uint64_t{0} - 8);  // size that wraps when added
    auto wraps = read(elf);
    REQUIRE_FALSE(wraps);
    CHECK(wraps.error().find("runs past the end of the file") != std::string::npos);

    CHECK(read(std::string("\x7f"
                           "ELF\x01\x01",
                           6))
              .error()
              .rfind("ELF header truncated", 0) == 0);
    std::string elf32(64, '\0');
    std::memcpy(elf32.data(),
                "\x7f"
                "ELF\x01\x01",
                6);
    CHECK(read(elf32).error() == "32-bit ELF is not supported (only ELF64)");
    CHECK(read("hello").error() == "not an ELF file, archive or fat binary");
}

TEST_CASE("a section that holds a container whose entries point back at itself terminates") {
    // Self-reference: a container whose entry payload is another copy of the
    // container header. Scanning skips a parsed container whole, so the inner
    // magic is never re-entered.
    std::string inner = container(2, 80, std::string(8, 'y'));
    std::string outer = container(2, 90, inner);
    auto listing = read(outer);
    REQUIRE(listing);
    CHECK(listing->scan.containers == 1);
    CHECK(listing->scan.images.size() == 1);
}

TEST_CASE("archives with corrupt member headers are refused") {
    std::string archive = "!<arch>\n" + std::string(60, ' ');
    auto bad = read(archive);
    REQUIRE_FALSE(bad);
    CHECK(bad.error() == "archive member header at 0x8 is corrupt");
    std::string header = "x.o/            0           0     0     644     99999999  `\n";
    auto truncated = read("!<arch>\n" + header);
    REQUIRE_FALSE(truncated);
    CHECK(truncated.error().find("runs past the end") != std::string::npos);
}

TEST_CASE("PTX headers and cubin notes are read from contents") {
    auto ptx = parse_ptx_header(
        "//\n// Generated by NVIDIA NVVM Compiler\n.version 9.1\n.target sm_121a\n.address_size 64\n");
    REQUIRE(ptx);
    CHECK(ptx->isa_version == "9.1");
    CHECK(ptx->target == "sm_121a");
    CHECK_FALSE(parse_ptx_header("no directives here"));
    CHECK_FALSE(read_cubin_info("garbage"));
    CHECK(cubin_sm_from_flags(0x06005A04, 8) == 90);
    CHECK(cubin_sm_from_flags(0x004B054B, 7) == 75);
    CHECK(cubin_sm_from_flags(0x06007902, 8) == 121);
}

TEST_CASE("every input the fuzzer ever crashed on is read cleanly now") {
    // tests/arch/fuzz_regressions holds each crashing input libFuzzer found,
    // named for the bug; each must now parse or be refused with a reason.
    size_t count = 0;
    for (const auto& entry : std::filesystem::directory_iterator(STRATA_ARCH_FUZZ_REGRESSIONS)) {
        std::ifstream in(entry.path(), std::ios::binary);
        std::stringstream bytes;
        bytes << in.rdbuf();
        INFO(entry.path().filename().string());
        auto listing = read(bytes.str());
        if (!listing) CHECK_FALSE(listing.error().empty());
        if (listing)
            for (const FatbinImage& image : listing->scan.images) (void)image_contents(image);
        ++count;
    }
    CHECK(count >= 1);
}

namespace {

// An ELF64 with the named PROGBITS sections (contents, sh_addr), a
// .shstrtab, and the section table at the end.
std::string elf_with_sections(const std::vector<std::tuple<std::string, std::string, uint64_t>>& sections) {
    std::string names(1, '\0');
    std::vector<uint32_t> name_at;
    for (const auto& [name, contents, address] : sections) {
        name_at.push_back(static_cast<uint32_t>(names.size()));
        names += name + '\0';
    }
    uint32_t shstrtab_name = static_cast<uint32_t>(names.size());
    names += std::string(".shstrtab") + '\0';
    std::string file(64, '\0');
    std::memcpy(file.data(),
                "\x7f"
                "ELF",
                4);
    file[4] = 2;
    file[5] = 1;
    put16(file, 16, 3);   // ET_DYN
    put16(file, 18, 62);  // x86-64
    std::vector<uint64_t> offsets;
    for (const auto& [name, contents, address] : sections) {
        offsets.push_back(file.size());
        file += contents;
    }
    uint64_t names_offset = file.size();
    file += names;
    while (file.size() % 8) file += '\0';
    uint64_t table = file.size();
    size_t count = sections.size() + 2;
    file.resize(table + 64 * count, '\0');
    for (size_t i = 0; i < sections.size(); ++i) {
        size_t at = table + 64 * (i + 1);
        put32(file, at, name_at[i]);
        put32(file, at + 4, 1);  // PROGBITS
        put64(file, at + 8, 0x2);
        put64(file, at + 16, std::get<2>(sections[i]));
        put64(file, at + 24, offsets[i]);
        put64(file, at + 32, std::get<1>(sections[i]).size());
    }
    size_t at = table + 64 * (count - 1);
    put32(file, at, shstrtab_name);
    put32(file, at + 4, 3);  // STRTAB
    put64(file, at + 24, names_offset);
    put64(file, at + 32, names.size());
    put64(file, 40, table);
    put16(file, 58, 64);
    put16(file, 60, static_cast<uint16_t>(count));
    put16(file, 62, static_cast<uint16_t>(count - 1));
    return file;
}

std::string wrapper(uint32_t magic, uint32_t version, uint64_t data, uint64_t list) {
    std::string out(24, '\0');
    put32(out, 0, magic);
    put32(out, 4, version);
    put64(out, 8, data);
    put64(out, 16, list);
    return out;
}

}  // namespace

TEST_CASE("registration wrappers that lie are warnings, never reads out of bounds") {
    std::string fatbin = container(2, 80, std::string(32, 'c'));
    std::string segment =
        wrapper(0x466243b1, 1, 0x10000, 0) +        // the container, registered
        wrapper(0xdeadbeef, 1, 0x10000, 0) +        // wrong magic
        wrapper(0x466243b1, 1, 0xffffffff00, 0) +   // points outside every section
        wrapper(0x466243b1, 2, 0x10000, 0x20000) +  // a prelinked list that is not in the file
        std::string(7, 'x');                        // a torn last wrapper
    auto listing =
        read(elf_with_sections({{".nv_fatbin", fatbin, 0x10000}, {".nvFatBinSegment", segment, 0x30000}}));
    REQUIRE(listing);
    CHECK(listing->registration.has_segment);
    CHECK(listing->registration.offsets.size() == 1);  // counted once though named twice
    CHECK(listing->registration.warnings.size() == 2);
    CHECK(listing->registration.warnings[0].find("magic 0xdeadbeef") != std::string::npos);
    CHECK(listing->registration.warnings[1].find("outside every section") != std::string::npos);
    BinaryDecision decision = decide_binary(*listing, {80, std::nullopt});
    CHECK(decision.verdict == Verdict::native);
    CHECK(decision.registered == 1);
    // A segment of a million bogus wrappers is bounded and answers at once.
    std::string flood;
    for (int i = 0; i < 200000; ++i) flood += wrapper(0x466243b1, 1, 0x10000 + (i % 7), 0);
    auto flooded =
        read(elf_with_sections({{".nv_fatbin", fatbin, 0x10000}, {".nvFatBinSegment", flood, 0x30000}}));
    REQUIRE(flooded);
    CHECK(flooded->registration.offsets.size() == 7);
}

TEST_CASE("overlapping section headers read each byte range once") {
    // Ten containers in one section, then 2,000 more section headers over the
    // same bytes (shifted by a byte each). Once, the listing had 20,000 images
    // for a small file; each container is listed once now.
    std::string payload;
    for (int i = 0; i < 10; ++i) payload += container(2, 80, std::string(16, static_cast<char>('a' + i)));
    std::string file = elf_with_sections({{".nv_fatbin", payload, 0x10000}});
    // The table is last: rewrite it with the extra, overlapping headers.
    uint64_t table = 0;
    std::memcpy(&table, file.data() + 40, 8);
    uint16_t count = 0;
    std::memcpy(&count, file.data() + 60, 2);
    std::string headers = file.substr(table, 64 * static_cast<size_t>(count));
    std::string first = headers.substr(64, 64);  // section 1: .nv_fatbin
    uint64_t offset = 0;
    std::memcpy(&offset, first.data() + 24, 8);
    std::string extra;
    for (int i = 0; i < 2000; ++i) {
        std::string h = first;
        put64(h, 24, offset + static_cast<uint64_t>(i % 7));
        put64(h, 32, payload.size() - static_cast<uint64_t>(i % 7));
        extra += h;
    }
    file = file.substr(0, table) + headers + extra;
    put16(file, 60, static_cast<uint16_t>(count + 2000));
    auto listing = read(file);
    REQUIRE(listing);
    CHECK(listing->scan.images.size() == 10);
    CHECK(listing->scan.containers == 10);
}

TEST_CASE("a file truncated while it is mapped reads as zeros and is reported, not SIGBUS") {
    std::string path = "/tmp/strata-arch-truncated-" + std::to_string(::getpid()) + ".bin";
    {
        // Four pages of one repeated container: every page is file-backed.
        std::string body;
        while (body.size() < 4 * 4096) body += container(2, 90, std::string(512, 'x'));
        std::ofstream(path, std::ios::binary) << body;
    }
    auto file = MappedFile::open(path);
    REQUIRE(file);
    REQUIRE(file->bytes().size() >= 4 * 4096);
    CHECK_FALSE(file->changed_while_read());
    std::filesystem::resize_file(path, 100);  // another process shrinks it
    // Without the guard this read is SIGBUS past the first page.
    volatile char last = file->bytes()[file->bytes().size() - 1];
    CHECK(last == 0);
    auto listing = read_binary(file->bytes());  // whatever it makes of zeros, it returns
    CHECK(file->changed_while_read());
    std::filesystem::remove(path);
}
