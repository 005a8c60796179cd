#include "plugins/plugin_loader.h"

#include <dlfcn.h>

#include <algorithm>
#include <cstddef>

#include "plugins/host_api.h"
#include "probes/library_search.h"
#include "probes/probe_context.h"

namespace strata {

namespace {

LoadFailure bad(std::string message) {
    return {"bad_descriptor", std::move(message), ""};
}

// Where the loader looked, for a person installing the missing library.
std::string searched() {
    return "; searched " + LibrarySearch(ProbeContext::live()).describe_order();
}

std::string abi_text(int major, int minor) {
    return std::to_string(major) + "." + std::to_string(minor);
}

}  // namespace

LoadFailure classify_dlerror(const std::string& plugin_path, const std::string& text) {
    static const std::string cannot_open = ": cannot open shared object file";
    static const std::string undefined = "undefined symbol: ";
    if (size_t at = text.find(cannot_open); at != std::string::npos) {
        std::string library = text.substr(0, at);
        if (library != plugin_path) return {"missing_dependency", text, library};
    }
    // "<file>: invalid ELF header", "...: file too short", "...: wrong ELF
    // class: ELFCLASS32": glibc names the file it could not use. When that
    // is not the plugin, the plugin is fine and a library it needs is broken
    // (a truncated or foreign libcudart earlier on LD_LIBRARY_PATH).
    if (size_t at = text.find(": "); at != std::string::npos && text.find(undefined) == std::string::npos) {
        std::string library = text.substr(0, at);
        if (library != plugin_path && library.find(".so") != std::string::npos)
            return {"broken_dependency", text, library};
    }
    if (size_t at = text.find(undefined); at != std::string::npos) {
        std::string symbol = text.substr(at + undefined.size());
        if (size_t end = symbol.find_first_of(" ,\n"); end != std::string::npos) symbol.resize(end);
        return {"undefined_symbol", text, symbol};
    }
    return {"dlopen", text, ""};
}

LoadResult read_descriptor(const strata_plugin_descriptor* d, const std::string& path) {
    if (!d) return bad("strata_plugin_entry returned NULL");
    if (d->abi_major != STRATA_PLUGIN_ABI_MAJOR)
        return LoadFailure{"abi_mismatch",
                           "plugin ABI " + abi_text(d->abi_major, d->abi_minor) +
                               " is not compatible with this strata's ABI " +
                               abi_text(STRATA_PLUGIN_ABI_MAJOR, STRATA_PLUGIN_ABI_MINOR) +
                               " (major versions differ); rebuild the plugin against this strata",
                           ""};
    // Every field of ABI 1.0 is required; later minors may append more.
    constexpr size_t v1_size = offsetof(strata_plugin_descriptor, selftest_timeout_s) + sizeof(uint32_t);
    if (d->struct_size < v1_size)
        return bad("descriptor struct_size " + std::to_string(d->struct_size) + " is smaller than the " +
                   std::to_string(v1_size) + " bytes ABI 1.0 needs");

    PluginRecord record;
    record.path = path;
    record.abi_major = d->abi_major;
    record.abi_minor = d->abi_minor;
    auto name = copy_plugin_string(d->name);
    auto version = copy_plugin_string(d->version);
    auto description = copy_plugin_string(d->description);
    if (!name || name->empty()) return bad("descriptor has no name");
    if (!version || !description) return bad("descriptor has an invalid version or description");
    record.name = *name;
    record.version = *version;
    record.description = *description;
    record.layer = layer_from_abi(d->layer);
    if (!record.layer) return bad("descriptor has unknown layer " + std::to_string(d->layer));
    if (!d->probe) return bad("descriptor has no probe function");
    record.has_selftest = d->selftest != nullptr;
    record.probe_timeout_s = d->probe_timeout_s;
    record.selftest_timeout_s = d->selftest_timeout_s;
    if (d->required_library_count > 0 && !d->required_libraries)
        return bad("descriptor lists required libraries but gives no array");
    for (size_t i = 0; i < d->required_library_count; ++i) {
        auto soname = copy_plugin_string(d->required_libraries[i]);
        if (!soname || soname->empty()) return bad("required library " + std::to_string(i) + " is invalid");
        record.required_libraries.push_back(*soname);
    }
    if (d->benchmark_count > 0 && !d->benchmarks)
        return bad("descriptor counts benchmarks but gives no array");
    for (size_t i = 0; i < d->benchmark_count; ++i) {
        const strata_benchmark& b = d->benchmarks[i];
        auto bench_name = copy_plugin_string(b.name);
        auto parameters = copy_plugin_string(b.parameters);
        if (b.abi_major != STRATA_PLUGIN_ABI_MAJOR || !bench_name || bench_name->empty() || !parameters ||
            !b.run)
            return bad("benchmark " + std::to_string(i) + " is invalid");
        record.benchmarks.push_back({*bench_name, *parameters, b.bytes_per_iteration, b.flops_per_iteration});
    }
    constexpr size_t v14_size = offsetof(strata_plugin_descriptor, benchmark_flags) + sizeof(uint32_t);
    if (d->struct_size >= v14_size) record.benchmark_flags = d->benchmark_flags;
    constexpr size_t v15_size = offsetof(strata_plugin_descriptor, benchmark_gpus) + sizeof(const uint32_t*);
    if (d->struct_size >= v15_size && d->benchmark_gpus)
        for (size_t i = 0; i < record.benchmarks.size(); ++i)
            record.benchmarks[i].gpus = std::max<uint32_t>(d->benchmark_gpus[i], 1);
    return LoadedPlugin{d, std::move(record)};
}

LoadResult load_plugin(const std::string& path) {
    dlerror();
    void* handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!handle) {
        const char* text = dlerror();
        LoadFailure failure = classify_dlerror(path, text ? text : "dlopen failed");
        if (failure.kind == "missing_dependency") failure.message += searched();
        return failure;
    }
    auto entry = reinterpret_cast<strata_plugin_entry_fn>(dlsym(handle, STRATA_PLUGIN_ENTRY_SYMBOL));
    if (!entry)
        return LoadFailure{"no_entry_symbol",
                           "does not export " STRATA_PLUGIN_ENTRY_SYMBOL ": not a strata plugin", ""};
    return read_descriptor(entry(), path);
}

std::optional<LoadFailure> check_required_libraries(const PluginRecord& record) {
    for (const std::string& soname : record.required_libraries) {
        dlerror();
        if (dlopen(soname.c_str(), RTLD_LAZY | RTLD_LOCAL)) continue;
        const char* text = dlerror();
        return LoadFailure{"missing_dependency", std::string(text ? text : "dlopen failed") + searched(),
                           soname};
    }
    return std::nullopt;
}

}  // namespace strata
