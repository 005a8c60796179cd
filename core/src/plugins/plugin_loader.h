// Loads a plugin library into this process and validates its descriptor.
// `strata worker` calls it in a child process; tests call it directly.
#pragma once

#include <string>
#include <variant>

#include "model/plugin_record.h"
#include "strata/plugin.h"

namespace strata {

struct LoadFailure {
    // dlopen, missing_dependency, undefined_symbol, no_entry_symbol,
    // abi_mismatch, bad_descriptor
    std::string kind;
    std::string message;
    std::string library;  // the soname (or symbol) at fault, when known
};

struct LoadedPlugin {
    const strata_plugin_descriptor* descriptor = nullptr;
    PluginRecord record;
};

using LoadResult = std::variant<LoadedPlugin, LoadFailure>;

// dlopen(RTLD_NOW | RTLD_LOCAL), find the entry symbol, validate. The
// library is never unloaded: CUDA libraries do not survive dlclose well.
LoadResult load_plugin(const std::string& path);

// Validates a descriptor obtained some other way (a test's static one).
LoadResult read_descriptor(const strata_plugin_descriptor* descriptor, const std::string& path);

// dlopen()s each required library; the first that fails is returned.
std::optional<LoadFailure> check_required_libraries(const PluginRecord& record);

// Classifies a dlerror() text: "libx.so.1: cannot open shared object file:
// ..." for a dependency is missing_dependency with library "libx.so.1".
LoadFailure classify_dlerror(const std::string& plugin_path, const std::string& dlerror_text);

}  // namespace strata
