// The ELF, archive and fat-binary readers, with every image's contents
// decompressed and, for cubins, parsed: the whole path `strata arch --details`
// takes through an untrusted file.
#include <algorithm>
#include <cstdint>
#include <string>

#include "frameworks/framework_abi.h"
#include "strata/arch/binary.h"
#include "strata/arch/compatibility.h"
#include "strata/arch/dynamic.h"
#include "strata/arch/image_info.h"
#include "strata/arch/symbols.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    using namespace strata::arch;
    std::string_view bytes(reinterpret_cast<const char*>(data), size);
    // The dynamic section, as the framework layer reads every library it finds.
    if (auto elf = parse_elf(bytes)) {
        auto dynamic = read_dynamic(*elf);
        if (!dynamic && dynamic.error().empty()) __builtin_trap();
        // The symbol table, as the extension check reads every package built on a framework.
        auto symbols = read_dynamic_symbols(*elf);
        if (!symbols && symbols.error().empty()) __builtin_trap();
        if (symbols) {
            auto inside = [](std::string_view part, std::string_view whole) {
                return part.data() >= whole.data() &&
                       part.data() + part.size() <= whole.data() + whole.size();
            };
            const strata::FrameworkAbi* torch = strata::framework_abi("torch");
            size_t demangled = 0;
            for (const DynamicSymbol& symbol : *symbols) {
                if (symbol.name.empty() || !inside(symbol.name, bytes)) __builtin_trap();
                // A view into the name, or "std" for the St abbreviation
                // (framework_abi.h), which names no characters of it.
                std::string_view scope = strata::outermost_scope(symbol.name);
                if (!scope.empty() && scope != "std" && !inside(scope, symbol.name)) __builtin_trap();
                (void)strata::is_framework_symbol(*torch, symbol.name);
                if (demangled++ < 16) (void)strata::readable_symbol(symbol.name);
            }
        }
    }
    auto listing = read_binary(bytes);
    if (!listing) {
        if (listing.error().empty()) __builtin_trap();  // a refusal always says why
        return 0;
    }
    for (const FatbinImage& image : listing->scan.images) {
        (void)decide_image(image, {90, parse_driver_version("580.65.06")});
        if (image.uncompressed_size > (1u << 20)) continue;  // keep each run fast
        auto contents = image_contents(image);
        if (!contents) continue;
        if (image.kind == ImageKind::ptx) (void)parse_ptx_header(*contents);
        if (image.kind == ImageKind::sass) (void)read_cubin_info(*contents);
    }
    (void)decide_file(listing->scan.images, {121, {}});
    // Registered fat binaries, each judged on its own: counts always add up.
    for (uint32_t sm : {75u, 90u, 121u})
        for (const char* driver : {"", "535.104.05"}) {
            BinaryDecision decision = decide_binary(*listing, {sm, parse_driver_version(driver)});
            if (decision.native + decision.jit + decision.none != decision.registered) __builtin_trap();
            if (decision.for_other_gpus + decision.driver_refused > decision.none) __builtin_trap();
            // Refusals are excused only where they do not decide, and only when outnumbered.
            if (decision.driver_refused &&
                (decision.verdict == Verdict::none || decision.native < decision.driver_refused ||
                 decision.native == 0))
                __builtin_trap();
            // What the JIT proof hands the driver: JIT-only fat binaries, each
            // a whole container inside the file (or refused with a reason).
            if (decision.jit_fat_binaries.size() > std::max<size_t>(decision.jit, 1)) __builtin_trap();
            for (const auto& jit : decision.jit_fat_binaries) {
                auto whole = container_size(bytes, jit.offset);
                if (whole ? (*whole < 16 || jit.offset + *whole > size) : whole.error().empty())
                    __builtin_trap();
            }
        }
    for (uint64_t offset : listing->registration.offsets)
        if (offset >= size) __builtin_trap();  // a registered container lies inside the file
    return 0;
}
