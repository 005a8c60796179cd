#include "cli/jit_proof_session.h"

#include <algorithm>
#include <filesystem>
#include <map>

#include "frameworks/jit_proof_plan.h"
#include "levels.h"
#include "report/atomic_file.h"
#include "report/writers.h"
#include "strata/arch/tables.h"

namespace strata::cli {

namespace {

namespace fs = std::filesystem;
using bench::level_jit_passes;

// The compute capability of GPU `device` from the environment record (the
// driver plugin's device.N.compute_capability); 0 when unknown.
uint32_t compute_capability_of(const Json& environment, int device) {
    const Json& cc =
        environment_value(environment, "device." + std::to_string(device) + ".compute_capability");
    auto sm = cc.is_string() ? arch::parse_compute_capability(cc.get<std::string>()) : std::nullopt;
    return sm.value_or(0);
}

}  // namespace

void run_jit_proofs(const RunOptions& run, const BenchmarkRequest& request, const std::regex& filter,
                    const std::vector<BenchPlugin>& described, const std::vector<int>& devices,
                    const Json& environment, std::vector<Json>& runs, BenchmarkSession& session) {
    // The proof runs in the driver plugin's runner, whichever of its
    // benchmarks --filter leaves.
    auto driver = std::find_if(described.begin(), described.end(),
                               [](const BenchPlugin& p) { return p.record.name == "driver"; });
    if (driver == described.end()) {
        session.skipped.push_back("driver/jit_installed: the driver plugin did not load");
        return;
    }
    FrameworkLayer layer = scan_framework_layer(ProbeContext::live(), run.frameworks);
    std::map<uint32_t, JitProofPlan> plans;  // by compute capability: a node's GPUs are often alike
    for (int device : devices) {
        std::string gpu = "GPU " + std::to_string(device);
        uint32_t sm = compute_capability_of(environment, device);
        if (sm == 0) {
            session.skipped.push_back("driver/jit_installed: " + gpu +
                                      ": no compute capability to judge the installed fat binaries for (the "
                                      "driver reported none)");
            continue;
        }
        auto planned = plans.find(sm);
        if (planned == plans.end()) planned = plans.emplace(sm, plan_jit_proof(layer, sm)).first;
        JitProofPlan plan = planned->second;
        std::string suffix = "/device:" + std::to_string(device);
        std::erase_if(plan.items, [&](const JitProofItem& item) {
            return !std::regex_search("driver/jit_installed/" + item.name + suffix, filter);
        });
        if (device == devices.front())
            for (const std::string& why : plan.left_out)
                session.notes.push_back("driver/jit_installed: " + why);
        std::string judged = std::to_string(plan.installs) + " framework install(s) with device code, for " +
                             gpu + " (CC " + arch::cc_text(sm) + ")";
        if (plan.items.empty()) {
            session.notes.push_back("driver/jit_installed: nothing to JIT-compile: no fat binary of " +
                                    judged + " is PTX alone");
            continue;
        }
        session.notes.push_back("driver/jit_installed: " + std::to_string(plan.items.size()) +
                                " fat binaries of " + judged + " handed to the driver's JIT");
        const fs::path directory = make_private_directory("strata-jit");
        const fs::path list = directory / "fat-binaries.json";
        write_file_atomically(list.string(), to_json_text(jit_proof_list(plan)));
        BenchmarkRequest jit = request;
        jit.filter = ".";
        int passes = request.repetitions > 0 ? request.repetitions : level_jit_passes(request.level);
        // A large PTX compiles for seconds; every pass compiles each again.
        double seconds = 5.0 * static_cast<double>(plan.items.size()) * passes;
        RunnerResult result = run_runner(run, jit, *driver, device, passes,
                                         {"STRATA_BENCH_JIT_LIST=" + list.string()}, seconds);
        std::error_code ec;
        fs::remove_all(directory, ec);
        if (!result.skipped.empty()) session.skipped.push_back("driver/jit_installed: " + result.skipped);
        if (!result.error.empty()) session.skipped.push_back("driver/jit_installed: " + result.error);
        if (result.results) runs.push_back(*result.results);
    }
}

}  // namespace strata::cli
