// How many GPUs each source sees: /dev nodes, NVML, and CUDA (after
// CUDA_VISIBLE_DEVICES). Differences are explained, not just listed.
#include "diagnosis/fact_access.h"
#include "diagnosis/rules.h"
#include "probes/probes.h"

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

}  // namespace strata
