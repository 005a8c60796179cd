#include "diagnosis/health_rules.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <set>

#include "diagnosis/fact_access.h"
#include "explain/xid_catalog.h"
#include "probes/probes.h"
#include "probes/text_util.h"

namespace strata {

namespace {

// A GPU as the health rules see it: its CUDA index, PCI address and facts.
struct Gpu {
    int index = 0;
    std::string pci;    // canonical
    std::string label;  // "GPU 3 (0000:3b:00)"
};

std::vector<Gpu> gpus(const Report& report) {
    std::vector<Gpu> out;
    long long count = fact_int(report, "device.count").value_or(0);
    for (long long i = 0; i < count && i < 4096; ++i) {
        Gpu gpu;
        gpu.index = static_cast<int>(i);
        gpu.pci =
            canonical_pci(fact_string(report, "device." + std::to_string(i) + ".pci_bus_id").value_or(""));
        gpu.label = "GPU " + std::to_string(i) + (gpu.pci.empty() ? "" : " (" + gpu.pci + ")");
        out.push_back(gpu);
    }
    return out;
}

std::string key(const Gpu& gpu, const std::string& field) {
    return "device." + std::to_string(gpu.index) + "." + field;
}

std::optional<long long> gpu_int(const Report& report, const Gpu& gpu, const std::string& field) {
    return fact_int(report, key(gpu, field));
}

bool gpu_true(const Report& report, const Gpu& gpu, const std::string& field) {
    return fact_true(report, key(gpu, field));
}

bool gpu_has(const Report& report, const Gpu& gpu, const std::string& field) {
    return report.find_fact(key(gpu, field)) != nullptr;
}

// Adds one node-level check from what was found on each GPU.
struct Findings {
    std::vector<std::string> failures, warnings, notes;
    std::vector<std::string> facts;
    std::string remedy;
};

void add(Report& report, const std::string& id, const std::string& what, const Findings& found,
         const std::string& all_well) {
    Status status = !found.failures.empty()   ? Status::fail
                    : !found.warnings.empty() ? Status::warn
                                              : Status::pass;
    std::string summary = status == Status::fail   ? what + ": " + join(found.failures, "; ")
                          : status == Status::warn ? what + ": " + join(found.warnings, "; ")
                                                   : all_well;
    // The evidence is what the summary does not already say.
    std::vector<std::string> evidence;
    if (status == Status::fail) evidence = found.warnings;
    if (status != Status::pass) evidence.insert(evidence.end(), found.notes.begin(), found.notes.end());
    report.add_check(make_check(id, Layer::device, status, summary, join(evidence, "; "),
                                status == Status::pass ? "" : found.remedy, found.facts));
}

// ---- Xid -------------------------------------------------------------------

// The worst origin first: hardware, then the driver, then the application.
int origin_rank(const std::optional<XidInfo>& info) {
    if (!info) return 1;  // unknown numbers are treated as the driver's
    switch (info->points_at) {
        case XidOrigin::hardware: return 2;
        case XidOrigin::driver: return 1;
        case XidOrigin::application: return 0;
    }
    return 1;
}

void judge_xid(Report& report, const std::vector<Gpu>& present) {
    const Fact* events = report.find_fact("host.kernel_log.xid_events");
    if (!events || !events->value.is_array()) {
        if (auto problem = fact_string(report, "host.kernel_log.problem"))
            report.add_check(make_check("health.xid", Layer::device, Status::skip,
                                        "Xid events not read: the kernel log cannot be read here", *problem,
                                        "run as root, or pass a saved log with --kernel-log FILE",
                                        {"host.kernel_log.problem"}));
        return;
    }
    // PCI address -> Xid number -> {count, newest time}
    struct Seen {
        int count = 0;
        std::string newest;
    };
    std::map<std::string, std::map<int, Seen>> by_gpu;
    for (const Json& event : events->value) {
        if (!event.is_object() || !event.contains("xid") || !event["xid"].is_number_integer()) continue;
        std::string pci = canonical_pci(event.value("pci", std::string()));
        Seen& seen = by_gpu[pci][event["xid"].get<int>()];
        ++seen.count;
        seen.newest = event.value("time", std::string());
    }
    std::map<std::string, std::string> label;
    for (const Gpu& gpu : present)
        if (!gpu.pci.empty()) label[gpu.pci] = gpu.label;
    Findings found;
    found.facts = {"host.kernel_log.xid_events", "host.kernel_log.source"};
    int worst_rank = -1;
    for (const auto& [pci, numbers] : by_gpu) {
        std::string who = pci.empty()        ? std::string("a GPU the log does not name")
                          : label.count(pci) ? label[pci]
                                             : pci + " (not present now: fallen off the bus or disabled)";
        std::vector<std::string> parts;
        int rank = label.count(pci) || pci.empty() ? 0 : 2;  // a GPU that vanished is hardware
        for (const auto& [number, seen] : numbers) {
            std::optional<XidInfo> info = find_xid(number);
            std::string origin = info ? std::string(xid_origin_name(info->points_at)) : "unknown";
            parts.push_back("Xid " + std::to_string(number) + " x" + std::to_string(seen.count) + " (" +
                            (info ? std::string(info->meaning) : "not in strata's catalog") +
                            "; points at the " + origin +
                            (seen.newest.empty() ? "" : "; newest " + seen.newest) + ")");
            int r = origin_rank(info);
            rank = std::max(rank, r);
            if (r > worst_rank || (r == worst_rank && found.remedy.empty())) {
                worst_rank = std::max(worst_rank, r);
                if (info && r == worst_rank) found.remedy = std::string(info->action);
            }
        }
        std::string line = who + ": " + join(parts, ", ");
        if (rank == 2)
            found.failures.push_back(line);
        else if (rank == 1)
            found.warnings.push_back(line);
        else
            found.notes.push_back(line + " - an application's fault, not the node's");
    }
    if (found.remedy.empty()) found.remedy = "see the NVIDIA Xid catalogue for the numbers above";
    std::string source = fact_string(report, "host.kernel_log.source").value_or("the kernel log");
    add(report, "health.xid", "Xid events in " + source, found,
        by_gpu.empty() ? "no Xid event in " + source
                       : "only application faults in " + source + " (" + join(found.notes, "; ") + ")");
}

// ---- memory ------------------------------------------------------------------

void judge_memory(Report& report, const std::vector<Gpu>& present) {
    Findings found;
    bool any = false;
    for (const Gpu& gpu : present) {
        auto volatile_unc = gpu_int(report, gpu, "ecc_errors.volatile_uncorrected");
        auto aggregate_unc = gpu_int(report, gpu, "ecc_errors.aggregate_uncorrected");
        auto volatile_cor = gpu_int(report, gpu, "ecc_errors.volatile_corrected");
        auto remapped = gpu_int(report, gpu, "row_remap.uncorrectable");
        bool retired_pending = gpu_true(report, gpu, "retired_pages_pending");
        bool remap_pending = gpu_true(report, gpu, "row_remap.pending");
        bool remap_failed = gpu_true(report, gpu, "row_remap.failed");
        any = any || volatile_unc || aggregate_unc || gpu_has(report, gpu, "retired_pages_pending") ||
              gpu_has(report, gpu, "row_remap.pending");
        std::vector<std::string> bad, doubtful, noted;
        if (remap_failed) bad.push_back("row remapping failed (no spare rows left)");
        if (remap_pending) bad.push_back("a row remapping is pending a GPU reset");
        if (retired_pending) bad.push_back("retired pages are pending a GPU reset");
        if (volatile_unc.value_or(0) > 0)
            bad.push_back(std::to_string(*volatile_unc) +
                          " uncorrectable ECC error(s) since the driver loaded");
        if (aggregate_unc.value_or(0) > 0 && volatile_unc.value_or(0) == 0)
            doubtful.push_back(std::to_string(*aggregate_unc) +
                               " uncorrectable ECC error(s) in its lifetime");
        if (remapped.value_or(0) > 0 && !remap_failed && !remap_pending)
            noted.push_back(std::to_string(*remapped) + " row(s) remapped for uncorrectable errors");
        if (volatile_cor.value_or(0) > 0)
            noted.push_back(std::to_string(*volatile_cor) + " corrected ECC error(s)");
        if (!bad.empty()) found.failures.push_back(gpu.label + ": " + join(bad, ", "));
        if (!doubtful.empty()) found.warnings.push_back(gpu.label + ": " + join(doubtful, ", "));
        if (!noted.empty()) found.notes.push_back(gpu.label + ": " + join(noted, ", "));
        for (const char* field : {"ecc_errors.volatile_uncorrected", "retired_pages_pending",
                                  "row_remap.pending", "row_remap.failed"})
            if (gpu_has(report, gpu, field)) found.facts.push_back(key(gpu, field));
    }
    if (!any) return;
    found.remedy =
        found.failures.empty()
            ? "watch the count: a GPU whose uncorrectable errors grow should be replaced"
            : "drain the node and reset the GPU (nvidia-smi -r) to apply pending retirement or "
              "remapping; a failed remapping or recurring uncorrectable errors mean the GPU must be "
              "replaced (RMA)";
    add(report, "health.memory", "GPU memory", found, "GPU memory: no uncorrectable error, nothing pending");
}

// ---- throttling and heat ---------------------------------------------------------

void judge_throttling(Report& report, const std::vector<Gpu>& present) {
    Findings found;
    bool any = false;
    // Limits that mean a fault: the board or the system slows the GPU down.
    static const std::vector<std::pair<std::string, std::string>> kFaults = {
        {"hw_slowdown", "hardware slowdown"},
        {"hw_thermal", "hardware thermal slowdown"},
        {"hw_power_brake", "power brake (the system asserted it)"},
        {"sw_thermal", "software thermal slowdown"}};
    for (const Gpu& gpu : present) {
        std::vector<std::string> bad, doubtful;
        if (auto limits = fact_string(report, key(gpu, "clock_limits"))) {
            any = true;
            found.facts.push_back(key(gpu, "clock_limits"));
            for (const auto& [word, meaning] : kFaults)
                if (limits->find(word) != std::string::npos) bad.push_back(meaning);
        }
        auto temperature = gpu_int(report, gpu, "temperature_c");
        auto slowdown = gpu_int(report, gpu, "slowdown_temperature_c");
        if (temperature) {
            any = true;
            found.facts.push_back(key(gpu, "temperature_c"));
            if (slowdown && *temperature >= *slowdown)
                bad.push_back(std::to_string(*temperature) + " C, at or above its slowdown threshold " +
                              std::to_string(*slowdown) + " C");
            else if (slowdown && *temperature + 5 >= *slowdown)
                doubtful.push_back(std::to_string(*temperature) +
                                   " C, within 5 C of its slowdown threshold " + std::to_string(*slowdown) +
                                   " C");
        }
        if (!bad.empty()) found.failures.push_back(gpu.label + ": " + join(bad, ", "));
        if (!doubtful.empty()) found.warnings.push_back(gpu.label + ": " + join(doubtful, ", "));
    }
    if (!any) return;
    found.remedy =
        "check the cooling (fans, airflow, inlet temperature) and the power supply; a power brake is "
        "asserted by the system (PSU or BMC), not the GPU";
    add(report, "health.throttling", "GPU clocks held down", found,
        "no GPU is slowed down by heat, power brake or a hardware limit");
}

// ---- links -----------------------------------------------------------------

// The kernel's view of the link, where sysfs has the device (its address has
// the function: 0000:3b:00.0).
std::optional<long long> sysfs_number(const ProbeContext& context, const Gpu& gpu, const char* file) {
    if (gpu.pci.empty()) return std::nullopt;
    auto text = context.read("/sys/bus/pci/devices/" + gpu.pci + ".0/" + file, 256);
    if (!text) return std::nullopt;
    // "16", or a speed "32.0 GT/s PCIe"
    try {
        return static_cast<long long>(std::stod(*text) *
                                      (std::string(file).find("speed") != std::string::npos ? 10 : 1));
    } catch (...) {
        return std::nullopt;
    }
}

void judge_pcie(const ProbeContext& context, Report& report, const std::vector<Gpu>& present) {
    Findings found;
    bool any = false;
    for (const Gpu& gpu : present) {
        auto width = gpu_int(report, gpu, "pcie.width"), max_width = gpu_int(report, gpu, "pcie.max_width");
        auto generation = gpu_int(report, gpu, "pcie.generation"),
             max_generation = gpu_int(report, gpu, "pcie.max_generation");
        std::string source = "NVML";
        if (!width || !max_width) {
            width = sysfs_number(context, gpu, "current_link_width");
            max_width = sysfs_number(context, gpu, "max_link_width");
            source = "sysfs";
        }
        if (!width || !max_width) continue;
        any = true;
        if (*width < *max_width)
            found.failures.push_back(gpu.label + ": x" + std::to_string(*width) + " of x" +
                                     std::to_string(*max_width) + " (" + source + ")");
        if (generation && max_generation && *generation < *max_generation)
            found.notes.push_back(gpu.label + ": generation " + std::to_string(*generation) + " of " +
                                  std::to_string(*max_generation) + " (links slow down when idle)");
        if (source == "NVML") found.facts.push_back(key(gpu, "pcie.width"));
    }
    if (!any) return;
    found.remedy =
        "a link trained narrower than it can run: reseat the GPU or its riser, check the slot and cable; "
        "the GPU's host bandwidth is cut in proportion";
    add(report, "health.pcie", "PCIe links narrower than they can be", found,
        "every GPU's PCIe link runs at its full width");
}

void judge_nvlink(Report& report, const std::vector<Gpu>& present) {
    Findings found;
    bool any = false;
    // NVML reports every link of an NVLink-capable GPU as inactive where
    // nothing is at the other end: a single SXM GPU passed through to a VM,
    // a PCIe card without a bridge (NVIDIA's own health agent had the same
    // false positive). Inactive links mean "down" only where NVLink is in
    // use: some link of the node is active, or the GPU registered with an
    // NVSwitch fabric.
    bool node_has_active_link = false;
    for (const Gpu& gpu : present) node_has_active_link |= gpu_int(report, gpu, "nvlink.up").value_or(0) > 0;
    for (const Gpu& gpu : present) {
        auto down = fact_string(report, key(gpu, "nvlink.down"));
        if (!down) continue;
        bool fabric = fact_string(report, key(gpu, "fabric.state")).value_or("") == "completed";
        if (!node_has_active_link && !fabric) {
            found.notes.push_back(gpu.label + ": no NVLink link active (no peer), not judged");
            continue;
        }
        any = true;
        found.facts.push_back(key(gpu, "nvlink.down"));
        if (!down->empty())
            found.failures.push_back(gpu.label + ": link(s) " + *down + " down, " +
                                     std::to_string(gpu_int(report, gpu, "nvlink.up").value_or(0)) + " up");
    }
    // On NVSwitch systems each GPU registers with the fabric; until it has,
    // NVLink traffic between GPUs fails.
    for (const Gpu& gpu : present) {
        auto state = fact_string(report, key(gpu, "fabric.state"));
        if (!state) continue;
        any = true;
        found.facts.push_back(key(gpu, "fabric.state"));
        long long status = gpu_int(report, gpu, "fabric.status").value_or(0);
        if (*state != "completed" || status != 0)
            found.failures.push_back(gpu.label + ": NVSwitch fabric registration " + *state +
                                     (status != 0 ? " (NVML error " + std::to_string(status) + ")" : ""));
    }
    if (!any) return;
    found.remedy =
        "reset the GPU; if links stay down, check the NVLink bridges or the NVSwitch baseboard, and on "
        "NVSwitch systems that nvidia-fabricmanager is running";
    add(report, "health.nvlink", "NVLink and the NVSwitch fabric", found,
        "every NVLink link is up (and every GPU is registered with the fabric)");
}

// ---- inventory ------------------------------------------------------------------

void judge_gpu_count(Report& report, const HealthOptions& options, const std::vector<Gpu>& present) {
    if (!options.expected_gpus) return;
    long long seen = static_cast<long long>(present.size());
    long long nvml = fact_int(report, "device.nvml_count").value_or(-1);
    Findings found;
    found.facts = {"device.count"};
    if (seen < *options.expected_gpus)
        found.failures.push_back(std::to_string(seen) + " GPU(s) usable through CUDA" +
                                 (nvml >= 0 ? ", " + std::to_string(nvml) + " through NVML" : "") + ", " +
                                 std::to_string(*options.expected_gpus) + " expected");
    else if (seen > *options.expected_gpus)
        found.warnings.push_back(std::to_string(seen) + " GPU(s), more than the " +
                                 std::to_string(*options.expected_gpus) + " expected");
    found.remedy =
        "a missing GPU has usually fallen off the bus (see health.xid and the kernel log): reseat or "
        "replace it; check CUDA_VISIBLE_DEVICES and the container's GPU request";
    add(report, "health.gpu_count", "GPU count", found, std::to_string(seen) + " GPU(s), as expected");
}

// GPUs whose maximum SM clock sits far below the node's median: an
// application-clock cap or a board stuck in a low state.
void judge_stragglers(Report& report, const std::vector<Gpu>& present) {
    std::vector<std::pair<const Gpu*, long long>> clocks;
    for (const Gpu& gpu : present)
        if (auto mhz = gpu_int(report, gpu, "max_sm_clock_mhz")) clocks.emplace_back(&gpu, *mhz);
    if (clocks.size() < 3) return;  // of two GPUs, which one is slow is a guess
    std::vector<long long> sorted;
    for (const auto& [gpu, mhz] : clocks) sorted.push_back(mhz);
    std::sort(sorted.begin(), sorted.end());
    double median = sorted.size() % 2 ? sorted[sorted.size() / 2]
                                      : (sorted[sorted.size() / 2 - 1] + sorted[sorted.size() / 2]) / 2.0;
    Findings found;
    for (const auto& [gpu, mhz] : clocks) {
        found.facts.push_back(key(*gpu, "max_sm_clock_mhz"));
        if (mhz < 0.9 * median)
            found.failures.push_back(gpu->label + ": maximum SM clock " + std::to_string(mhz) +
                                     " MHz, the node's median " +
                                     std::to_string(static_cast<long long>(median)) + " MHz");
    }
    found.remedy =
        "reset the application clocks (nvidia-smi -rac, -rgc) or find what capped them; a GPU that stays "
        "slow is a hardware fault";
    add(report, "health.stragglers", "GPUs far below the node's median", found,
        "no GPU's maximum clock is far below the node's median");
}

// NVML is where every GPU's health is read (ECC, throttling, links). Where it
// could not start, those checks have nothing to judge: that is not a pass.
void judge_nvml_readable(Report& report) {
    std::string why, fact;
    if (auto error = fact_string(report, "driver.nvml.load_error")) {
        why = "NVML could not be loaded: " + *error;
        fact = "driver.nvml.load_error";
    } else if (auto result = fact_int(report, "driver.nvml.init_result"); result && *result != 0) {
        why = "nvmlInit failed: " +
              fact_string(report, "driver.nvml.init_error").value_or(std::to_string(*result));
        fact = "driver.nvml.init_result";
    }
    if (why.empty()) return;
    report.add_check(make_check("health.nvml", Layer::device, Status::skip,
                                "GPU health not read (ECC, throttling, PCIe and NVLink): " + why, "",
                                "see driver.nvml_init; until NVML answers, this node's GPU health is unknown",
                                {fact}));
}

}  // namespace

std::string canonical_pci(const std::string& address) {
    std::string text;
    for (char c : address) text += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    // domain:bus:device[.function]
    size_t first = text.find(':'), second = first == std::string::npos ? first : text.find(':', first + 1);
    if (second == std::string::npos) return "";
    std::string domain = text.substr(0, first), bus = text.substr(first + 1, second - first - 1);
    std::string device = text.substr(second + 1, 2);
    auto hex = [](const std::string& s) {
        return !s.empty() && std::all_of(s.begin(), s.end(),
                                         [](char c) { return std::isxdigit(static_cast<unsigned char>(c)); });
    };
    if (!hex(domain) || domain.size() > 8 || !hex(bus) || bus.size() != 2 || !hex(device) ||
        device.size() != 2)
        return "";
    while (domain.size() > 4 && domain[0] == '0') domain.erase(0, 1);
    while (domain.size() < 4) domain = "0" + domain;
    return domain + ":" + bus + ":" + device;
}

std::string_view health_verdict_name(HealthVerdict verdict) {
    switch (verdict) {
        case HealthVerdict::healthy: return "healthy";
        case HealthVerdict::warning: return "warning";
        case HealthVerdict::drain: return "drain";
        case HealthVerdict::unknown: return "unknown";
    }
    return "healthy";
}

void judge_node_health(const ProbeContext& context, const HealthOptions& options, Report& report) {
    std::vector<Gpu> present = gpus(report);
    judge_nvml_readable(report);
    judge_xid(report, present);
    judge_memory(report, present);
    judge_throttling(report, present);
    judge_pcie(context, report, present);
    judge_nvlink(report, present);
    judge_gpu_count(report, options, present);
    judge_stragglers(report, present);
}

HealthVerdict health_verdict(const Report& report) {
    if (report.exit_code() != 0) return HealthVerdict::drain;
    bool warned = false;
    for (const Check& check : report.checks()) {
        if (check.id.rfind("health.", 0) != 0 || check.ignored) continue;
        // A health check that could not look (NVML down, the kernel log
        // unreadable): the node's health is unknown, never healthy.
        if (check.status == Status::skip) return HealthVerdict::unknown;
        warned |= check.status == Status::warn;
    }
    return warned ? HealthVerdict::warning : HealthVerdict::healthy;
}

}  // namespace strata
