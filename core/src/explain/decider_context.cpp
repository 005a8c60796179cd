#include "explain/decider_context.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <tuple>

#include "explain/status_codes.h"
#include "explain/text_lines.h"
#include "strata/arch/tables.h"

namespace strata {

namespace {

constexpr std::array<std::string_view, 3> kToolkitWords = {"cuda compilation tools, release ",
                                                           "cudatoolkit=", "cudatoolkit "};
// Words of programs that compile device code at run time (a JIT or ptxas).
constexpr std::array<std::string_view, 8> kCompilers = {"jax",    "xla",  "ptxas", "nvrtc",
                                                        "triton", "cupy", "numba", "nvlink"};

bool path_char(char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.' || c == '-' || c == '+' ||
           c == '/';
}

// The path around `at` in `line` ("/usr/local/cuda-13.0/compat/libcuda.so.1").
std::string_view path_around(std::string_view line, size_t at) {
    size_t start = at;
    while (start > 0 && path_char(line[start - 1])) --start;
    size_t end = at;
    while (end < line.size() && path_char(line[end])) ++end;
    return line.substr(start, end - start);
}

// The value assigned to CUDA_VISIBLE_DEVICES on this line, when the line
// assigns one: `CUDA_VISIBLE_DEVICES=1 python …`, `export
// CUDA_VISIBLE_DEVICES=""`, `os.environ["CUDA_VISIBLE_DEVICES"] = "-1"`,
// `CUDA_VISIBLE_DEVICES: NoDevFiles`.
std::optional<std::string_view> assigned_visible_devices(std::string_view line, std::string_view lower) {
    constexpr std::string_view kVariable = "cuda_visible_devices";
    for (size_t at = lower.find(kVariable); at != std::string_view::npos;
         at = lower.find(kVariable, at + 1)) {
        // "$CUDA_VISIBLE_DEVICES", "${CUDA_VISIBLE_DEVICES:-0}": a use, not an assignment.
        if (at > 0 && (line[at - 1] == '$' || line[at - 1] == '{')) continue;
        size_t pos = at + kVariable.size();
        auto skip = [&](std::string_view chars) {
            while (pos < line.size() && chars.find(line[pos]) != std::string_view::npos) ++pos;
        };
        skip("\"']");
        bool spaced = pos < line.size() && (line[pos] == ' ' || line[pos] == '\t');
        skip(" \t");
        if (pos >= line.size() || (line[pos] != '=' && line[pos] != ':')) continue;
        bool shell = line[pos] == '=' && !spaced;
        ++pos;
        if (pos < line.size() && line[pos] == '=') continue;  // a comparison, "=="
        bool space_after = pos >= line.size() || line[pos] == ' ' || line[pos] == '\t';
        skip(" \t");
        if (pos < line.size() && (line[pos] == '"' || line[pos] == '\'')) {
            char quote = line[pos++];
            size_t close = line.find(quote, pos);
            if (close == std::string_view::npos) continue;
            return line.substr(pos, close - pos);
        }
        // In a shell, "VAR= cmd" assigns the empty string.
        if (shell && space_after) return line.substr(pos, 0);
        // A command substitution (`…` or $(…)) is a value computed at run time.
        size_t end = pos < line.size() && line[pos] == '`' ? pos + 1 : pos;
        while (end < line.size() && !std::isspace(static_cast<unsigned char>(line[end])) &&
               line[end] != ';' && line[end] != '`' && line[end] != ')' && line[end] != '"' &&
               line[end] != '\'')
            ++end;
        if (end == pos && !shell) continue;  // "CUDA_VISIBLE_DEVICES:" as a heading
        return line.substr(pos, end - pos);
    }
    return std::nullopt;
}

// Whether a CUDA_VISIBLE_DEVICES value selects no GPU. CUDA reads the list up
// to its first invalid entry, so "-1" and words select none; an unexpanded
// "$VAR" selects none wherever the variable is empty.
bool selects_no_gpu(std::string_view value) {
    // "${GPU:-0}" falls back to its default where the variable is unset.
    if (value.starts_with("${")) {
        size_t fallback = value.find(":-");
        size_t close = value.find('}');
        if (fallback != std::string_view::npos && close != std::string_view::npos && fallback < close)
            return selects_no_gpu(value.substr(fallback + 2, close - fallback - 2));
    }
    if (value.empty() || value.front() == '-' || value.front() == '$' || value.front() == '`') return true;
    std::string lower = lower_ascii(value);
    return lower == "none" || lower == "nodevfiles" || lower == "void";
}

bool is_no_device(const Finding& decider) {
    if (decider.code)
        return decider.code->number == 100 && (decider.code->family == StatusFamily::cuda_runtime ||
                                               decider.code->family == StatusFamily::cuda_driver);
    return decider.id == "cuda.no_capable_device" || decider.id == "pytorch.no_gpus";
}

bool is_driver_mismatch(const Finding& decider) {
    return decider.code && decider.code->number == 803 &&
           (decider.code->family == StatusFamily::cuda_runtime ||
            decider.code->family == StatusFamily::cuda_driver);
}

Finding context_finding(const Finding& decider, std::string_view id, std::string_view failure_class,
                        Layer layer, std::string matched, std::string line_text, size_t line,
                        std::string meaning, std::string source) {
    Finding f;
    f.kind = "context";
    f.id = std::string(id);
    f.failure_class = std::string(failure_class);
    f.layer = layer;
    f.specificity = std::min(99, decider.specificity + 1);
    f.line = line;
    f.matched = std::move(matched);
    f.line_text = std::move(line_text);
    f.meaning = std::move(meaning);
    f.source = std::move(source) + ", with the error on line " + std::to_string(decider.line);
    return f;
}

// A path that puts cuda-compat's libcuda in the loader's way: the library
// itself ("/usr/local/cuda-12.4/compat/libcuda.so.1" in ldconfig or ldd
// output), or its directory on a search path ("/usr/local/cuda/compat").
std::optional<std::string_view> compat_path(std::string_view line, std::string_view lower) {
    // Each path is judged once and the search goes on after it: a line that is
    // one long run of "compat" must not cost a scan of the run per occurrence.
    for (size_t at = lower.find("compat"); at != std::string_view::npos;) {
        std::string_view path = path_around(line, at);
        size_t after = static_cast<size_t>(path.data() - line.data()) + path.size();
        at = lower.find("compat", std::max(after, at + 1));
        std::string path_lower = lower_ascii(path);
        if (path.empty() || path.front() != '/') continue;
        bool library = path_lower.find("compat/libcuda.so") != std::string::npos;
        bool directory = path_lower.find("cuda") != std::string::npos &&
                         (path_lower.ends_with("/compat") || path_lower.ends_with("/compat/"));
        if (library || directory || path_lower.find("cuda-compat") != std::string::npos) return path;
    }
    return std::nullopt;
}

// Where the line shows the driver's libcuda present: a path to libcuda.so.1
// (or libcuda.so.<version>) that the loader resolved ("libcuda.so.1
// (libc6,x86-64) => /usr/lib/x86_64-linux-gnu/libcuda.so.1", ldd's "=>"), a
// handle ctypes returned ("<CDLL 'libcuda.so.1', handle …>"), TensorFlow's
// "Successfully opened dynamic library libcuda.so.1", or WSL's driver
// directory. The toolkit's stub and "=> not found" do not count.
std::optional<std::string_view> libcuda_present(std::string_view line, std::string_view lower) {
    if (lower.find("libcuda.so") == std::string_view::npos &&
        lower.find("/usr/lib/wsl/lib") == std::string_view::npos)
        return std::nullopt;
    if (lower.find("not found") != std::string_view::npos || lower.find("cannot") != std::string_view::npos ||
        lower.find("no such file") != std::string_view::npos ||
        lower.find("/stubs/") != std::string_view::npos)
        return std::nullopt;
    if (size_t at = lower.find("/usr/lib/wsl/lib"); at != std::string_view::npos)
        return path_around(line, at);
    size_t arrow = lower.find("=>");
    for (size_t at = lower.find("libcuda.so."); at != std::string_view::npos;) {
        std::string_view path = path_around(line, at);
        size_t next = lower.find(
            "libcuda.so.", std::max(at + 1, static_cast<size_t>(path.data() - line.data()) + path.size()));
        bool versioned = at + 11 < lower.size() && std::isdigit(static_cast<unsigned char>(lower[at + 11]));
        std::string_view before = lower.substr(0, at);
        bool resolved = arrow < at && path.starts_with("/");
        bool handle = before.ends_with("<cdll '") || before.ends_with("<cdll \"");
        bool opened = before.ends_with("successfully opened dynamic library ");
        if (versioned && (resolved || handle || opened)) return path;
        at = next;
    }
    return std::nullopt;
}

// "X.Y" at `at` (digits, a dot, digits), its two numbers and its length.
struct DottedPair {
    uint32_t major = 0, minor = 0;
    size_t length = 0;
};
std::optional<DottedPair> dotted_pair(std::string_view text, size_t at) {
    DottedPair out;
    size_t pos = at;
    auto number = [&](uint32_t& value) {
        size_t start = pos;
        while (pos < text.size() && pos - start < 4 && std::isdigit(static_cast<unsigned char>(text[pos])))
            value = value * 10 + static_cast<uint32_t>(text[pos++] - '0');
        return pos > start;
    };
    if (!number(out.major) || pos >= text.size() || text[pos] != '.') return std::nullopt;
    ++pos;
    if (!number(out.minor)) return std::nullopt;
    out.length = pos - at;
    return out;
}

// The CUDA toolkit release a line shows: nvcc's "Cuda compilation tools,
// release 11.7", a toolkit directory or package "cuda-11.6.2" (not the
// cuda-compat one beside it), conda's "cudatoolkit=11.7" or `conda list`'s
// "cudatoolkit               11.3.1   h2bc3f7f_2".
std::optional<DottedPair> toolkit_release(std::string_view lower, size_t& where) {
    for (std::string_view word : kToolkitWords) {
        size_t at = lower.find(word);
        if (at == std::string_view::npos) continue;
        size_t pos = lower.find_first_not_of(' ', at + word.size());
        if (pos == std::string_view::npos) continue;
        if (auto pair = dotted_pair(lower, pos)) {
            where = pos;
            return pair;
        }
    }
    for (size_t at = lower.find("cuda-"); at != std::string_view::npos; at = lower.find("cuda-", at + 1)) {
        if (at > 0 && std::isalnum(static_cast<unsigned char>(lower[at - 1]))) continue;
        auto pair = dotted_pair(lower, at + 5);
        if (!pair || pair->major < 7 || pair->major > 30) continue;
        if (lower.substr(at + 5 + pair->length).starts_with("/compat")) continue;
        where = at + 5;
        return pair;
    }
    return std::nullopt;
}

// The newest CUDA the driver supports, as a line shows it: nvidia-smi's
// header ("Driver Version: 470.82.01    CUDA Version: 11.4"), or a driver
// version in words ("driver version 470", "Driver Version: 525.85.05").
std::optional<DottedPair> driver_cuda_release(std::string_view lower, size_t& where) {
    size_t driver = lower.find("driver version");
    if (driver == std::string_view::npos) return std::nullopt;
    if (size_t at = lower.find("cuda version:", driver); at != std::string_view::npos) {
        size_t pos = lower.find_first_not_of(' ', at + 13);
        if (pos != std::string_view::npos) {
            if (auto pair = dotted_pair(lower, pos)) {
                where = pos;
                return pair;
            }
        }
    }
    size_t pos = lower.find_first_not_of(" :", driver + 14);
    if (pos == std::string_view::npos) return std::nullopt;
    size_t end = pos;
    while (end < lower.size() && (std::isdigit(static_cast<unsigned char>(lower[end])) || lower[end] == '.'))
        ++end;
    std::string_view number = lower.substr(pos, end - pos);
    auto parsed = arch::parse_driver_version(number);
    if (!parsed && number.size() == 3 && number.find('.') == std::string_view::npos) {
        // A branch alone ("driver version 470"): its newest release.
        parsed = arch::DriverVersion{static_cast<uint32_t>(std::stoul(std::string(number))), 9999, 9999, ""};
    }
    if (!parsed) return std::nullopt;
    auto cuda = arch::cuda_supported_by_driver(*parsed);
    if (!cuda) return std::nullopt;
    where = pos;
    return DottedPair{cuda->major, cuda->minor, number.size()};
}

// The runtime's own "no kernel image" (its code, or its words), not a
// framework's finding that names the GPU's architecture as what is missing.
bool is_no_kernel_image(const Finding& decider) {
    if (decider.code)
        return decider.code->name == "cudaErrorNoKernelImageForDevice" ||
               decider.code->name == "CUDA_ERROR_NO_BINARY_FOR_GPU";
    return decider.id == "kernel_image.words";
}

}  // namespace

void DeciderContext::read(std::string_view line, std::string_view lower, size_t line_number) {
    if (!compat_libcuda_) {
        if (auto path = compat_path(line, lower))
            compat_libcuda_ = Shown{std::string(*path), printable_excerpt(line, *path), line_number};
    }
    if (!libcuda_present_) {
        if (auto shown = libcuda_present(line, lower))
            libcuda_present_ = Shown{std::string(*shown), printable_excerpt(line, *shown), line_number};
    }
    if (!toolkit_) {
        size_t where = 0;
        if (auto pair = toolkit_release(lower, where)) {
            std::string_view value = line.substr(where, pair->length);
            toolkit_ = Release{pair->major, pair->minor,
                               Shown{std::string(value), printable_excerpt(line, value), line_number}};
        }
    }
    if (!driver_version_shown_) {
        // "Driver Version: 352.39", "driver version 470": a number after the words.
        size_t at = lower.find("driver version");
        size_t pos = at == std::string_view::npos ? at : lower.find_first_not_of(" :", at + 14);
        driver_version_shown_ = pos != std::string_view::npos && pos < lower.size() &&
                                std::isdigit(static_cast<unsigned char>(lower[pos]));
    }
    if (!driver_cuda_) {
        size_t where = 0;
        if (auto pair = driver_cuda_release(lower, where)) {
            std::string_view value = line.substr(where, pair->length);
            driver_cuda_ = Release{pair->major, pair->minor,
                                   Shown{std::to_string(pair->major) + "." + std::to_string(pair->minor),
                                         printable_excerpt(line, value), line_number}};
        }
    }
    if (!compiles_at_run_time_) {
        compiles_at_run_time_ = std::any_of(kCompilers.begin(), kCompilers.end(), [&](std::string_view word) {
            return lower.find(word) != std::string_view::npos;
        });
    }
    if (!hiding_visible_devices_) {
        auto value = assigned_visible_devices(line, lower);
        if (value && selects_no_gpu(*value)) {
            hiding_visible_devices_ =
                Shown{std::string(*value), printable_excerpt(line, *value), line_number};
        }
    }
}

std::optional<Finding> DeciderContext::reread(const Finding& decider) const {
    if (compat_libcuda_ && is_driver_mismatch(decider)) {
        return context_finding(
            decider, "context.compat_libcuda", "forward_compat_on_unsupported_gpu", Layer::driver,
            compat_libcuda_->value, compat_libcuda_->line_text, compat_libcuda_->line_number,
            "the log puts cuda-compat's libcuda in the loader's way (" + compat_libcuda_->value +
                "), and it does not match the kernel module: forward compatibility is only for data-centre "
                "GPUs whose driver is older than the toolkit; where the host driver is new enough (or the "
                "GPU is not supported), take the compat directory off the loader's path or out of the image",
            "the cuda-compat path shown in the log");
    }
    if (hiding_visible_devices_ && is_no_device(decider)) {
        const std::string& value = hiding_visible_devices_->value;
        std::string why = value.empty() ? "is empty, which hides every GPU"
                          : value.front() == '$' || value.front() == '`'
                              ? "is computed by the shell (" + value +
                                    "); where that comes out empty or not a GPU index, every "
                                    "GPU is hidden"
                              : "is '" + value + "', which names no GPU and hides them all";
        return context_finding(decider, "context.visible_devices", "other", Layer::runtime,
                               "CUDA_VISIBLE_DEVICES=" + value, hiding_visible_devices_->line_text,
                               hiding_visible_devices_->line_number,
                               "CUDA_VISIBLE_DEVICES " + why +
                                   ", so the runtime counts no device: unset it or set it to the GPUs' "
                                   "indices (nvidia-smi -L)",
                               "the CUDA_VISIBLE_DEVICES value shown in the log");
    }
    if (libcuda_present_ && decider.id == "loader.unversioned_libcuda_missing") {
        return context_finding(
            decider, "context.unversioned_libcuda", "missing_or_mismatched_shared_library", Layer::driver,
            libcuda_present_->value, libcuda_present_->line_text, libcuda_present_->line_number,
            "the driver's library is there (" + libcuda_present_->value +
                "), but this program asks for the unversioned libcuda.so, which driver-only installs "
                "(containers, WSL) leave out: link libcuda.so to libcuda.so.1 in that directory, or put the "
                "directory on LD_LIBRARY_PATH (for Triton, TRITON_LIBCUDA_PATH)",
            "the libcuda.so.1 shown in the log");
    }
    if (toolkit_ && driver_cuda_ && compiles_at_run_time_ && is_no_kernel_image(decider) &&
        std::tie(toolkit_->major, toolkit_->minor) > std::tie(driver_cuda_->major, driver_cuda_->minor)) {
        return context_finding(
            decider, "context.toolkit_newer_than_driver", "ptx_too_new_for_driver", Layer::driver,
            "CUDA " + toolkit_->shown.value, toolkit_->shown.line_text, toolkit_->shown.line_number,
            "the CUDA toolkit here (" + toolkit_->shown.value + ") is newer than the driver (CUDA " +
                driver_cuda_->shown.value +
                "): code that toolkit compiles at run time (XLA's ptxas and nvlink, NVRTC, a JIT cache) "
                "targets a newer driver, which then finds no image it can load; update the driver, or use "
                "the toolkit release the driver supports",
            "the toolkit and driver versions shown in the log");
    }
    return std::nullopt;
}

std::vector<std::string_view> DeciderContext::words() {
    // Each reader above finds nothing on a line without its word: compat_path
    // ("compat"), libcuda_present, toolkit_release ("cuda-" and kToolkitWords),
    // driver_cuda_release, assigned_visible_devices and the compilers.
    std::vector<std::string_view> out = {"compat", "libcuda.so",     "/usr/lib/wsl/lib",
                                         "cuda-",  "driver version", "cuda_visible_devices"};
    out.insert(out.end(), kToolkitWords.begin(), kToolkitWords.end());
    out.insert(out.end(), kCompilers.begin(), kCompilers.end());
    return out;
}

}  // namespace strata
