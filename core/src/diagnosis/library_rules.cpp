// Rules over the library plugins' facts: every copy of each loaded file on
// the search path (and which won, and why), the CUDA each library was built
// for against the driver and the runtime, and the libraries' device code
// against the GPUs present.
#include <filesystem>
#include <map>
#include <regex>
#include <set>

#include "diagnosis/fact_access.h"
#include "diagnosis/image_verdicts.h"
#include "diagnosis/rules.h"
#include "probes/library_search.h"
#include "probes/probes.h"
#include "strata/arch/tables.h"

namespace strata {

namespace {

// library.<plugin>.loaded.<n> facts, grouped by plugin.
std::map<std::string, std::vector<std::string>> loaded_files_by_plugin(const Report& report) {
    static const std::regex key("library\\.([A-Za-z0-9_]+)\\.loaded\\.[0-9]+");
    std::map<std::string, std::vector<std::string>> out;
    for (const Fact& fact : report.facts()) {
        std::smatch match;
        if (fact.value.is_string() && std::regex_match(fact.key, match, key))
            out[match[1].str()].push_back(fact.value.get<std::string>());
    }
    return out;
}

std::string real(const std::string& path) {
    std::error_code ec;
    auto resolved = std::filesystem::canonical(path, ec);
    return ec ? path : resolved.string();
}

void check_copies(const ProbeContext& context, const std::string& plugin,
                  const std::vector<std::string>& files, Report& report) {
    const LibrarySearch& search = context.library_search();
    std::string evidence;
    size_t with_others = 0, outside_search = 0;
    for (const std::string& file : files) {
        std::string soname = soname_from_file_name(std::filesystem::path(file).filename().string());
        auto copies = search.find_all(soname);
        std::string line = soname + ": loaded " + file;
        bool listed = false;
        std::vector<std::string> others;
        for (const LibraryLocation& copy : copies) {
            if (real(copy.real_path) == real(file)) {
                listed = true;
                line += copy.real_path == copies.front().real_path
                            ? " (first on the search path: " + copy.via + ")"
                            : " (" + copy.via + ", not first)";
            } else {
                others.push_back(copy.real_path + " (" + copy.via + ")");
            }
        }
        if (!listed) {
            ++outside_search;
            line += " (not on the search path: a RUNPATH, RPATH or a full-path dlopen chose it)";
        }
        if (!others.empty()) {
            ++with_others;
            line += "; also ";
            for (size_t i = 0; i < others.size(); ++i) line += (i ? ", " : "") + others[i];
        }
        evidence += (evidence.empty() ? "" : "\n") + line;
    }
    Status status = with_others ? Status::warn : Status::pass;
    std::string files_text = files.size() == 1
                                 ? "the " + plugin + " file loaded"
                                 : std::to_string(files.size()) + " " + plugin + " files loaded";
    std::string summary;
    if (with_others == 0)
        summary = (files.size() == 1 ? files_text : "each of the " + files_text) +
                  " is the only copy on the search path";
    else if (files.size() == 1)
        summary = files_text + " has other copies on the search path";
    else
        summary = std::to_string(with_others) + " of the " + files_text +
                  (with_others == 1 ? " has" : " have") + " other copies on the search path";
    report.add_check(make_check("library." + plugin + ".copies", Layer::library, status, summary, evidence,
                                with_others
                                    ? "make sure the copy that wins is the build you mean to use; remove "
                                      "the others from LD_LIBRARY_PATH (or `pip uninstall` a shadowing "
                                      "nvidia-* wheel)"
                                    : ""));
}

// A library built for CUDA L needs a driver for CUDA >= L's major (and, within
// the major, minor-version compatibility), and the runtime's major.
void check_library_cuda(const std::string& library, const std::string& display, Report& report) {
    auto built = fact_int(report, "library." + library + ".cudart_version");
    if (!built || *built <= 0) return;
    auto driver = fact_int(report, "driver.cuda.version");
    auto runtime = fact_int(report, "runtime.cudart.version");
    std::string id = "library." + library + ".cuda_compatibility";
    std::string built_text = display + " was built for CUDA " + cuda_version_text(*built);
    std::vector<std::string> facts = {"library." + library + ".cudart_version", "driver.cuda.version",
                                      "runtime.cudart.version"};
    if (driver && *driver > 0 && *driver / 1000 < *built / 1000) {
        auto floor = arch::minor_version_compat_floor(static_cast<uint32_t>(*built / 1000));
        report.add_check(
            make_check(id, Layer::library, Status::fail,
                       built_text + "; the driver supports only CUDA " + cuda_version_text(*driver), "",
                       "update the NVIDIA driver" +
                           (floor ? " to branch " + std::to_string(*floor) + " or newer" : std::string()) +
                           ", or install a " + display + " built for CUDA " + std::to_string(*driver / 1000),
                       facts));
        return;
    }
    if (runtime && *runtime > 0 && *runtime / 1000 != *built / 1000) {
        report.add_check(make_check(
            id, Layer::library, Status::fail,
            built_text + "; the CUDA runtime loaded is " + cuda_version_text(*runtime) +
                ": one process cannot mix CUDA majors",
            "", "install the " + display + " build for CUDA " + std::to_string(*runtime / 1000), facts));
        return;
    }
    if (driver && *driver > 0 && *driver < *built) {
        report.add_check(make_check(
            id, Layer::library, Status::warn,
            built_text + "; the driver supports CUDA " + cuda_version_text(*driver) +
                ": it runs through minor-version compatibility, but PTX it JIT-compiles needs the newer "
                "driver",
            "",
            "update the driver to one for CUDA " + cuda_version_text(*built) + " if kernels fall back to PTX",
            facts));
        return;
    }
    report.add_check(make_check(
        id, Layer::library, Status::pass,
        built_text + (runtime ? "; runtime " + cuda_version_text(*runtime) : std::string()) +
            (driver && *driver > 0 ? ", driver CUDA " + cuda_version_text(*driver) : std::string()),
        "", "", facts));
}

void check_images(const std::string& plugin, const std::vector<std::string>& files, const GpuDiscovery& gpus,
                  Report& report) {
    FileVerdicts verdicts = judge_files(files, gpus.gpus, gpus.driver_version);
    const Status worst = verdicts.worst;
    if (verdicts.files_with_code == 0 || gpus.gpus.empty()) return;
    report.add_check(make_check(
        "library." + plugin + ".images", Layer::library, worst,
        worst == Status::pass ? "every GPU has native SASS in the " + plugin + " libraries loaded"
                              : verdicts.first_problem,
        verdicts.evidence,
        worst == Status::pass       ? ""
        : verdicts.worst_is_refusal ? refused_code_remedy()
        : worst == Status::warn
            ? "the first launch JIT-compiles PTX (slow, and needs a driver as new as the library's toolkit): "
              "install a build with SASS for this GPU"
            : "install a " + plugin +
                  " build that supports this GPU's architecture (or update the driver if the "
                  "reason names one)"));
}

}  // namespace

std::string soname_from_file_name(std::string_view name) {
    size_t so = name.find(".so.");
    if (so == std::string_view::npos) return std::string(name);
    size_t end = name.find('.', so + 4);
    return std::string(name.substr(0, end));
}

void rule_library_copies(const ProbeContext& context, Report& report) {
    for (const auto& [plugin, files] : loaded_files_by_plugin(report))
        check_copies(context, plugin, files, report);
}

void rule_library_cuda(Report& report) {
    check_library_cuda("cublaslt", "cuBLAS", report);
    check_library_cuda("cudnn", "cuDNN", report);
}

void rule_library_images(Report& report) {
    GpuDiscovery gpus = gpus_from_facts(report);
    if (gpus.gpus.empty()) return;  // nothing to decide for; `strata arch --sm` works without a GPU
    for (const auto& [plugin, files] : loaded_files_by_plugin(report))
        check_images(plugin, files, gpus, report);
}

}  // namespace strata
