#include "frameworks/framework_extensions.h"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <map>
#include <optional>
#include <set>
#include <tuple>

#include "frameworks/build_records.h"
#include "frameworks/framework_abi.h"
#include "frameworks/framework_files.h"
#include "strata/arch/dynamic.h"
#include "strata/arch/elf.h"
#include "strata/arch/fatbin.h"
#include "strata/arch/mapped_file.h"
#include "strata/arch/symbols.h"

namespace strata {

namespace {

namespace fs = std::filesystem;

const Requirement* framework_requirement(const Distribution& dist,
                                         const std::vector<std::string>& framework_names) {
    for (const Requirement& requirement : dist.metadata.requires_dist)
        if (requirement.extra.empty() && std::find(framework_names.begin(), framework_names.end(),
                                                   requirement.name) != framework_names.end())
            return &requirement;
    return nullptr;
}

// The CUDA major of a CUDA runtime soname, plain or as auditwheel renames a
// vendored copy: libcudart.so.13, libcudart-9f3c1a2b.so.12, libcudart.3eda8113.so.13.
// Read by hand: sonames come from the DT_NEEDED of files in site-packages, of
// any length, and libstdc++'s regex recurses per character it repeats.
std::string cudart_major(const std::string& name) {
    constexpr std::string_view kStem = "libcudart";
    if (name.size() > 256 || !name.starts_with(kStem)) return "";
    size_t at = kStem.size();
    auto hex = [](char c) { return std::isdigit(static_cast<unsigned char>(c)) || (c >= 'a' && c <= 'f'); };
    if (at < name.size() && (name[at] == '-' || name[at] == '.') && name.size() >= at + 9 &&
        std::all_of(name.begin() + static_cast<std::ptrdiff_t>(at + 1),
                    name.begin() + static_cast<std::ptrdiff_t>(at + 9), hex))
        at += 9;  // auditwheel's "-9f3c1a2b" or ".3eda8113"
    if (name.compare(at, 4, ".so.") != 0) return "";
    at += 4;
    size_t end = at;
    while (end < name.size() && std::isdigit(static_cast<unsigned char>(name[end]))) ++end;
    if (end == at || end - at > 3) return "";
    // What follows the major is ".minor..." or nothing.
    for (size_t i = end; i < name.size(); ++i)
        if (!std::isdigit(static_cast<unsigned char>(name[i])) && name[i] != '.') return "";
    if (end < name.size() && name[end] != '.') return "";
    return name.substr(at, end - at);
}

// What every package built on the framework, and the framework itself, puts
// at the others' disposal: the interface symbols they define, and the file
// names of their shared objects (what a DT_NEEDED entry is matched against).
struct Provided {
    std::set<std::string> symbols;
    std::set<std::string> file_names;
};

// One package as read: the extension, and what it imports from the framework.
struct ExtensionReading {
    FrameworkExtension extension;
    std::map<std::string, std::string> imports;   // symbol -> the first file of it importing it
    std::vector<MissingImport> framework_needed;  // framework sonames its files link
};

// The framework-interface symbols one shared object imports and exports, and
// the framework libraries it links (of `needed`, its DT_NEEDED).
void read_interface(const FrameworkAbi& abi, const arch::ElfFile& elf, const std::vector<std::string>& needed,
                    const std::string& file_name, ExtensionReading& reading, Provided& provided) {
    auto symbols = arch::read_dynamic_symbols(elf);
    if (!symbols) {
        reading.extension.problems.push_back(file_name + ": " + symbols.error());
        return;
    }
    for (const arch::DynamicSymbol& symbol : *symbols) {
        if (!is_framework_symbol(abi, symbol.name)) continue;
        if (symbol.defined)
            provided.symbols.emplace(symbol.name);
        else if (!symbol.weak)  // an unresolved weak reference is left null, not refused
            reading.imports.emplace(symbol.name, file_name);
    }
    for (const std::string& soname : needed)
        for (std::string_view stem : abi.library_stems)
            if (soname.starts_with(stem)) {
                reading.framework_needed.push_back({file_name, soname});
                break;
            }
}

// A file name that carries a CUDA release ("libbitsandbytes_cuda124.so",
// "libfoo_cu118.so"): the name with the release taken out, and the release.
struct CudaVariant {
    std::string family;  // "libbitsandbytes_cuda*.so"
    uint32_t major = 0, minor = 0;
};
std::optional<CudaVariant> cuda_variant(const std::string& name) {
    // The first "cuda" or "cu" followed by two or three digits and then the
    // end, a dot or an underscore. Read by hand: names come from RECORD files.
    auto digit = [&](size_t at) {
        return at < name.size() && std::isdigit(static_cast<unsigned char>(name[at]));
    };
    for (size_t at = name.find("cu"); at != std::string::npos; at = name.find("cu", at + 1)) {
        size_t start = name.compare(at, 4, "cuda") == 0 ? at + 4 : at + 2;
        size_t end = start;
        while (digit(end) && end - start < 4) ++end;
        size_t count = end - start;
        if ((count != 2 && count != 3) || digit(end)) continue;
        if (end < name.size() && name[end] != '.' && name[end] != '_') continue;
        // Two digits are major and minor (cuda92), three a two-digit major (cuda118, cuda100).
        uint32_t major = static_cast<uint32_t>(std::stoul(name.substr(start, count - 1)));
        uint32_t minor = static_cast<uint32_t>(name[end - 1] - '0');
        if (major < 8 || major > 30) continue;
        return CudaVariant{name.substr(0, start) + "*" + name.substr(end), major, minor};
    }
    return std::nullopt;
}

// The shared objects a package does not load: of each family of per-CUDA
// builds, all but the one for `framework_cuda` (bitsandbytes' rule: the file
// named for torch.version.cuda, its major and minor). Where the record gives
// only a major, the newest build of that major stands in. Fills the
// extension's cuda_variant_* fields.
std::set<std::string> unloaded_cuda_variants(const Distribution& dist, const std::string& framework_cuda,
                                             FrameworkExtension& out) {
    auto release = parse_cuda_release(framework_cuda);
    if (!release) return {};  // no record to choose by: every build is read
    std::map<std::string, std::vector<std::pair<CudaVariant, std::string>>> families;
    for (const std::string& path : dist.files) {
        if (!is_shared_library(path)) continue;
        std::string name = fs::path(path).filename().string();
        if (auto variant = cuda_variant(name)) families[variant->family].push_back({*variant, path});
    }
    std::set<std::string> unloaded;
    for (auto& [family, builds] : families) {
        if (builds.size() < 2) continue;  // one file with a release in its name is just its name
        std::sort(builds.begin(), builds.end(), [](const auto& a, const auto& b) {
            return std::tie(a.first.major, a.first.minor) < std::tie(b.first.major, b.first.minor);
        });
        const std::string* loaded = nullptr;
        for (const auto& [variant, path] : builds)
            if (variant.major == release->major && (!release->minor || variant.minor == *release->minor))
                loaded = &path;  // sorted: the newest of a bare major
        for (const auto& [variant, path] : builds)
            if (&path != loaded) unloaded.insert(path);
        if (loaded) {
            out.cuda_variant_loaded = fs::path(*loaded).filename().string() + " (of " +
                                      std::to_string(builds.size()) + " CUDA builds)";
            continue;
        }
        std::string digits = std::to_string(release->major) +
                             (release->minor ? std::to_string(*release->minor) : std::string("?"));
        out.cuda_variant_missing = family;
        out.cuda_variant_missing.replace(out.cuda_variant_missing.find('*'), 1, digits);
        out.cuda_variants_shipped.clear();
        for (const auto& [variant, path] : builds)
            out.cuda_variants_shipped += (out.cuda_variants_shipped.empty() ? "" : ", ") +
                                         std::to_string(variant.major) + "." + std::to_string(variant.minor);
    }
    return unloaded;
}

ExtensionReading read_extension(const Distribution& dist, const FrameworkAbi* abi, Provided& provided,
                                const std::string& framework_cuda) {
    ExtensionReading reading;
    FrameworkExtension& out = reading.extension;
    out.name = dist.metadata.name;
    out.version = dist.metadata.version;
    std::set<std::string> unloaded = unloaded_cuda_variants(dist, framework_cuda, out);
    std::string vendored_cudart;
    for (const std::string& path : dist.files) {
        if (!is_shared_library(path) || unloaded.count(path)) continue;
        std::string name = fs::path(path).filename().string();
        if (std::string major = cudart_major(name); !major.empty()) {
            vendored_cudart = major;
            continue;
        }
        if (is_vendored_cuda_library(path)) continue;
        auto file = arch::MappedFile::open(path);
        if (!file) {
            out.problems.push_back(path + ": " + file.error());
            continue;
        }
        if (!arch::looks_like_elf(file->bytes())) continue;
        auto elf = arch::parse_elf(file->bytes());
        if (!elf) {
            out.problems.push_back(path + ": " + elf.error());
            continue;
        }
        provided.file_names.insert(name);
        // The dynamic section once per file: the framework libraries it
        // links, and the CUDA runtime that says its CUDA major.
        auto dynamic = arch::read_dynamic(*elf);
        std::vector<std::string> needed = dynamic ? std::move(dynamic->needed) : std::vector<std::string>{};
        if (abi) read_interface(*abi, *elf, needed, name, reading, provided);
        arch::FatbinScan scan = arch::scan_elf(*elf);
        bool has_code =
            std::any_of(scan.images.begin(), scan.images.end(), [](const arch::FatbinImage& image) {
                return image.kind == arch::ImageKind::sass || image.kind == arch::ImageKind::ptx;
            });
        if (file->changed_while_read()) {
            out.problems.push_back(path + ": the file was truncated while it was read");
            continue;
        }
        if (!has_code) continue;
        out.device_code_files.push_back(path);
        if (!out.cuda_major.empty()) continue;
        for (const std::string& soname : needed)
            if (std::string major = cudart_major(soname); !major.empty()) {
                out.cuda_major = major;
                out.cuda_evidence = name + " links " + soname;
                break;
            }
    }
    if (out.cuda_major.empty() && !vendored_cudart.empty() && !out.device_code_files.empty()) {
        out.cuda_major = vendored_cudart;
        out.cuda_evidence = "its wheel carries the CUDA " + vendored_cudart + " runtime";
    }
    std::sort(out.device_code_files.begin(), out.device_code_files.end());
    return reading;
}

// Marks which of `wanted` the framework's own shared objects export. Returns
// the files that could not be read: with one of them unread, a symbol not
// found may still be there, so nothing is called missing.
std::vector<std::string> read_framework_exports(const FrameworkAbi& abi,
                                                const std::vector<const Distribution*>& framework,
                                                const std::set<std::string>& wanted, Provided& provided) {
    std::vector<std::string> unread;
    for (const Distribution* dist : framework)
        for (const std::string& path : dist->files) {
            if (!is_shared_library(path)) continue;
            auto file = arch::MappedFile::open(path);
            if (!file) {
                unread.push_back(path + ": " + file.error());
                continue;
            }
            if (!arch::looks_like_elf(file->bytes())) continue;
            provided.file_names.insert(fs::path(path).filename().string());
            if (wanted.empty()) continue;  // only the file names are needed
            auto elf = arch::parse_elf(file->bytes());
            auto symbols = elf ? arch::read_dynamic_symbols(*elf)
                               : arch::Expected<std::vector<arch::DynamicSymbol>>(arch::Error{elf.error()});
            if (!symbols) {
                unread.push_back(path + ": " + symbols.error());
                continue;
            }
            std::vector<std::string> found;
            for (const arch::DynamicSymbol& symbol : *symbols)
                if (symbol.defined && is_framework_symbol(abi, symbol.name)) {
                    std::string name(symbol.name);
                    if (wanted.count(name)) found.push_back(std::move(name));
                }
            if (file->changed_while_read()) {
                unread.push_back(path + ": the file was truncated while it was read");
                continue;
            }
            provided.symbols.insert(found.begin(), found.end());
        }
    return unread;
}

}  // namespace

std::vector<FrameworkExtension> read_framework_extensions(const std::string& framework_id,
                                                          const std::vector<const Distribution*>& framework,
                                                          const std::vector<std::string>& framework_names,
                                                          const std::vector<Distribution>& all,
                                                          const std::string& framework_cuda) {
    const FrameworkAbi* abi = framework_abi(framework_id);
    Provided provided;
    std::vector<ExtensionReading> readings;
    for (const Distribution& dist : all) {
        if (classify_distribution(dist.name) || dist.name.rfind("nvidia-", 0) == 0) continue;
        const Requirement* requirement = framework_requirement(dist, framework_names);
        if (!requirement) continue;
        if (std::any_of(readings.begin(), readings.end(), [&](const ExtensionReading& seen) {
                return seen.extension.name == dist.metadata.name;
            }))
            continue;  // a second copy further down the path is shadowed, as imports are
        // Every package built on the framework is read, with device code or
        // without: one may export what another imports.
        ExtensionReading reading = read_extension(dist, abi, provided, framework_cuda);
        reading.extension.requires_name = requirement->name;
        reading.extension.requires_specifier = requirement->specifier;
        readings.push_back(std::move(reading));
    }
    auto reported = [](const ExtensionReading& reading) {
        return !reading.extension.device_code_files.empty() || !reading.extension.problems.empty() ||
               !reading.extension.cuda_variant_missing.empty();
    };
    std::vector<std::string> unread;
    if (abi && std::any_of(readings.begin(), readings.end(), reported)) {
        std::set<std::string> wanted;
        for (const ExtensionReading& reading : readings)
            if (reported(reading))
                for (const auto& [symbol, file] : reading.imports)
                    if (!provided.symbols.count(symbol)) wanted.insert(symbol);
        unread = read_framework_exports(*abi, framework, wanted, provided);
    }
    std::vector<FrameworkExtension> out;
    for (ExtensionReading& reading : readings) {
        if (!reported(reading)) continue;
        FrameworkExtension& extension = reading.extension;
        extension.framework_imports = reading.imports.size();
        if (!unread.empty() && !reading.imports.empty()) {
            extension.problems.push_back("its imports from the framework were not checked: " +
                                         unread.front());
        } else {
            for (const auto& [symbol, file] : reading.imports)
                if (!provided.symbols.count(symbol)) extension.missing_symbols.push_back({file, symbol});
            for (const MissingImport& needed : reading.framework_needed)
                if (!provided.file_names.count(needed.name)) extension.missing_libraries.push_back(needed);
        }
        out.push_back(std::move(extension));
    }
    return out;
}

}  // namespace strata
