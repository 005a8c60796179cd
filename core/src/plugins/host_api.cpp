#include "plugins/host_api.h"

#include <cmath>
#include <cstddef>
#include <optional>

#include "model/ids.h"
#include "model/layer.h"

namespace strata {

namespace {

constexpr size_t max_string_bytes = 1 << 20;

// True when the struct a plugin passed is from this ABI major and large
// enough to hold `Member`'s end. Fields past struct_size are never read.
template <typename T>
bool header_ok(const T* value, size_t needed_size, HostSink& sink, const char* what) {
    if (!value) {
        sink.on_invalid(std::string(what) + " pointer is NULL");
        return false;
    }
    if (value->abi_major != STRATA_PLUGIN_ABI_MAJOR) {
        sink.on_invalid(std::string(what) + " was built for ABI " + std::to_string(value->abi_major) + "." +
                        std::to_string(value->abi_minor) + ", this strata speaks " +
                        std::to_string(STRATA_PLUGIN_ABI_MAJOR) + "." +
                        std::to_string(STRATA_PLUGIN_ABI_MINOR));
        return false;
    }
    if (value->struct_size < needed_size) {
        sink.on_invalid(std::string(what) + " struct_size " + std::to_string(value->struct_size) +
                        " is smaller than the " + std::to_string(needed_size) + " bytes ABI 1.0 needs");
        return false;
    }
    return true;
}

std::optional<std::string> text(strata_str value, HostSink& sink, const char* field) {
    auto copy = copy_plugin_string(value);
    if (!copy) sink.on_invalid(std::string("invalid string in field '") + field + "'");
    return copy;
}

HostSink& sink_of(void* context) {
    return *static_cast<HostSink*>(context);
}

void emit_fact(void* context, const strata_fact* fact) {
    HostSink& sink = sink_of(context);
    if (!header_ok(fact, offsetof(strata_fact, source) + sizeof(strata_str), sink, "fact")) return;
    auto key = text(fact->key, sink, "key");
    auto source = text(fact->source, sink, "source");
    if (!key || !source) return;
    if (!is_dotted_id(*key))
        return sink.on_invalid("fact key '" + *key + "' is not a dotted id like 'runtime.x.version'");
    Fact out;
    out.key = std::move(*key);
    out.source = std::move(*source);
    switch (fact->type) {
        case STRATA_VALUE_STRING: {
            auto value = text(fact->string_value, sink, "string_value");
            if (!value) return;
            out.value = std::move(*value);
            break;
        }
        case STRATA_VALUE_INT: out.value = fact->int_value; break;
        case STRATA_VALUE_DOUBLE:
            if (!std::isfinite(fact->double_value))
                return sink.on_invalid("fact '" + out.key + "' has a value that is not finite");
            out.value = fact->double_value;
            break;
        case STRATA_VALUE_BOOL: out.value = fact->bool_value != 0; break;
        default:
            return sink.on_invalid("fact '" + out.key + "' has unknown value type " +
                                   std::to_string(fact->type));
    }
    sink.on_fact(std::move(out));
}

std::optional<Status> status_from_abi(int32_t status) {
    switch (status) {
        case STRATA_STATUS_PASS: return Status::pass;
        case STRATA_STATUS_WARN: return Status::warn;
        case STRATA_STATUS_FAIL: return Status::fail;
        case STRATA_STATUS_SKIP: return Status::skip;
        case STRATA_STATUS_ERROR: return Status::error;
    }
    return std::nullopt;
}

void emit_check(void* context, const strata_check* check) {
    HostSink& sink = sink_of(context);
    if (!header_ok(check, offsetof(strata_check, fact_key_count) + sizeof(size_t), sink, "check")) return;
    auto id = text(check->id, sink, "id");
    auto summary = text(check->summary, sink, "summary");
    auto evidence = text(check->evidence, sink, "evidence");
    auto remedy = text(check->remedy, sink, "remedy");
    if (!id || !summary || !evidence || !remedy) return;
    if (!is_dotted_id(*id))
        return sink.on_invalid("check id '" + *id + "' is not a dotted id like 'runtime.x.ready'");
    if (summary->empty()) return sink.on_invalid("check '" + *id + "' has no summary");
    auto layer = layer_from_abi(check->layer);
    if (!layer)
        return sink.on_invalid("check '" + *id + "' has unknown layer " + std::to_string(check->layer));
    auto status = status_from_abi(check->status);
    if (!status)
        return sink.on_invalid("check '" + *id + "' has unknown status " + std::to_string(check->status));
    if (check->fact_key_count > 0 && !check->fact_keys)
        return sink.on_invalid("check '" + *id + "' has fact_key_count but no fact_keys");
    Check out;
    for (size_t i = 0; i < check->fact_key_count; ++i) {
        auto key = text(check->fact_keys[i], sink, "fact_keys");
        if (!key) return;
        out.facts.push_back(std::move(*key));
    }
    out.id = std::move(*id);
    out.layer = *layer;
    out.status = *status;
    out.summary = std::move(*summary);
    out.evidence = std::move(*evidence);
    out.remedy = std::move(*remedy);
    // A 1.0/1.1 plugin's struct ends before these fields.
    if (check->struct_size >= offsetof(strata_check, device) + sizeof(int32_t) && check->about_device) {
        if (check->device < 0)
            return sink.on_invalid("check '" + out.id + "' is about device " + std::to_string(check->device));
        out.device = check->device;
    }
    sink.on_check(std::move(out));
}

void emit_measurement(void* context, const strata_measurement* measurement) {
    HostSink& sink = sink_of(context);
    if (!header_ok(measurement, offsetof(strata_measurement, unit) + sizeof(strata_str), sink, "measurement"))
        return;
    auto name = text(measurement->name, sink, "name");
    auto unit = text(measurement->unit, sink, "unit");
    if (!name || !unit) return;
    if (!std::isfinite(measurement->value))
        return sink.on_invalid("measurement '" + *name + "' is not finite");
    sink.on_measurement({"", std::move(*name), measurement->value, std::move(*unit)});
}

void log_line(void* context, int32_t level, strata_str message) {
    HostSink& sink = sink_of(context);
    auto copy = text(message, sink, "message");
    if (!copy) return;
    if (level < STRATA_LOG_DEBUG || level > STRATA_LOG_ERROR) level = STRATA_LOG_INFO;
    sink.on_log(static_cast<strata_log_level>(level), std::move(*copy));
}

}  // namespace

std::optional<std::string> copy_plugin_string(strata_str value) {
    if (value.size == 0) return std::string();
    if (!value.data || value.size > max_string_bytes) return std::nullopt;
    return std::string(value.data, value.size);
}

std::string_view log_level_name(strata_log_level level) {
    switch (level) {
        case STRATA_LOG_DEBUG: return "debug";
        case STRATA_LOG_INFO: return "info";
        case STRATA_LOG_WARNING: return "warning";
        case STRATA_LOG_ERROR: return "error";
    }
    return "info";
}

strata_host_api make_host_api(HostSink& sink) {
    strata_host_api api{};
    api.struct_size = sizeof(strata_host_api);
    api.abi_major = STRATA_PLUGIN_ABI_MAJOR;
    api.abi_minor = STRATA_PLUGIN_ABI_MINOR;
    api.context = &sink;
    api.emit_fact = emit_fact;
    api.emit_check = emit_check;
    api.emit_measurement = emit_measurement;
    api.log = log_line;
    return api;
}

}  // namespace strata
