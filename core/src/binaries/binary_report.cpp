#include "binaries/binary_report.h"

#include <map>
#include <tuple>

#include "report/columns.h"
#include "report/json_stream.h"
#include "strata/arch/image_info.h"

namespace strata {

namespace {

using arch::FatbinImage;
using arch::ImageKind;

std::string version_text(const FatbinImage& image) {
    std::string v = std::to_string(image.version_major) + "." + std::to_string(image.version_minor);
    return image.kind == ImageKind::ptx ? "ISA " + v : image.kind == ImageKind::sass ? "code " + v : v;
}

std::string cc_list(const std::vector<uint32_t>& sms) {
    std::string out;
    for (uint32_t sm : sms) {
        if (!out.empty()) out += ' ';
        out += arch::cc_text(sm);
    }
    return out.empty() ? "none" : out;
}

arch::Target target_of(const ArchTarget& t, const ArchOptions& options) {
    return {t.sm, options.driver};
}

bool has_device_code(const ScannedFile& file) {
    return !file.listing.scan.images.empty();
}

// Device code of link stubs alone (no kernel in any image) is listed but
// never judged: nothing in it is launched on any GPU.
bool judged(const ScannedFile& file) {
    return has_device_code(file) && !arch::link_stubs_only(file.listing);
}

constexpr const char* kKernelLessLine =
    "no kernel: its device code is link stubs that define none (nothing in it is launched), so no GPU is "
    "judged";

}  // namespace

Coverage coverage_of(const arch::BinaryListing& listing, const std::optional<arch::DriverVersion>& driver) {
    Coverage out;
    // Every architecture, also those current toolkits no longer build for:
    // a file with sm_70 SASS runs natively on 7.0, whatever CUDA 13 dropped.
    for (const arch::ArchInfo& info : arch::architectures()) {
        auto decision = arch::decide_binary(listing, {info.sm, driver});
        if (decision.verdict == arch::Verdict::native) out.native.push_back(info.sm);
        if (decision.verdict == arch::Verdict::jit) out.jit.push_back(info.sm);
    }
    return out;
}

std::string render_arch_text(const ScanResult& scan, const ArchOptions& options) {
    std::string out;
    size_t without_code = 0, unreadable = 0, kernel_less = 0;
    for (const ScannedFile& file : scan.files) {
        if (!file.error.empty()) {  // said on standard error (arch_errors_text)
            ++unreadable;
            continue;
        }
        if (!has_device_code(file)) {
            ++without_code;
            continue;
        }
        const auto& images = file.listing.scan.images;
        out += file.path + "  (" + std::string(arch::binary_format_name(file.listing.format)) + ", " +
               std::to_string(file.listing.scan.containers) + " container(s), " +
               std::to_string(images.size()) + " image(s))\n";
        for (const std::string& warning : file.listing.scan.warnings) out += "  warning: " + warning + "\n";
        if (options.details) {
            out += "  " + pad_right("KIND", 8) + pad_right("TARGET", 14) + pad_right("COMPRESSION", 13) +
                   pad_right("VERSION", 11) + pad_right("OFFSET", 12) + pad_right("BYTES", 12) + "CONTENTS\n";
            for (size_t i = 0; i < images.size(); ++i) {
                const FatbinImage& image = images[i];
                const ImageDetails& d = file.details.at(i);
                std::string contents = !d.error.empty()        ? "error: " + d.error
                                       : !d.toolkit.empty()    ? "built by CUDA " + d.toolkit
                                       : !d.ptx_target.empty() ? ".target " + d.ptx_target
                                                               : "";
                out += "  " + pad_right(std::string(arch::image_kind_name(image.kind)), 8) +
                       pad_right(image.target_name(), 14) +
                       pad_right(std::string(arch::compression_name(image.compression)), 13) +
                       pad_right(version_text(image), 11) + pad_right(arch::hex(image.offset), 12) +
                       pad_right(std::to_string(image.uncompressed_size), 12) + contents + "\n";
            }
        } else {
            // One row per distinct (kind, target, compression, version, section), with a count.
            std::map<std::tuple<int, uint32_t, std::string, std::string, std::string, std::string>, size_t>
                groups;
            for (const FatbinImage& image : images)
                ++groups[{static_cast<int>(image.kind), image.sm, image.target_name(),
                          std::string(arch::compression_name(image.compression)), version_text(image),
                          image.section}];
            out += "  " + pad_right("KIND", 8) + pad_right("TARGET", 14) + pad_right("COMPRESSION", 13) +
                   pad_right("VERSION", 11) + pad_right("IMAGES", 8) + "SECTION\n";
            for (const auto& [key, count] : groups) {
                const auto& [kind, sm, name, compression, version, section] = key;
                out += "  " + pad_right(std::string(arch::image_kind_name(static_cast<ImageKind>(kind))), 8) +
                       pad_right(name, 14) + pad_right(compression, 13) + pad_right(version, 11) +
                       pad_right(std::to_string(count), 8) + section + "\n";
            }
        }
        const arch::Registration& registration = file.listing.registration;
        if (!registration.offsets.empty()) {
            size_t count = registration.offsets.size();
            out += "  registered with the CUDA runtime: " + std::to_string(count) +
                   (count == 1 ? " fat binary" : " fat binaries (each loaded and judged on its own)");
            if (registration.unregistered_images)
                out += "; " + std::to_string(registration.unregistered_images) +
                       " image(s) in fat binaries it never loads (kept for device-side linking) do not count";
            out += "\n";
        }
        if (!judged(file)) {
            ++kernel_less;
            out += "  " + std::string(kKernelLessLine) + "\n\n";
            continue;
        }
        if (options.targets.empty()) {
            Coverage coverage = coverage_of(file.listing, options.driver);
            out += "  runs natively on CC: " + cc_list(coverage.native) + "\n";
            out += "  runs by PTX JIT on CC: " + cc_list(coverage.jit) + "\n";
        }
        for (const ArchTarget& target : options.targets) {
            auto decision = arch::decide_binary(file.listing, target_of(target, options));
            out += "  " + target.label + ": " + std::string(arch::verdict_name(decision.verdict)) + " — " +
                   decision.reason + "\n";
        }
        out += "\n";
    }
    out += std::to_string(scan.files.size() - without_code - unreadable) + " file(s) with device code";
    if (kernel_less) out += " (" + std::to_string(kernel_less) + " with link stubs alone)";
    if (unreadable) out += ", " + std::to_string(unreadable) + " unreadable";
    if (without_code) out += ", " + std::to_string(without_code) + " ELF file(s) without device code";
    if (scan.skipped) out += ", " + std::to_string(scan.skipped) + " non-binary file(s) skipped";
    if (options.driver) out += "; driver " + options.driver->text;
    return out + "\n";
}

std::string arch_errors_text(const ScanResult& scan) {
    std::string out;
    for (const ScannedFile& file : scan.files)
        if (!file.error.empty()) out += "strata: error: " + file.path + ": " + file.error + "\n";
    return out;
}

std::string arch_to_json(const ScanResult& scan, const ArchOptions& options, int exit_code) {
    JsonStream json;
    json.begin_object().field("schema_version", "1.0.0").field("command", "arch").key("driver");
    if (options.driver)
        json.value(options.driver->text);
    else
        json.null();
    json.key("files").begin_array();
    for (const ScannedFile& file : scan.files) {
        json.begin_object().field("path", file.path);
        if (!file.error.empty()) {
            json.field("error", file.error).end_object();
            continue;
        }
        const auto& images = file.listing.scan.images;
        json.field("format", arch::binary_format_name(file.listing.format))
            .field("containers", file.listing.scan.containers)
            .key("warnings")
            .begin_array();
        for (const std::string& warning : file.listing.scan.warnings) json.value(warning);
        json.end_array().key("images").begin_array();
        for (size_t i = 0; i < images.size(); ++i) {
            const FatbinImage& image = images[i];
            json.begin_object()
                .field("kind", arch::image_kind_name(image.kind))
                .field("raw_kind", image.raw_kind)
                .field("target", image.target_name())
                .field("sm", image.sm)
                .field("variant", arch::variant_suffix(image.variant))
                .field("compression", arch::compression_name(image.compression))
                .field("version",
                       std::to_string(image.version_major) + "." + std::to_string(image.version_minor))
                .field("section", image.section)
                .field("offset", image.offset)
                .field("stored_bytes", image.stored_size)
                .field("uncompressed_bytes", image.uncompressed_size);
            if (!image.options.empty()) json.field("ptxas_options", image.options);
            if (options.details) {
                const ImageDetails& d = file.details.at(i);
                if (!d.toolkit.empty()) json.field("toolkit", d.toolkit);
                if (!d.ptx_target.empty()) json.field("ptx_target", d.ptx_target);
                if (!d.error.empty()) json.field("contents_error", d.error);
            }
            json.end_object();
        }
        json.end_array();
        if (!file.listing.registration.offsets.empty()) {
            json.field("registered_fat_binaries", file.listing.registration.offsets.size())
                .field("unregistered_images", file.listing.registration.unregistered_images);
        }
        if (has_device_code(file) && !judged(file)) json.key("kernel_less").value(true);
        if (judged(file)) {
            Coverage coverage = coverage_of(file.listing, options.driver);
            json.key("runs_natively_on").begin_array();
            for (uint32_t sm : coverage.native) json.value(arch::cc_text(sm));
            json.end_array().key("runs_by_jit_on").begin_array();
            for (uint32_t sm : coverage.jit) json.value(arch::cc_text(sm));
            json.end_array().key("verdicts").begin_array();
            for (const ArchTarget& target : options.targets) {
                auto decision = arch::decide_binary(file.listing, target_of(target, options));
                json.begin_object()
                    .field("target", target.label)
                    .field("compute_capability", arch::cc_text(target.sm))
                    .field("verdict", arch::verdict_name(decision.verdict))
                    .key("image");
                if (!decision.image.empty())
                    json.value(decision.image);
                else
                    json.null();
                json.field("reason", decision.reason);
                if (decision.registered)
                    json.key("registered")
                        .begin_object()
                        .field("native", decision.native)
                        .field("jit", decision.jit)
                        .field("none", decision.none)
                        .field("for_other_gpus", decision.for_other_gpus)
                        .field("driver_refused", decision.driver_refused)
                        .end_object();
                json.end_object();
            }
            json.end_array();
        }
        json.end_object();
    }
    json.end_array()
        .field("skipped_non_binaries", scan.skipped)
        .key("exit_code")
        .value(exit_code)
        .end_object();
    return json.text();
}

int arch_exit_code(const ScanResult& scan, const ArchOptions& options) {
    int code = 0;
    for (const ScannedFile& file : scan.files) {
        if (!file.error.empty()) return 2;
        if (!judged(file)) continue;
        // Some of its fat binaries could not be read: a verdict for a target
        // would be about the rest only.
        if (!options.targets.empty() && !file.listing.scan.warnings.empty()) return 2;
        for (const ArchTarget& target : options.targets)
            if (arch::decide_binary(file.listing, target_of(target, options)).verdict == arch::Verdict::none)
                code = 1;
    }
    return code;
}

}  // namespace strata
