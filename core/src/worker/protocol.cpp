#include "worker/protocol.h"

#include <cmath>
#include <cstdint>

#include "model/ids.h"

namespace strata::protocol {

namespace {

std::string line(const Json& object) {
    return to_json_text(object);
}

// Typed field access that throws a readable message on a wrong document.
const Json& field(const Json& object, const char* name) {
    auto it = object.find(name);
    if (it == object.end()) throw std::runtime_error(std::string("missing field '") + name + "'");
    return *it;
}

std::string string_field(const Json& object, const char* name) {
    const Json& value = field(object, name);
    if (!value.is_string()) throw std::runtime_error(std::string("field '") + name + "' is not a string");
    return value.get<std::string>();
}

std::string optional_string(const Json& object, const char* name) {
    auto it = object.find(name);
    return it != object.end() && it->is_string() ? it->get<std::string>() : std::string();
}

double number_field(const Json& object, const char* name) {
    const Json& value = field(object, name);
    if (!value.is_number()) throw std::runtime_error(std::string("field '") + name + "' is not a number");
    double number = value.get<double>();
    if (!std::isfinite(number)) throw std::runtime_error(std::string("field '") + name + "' is not finite");
    return number;
}

Layer layer_field(const Json& object) {
    std::string name = string_field(object, "layer");
    auto layer = parse_layer(name);
    if (!layer) throw std::runtime_error("unknown layer '" + name + "'");
    return *layer;
}

Json plugin_to_json(const PluginRecord& plugin) {
    Json benchmarks = Json::array();
    for (const BenchmarkInfo& b : plugin.benchmarks)
        benchmarks.push_back({{"name", b.name},
                              {"parameters", b.parameters},
                              {"bytes_per_iteration", b.bytes_per_iteration},
                              {"flops_per_iteration", b.flops_per_iteration},
                              {"gpus", b.gpus}});
    return {{"name", plugin.name},
            {"version", plugin.version},
            {"description", plugin.description},
            {"layer", plugin.layer ? layer_name(*plugin.layer) : "unknown"},
            {"abi", {plugin.abi_major, plugin.abi_minor}},
            {"has_selftest", plugin.has_selftest},
            {"timeouts_s", {{"probe", plugin.probe_timeout_s}, {"selftest", plugin.selftest_timeout_s}}},
            {"required_libraries", plugin.required_libraries},
            {"benchmarks", benchmarks},
            {"benchmark_flags", plugin.benchmark_flags},
            {"path", plugin.path}};
}

// An integer within [low, high]. A float (6.7e87) or an integer out of range
// is refused here: converting it would be undefined behaviour (found by
// fuzz_protocol under UBSan).
int64_t bounded_integer(const Json& value, const std::string& name, int64_t low, int64_t high) {
    if (!value.is_number_integer()) throw std::runtime_error("field '" + name + "' is not an integer");
    // An unsigned value is below a positive floor too ("gpus": 0).
    if (value.is_number_unsigned() ? value.get<uint64_t>() > static_cast<uint64_t>(high) ||
                                         (low > 0 && value.get<uint64_t>() < static_cast<uint64_t>(low))
                                   : value.get<int64_t>() < low || value.get<int64_t>() > high)
        throw std::runtime_error("field '" + name + "' is out of range");
    return value.get<int64_t>();
}

PluginRecord plugin_from_json(const Json& object) {
    PluginRecord plugin;
    plugin.name = string_field(object, "name");
    plugin.version = optional_string(object, "version");
    plugin.description = optional_string(object, "description");
    plugin.layer = layer_field(object);
    const Json& abi = field(object, "abi");
    if (!abi.is_array() || abi.size() != 2) throw std::runtime_error("field 'abi' is not [major, minor]");
    plugin.abi_major = static_cast<int>(bounded_integer(abi[0], "abi", 0, UINT16_MAX));
    plugin.abi_minor = static_cast<int>(bounded_integer(abi[1], "abi", 0, UINT16_MAX));
    plugin.has_selftest = field(object, "has_selftest").get<bool>();
    const Json& timeouts = field(object, "timeouts_s");
    plugin.probe_timeout_s =
        static_cast<uint32_t>(bounded_integer(field(timeouts, "probe"), "timeouts_s.probe", 0, UINT32_MAX));
    plugin.selftest_timeout_s = static_cast<uint32_t>(
        bounded_integer(field(timeouts, "selftest"), "timeouts_s.selftest", 0, UINT32_MAX));
    for (const Json& soname : field(object, "required_libraries"))
        plugin.required_libraries.push_back(soname.get<std::string>());
    for (const Json& b : field(object, "benchmarks")) {
        plugin.benchmarks.push_back({string_field(b, "name"), optional_string(b, "parameters"),
                                     number_field(b, "bytes_per_iteration"),
                                     number_field(b, "flops_per_iteration")});
        if (b.is_object() && b.contains("gpus"))
            plugin.benchmarks.back().gpus =
                static_cast<uint32_t>(bounded_integer(b["gpus"], "gpus", 1, 4096));
    }
    if (object.contains("benchmark_flags"))
        plugin.benchmark_flags = static_cast<uint32_t>(
            bounded_integer(object["benchmark_flags"], "benchmark_flags", 0, UINT32_MAX));
    plugin.path = optional_string(object, "path");
    return plugin;
}

Message decode_object(const Json& object) {
    if (!object.is_object()) throw std::runtime_error("not a JSON object");
    std::string type = string_field(object, "type");
    if (type == "hello") {
        const Json& protocol_version = field(object, "protocol");
        if (!protocol_version.is_number_integer() || protocol_version.get<int64_t>() != version)
            throw std::runtime_error("worker speaks protocol " + to_json_text(protocol_version) +
                                     ", this strata speaks " + std::to_string(version));
        return Hello{plugin_from_json(field(object, "plugin"))};
    }
    if (type == "fact") {
        Fact fact;
        fact.key = string_field(object, "key");
        fact.value = field(object, "value");
        if (fact.value.is_number_float() && !std::isfinite(fact.value.get<double>()))
            throw std::runtime_error("fact value is not finite");
        fact.source = optional_string(object, "source");
        if (!is_dotted_id(fact.key))
            throw std::runtime_error("fact key '" + fact.key + "' is not a dotted id");
        return fact;
    }
    if (type == "check") {
        Check check;
        check.id = string_field(object, "id");
        if (!is_dotted_id(check.id))
            throw std::runtime_error("check id '" + check.id + "' is not a dotted id");
        check.layer = layer_field(object);
        std::string status = string_field(object, "status");
        auto parsed = parse_status(status);
        if (!parsed) throw std::runtime_error("unknown status '" + status + "'");
        check.status = *parsed;
        check.summary = string_field(object, "summary");
        if (check.summary.empty()) throw std::runtime_error("check '" + check.id + "' has no summary");
        check.evidence = optional_string(object, "evidence");
        check.remedy = optional_string(object, "remedy");
        if (auto it = object.find("facts"); it != object.end())
            for (const Json& key : *it) check.facts.push_back(key.get<std::string>());
        if (auto it = object.find("device"); it != object.end() && !it->is_null()) {
            check.device = static_cast<int>(bounded_integer(*it, "device", 0, 1 << 20));
        }
        return check;
    }
    if (type == "measurement")
        return Measurement{"", string_field(object, "name"), number_field(object, "value"),
                           optional_string(object, "unit")};
    if (type == "log") return LogLine{string_field(object, "level"), string_field(object, "message")};
    if (type == "load_error")
        return LoadError{string_field(object, "kind"), string_field(object, "message"),
                         optional_string(object, "library")};
    if (type == "done") {
        return Done{
            static_cast<int>(bounded_integer(field(object, "result"), "result", INT32_MIN, INT32_MAX))};
    }
    throw std::runtime_error("unknown message type '" + type + "'");
}

}  // namespace

std::string encode(const Hello& hello) {
    return line({{"type", "hello"}, {"protocol", version}, {"plugin", plugin_to_json(hello.plugin)}});
}

std::string encode(const Fact& fact) {
    return line({{"type", "fact"}, {"key", fact.key}, {"value", fact.value}, {"source", fact.source}});
}

std::string encode(const Check& check) {
    return line({{"type", "check"},
                 {"id", check.id},
                 {"layer", layer_name(check.layer)},
                 {"status", status_name(check.status)},
                 {"summary", check.summary},
                 {"evidence", check.evidence},
                 {"remedy", check.remedy},
                 {"facts", check.facts},
                 {"device", check.device ? Json(*check.device) : Json(nullptr)}});
}

std::string encode(const Measurement& m) {
    return line({{"type", "measurement"}, {"name", m.name}, {"value", m.value}, {"unit", m.unit}});
}

std::string encode(const LogLine& log) {
    return line({{"type", "log"}, {"level", log.level}, {"message", log.message}});
}

std::string encode(const LoadError& error) {
    return line({{"type", "load_error"},
                 {"kind", error.kind},
                 {"message", error.message},
                 {"library", error.library}});
}

std::string encode(const Done& done) {
    return line({{"type", "done"}, {"result", done.result}});
}

std::optional<Message> decode(std::string_view text, std::string& error) {
    Json object = Json::parse(text, nullptr, /*allow_exceptions=*/false);
    if (object.is_discarded()) {
        error = "not JSON";
        return std::nullopt;
    }
    try {
        return decode_object(object);
    } catch (const std::exception& e) {  // type_error from get<> lands here too
        error = e.what();
        return std::nullopt;
    }
}

}  // namespace strata::protocol
