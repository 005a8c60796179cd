#include "explain/decider_context.h"

#include <algorithm>
#include <cctype>

#include "explain/status_codes.h"
#include "explain/text_lines.h"

namespace strata {

namespace {

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
    return std::nullopt;
}

}  // namespace strata
