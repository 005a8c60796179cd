#include "explain/loader_messages.h"

#include <array>
#include <cctype>

#include "explain/text_lines.h"
#include "frameworks/framework_abi.h"

namespace strata {

namespace {

constexpr std::string_view kGlibc = "glibc dynamic loader (elf/dl-load.c, dl-lookup.c, dl-version.c)";

bool soname_char(char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.' || c == '-' || c == '+' ||
           c == '/';
}

// The path that ends just before `end` ("…/libcudnn_ops_infer.so.8: cannot open"),
// past spaces, quotes and colons, the full-width one of CJK locales ("：") included.
std::string_view path_before(std::string_view line, size_t end) {
    constexpr std::string_view kFullWidthColon = "\xEF\xBC\x9A";
    while (end > 0) {
        char c = line[end - 1];
        if (c == ' ' || c == ':' || c == '\'' || c == '"')
            --end;
        else if (end >= kFullWidthColon.size() &&
                 line.substr(end - kFullWidthColon.size(), kFullWidthColon.size()) == kFullWidthColon)
            end -= kFullWidthColon.size();
        else
            break;
    }
    size_t start = end;
    while (start > 0 && soname_char(line[start - 1])) --start;
    return line.substr(start, end - start);
}

// The file name alone of path_before.
std::string_view name_before(std::string_view line, size_t end) {
    std::string_view path = path_before(line, end);
    if (size_t slash = path.rfind('/'); slash != std::string_view::npos) path = path.substr(slash + 1);
    return path;
}

// The first whitespace-delimited word after `start`, without quotes and commas.
std::string_view word_after(std::string_view line, size_t start) {
    while (start < line.size() && (line[start] == ' ' || line[start] == '"' || line[start] == '\'')) ++start;
    size_t end = start;
    while (end < line.size() && line[end] != ' ' && line[end] != ',' && line[end] != '"' && line[end] != '\'')
        ++end;
    return line.substr(start, end - start);
}

// The library named after `start`: an optional "library" word, quotes or a
// brace, then a name or a path (with Windows' backslashes, or quoted with
// spaces); the base name, without trailing punctuation.
std::string_view library_after(std::string_view line, size_t start) {
    while (start < line.size() && (line[start] == ' ' || line[start] == ':')) ++start;
    if (line.substr(start, 8) == "library " || line.substr(start, 8) == "Library ") start += 8;
    while (start < line.size() && (line[start] == ' ' || line[start] == '{')) ++start;
    std::string_view name;
    if (start < line.size() && (line[start] == '"' || line[start] == '\'')) {
        size_t close = line.find(line[start], start + 1);
        name = line.substr(start + 1,
                           close == std::string_view::npos ? std::string_view::npos : close - start - 1);
    } else {
        size_t end = start;
        while (end < line.size() && line[end] != ' ' && line[end] != ',' && line[end] != '}') ++end;
        name = line.substr(start, end - start);
    }
    while (!name.empty() &&
           (name.back() == ':' || name.back() == '.' || name.back() == ')' || name.back() == ';'))
        name.remove_suffix(1);
    if (size_t slash = name.find_last_of("/\\"); slash != std::string_view::npos)
        name.remove_prefix(slash + 1);
    return name;
}

// glibc's words, also as its translations print them: zh_CN "无法打开共享对象文件",
// de "Kann die Shared-Object-Datei nicht öffnen", fr "Ne peut ouvrir le fichier d'objet
// partagé", es, ja "共有オブジェクトファイルを開けません", ko "공유 객체 파일을 열 수 없습니다".
// Last, prose and Windows' own order ("nvcuda.dll not found").
constexpr std::array<std::string_view, 11> kMissingPhrases = {
    "cannot open shared object file",
    ": not found",
    "=> not found",
    " is not found or cannot be loaded",
    "\u65e0\u6cd5\u6253\u5f00\u5171\u4eab\u5bf9\u8c61\u6587\u4ef6",
    "kann die shared-object-datei nicht",
    "ne peut ouvrir le fichier d'objet partag",
    "no se puede abrir el archivo del objeto compartido",
    "\u5171\u6709\u30aa\u30d6\u30b8\u30a7\u30af\u30c8\u30d5\u30a1\u30a4\u30eb\u3092\u958b\u3051\u307e"
    "\u305b\u3093",
    "\uacf5\uc720 \uac1d\uccb4 \ud30c\uc77c\uc744 \uc5f4 \uc218 \uc5c6\uc2b5\ub2c8\ub2e4",
    " not found"};
constexpr std::array<std::string_view, 24> kLibraryAfterPhrases = {"can't open shared object file",
                                                                   "cannot open shared object file",
                                                                   "failed to dlopen",
                                                                   "unable to dlopen",
                                                                   "could not dlopen",
                                                                   "couldn't dlopen",
                                                                   "cannot dlopen",
                                                                   "could not load library",
                                                                   "unable to load library",
                                                                   "failed to load library",
                                                                   "cannot load library",
                                                                   "unable to load any of",
                                                                   "error loading",
                                                                   "could not find module",
                                                                   "failed to open",
                                                                   "couldn't open cuda library",
                                                                   "could not open cuda library",
                                                                   "couldn't open library",
                                                                   "could not open library",
                                                                   "the library name used was",
                                                                   "could not load",
                                                                   "failed to load",
                                                                   "unable to load",
                                                                   "cannot load"};
constexpr std::array<std::string_view, 2> kStemPhrases = {"dynamically load the \"", "unable to find "};
constexpr std::array<std::string_view, 9> kSymbolPhrases = {
    "undefined symbol",      "procedure entry point", "symbol lookup for",
    "could not find symbol", "failed to find symbol", "unable to find symbol",
    "could not load symbol", "failed to load symbol", "cannot load symbol"};
constexpr std::array<std::string_view, 3> kNotALibraryPhrases = {"wrong elf class", "invalid elf header",
                                                                 "file too short"};
constexpr std::string_view kUndefinedReference = "undefined reference to `";
constexpr std::string_view kLinkTimeReference = "with link time reference";
constexpr std::string_view kVersionNotFound = "' not found (required by";

Finding loader_finding(std::string_view id, std::string_view failure_class, Layer layer, int specificity,
                       std::string matched, std::string meaning) {
    Finding f;
    f.kind = "loader";
    f.id = std::string(id);
    f.failure_class = std::string(failure_class);
    f.layer = layer;
    f.specificity = specificity;
    f.matched = std::move(matched);
    f.meaning = std::move(meaning);
    f.source = std::string(kGlibc);
    return f;
}

void missing_library(std::string_view soname, std::vector<Finding>& out, std::string matched) {
    std::string name(soname);
    std::string_view owner = soname_owner(soname);
    if (owner == "driver" && lower_ascii(soname) == "libcuda.so") {
        // The unversioned name: what Triton links (-lcuda) and cudarc, older
        // cuda-python and bitsandbytes dlopen. Driver-only installs (containers,
        // WSL) have libcuda.so.1 alone, so the same words come from a machine
        // whose driver works; decider_context re-reads it when the log shows so.
        out.push_back(loader_finding(
            "loader.unversioned_libcuda_missing", "driver_missing", Layer::driver, 82, matched,
            "the unversioned libcuda.so cannot be loaded: either no NVIDIA driver is installed, or only its "
            "libcuda.so.1 is (containers, WSL and driver-only images), and this program asks for the "
            "unversioned name; `strata doctor` tells which (driver.libcuda, driver.libcuda_unversioned)"));
    } else if (owner == "driver") {
        out.push_back(
            loader_finding("loader.driver_library_missing", "driver_missing", Layer::driver, 82, matched,
                           name + " is part of the NVIDIA driver and cannot be loaded: no driver is "
                                  "installed, or its user-mode libraries are not on the loader's path"));
    } else if (owner == "cuda_library") {
        out.push_back(loader_finding("loader.cuda_library_missing", "missing_or_mismatched_shared_library",
                                     Layer::library, 78, matched,
                                     name +
                                         " is a CUDA library the program needs and the loader cannot find it "
                                         "(not installed, or not on the search path)"));
    } else {
        out.push_back(loader_finding("loader.library_missing", "other", Layer::host, 45, matched,
                                     name + " cannot be loaded; it is not part of the CUDA stack"));
    }
}

void undefined_symbol(std::string_view symbol, std::string_view line_lower, std::vector<Finding>& out,
                      std::string matched) {
    std::string name(symbol);
    if (symbol.starts_with("nccl") || symbol.starts_with("pnccl")) {
        out.push_back(loader_finding(
            "loader.nccl_symbol", "nccl_or_cudnn_version_mismatch", Layer::library, 84, matched,
            name + " is an NCCL function the loaded libnccl lacks: an older NCCL than the "
                   "program was built against was loaded"));
    } else if (is_framework_symbol(*framework_abi("torch"), symbol)) {
        // c10::, at::, torch:: (and their vtables, thunks, the C shim) -
        // PyTorch's own interface, which changes between releases.
        out.push_back(loader_finding(
            "loader.torch_abi_symbol", "missing_or_mismatched_shared_library", Layer::library, 80, matched,
            name + " is part of PyTorch's C++ API: this extension was built against another PyTorch release; "
                   "install (or rebuild) it for this one (`strata frameworks` names every symbol each "
                   "installed package imports that this PyTorch lacks)"));
    } else if (symbol.starts_with("cudnn")) {
        out.push_back(loader_finding("loader.cudnn_symbol", "nccl_or_cudnn_version_mismatch", Layer::library,
                                     84, matched, name + " is a cuDNN function the loaded libcudnn lacks"));
    } else if (symbol.size() > 2 && symbol[0] == 'c' && symbol[1] == 'u' &&
               std::isupper(static_cast<unsigned char>(symbol[2]))) {
        out.push_back(
            loader_finding("loader.driver_symbol", "driver_too_old_for_runtime", Layer::runtime, 84, matched,
                           name + " is a driver API entry point the installed libcuda lacks: the driver is "
                                  "older than the program"));
    } else if (symbol.find("nvJitLink") != std::string_view::npos ||
               symbol.find("cublas") != std::string_view::npos ||
               symbol.find("cusparse") != std::string_view::npos ||
               symbol.find("cufft") != std::string_view::npos ||
               symbol.find("cusolver") != std::string_view::npos ||
               symbol.find("curand") != std::string_view::npos ||
               symbol.find("nvrtc") != std::string_view::npos || symbol.starts_with("cuda") ||
               symbol.starts_with("__nv")) {
        out.push_back(loader_finding(
            "loader.cuda_symbol", "missing_or_mismatched_shared_library", Layer::library, 80, matched,
            name + " is missing from the CUDA library that was loaded: a copy from another "
                   "CUDA release was picked up"));
    } else if (line_lower.find("cuda") != std::string_view::npos ||
               line_lower.find("torch") != std::string_view::npos ||
               line_lower.find("nvidia") != std::string_view::npos) {
        out.push_back(loader_finding("loader.symbol", "missing_or_mismatched_shared_library", Layer::library,
                                     55, matched,
                                     name + " is missing: a library was built against another version of "
                                            "a library it loads"));
    } else {
        out.push_back(loader_finding("loader.symbol", "other", Layer::host, 40, matched,
                                     name + " is missing from a library outside the CUDA stack"));
    }
}

// Whether the words before a loader failure say cuDNN was loading one of its
// sub-libraries ("Could not load library libcudnn_cnn_infer.so.8. Error: …").
bool cudnn_loading(std::string_view lower_before) {
    size_t load = lower_before.rfind("load");
    return load != std::string_view::npos && lower_before.find("cudnn", load) != std::string_view::npos;
}

// cuDNN 8's libcudnn_cnn_infer (and its siblings) need the unversioned
// libcuda.so. cuDNN loads them on its first convolution, after the framework
// has created a CUDA context through libcuda.so.1, so the driver works: only
// the name is missing, as on WSL (/usr/lib/wsl/lib has libcuda.so.1 in the
// loader cache alone) and in containers the runtime mounts the driver into.
void cudnn_needs_unversioned_libcuda(std::vector<Finding>& out, std::string matched) {
    out.push_back(loader_finding(
        "loader.cudnn_unversioned_libcuda", "missing_or_mismatched_shared_library", Layer::driver, 84,
        std::move(matched),
        "a cuDNN sub-library needs the unversioned libcuda.so; the program had already used the GPU "
        "through libcuda.so.1, so the driver works and only that name is missing (WSL: "
        "/usr/lib/wsl/lib; containers that mount the driver): link libcuda.so to libcuda.so.1 in the "
        "driver's directory, or put that directory on LD_LIBRARY_PATH"));
}

// The package a CUDA library ships in, by its name: libcublasLt and libcublas
// are both cuBLAS, every libcudnn_* is cuDNN, libnvrtc-builtins is NVRTC.
// Empty for a name outside the CUDA math libraries. cuSPARSELt comes before
// cuSPARSE: it ships apart from it, so a prefix must not join them.
std::string_view cuda_package(std::string_view soname) {
    static constexpr std::array<std::string_view, 15> kPackages = {
        "cublas", "cudnn",  "cufft",     "curand", "cusolver", "cusparselt", "cusparse", "nvrtc",
        "npp",    "nvjpeg", "nvjitlink", "cudart", "nccl",     "cupti",      "nvinfer"};
    std::string lower = lower_ascii(soname);
    if (!lower.starts_with("lib")) return {};
    std::string_view stem = std::string_view(lower).substr(3);
    for (std::string_view package : kPackages)
        if (stem.starts_with(package)) return package;
    return {};
}

// glibc's "<caller>: undefined symbol: X, version Y" where the caller and Y
// are libraries of one package (libcublas.so.11 and libcublasLt.so.11, two
// cuDNN sub-libraries). A package ships its libraries together and the caller
// sits beside its own matching Y, so a Y without X is another copy of Y that
// came first in the search: a toolkit or an image's cuBLAS ahead of a pip
// wheel's. Between packages (cuSPARSE needing a newer nvJitLink) the version
// installed is what is wrong, which the finding of the symbol already says.
void sibling_symbol_version(std::string_view line, size_t phrase_at, size_t symbol_end,
                            std::vector<Finding>& out) {
    constexpr std::string_view kVersion = ", version ";
    if (line.substr(symbol_end, kVersion.size()) != kVersion) return;
    std::string_view versioned_by = word_after(line, symbol_end + kVersion.size());
    std::string_view caller = name_before(line, phrase_at);
    std::string_view package = cuda_package(caller);
    if (package.empty() || package != cuda_package(versioned_by)) return;
    std::string library(versioned_by);
    out.push_back(loader_finding(
        "loader.sibling_copy", "wrong_library_via_LD_LIBRARY_PATH", Layer::library, 86,
        std::string(caller) + ": undefined symbol, version " + library,
        std::string(caller) + " ships beside its own " + library + ", but another copy of " + library +
            " (another release) was found first: a toolkit, an image's copy or LD_LIBRARY_PATH ahead of the "
            "package's directory; `ldd` on " +
            std::string(caller) + " shows which copy wins"));
}

// A driver library by its name (soname_owner), or by where Jetson's driver
// lives: L4T's tegra/ and JetPack 6's aarch64-linux-gnu/nvidia/ directories,
// whose libraries (libnvrm_*, libnvdla_*, libnvos) the runtime mounts.
// The file name of a lower-cased path.
std::string_view file_name(std::string_view lower_path) {
    size_t slash = lower_path.rfind('/');
    return slash == std::string_view::npos ? lower_path : lower_path.substr(slash + 1);
}

bool is_driver_library_path(std::string_view path) {
    std::string lower = lower_ascii(path);
    std::string_view name = file_name(lower);
    if (soname_owner(name) == "driver") return true;
    for (std::string_view prefix : {"libnvrm", "libnvdla", "libnvos"})
        if (name.starts_with(prefix)) return true;
    return lower.find("/tegra/") != std::string::npos ||
           lower.find("aarch64-linux-gnu/nvidia/") != std::string::npos;
}

// A CUDA library (cuDNN, TensorRT, the toolkit's) at the place JetPack's
// runtime mounts it from the device (/usr/lib/aarch64-linux-gnu,
// /usr/local/cuda*/targets/aarch64-linux).
bool is_jetson_mounted_library(std::string_view path) {
    std::string lower = lower_ascii(path);
    if (soname_owner(file_name(lower)) != "cuda_library") return false;
    return lower.find("/aarch64-linux-gnu/") != std::string::npos ||
           lower.find("targets/aarch64-linux/") != std::string::npos;
}

bool names_library(std::string_view soname) {
    return soname.find(".so") != std::string_view::npos || soname.find(".dll") != std::string_view::npos;
}

}  // namespace

std::string_view soname_owner(std::string_view soname) {
    static constexpr std::array kDriver = {"libcuda.so", "libnvidia-", "libnvcuvid", "libcuda-",
                                           "libnvoptix"};
    static constexpr std::array kCuda = {"libcudart",
                                         "libcublas",
                                         "libcudnn",
                                         "libnccl",
                                         "libcufft",
                                         "libcurand",
                                         "libcusolver",
                                         "libcusparse",
                                         "libnvrtc",
                                         "libnvjitlink",
                                         "libnvtoolsext",
                                         "libcupti",
                                         "libnvshmem",
                                         "libcutensor",
                                         "libnvinfer",
                                         "libnvonnxparser",
                                         "libonnxruntime_providers_cuda",
                                         "libnpp",
                                         "libnvjpeg",
                                         "libcufile",
                                         "libtorch_cuda",
                                         "libc10_cuda",
                                         "libnvblas",
                                         "libcudla",
                                         "libnvptxcompiler",
                                         "libnvvm",
                                         "libcuda_"};
    std::string lower = lower_ascii(soname);
    // Windows names the same libraries without "lib": nvcuda.dll and nvml.dll
    // are the driver's, cudart64_12.dll or cudnn_ops_infer64_8.dll the toolkit's.
    if (lower.ends_with(".dll")) {
        if (lower.starts_with("nvcuda") || lower.starts_with("nvml") || lower.starts_with("nvapi"))
            return "driver";
        lower.insert(0, "lib");
    }
    for (const char* prefix : kDriver)
        if (lower.starts_with(prefix)) return "driver";
    for (const char* prefix : kCuda)
        if (lower.starts_with(prefix)) return "cuda_library";
    return "other";
}

void find_loader_messages(std::string_view line, std::string_view lower, std::vector<Finding>& out) {
    for (std::string_view phrase : kMissingPhrases) {
        size_t at = lower.find(phrase);
        if (at == std::string_view::npos) continue;
        std::string_view soname = name_before(line, at);
        if (!names_library(soname)) continue;
        std::string matched(
            line.substr(at - std::min(at, soname.size() + 2), soname.size() + 2 + phrase.size()));
        if (lower_ascii(soname) == "libcuda.so" && cudnn_loading(lower.substr(0, at)))
            cudnn_needs_unversioned_libcuda(out, std::move(matched));
        else
            missing_library(soname, out, std::move(matched));
        break;
    }
    // The library named after the words: the glibc failure retold ("Can't
    // open shared object file libcuda.so.1"), loaders' own words around dlopen
    // ("Failed to dlopen libcuda.so" from cuda-python, "could not dlopen
    // library 'libcudart.so.11.0'"), cuDNN's sub-library loader ("Could not
    // load library cudnn_ops_infer64_8.dll. Error code 126", "Unable to load
    // any of {libcudnn_ops.so.9.1.0, …}") and Windows' loader as Python
    // reports it ("Error loading \"C:\\…\\cudnn_adv_infer64_8.dll\""), MATLAB's
    // ("The library name used was 'nvcuda.dll'") and, last, the bare verbs
    // before a quoted file ('Could not load "nvrtc64_70.dll"').
    for (std::string_view phrase : kLibraryAfterPhrases) {
        size_t at = lower.find(phrase);
        if (at == std::string_view::npos) continue;
        // glibc's own order ("libX.so: cannot open shared object file") is read above.
        if (phrase.ends_with("shared object file") && names_library(name_before(line, at))) continue;
        std::string_view soname = library_after(line, at + phrase.size());
        if (!names_library(soname)) continue;
        missing_library(soname, out, std::string(line.substr(at, phrase.size())) + " " + std::string(soname));
        break;
    }
    // cudarc (Rust) names a library by its stem: 'Unable to dynamically load
    // the "cuda" shared library', 'Unable to find cuda lib under the names'.
    for (std::string_view phrase : kStemPhrases) {
        size_t at = lower.find(phrase);
        if (at == std::string_view::npos) continue;
        size_t start = at + phrase.size();
        size_t end = start;
        while (end < lower.size() &&
               (std::isalnum(static_cast<unsigned char>(lower[end])) || lower[end] == '_'))
            ++end;
        std::string_view rest = lower.substr(end);
        bool cudarc =
            phrase.front() == 'd' ? rest.starts_with("\" shared library") : rest.starts_with(" lib under");
        if (end == start || !cudarc) continue;
        std::string soname = "lib" + std::string(lower.substr(start, end - start)) + ".so";
        missing_library(soname, out, std::string(line.substr(at, end - at)));
        break;
    }
    // A symbol the loaded library lacks, in glibc's words ("undefined symbol:
    // cuGetProcAddress_v2"), Windows' ("The procedure entry point X could not
    // be located"), and those of programs that dlsym for themselves (ollama:
    // "symbol lookup for cuCtxCreate_v3 failed").
    for (std::string_view phrase : kSymbolPhrases) {
        size_t at = lower.find(phrase);
        if (at == std::string_view::npos) continue;
        size_t start = at + phrase.size();
        while (start < line.size() && (line[start] == ':' || line[start] == ' ')) ++start;
        std::string_view symbol = word_after(line, start);
        if (symbol.empty()) continue;
        undefined_symbol(symbol, lower, out, std::string(line.substr(at, start - at)) + std::string(symbol));
        sibling_symbol_version(line, at, start + symbol.size(), out);
        break;
    }
    // The static linker's "undefined reference to `cublasLtGetStatusString@libcublasLt.so.11'":
    // a library was linked against a versioned symbol its sibling here lacks.
    if (size_t at = lower.find(kUndefinedReference); at != std::string_view::npos) {
        size_t start = at + 24;
        size_t end = line.find_first_of("'`", start);
        std::string_view reference = line.substr(start, end == std::string_view::npos ? 0 : end - start);
        size_t version = reference.find('@');
        if (version != std::string_view::npos) {
            std::string_view library = reference.substr(version + 1);
            while (!library.empty() && library.front() == '@') library.remove_prefix(1);
            if (soname_owner(library) == "cuda_library")
                out.push_back(loader_finding(
                    "loader.versioned_reference", "missing_or_mismatched_shared_library", Layer::library, 76,
                    "undefined reference to `" + std::string(reference) + "'",
                    std::string(library) + " here is another build than the one " +
                        std::string(reference.substr(0, version)) +
                        "'s caller was linked against (two CUDA releases, or a stale link)"));
        }
    }
    // "symbol X version Y not defined in file Z with link time reference"
    // (dl-lookup.c): Z was found, so nothing is missing; it is another build
    // of Z than the caller was linked against. Two builds of one soname on
    // one machine (two toolkits, a toolkit beside a pip wheel) and the search
    // order picking the wrong one: the threads behind three public reports
    // established exactly that (P41, P42, Y18).
    if (size_t at = lower.find(kLinkTimeReference); at != std::string_view::npos) {
        std::string_view file;
        if (size_t in = lower.rfind("not defined in file ", at); in != std::string_view::npos)
            file = word_after(line, in + 20);
        std::string copy = file.empty() ? std::string("the dependency") : std::string(file);
        out.push_back(loader_finding(
            "loader.link_time_reference", "wrong_library_via_LD_LIBRARY_PATH", Layer::library, 76,
            "not defined in file " + (file.empty() ? std::string("…") : copy) + " with link time reference",
            "the loader found a copy of " + copy +
                " from another build than the one its caller was linked with: two copies on this machine "
                "(two CUDA releases, a toolkit beside a pip wheel), and the search order picked the wrong "
                "one"));
    }
    // "version `GLIBCXX_3.4.30' not found (required by …)" (dl-version.c)
    if (size_t at = lower.find(kVersionNotFound); at != std::string_view::npos) {
        size_t open = lower.rfind('`', at);
        if (open == std::string_view::npos) open = lower.rfind('\'', at - 1);
        std::string_view version = open == std::string_view::npos ? "" : line.substr(open + 1, at - open - 1);
        bool system_runtime = version.starts_with("GLIBC") || version.starts_with("CXXABI");
        out.push_back(loader_finding(
            "loader.version_not_found", system_runtime ? "other" : "missing_or_mismatched_shared_library",
            system_runtime ? Layer::host : Layer::library, system_runtime ? 70 : 76,
            "version `" + std::string(version) + "' not found",
            system_runtime ? "the program was built against a newer C/C++ runtime (" + std::string(version) +
                                 ") than this system (or the environment's libstdc++) provides"
                           : "a library needs version " + std::string(version) +
                                 " of a dependency and got an older copy"));
    }
    for (std::string_view phrase : kNotALibraryPhrases) {
        size_t at = lower.find(phrase);
        if (at == std::string_view::npos) continue;
        std::string_view path = path_before(line, at);
        // A 32-bit copy ("wrong ELF class") is one the loader tries and passes
        // over on a multilib host; an empty or foreign file is the placeholder.
        if (phrase != "wrong elf class" && is_driver_library_path(path)) {
            std::string name(name_before(line, at));
            out.push_back(loader_finding(
                "loader.driver_library_unusable", "driver_missing", Layer::driver, 80,
                name + ": " + std::string(phrase),
                name +
                    " belongs to the NVIDIA driver, and the file under its name is empty or not a library: "
                    "where a container runtime provides the driver, it did not mount the host's libraries "
                    "over the image's placeholders (Jetson images ship empty ones; `docker commit` of a "
                    "running GPU container bakes empty copies in); on a host, the driver install is "
                    "broken: reinstall it"));
        } else {
            Finding f = loader_finding(
                "loader.not_a_library", "missing_or_mismatched_shared_library", Layer::library, 60,
                std::string(phrase),
                "the file found under the library's name is not a loadable library for this machine "
                "(32/64-bit, truncated, or a text file standing in for it)");
            // Jetson images carry empty placeholders for the CUDA, cuDNN and
            // TensorRT libraries the NVIDIA runtime mounts from the device
            // (its CSV mount lists): an empty one seen in a container was
            // never mounted over.
            if (phrase == "file too short" && is_jetson_mounted_library(path))
                f.failure_class_in_container = "container_device_not_exposed";
            out.push_back(std::move(f));
        }
        break;
    }
}

std::vector<std::string_view> loader_message_words() {
    std::vector<std::string_view> out(kMissingPhrases.begin(), kMissingPhrases.end());
    out.insert(out.end(), kLibraryAfterPhrases.begin(), kLibraryAfterPhrases.end());
    out.insert(out.end(), kStemPhrases.begin(), kStemPhrases.end());
    out.insert(out.end(), kSymbolPhrases.begin(), kSymbolPhrases.end());
    out.insert(out.end(), kNotALibraryPhrases.begin(), kNotALibraryPhrases.end());
    out.insert(out.end(), {kUndefinedReference, kLinkTimeReference, kVersionNotFound});
    return out;
}

}  // namespace strata
