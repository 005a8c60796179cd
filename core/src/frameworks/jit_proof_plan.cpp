#include "frameworks/jit_proof_plan.h"

#include <cstdio>

#include "diagnosis/image_verdicts.h"
#include "plugins/plugin_trust.h"

namespace strata {

JitProofPlan plan_jit_proof(const FrameworkLayer& layer, uint32_t sm) {
    JitProofPlan plan;
    const std::vector<GpuInfo> gpu = {{0, "", sm}};
    for (const FrameworkInstall& install : layer.installs) {
        std::vector<std::string> files = install.device_code_files;
        for (const FrameworkExtension& extension : install.extensions)
            files.insert(files.end(), extension.device_code_files.begin(), extension.device_code_files.end());
        if (files.empty()) continue;
        // The driver's compiler runs on this code as whoever runs strata:
        // only packages no one else could have written (plugin_trust.h).
        if (auto refusal = check_directory_trust(install.site_dir)) {
            plan.left_out.push_back(install.name + " " + install.version + " in " + install.site_dir +
                                    ": not handed to the driver: " + *refusal);
            continue;
        }
        ++plan.installs;
        // No driver: judged for the GPU alone (see the header).
        FileVerdicts verdicts = judge_files(files, gpu, "");
        for (const FileVerdicts::JitFatBinary& fat_binary : verdicts.jit_fat_binaries) {
            char offset[32];
            std::snprintf(offset, sizeof offset, "@0x%llx",
                          static_cast<unsigned long long>(fat_binary.offset));
            plan.items.push_back({install.id + "/" + path_under(fat_binary.file, install.site_dir) + offset,
                                  fat_binary.file, fat_binary.offset, fat_binary.bytes, fat_binary.image});
        }
    }
    return plan;
}

Json jit_proof_list(const JitProofPlan& plan) {
    Json items = Json::array();
    for (const JitProofItem& item : plan.items)
        items.push_back({{"name", item.name},
                         {"file", item.file},
                         {"offset", item.offset},
                         {"bytes", item.bytes},
                         {"image", item.image}});
    return {{"fat_binaries", std::move(items)}};
}

}  // namespace strata
