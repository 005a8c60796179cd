// How many GPUs each source sees: /dev nodes, NVML, and CUDA (after
// CUDA_VISIBLE_DEVICES). Differences are explained, not just listed. And the
// compute mode NVML reports, which decides whether a second process may use
// a GPU at all.
#include <algorithm>

#include "diagnosis/fact_access.h"
#include "diagnosis/rules.h"
#include "probes/probes.h"
#include "probes/text_util.h"

namespace strata {

void rule_device_counts(const ProbeContext& context, Report& report) {
    auto nvml = fact_int(report, "device.nvml_count");
    auto cuda = fact_int(report, "device.count");
    if (!nvml || !cuda) return;
    long long nodes = -1;
    if (const Fact* fact = report.find_fact("device.nodes"); fact && fact->value.is_array()) {
        nodes = 0;
        for (const auto& node : fact->value) {
            std::string name = node.get<std::string>();
            if (name.size() > 11 && name.rfind("/dev/nvidia", 0) == 0 &&
                std::isdigit(static_cast<unsigned char>(name[11])))
                ++nodes;
        }
    }
    std::string counts = "NVML " + std::to_string(*nvml) + ", CUDA " + std::to_string(*cuda) +
                         (nodes >= 0 ? ", /dev nodes " + std::to_string(nodes) : "");
    auto visible = context.env("CUDA_VISIBLE_DEVICES");
    std::vector<std::string> facts = {"device.nvml_count", "device.count"};
    if (*cuda == *nvml && (nodes < 0 || nodes == *nvml)) {
        report.add_check(make_check("device.count_agreement", Layer::device, Status::pass,
                                    "every source sees the same GPUs: " + counts, "", "", facts));
        return;
    }
    if (*cuda < *nvml && visible) {
        report.add_check(make_check("device.count_agreement", Layer::device, Status::pass,
                                    "CUDA_VISIBLE_DEVICES=" + *visible + " shows CUDA " +
                                        std::to_string(*cuda) + " of " + std::to_string(*nvml) + " GPUs",
                                    counts, "", facts));
        return;
    }
    report.add_check(make_check(
        "device.count_agreement", Layer::device, Status::warn, "the GPU counts disagree: " + counts,
        "NVML counts every GPU the driver manages; CUDA skips GPUs in MIG mode without instances, GPUs it "
        "cannot "
        "initialise, and those hidden by CUDA_VISIBLE_DEVICES",
        "compare `nvidia-smi -L` with the CUDA devices; a GPU missing from CUDA often shows an Xid in dmesg",
        facts));
}

// A GPU in exclusive compute mode takes one context (one process, or one
// thread); every other process gets "CUDA-capable device(s) is/are busy or
// unavailable" (46) while it is held. Clusters set it on purpose, so that is
// a warning; "prohibited" admits no context at all and fails.
void rule_compute_mode(Report& report) {
    auto count = fact_int(report, "device.count");
    if (!count) return;
    std::vector<std::string> exclusive, prohibited, facts;
    for (long long index = 0; index < std::min<long long>(*count, 4096); ++index) {
        std::string key = "device." + std::to_string(index) + ".compute_mode";
        auto mode = fact_string(report, key);
        if (!mode) continue;
        facts.push_back(key);
        if (*mode == "prohibited")
            prohibited.push_back("GPU " + std::to_string(index));
        else if (*mode == "exclusive_process" || *mode == "exclusive_thread")
            exclusive.push_back("GPU " + std::to_string(index) + " (" + *mode + ")");
    }
    if (facts.empty()) return;
    if (!prohibited.empty()) {
        report.add_check(
            make_check("device.compute_mode", Layer::device, Status::fail,
                       join(prohibited, ", ") + " in prohibited compute mode: no process may use it",
                       "nvmlDeviceGetComputeMode",
                       "nvidia-smi -i <index> -c DEFAULT (as root), unless the GPU is fenced off on "
                       "purpose",
                       facts));
        return;
    }
    if (!exclusive.empty()) {
        report.add_check(
            make_check("device.compute_mode", Layer::device, Status::warn,
                       join(exclusive, ", ") +
                           ": one process at a time; any other gets \"CUDA-capable device(s) is/are busy or "
                           "unavailable\" (46) while it runs",
                       "nvmlDeviceGetComputeMode",
                       "expected where a scheduler hands out whole GPUs; otherwise nvidia-smi -i <index> -c "
                       "DEFAULT (as root)",
                       facts));
        return;
    }
    report.add_check(make_check("device.compute_mode", Layer::device, Status::pass,
                                "every GPU is in the default compute mode", "nvmlDeviceGetComputeMode", "",
                                facts));
}

}  // namespace strata
