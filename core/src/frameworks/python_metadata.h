// Readers for the files a Python package installs about itself: the
// dist-info METADATA (name, version, Requires-Dist), its RECORD (every file
// the wheel installed), and the build records frameworks write as Python
// source (torch/version.py, TensorFlow's build_info.py) or JSON (CuPy's
// _wheel.json). All of it is untrusted input: each reader takes the text,
// never throws and never executes anything.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace strata {

// One Requires-Dist line: "nvidia-cudnn-cu12==9.1.0.70; platform_system == \"Linux\"".
struct Requirement {
    std::string name;       // normalised: "nvidia-cudnn-cu12"
    std::string specifier;  // "==9.1.0.70", ">=13.0.48,<14" or ""
    std::string extra;      // the extra it belongs to ("with-cuda"), "" for a plain dependency
    // The extras it asks of the dependency: cuda-toolkit[cublas,cudart] -> {"cublas", "cudart"}.
    std::vector<std::string> extras;
};

struct PackageMetadata {
    std::string name;  // as written: "jax-cuda13-plugin"
    std::string version;
    std::vector<Requirement> requires_dist;
};

// PEP 503 normalisation: lower case, runs of -_. become one '-'.
std::string normalize_package_name(std::string_view name);

// The RFC 822 header block of METADATA (or PKG-INFO); the body is ignored.
// nullopt when there is no Name or Version.
std::optional<PackageMetadata> parse_package_metadata(std::string_view text);

Requirement parse_requirement(std::string_view line);

// RECORD is CSV: path,hash,size. Returns the paths (quotes undone), relative
// to the site-packages directory; lines that are not CSV are skipped.
std::vector<std::string> parse_record(std::string_view text);

// The string a Python source file assigns to `key`, in any of the forms
// frameworks write: `cuda = '12.4'`, `cuda: Optional[str] = '12.4'`,
// `'cuda_version': '12.3'` (a dict) or `('cuda_version', '12.3')` (a tuple
// list). nullopt when the key is absent or its value is not a string literal
// (None, a call, ...).
std::optional<std::string> python_string_value(std::string_view source, std::string_view key);

// The versions in a version specifier: "==9.1.0.70" -> "9.1.0.70",
// ">=13.0.48,<14" -> "13.0.48" (the lower bound); "" when there is none.
std::string specifier_floor(std::string_view specifier);

// Compares dotted version strings numerically, component by component
// ("9.10" > "9.9"); non-numeric tails ("+cu124", "rc1") are ignored.
int compare_versions(std::string_view a, std::string_view b);

// Whether a version meets a specifier's exact pin: "==9.1.0.70" numerically
// ("9.1" is "9.1.0"), "==13.*" or "==13.1.1.3.*" by the components given
// (PEP 440 prefix matching). True when the specifier pins nothing.
bool meets_pin(std::string_view version, std::string_view specifier);

}  // namespace strata
