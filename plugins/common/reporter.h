// A C++ convenience over the C host table, for strata's own plugins. It lives
// inside each plugin (header only), so nothing C++ crosses the ABI: every
// call turns std::string values into strata_str views that live until the
// callback returns.
#pragma once

#include <dlfcn.h>
#include <link.h>

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "strata/plugin.h"

namespace strata::plugin {

inline strata_str view(std::string_view text) {
    return {text.data(), text.size()};
}

// A zeroed ABI struct with its header filled in. (Value-initialising and
// then assigning keeps GCC's -Wmissing-field-initializers quiet in C++.)
template <typename Struct>
Struct abi_struct() {
    Struct out{};
    out.struct_size = sizeof(Struct);
    out.abi_major = STRATA_PLUGIN_ABI_MAJOR;
    out.abi_minor = STRATA_PLUGIN_ABI_MINOR;
    return out;
}

class Reporter {
public:
    explicit Reporter(const strata_host_api* host) : host_(host) {}

    void fact(std::string_view key, std::string_view value, std::string_view source) const {
        strata_fact out = base_fact(key, source);
        out.type = STRATA_VALUE_STRING;
        out.string_value = view(value);
        host_->emit_fact(host_->context, &out);
    }
    void fact(std::string_view key, const char* value, std::string_view source) const {
        fact(key, std::string_view(value), source);
    }
    void fact(std::string_view key, int64_t value, std::string_view source) const {
        strata_fact out = base_fact(key, source);
        out.type = STRATA_VALUE_INT;
        out.int_value = value;
        host_->emit_fact(host_->context, &out);
    }
    void fact(std::string_view key, int value, std::string_view source) const {
        fact(key, static_cast<int64_t>(value), source);
    }
    void fact(std::string_view key, long long value, std::string_view source) const {
        fact(key, static_cast<int64_t>(value), source);
    }
    void fact(std::string_view key, double value, std::string_view source) const {
        strata_fact out = base_fact(key, source);
        out.type = STRATA_VALUE_DOUBLE;
        out.double_value = value;
        host_->emit_fact(host_->context, &out);
    }
    void fact(std::string_view key, bool value, std::string_view source) const {
        strata_fact out = base_fact(key, source);
        out.type = STRATA_VALUE_BOOL;
        out.bool_value = value ? 1 : 0;
        host_->emit_fact(host_->context, &out);
    }

    struct CheckText {
        std::string summary;
        std::string evidence = {};
        std::string remedy = {};
        std::vector<std::string> facts = {};
        // The GPU a per-GPU check is about: its id stays the same on every
        // node and for every GPU.
        std::optional<int> device = {};
    };
    void check(std::string_view id, strata_layer layer, strata_status status, const CheckText& text) const {
        std::vector<strata_str> keys;
        for (const std::string& key : text.facts) keys.push_back(view(key));
        auto out = abi_struct<strata_check>();
        out.id = view(id);
        out.layer = layer;
        out.status = status;
        out.summary = view(text.summary);
        out.evidence = view(text.evidence);
        out.remedy = view(text.remedy);
        out.fact_keys = keys.data();
        out.fact_key_count = keys.size();
        out.about_device = text.device ? 1 : 0;
        out.device = text.device.value_or(0);
        host_->emit_check(host_->context, &out);
    }

    void measurement(std::string_view name, double value, std::string_view unit) const {
        auto out = abi_struct<strata_measurement>();
        out.name = view(name);
        out.value = value;
        out.unit = view(unit);
        host_->emit_measurement(host_->context, &out);
    }

    void log(strata_log_level level, std::string_view message) const {
        host_->log(host_->context, level, view(message));
    }

private:
    static strata_fact base_fact(std::string_view key, std::string_view source) {
        auto out = abi_struct<strata_fact>();
        out.key = view(key);
        out.source = view(source);
        return out;
    }
    const strata_host_api* host_;
};

// The file a dlopen handle really came from, with symlinks resolved: what
// "which libcuda did we get" needs (dlerror-free; empty if unknown).
inline std::string loaded_path(void* handle) {
    struct link_map* map = nullptr;
    if (!handle || dlinfo(handle, RTLD_DI_LINKMAP, &map) != 0 || !map || !map->l_name) return {};
    char resolved[4096];
    if (realpath(map->l_name, resolved)) return resolved;
    return map->l_name;
}

// The file that defines `symbol` (a function pointer already resolved), for
// libraries linked rather than dlopened.
inline std::string defining_file(const void* symbol) {
    Dl_info info{};
    if (!symbol || dladdr(symbol, &info) == 0 || !info.dli_fname) return {};
    char resolved[4096];
    if (realpath(info.dli_fname, resolved)) return resolved;
    return info.dli_fname;
}

// "13000" -> "13.0", "12040" -> "12.4": the form CUDA versions are read in.
inline std::string cuda_version_text(int version) {
    return std::to_string(version / 1000) + "." + std::to_string((version % 1000) / 10);
}

}  // namespace strata::plugin
