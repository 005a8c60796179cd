#include "environment_summary.h"

#include <map>
#include <set>

#include "report/terminal_safe_output.h"
#include "report/writers.h"

namespace strata::fleet {

namespace {

// A value from a record: one line, for the rows that quote it.
std::string text(const Json& value) {
    if (value.is_null()) return "";
    if (value.is_string()) return one_line(value.get<std::string>());
    if (value.is_boolean()) return value.get<bool>() ? "on" : "off";
    return value.dump();
}

void put(Json& object, const char* key, const Json& value) {
    if (!value.is_null()) object[key] = value;
}

}  // namespace

Json summarize_environment(const Json& facts, const Json& clock_policy) {
    Json out = Json::object();
    if (!facts.is_object()) return out;
    Json host = Json::object();
    put(host, "name", environment_value(facts, "host.name"));
    put(host, "os", environment_value(facts, "host.os.name"));
    put(host, "kernel", environment_value(facts, "host.kernel.release"));
    put(host, "arch", environment_value(facts, "host.arch"));
    put(host, "cpu", environment_value(facts, "host.cpu.model"));
    out["host"] = host;
    Json strata = Json::object();
    put(strata, "version", environment_value(facts, "strata.version"));
    put(strata, "git_revision", environment_value(facts, "strata.git_revision"));
    put(strata, "build_type", environment_value(facts, "strata.build_type"));
    out["strata"] = strata;
    Json driver = Json::object();
    put(driver, "kernel_module", environment_value(facts, "driver.kernel_module.version"));
    put(driver, "nvml", environment_value(facts, "driver.nvml.driver_version"));
    put(driver, "cuda", environment_value(facts, "driver.cuda.version_text"));
    put(driver, "libcuda", environment_value(facts, "driver.libcuda.loaded_path"));
    put(driver, "forward_compat", environment_value(facts, "driver.libcuda.forward_compat"));
    out["driver"] = driver;
    put(out, "cuda_runtime", environment_value(facts, "runtime.cudart.version_text"));
    Json libraries = Json::object();
    Json frameworks = Json::object();
    std::map<int, Json> gpus;
    static const std::set<std::string> gpu_fields = {"name",         "uuid",
                                                     "pci_bus_id",   "compute_capability",
                                                     "memory_mib",   "mig_mode",
                                                     "compute_mode", "persistence_mode",
                                                     "ecc",          "max_sm_clock_mhz",
                                                     "clock_limits"};
    for (const auto& [key, entry] : facts.items()) {
        const Json& value = environment_value(facts, key);
        if (value.is_null()) continue;
        // library.<name>.version_text
        if (key.rfind("library.", 0) == 0 && key.size() > 21 &&
            key.compare(key.size() - 13, 13, ".version_text") == 0)
            libraries[key.substr(8, key.size() - 8 - 13)] = value;
        // framework.<id>.version, named by framework.<id>.name
        if (key.rfind("framework.", 0) == 0 && key.size() > 18 &&
            key.compare(key.size() - 8, 8, ".version") == 0) {
            std::string id = key.substr(10, key.size() - 10 - 8);
            std::string name = text(environment_value(facts, "framework." + id + ".name"));
            std::string environment = text(environment_value(facts, "framework." + id + ".environment"));
            frameworks[(name.empty() ? id : name) + (environment.empty() ? "" : " (" + environment + ")")] =
                value;
        }
        // device.<n>.<field>
        if (key.rfind("device.", 0) == 0) {
            size_t dot = key.find('.', 7);
            if (dot == std::string::npos) continue;
            std::string index = key.substr(7, dot - 7), field = key.substr(dot + 1);
            if (index.empty() || index.find_first_not_of("0123456789") != std::string::npos ||
                index.size() > 5 || !gpu_fields.count(field))
                continue;
            Json& gpu = gpus[std::stoi(index)];
            gpu["index"] = std::stoi(index);
            gpu[field] = value;
        }
    }
    out["libraries"] = libraries;
    if (!frameworks.empty()) out["frameworks"] = frameworks;
    Json gpu_list = Json::array();
    for (auto& [index, gpu] : gpus) gpu_list.push_back(gpu);
    out["gpus"] = gpu_list;
    if (!clock_policy.is_null()) out["clock_policy"] = clock_policy;
    return out;
}

std::vector<ComparableField> comparable_fields(const Json& summary) {
    std::vector<ComparableField> out;
    if (!summary.is_object()) return out;
    auto add = [&](std::string label, const Json& value, FieldRole role, std::string why) {
        if (value.is_null()) return;
        out.push_back({std::move(label), text(value), role, std::move(why)});
    };
    auto member = [](const Json& object, const char* key) -> const Json& {
        static const Json none;
        return object.is_object() && object.contains(key) ? object[key] : none;
    };
    const Json& driver = member(summary, "driver");
    add("driver (kernel module)", member(driver, "kernel_module"), FieldRole::driver, "");
    add("driver (NVML)", member(driver, "nvml"), FieldRole::driver, "");
    add("driver (libcuda's CUDA version)", member(driver, "cuda"), FieldRole::driver, "");
    add("libcuda in use", member(driver, "libcuda"), FieldRole::driver, "");
    add("forward compatibility", member(driver, "forward_compat"), FieldRole::driver, "");

    // GPU fields: the distinct values over the node's GPUs, GPU count for the model.
    const Json& gpus = member(summary, "gpus");
    if (gpus.is_array() && !gpus.empty()) {
        auto gpu_values = [&](const char* field) -> Json {
            std::map<std::string, int> counts;
            for (const Json& gpu : gpus)
                if (gpu.contains(field)) ++counts[text(gpu[field])];
            if (counts.empty()) return nullptr;
            std::string joined;
            for (const auto& [value, count] : counts)
                joined += (joined.empty() ? "" : ", ") +
                          (std::string(field) == "name" ? std::to_string(count) + " x " + value : value);
            return joined;
        };
        add("GPU model", gpu_values("name"), FieldRole::invalidating,
            "different GPUs: the figures measure the hardware, not the driver");
        add("compute capability", gpu_values("compute_capability"), FieldRole::invalidating,
            "different GPU architectures");
        add("GPU memory (MiB)", gpu_values("memory_mib"), FieldRole::invalidating, "different GPU SKUs");
        add("ECC", gpu_values("ecc"), FieldRole::invalidating,
            "ECC changes the usable memory bandwidth (and capacity)");
        add("MIG mode", gpu_values("mig_mode"), FieldRole::invalidating,
            "a MIG instance has a fraction of the GPU");
        add("persistence mode", gpu_values("persistence_mode"), FieldRole::invalidating,
            "without persistence the driver tears down and re-initialises the GPU between processes, "
            "which cold-start figures measure (often lost at a reboot for a driver update: `nvidia-smi -pm "
            "1`)");
        add("compute mode", gpu_values("compute_mode"), FieldRole::informational, "");
        add("maximum SM clock (MHz)", gpu_values("max_sm_clock_mhz"), FieldRole::invalidating,
            "application clocks or a clock cap differ");
    }
    add("clock policy", member(summary, "clock_policy"), FieldRole::invalidating,
        "locked and free-running clocks give different figures (often reset by a reboot)");
    add("CUDA runtime", member(summary, "cuda_runtime"), FieldRole::invalidating,
        "a library changed along with the driver: a difference cannot be put on the driver");
    const Json& libraries = member(summary, "libraries");
    if (libraries.is_object())
        for (const auto& [name, version] : libraries.items())
            add(name, version, FieldRole::invalidating,
                "a library changed along with the driver: a difference cannot be put on the driver");
    const Json& strata = member(summary, "strata");
    add("strata version", member(strata, "version"), FieldRole::invalidating,
        "different strata versions may run different benchmarks under the same names");
    add("strata build type", member(strata, "build_type"), FieldRole::invalidating,
        "a debug build of strata or its runner times differently");
    add("strata revision", member(strata, "git_revision"), FieldRole::informational, "");
    const Json& frameworks = member(summary, "frameworks");
    if (frameworks.is_object())
        for (const auto& [name, version] : frameworks.items())
            add(name, version, FieldRole::informational, "");
    const Json& host = member(summary, "host");
    add("operating system", member(host, "os"), FieldRole::informational, "");
    add("Linux kernel", member(host, "kernel"), FieldRole::informational, "");
    add("CPU", member(host, "cpu"), FieldRole::informational, "");
    return out;
}

}  // namespace strata::fleet
