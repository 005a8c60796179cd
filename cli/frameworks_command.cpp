// `strata frameworks`: the framework layer alone — which PyTorch, JAX,
// TensorFlow, CuPy and ONNX Runtime builds are installed, and whether each
// runs on the GPUs and driver here (or the --sm / --driver given).
#include <filesystem>
#include <iostream>

#include "cli/commands.h"
#include "doctor/doctor.h"
#include "frameworks/framework_layer.h"
#include "frameworks/framework_proof.h"
#include "model/usage_error.h"
#include "probes/kernel_module_version.h"
#include "probes/probes.h"
#include "probes/text_util.h"
#include "report/writers.h"
#include "strata/arch/tables.h"

namespace strata::cli {

namespace {

void row(std::string& out, const std::string& label, const std::string& value) {
    if (value.empty()) return;
    std::string padded = label + std::string(label.size() < 13 ? 13 - label.size() : 1, ' ');
    size_t start = 0;
    bool first = true;
    while (start <= value.size()) {
        size_t end = value.find('\n', start);
        if (end == std::string::npos) end = value.size();
        out += "  " + (first ? padded : std::string(padded.size(), ' ')) + value.substr(start, end - start) +
               "\n";
        first = false;
        start = end + 1;
    }
}

std::string targets_text(const FrameworkTargets& targets) {
    std::string gpus;
    for (const GpuInfo& gpu : targets.gpus)
        gpus += (gpus.empty() ? "" : ", ") + (targets.gpus_given
                                                  ? "CC " + arch::cc_text(gpu.sm)
                                                  : "GPU " + std::to_string(gpu.index) + " (" + gpu.name +
                                                        ", CC " + arch::cc_text(gpu.sm) + ")");
    std::string out =
        gpus.empty() ? "no GPU here (--sm names one)" : gpus + (targets.gpus_given ? " (--sm)" : "");
    out += targets.driver_version.empty()
               ? ", no driver (--driver names one)"
               : ", driver " + targets.driver_version + (targets.driver_given ? " (--driver)" : "");
    return out;
}

std::string render_frameworks(const FrameworkLayer& layer, const FrameworkTargets& targets,
                              const Report& report, bool color) {
    std::string out = "strata frameworks — judged for " + targets_text(targets) + "\n\nenvironments\n";
    for (const PythonEnvironment& env : layer.environments) {
        out +=
            "  " + env.label + (env.python_version.empty() ? "" : " (Python " + env.python_version + ")") +
            ": " +
            (env.directories.empty() ? std::string("no site-packages found") : join(env.directories, ", ")) +
            "\n";
        if (!env.problem.empty()) out += "    " + env.problem + "\n";
    }
    if (layer.environments.empty()) out += "  none found\n";
    for (const FrameworkInstall& install : layer.installs) {
        out += "\n" + install.name + " " + install.version + "  [" + install.id + "]  " + install.site_dir +
               "\n";
        row(out, "packages", join(install.distributions, ", "));
        row(out, "CUDA build",
            install.cuda_build ? (install.cuda_version.empty() ? "unknown" : install.cuda_version) + "  (" +
                                     install.cuda_source + ")"
                               : install.build_kind);
        std::string libraries_built;
        if (!install.cudnn_version.empty()) libraries_built += "cuDNN " + install.cudnn_version;
        if (!install.nccl_version.empty())
            libraries_built +=
                std::string(libraries_built.empty() ? "" : ", ") + "NCCL " + install.nccl_version;
        // A floor from a `>=` requirement is not what it was built with.
        row(out, install.library_versions_are_floors ? "requires" : "built with",
            install.library_versions_are_floors && !libraries_built.empty() ? "≥ " + libraries_built
                                                                            : libraries_built);
        if (install.cuda_build)
            row(out, "device code",
                install.device_code_files.empty()
                    ? "none in " + std::to_string(install.elf_files) + " shared libraries"
                    : "SASS " + (install.sass.empty() ? "none" : join(install.sass, " ")) + "; PTX " +
                          (install.ptx.empty() ? "none" : join(install.ptx, " ")) + "  (" +
                          std::to_string(install.device_code_files.size()) + " of " +
                          std::to_string(install.elf_files) + " shared libraries)");
        std::vector<std::string> installed, missing;
        std::string extras;
        for (const WheelDependency& dependency : install.dependencies) {
            if (!dependency.installed.empty())
                installed.push_back(dependency.name + " " + dependency.installed);
            else
                missing.push_back(dependency.name);
            if (!dependency.extra.empty() && extras.find(dependency.extra) == std::string::npos)
                extras += (extras.empty() ? "" : ", ") + dependency.extra;
        }
        std::string wheels = join(installed, ", ");
        if (!missing.empty())
            wheels += (wheels.empty() ? "" : "\n") + std::string("not installed: ") + join(missing, ", ");
        if (!extras.empty()) wheels += "\n(some only with the extra " + extras + ")";
        row(out, "dependencies", wheels);
        std::vector<std::string> libraries;
        for (const LibraryNeed& need : install.libraries)
            libraries.push_back(
                need.soname + " -> " +
                (need.candidates.empty()
                     ? std::string("not found")
                     : need.candidates.front().real_path + "  (" + need.candidates.front().via +
                           (need.versions.front().empty() ? "" : ", " + need.versions.front()) + ")"));
        row(out, "loads", join(libraries, "\n"));
    }
    out += "\nchecks\n" + render_layer_checks(report, Layer::framework, color, terminal_columns());
    return out;
}

// The installed driver's version without plugins: NVML's, else the kernel module's.
std::string installed_driver(const GpuDiscovery& present, const ProbeContext& context) {
    if (!present.driver_version.empty()) return present.driver_version;
    if (auto text = context.read("/proc/driver/nvidia/version"))
        if (auto parsed = parse_kernel_module_version(*text)) return parsed->version;
    return {};
}

}  // namespace

std::function<int()> register_frameworks(CLI::App& app) {
    struct Options {
        EnvironmentOptions environments;
        std::vector<std::string> sms;
        std::string driver, color = "auto";
        bool json = false, prove = false;
        double prove_timeout_s = 120;
    };
    auto options = std::make_shared<Options>();
    CLI::App* command = app.add_subcommand("frameworks",
                                           "Find PyTorch, JAX, TensorFlow, CuPy and ONNX Runtime installs "
                                           "and judge them for this GPU and driver");
    add_environment_options(*command, options->environments);
    command
        ->add_option(
            "--sm", options->sms,
            "Judge for this compute capability instead of the GPUs here: 90, 9.0 or sm_90 (repeatable)")
        ->allow_extra_args(false);
    command->add_option("--driver", options->driver,
                        "Judge against this driver version instead of the installed one, e.g. 570.86.10");
    command->add_flag("--json", options->json, "Print the framework layer as a strata report (JSON)");
    command->add_flag(
        "--prove", options->prove,
        "Also import each framework in a child with a deadline: its own view (CUDA, cuDNN, NCCL, "
        "architectures, GPUs, loaded libraries) held against strata's reading, and one verified "
        "GPU computation where a GPU is usable");
    command
        ->add_option("--prove-timeout", options->prove_timeout_s,
                     "Deadline per import in seconds (default 120)")
        ->check(CLI::Range(1.0, 3600.0));
    add_color_option(*command, options->color);

    return [options]() {
        auto started = std::chrono::steady_clock::now();
        FrameworkOptions framework_options;
        framework_options.environments = {options->environments.pythons, options->environments.site_packages};
        for (const std::string& text : options->sms) {
            auto sm = arch::parse_compute_capability(text);
            if (!sm)
                throw UsageError("--sm '" + text + "' is not a compute capability (try 90, 9.0 or sm_90)");
            framework_options.sms.push_back(*sm);
        }
        if (!options->driver.empty() && !arch::parse_driver_version(options->driver))
            throw UsageError("--driver '" + options->driver + "' is not a driver version (e.g. 570.86.10)");
        framework_options.driver = options->driver;

        ProbeContext context = ProbeContext::live();
        GpuDiscovery present;
        if (framework_options.sms.empty() || framework_options.driver.empty()) present = discover_gpus();
        present.driver_version = installed_driver(present, context);
        FrameworkTargets targets = framework_targets(framework_options, present);

        Report report;
        add_build_facts(report);
        RunInfo info{"frameworks", utc_timestamp_now(), {}};
        FrameworkLayer layer = scan_framework_layer(context, framework_options);
        judge_framework_layer(layer, targets, report);
        if (options->prove) {
            ProofOptions proof;
            proof.deadline =
                std::chrono::milliseconds(static_cast<long long>(options->prove_timeout_s * 1000));
            prove_frameworks(layer, static_cast<long long>(present.gpus.size()), proof, report);
        }
        info.duration =
            std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - started);
        if (options->json)
            std::cout << to_json_text(report_to_json(report, info), 2) << '\n';
        else
            std::cout << render_frameworks(layer, targets, report, use_color(options->color));
        return report.exit_code();
    };
}

}  // namespace strata::cli
