#include "binaries/binary_report.h"

#include <map>
#include <tuple>

#include "strata/arch/image_info.h"

namespace strata {

namespace {

using arch::FatbinImage;
using arch::ImageKind;

std::string version_text(const FatbinImage& image) {
    std::string v = std::to_string(image.version_major) + "." + std::to_string(image.version_minor);
    return image.kind == ImageKind::ptx ? "ISA " + v : image.kind == ImageKind::sass ? "code " + v : v;
}

struct Details {
    std::string toolkit, ptx_target, error;
};

Details details_of(const FatbinImage& image) {
    Details out;
    if (image.kind != ImageKind::sass && image.kind != ImageKind::ptx) return out;
    auto contents = arch::image_contents(image);
    if (!contents) {
        out.error = contents.error();
        return out;
    }
    if (image.kind == ImageKind::ptx) {
        if (auto header = arch::parse_ptx_header(*contents)) out.ptx_target = header->target;
    } else if (auto info = arch::read_cubin_info(*contents)) {
        out.toolkit = info->toolkit;
    } else {
        out.error = info.error();
    }
    return out;
}

std::string cc_list(const std::vector<uint32_t>& sms) {
    std::string out;
    for (uint32_t sm : sms) out += (out.empty() ? "" : " ") + arch::cc_text(sm);
    return out.empty() ? "none" : out;
}

arch::Target target_of(const ArchTarget& t, const ArchOptions& options) {
    return {t.sm, options.driver};
}

bool has_device_code(const ScannedFile& file) {
    return !file.listing.scan.images.empty();
}

std::string pad(std::string text, size_t width) {
    text.resize(std::max(text.size(), width), ' ');
    return text;
}

}  // namespace

Coverage coverage_of(const std::vector<FatbinImage>& images,
                     const std::optional<arch::DriverVersion>& driver) {
    Coverage out;
    for (const arch::ArchInfo& info : arch::architectures()) {
        if (!info.removed_in.empty()) continue;  // GPUs no current toolkit builds for
        auto decision = arch::decide_file(images, {info.sm, driver});
        if (decision.verdict == arch::Verdict::native) out.native.push_back(info.sm);
        if (decision.verdict == arch::Verdict::jit) out.jit.push_back(info.sm);
    }
    return out;
}

std::string render_arch_text(const ScanResult& scan, const ArchOptions& options) {
    std::string out;
    size_t without_code = 0;
    for (const ScannedFile& file : scan.files) {
        if (!file.error.empty()) {
            out += file.path + ": error: " + file.error + "\n";
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
            out += "  " + pad("KIND", 8) + pad("TARGET", 14) + pad("COMPRESSION", 13) + pad("VERSION", 11) +
                   pad("OFFSET", 12) + pad("BYTES", 10) + "CONTENTS\n";
            for (const FatbinImage& image : images) {
                Details d = details_of(image);
                std::string contents = !d.error.empty()        ? "error: " + d.error
                                       : !d.toolkit.empty()    ? "built by CUDA " + d.toolkit
                                       : !d.ptx_target.empty() ? ".target " + d.ptx_target
                                                               : "";
                out += "  " + pad(std::string(arch::image_kind_name(image.kind)), 8) +
                       pad(image.target_name(), 14) +
                       pad(std::string(arch::compression_name(image.compression)), 13) +
                       pad(version_text(image), 11) + pad(arch::hex(image.offset), 12) +
                       pad(std::to_string(image.uncompressed_size), 10) + contents + "\n";
            }
        } else {
            // One row per distinct (kind, target, compression, version, section), with a count.
            std::map<std::tuple<int, uint32_t, std::string, std::string, std::string, std::string>, size_t>
                groups;
            for (const FatbinImage& image : images)
                ++groups[{static_cast<int>(image.kind), image.sm, image.target_name(),
                          std::string(arch::compression_name(image.compression)), version_text(image),
                          image.section}];
            out += "  " + pad("KIND", 8) + pad("TARGET", 14) + pad("COMPRESSION", 13) + pad("VERSION", 11) +
                   pad("IMAGES", 8) + "SECTION\n";
            for (const auto& [key, count] : groups) {
                const auto& [kind, sm, name, compression, version, section] = key;
                out += "  " + pad(std::string(arch::image_kind_name(static_cast<ImageKind>(kind))), 8) +
                       pad(name, 14) + pad(compression, 13) + pad(version, 11) +
                       pad(std::to_string(count), 8) + section + "\n";
            }
        }
        if (options.targets.empty()) {
            Coverage coverage = coverage_of(images, options.driver);
            out += "  runs natively on CC: " + cc_list(coverage.native) + "\n";
            out += "  runs by PTX JIT on CC: " + cc_list(coverage.jit) + "\n";
        }
        for (const ArchTarget& target : options.targets) {
            auto decision = arch::decide_file(images, target_of(target, options));
            out += "  " + target.label + ": " + std::string(arch::verdict_name(decision.verdict)) + " — " +
                   decision.reason + "\n";
        }
        out += "\n";
    }
    out += std::to_string(scan.files.size() - without_code) + " file(s) with device code";
    if (without_code) out += ", " + std::to_string(without_code) + " ELF file(s) without device code";
    if (scan.skipped) out += ", " + std::to_string(scan.skipped) + " non-binary file(s) skipped";
    if (options.driver) out += "; driver " + options.driver->text;
    return out + "\n";
}

Json arch_to_json(const ScanResult& scan, const ArchOptions& options) {
    Json files = Json::array();
    for (const ScannedFile& file : scan.files) {
        Json entry = {{"path", file.path}};
        if (!file.error.empty()) {
            entry["error"] = file.error;
            files.push_back(entry);
            continue;
        }
        Json images = Json::array();
        for (const FatbinImage& image : file.listing.scan.images) {
            Json j = {
                {"kind", arch::image_kind_name(image.kind)},
                {"raw_kind", image.raw_kind},
                {"target", image.target_name()},
                {"sm", image.sm},
                {"variant", arch::variant_suffix(image.variant)},
                {"compression", arch::compression_name(image.compression)},
                {"version", std::to_string(image.version_major) + "." + std::to_string(image.version_minor)},
                {"section", image.section},
                {"offset", image.offset},
                {"stored_bytes", image.payload.size()},
                {"uncompressed_bytes", image.uncompressed_size}};
            if (!image.options.empty()) j["ptxas_options"] = image.options;
            if (options.details) {
                Details d = details_of(image);
                if (!d.toolkit.empty()) j["toolkit"] = d.toolkit;
                if (!d.ptx_target.empty()) j["ptx_target"] = d.ptx_target;
                if (!d.error.empty()) j["contents_error"] = d.error;
            }
            images.push_back(std::move(j));
        }
        entry["format"] = arch::binary_format_name(file.listing.format);
        entry["containers"] = file.listing.scan.containers;
        entry["warnings"] = file.listing.scan.warnings;
        entry["images"] = std::move(images);
        if (has_device_code(file)) {
            Coverage coverage = coverage_of(file.listing.scan.images, options.driver);
            Json native = Json::array(), jit = Json::array();
            for (uint32_t sm : coverage.native) native.push_back(arch::cc_text(sm));
            for (uint32_t sm : coverage.jit) jit.push_back(arch::cc_text(sm));
            entry["runs_natively_on"] = native;
            entry["runs_by_jit_on"] = jit;
            Json verdicts = Json::array();
            for (const ArchTarget& target : options.targets) {
                auto decision = arch::decide_file(file.listing.scan.images, target_of(target, options));
                verdicts.push_back(
                    {{"target", target.label},
                     {"compute_capability", arch::cc_text(target.sm)},
                     {"verdict", arch::verdict_name(decision.verdict)},
                     {"image", decision.image ? Json(decision.image->target_name()) : Json(nullptr)},
                     {"reason", decision.reason}});
            }
            entry["verdicts"] = verdicts;
        }
        files.push_back(std::move(entry));
    }
    return {{"schema_version", "1.0.0"},
            {"driver", options.driver ? Json(options.driver->text) : Json(nullptr)},
            {"files", files},
            {"skipped_non_binaries", scan.skipped},
            {"exit_code", arch_exit_code(scan, options)}};
}

int arch_exit_code(const ScanResult& scan, const ArchOptions& options) {
    int code = 0;
    for (const ScannedFile& file : scan.files) {
        if (!file.error.empty()) return 2;
        if (!has_device_code(file)) continue;
        for (const ArchTarget& target : options.targets)
            if (arch::decide_file(file.listing.scan.images, target_of(target, options)).verdict ==
                arch::Verdict::none)
                code = 1;
    }
    return code;
}

}  // namespace strata
