#include <iostream>

#include "binaries/binary_report.h"
#include "cli/commands.h"
#include "model/usage_error.h"
#include "probes/nvml_gpus.h"

namespace strata::cli {

std::function<int()> register_arch(CLI::App& app) {
    struct Options {
        std::vector<std::string> paths;
        std::vector<std::string> sms;
        bool gpu = false, json = false, details = false;
        std::string driver;
    };
    auto options = std::make_shared<Options>();
    CLI::App* command = app.add_subcommand(
        "arch", "List the device code in binaries and decide where it can run (no GPU needed)");
    command->add_option("paths", options->paths, "Files or directory trees (searched recursively)")
        ->required();
    auto* sm =
        command->add_option("--sm", options->sms, "Target compute capability: 90, 9.0 or sm_90 (repeatable)");
    command->add_flag("--gpu", options->gpu, "Target the GPUs present (found through NVML)")->excludes(sm);
    command->add_option(
        "--driver", options->driver,
        "Driver version to judge against, e.g. 580.65.06 (default with --gpu: the one installed)");
    command->add_flag("--json", options->json, "Print JSON");
    command->add_flag("--details", options->details,
                      "List every image with what its contents say (decompresses; slower)");

    return [options]() {
        ArchOptions arch_options;
        arch_options.details = options->details;
        for (const std::string& text : options->sms) {
            auto parsed = arch::parse_compute_capability(text);
            if (!parsed)
                throw UsageError("--sm '" + text + "' is not a compute capability (try 90, 9.0 or sm_90)");
            arch_options.targets.push_back({*parsed, "CC " + arch::cc_text(*parsed)});
        }
        std::string driver_text = options->driver;
        if (options->gpu) {
            GpuDiscovery discovery = discover_gpus();
            if (discovery.gpus.empty())
                std::cerr << "strata: no GPU found (" << discovery.problem
                          << "); listing images without a target\n";
            for (const GpuInfo& gpu : discovery.gpus)
                arch_options.targets.push_back({gpu.sm, "GPU " + std::to_string(gpu.index) + " (" + gpu.name +
                                                            ", CC " + arch::cc_text(gpu.sm) + ")"});
            // The driver found is used only when none was given, and a version
            // it reports that cannot be read is said as such: the user passed
            // no --driver to blame.
            if (driver_text.empty() && !discovery.driver_version.empty()) {
                arch_options.driver = arch::parse_driver_version(discovery.driver_version);
                if (!arch_options.driver)
                    std::cerr << "strata: warning: the driver reports version '" << discovery.driver_version
                              << "', which is not a driver version; judging without a driver\n";
            }
        }
        if (!driver_text.empty()) {
            arch_options.driver = arch::parse_driver_version(driver_text);
            if (!arch_options.driver)
                throw UsageError("--driver '" + driver_text + "' is not a driver version (e.g. 580.65.06)");
        }
        ScanResult scan = scan_paths(options->paths, options->details);
        int exit_code = arch_exit_code(scan, arch_options);
        if (options->json) {
            std::cout << arch_to_json(scan, arch_options, exit_code) << '\n';
        } else {
            std::cout << render_arch_text(scan, arch_options);
            std::cout.flush();
            std::cerr << arch_errors_text(scan);
        }
        return exit_code;
    };
}

}  // namespace strata::cli
