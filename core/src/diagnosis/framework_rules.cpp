#include "diagnosis/framework_rules.h"

#include <algorithm>
#include <filesystem>

#include "diagnosis/framework_extension_rules.h"
#include "diagnosis/image_verdicts.h"
#include "frameworks/build_records.h"
#include "frameworks/framework_scan.h"
#include "frameworks/nvidia_wheels.h"
#include "frameworks/python_metadata.h"
#include "probes/probes.h"
#include "probes/text_util.h"
#include "strata/arch/tables.h"

namespace strata {

namespace {

namespace fs = std::filesystem;

Check framework_check(std::string id, Status status, std::string summary) {
    return make_check(std::move(id), Layer::framework, status, std::move(summary));
}

// Where a remedy installs: "the environment at /venv/lib/python3.11/site-packages".
std::string where(const FrameworkInstall& install) {
    return "the environment at " + install.site_dir;
}

// ONNX Runtime's provider bridge dlopens libonnxruntime_providers_<ep>.so
// when a session asks for that execution provider, not at import: a library
// such a file cannot load disables the provider, and the session falls back.
bool loaded_on_demand(const std::string& path) {
    return fs::path(path).filename().string().rfind("libonnxruntime_providers_", 0) == 0;
}

// A fix led by the framework's own call that loads its wheels' copies
// (ONNX Runtime's preload_dlls), where it has one.
std::string preload_first(const FrameworkInstall& install, const std::string& fix) {
    if (install.opt_in_preloader.empty()) return fix;
    return "call " + install.opt_in_preloader + " before the first session is created (" + install.name +
           " then loads the nvidia-* wheels' copies first), or " + fix;
}

std::string label(const FrameworkInstall& install) {
    return install.name + " " + install.version;
}

std::string coverage_text(const FrameworkInstall& install) {
    return "SASS " + (install.sass.empty() ? std::string("none") : join(install.sass, " ")) + "; PTX " +
           (install.ptx.empty() ? std::string("none")
                                : join(install.ptx, " ") + " (ISA " + install.newest_ptx_isa + ")") +
           ", in " + std::to_string(install.device_code_files.size()) + " of " +
           std::to_string(install.elf_files) + " shared libraries";
}

void check_found(const std::vector<PythonEnvironment>& environments,
                 const std::vector<FrameworkInstall>& installs, Report& report) {
    std::string evidence;
    for (const PythonEnvironment& env : environments) {
        evidence +=
            (evidence.empty() ? "" : "\n") + env.label +
            (env.python_version.empty() ? "" : " (Python " + env.python_version + ")") + ": " +
            (env.directories.empty() ? std::string("no site-packages found") : join(env.directories, ", "));
        if (!env.problem.empty()) evidence += "\n  " + env.problem;
    }
    if (environments.empty()) {
        Check check = framework_check("framework.found", Status::skip,
                                      "no Python environment found (no python3 on PATH, no VIRTUAL_ENV or "
                                      "CONDA_PREFIX)");
        check.remedy = "name one: strata frameworks --python /path/to/python or --site-packages DIR";
        report.add_check(std::move(check));
        return;
    }
    if (installs.empty()) {
        Check check = framework_check("framework.found", Status::skip,
                                      std::string("no ") + known_frameworks_text() + " installed in " +
                                          std::to_string(environments.size()) + " Python environment(s)");
        check.evidence = evidence;
        report.add_check(std::move(check));
        return;
    }
    std::vector<std::string> found;
    for (const FrameworkInstall& install : installs) {
        found.push_back(label(install) + " (" +
                        (install.cuda_build
                             ? "CUDA " + (install.cuda_version.empty() ? "?" : install.cuda_version)
                             : install.build_kind) +
                        ")");
        evidence += "\n" + install.id + ": " + join(install.distributions, ", ") + " in " + install.site_dir;
        for (const std::string& problem : install.problems) evidence += "\n  unreadable: " + problem;
    }
    Check check = framework_check("framework.found", Status::pass, "found " + join(found, ", "));
    check.evidence = evidence;
    report.add_check(std::move(check));
}

// Where to get a build with the architecture a GPU needs.
std::string architecture_remedy(const FrameworkInstall& install, const std::vector<GpuInfo>& gpus) {
    std::string needs;
    for (const GpuInfo& gpu : gpus) {
        std::string first;
        if (const arch::ArchInfo* info = arch::find_architecture(gpu.sm))
            first = std::string(info->first_cuda);
        needs += (needs.empty() ? "" : ", ") + std::string("sm_") + std::to_string(gpu.sm) +
                 (first.empty() ? "" : " (CUDA " + first + " or newer)");
    }
    std::string hint = install.id.rfind("torch", 0) == 0
                           ? "; for PyTorch pick the wheel index for a CUDA that builds it "
                             "(pip install torch --index-url https://download.pytorch.org/whl/cu<NNN>) or "
                             "build with TORCH_CUDA_ARCH_LIST"
                           : "";
    // "an ONNX Runtime build", "a PyTorch build": the article follows the sound.
    std::string article = !install.name.empty() && std::string_view("AEIOU").find(install.name.front()) !=
                                                       std::string_view::npos
                              ? "an "
                              : "a ";
    return "install " + article + install.name + " build whose device code includes " + needs + hint +
           "; strata frameworks --sm <CC> checks a candidate before the GPU arrives";
}

void check_architectures(const FrameworkInstall& install, const FrameworkTargets& targets, Report& report) {
    std::string id = "framework.architectures." + install.id;
    std::string coverage = coverage_text(install);
    if (install.device_code_files.empty()) {
        Check check = framework_check(id, Status::skip,
                                      label(install) + ": no device code in its installed shared libraries");
        check.evidence = std::to_string(install.elf_files) +
                         " shared libraries read; its kernels are compiled at run time or live in a "
                         "package that is not installed";
        report.add_check(std::move(check));
        return;
    }
    if (targets.gpus.empty()) {
        Check check =
            framework_check(id, Status::skip,
                            label(install) + ": no GPU to judge its device code against (" + coverage + ")");
        check.evidence = coverage;
        check.remedy = "strata frameworks --sm 9.0 judges it for a GPU you plan to use";
        report.add_check(std::move(check));
        return;
    }
    FileVerdicts verdicts = judge_files(install.device_code_files, targets.gpus, targets.driver_version);
    // Which fat binaries the JIT compiles, one by one: what `strata bench
    // --jit-installed` hands the driver on such a GPU.
    add_fact(report, Layer::framework, "framework." + install.id + ".jit_fat_binaries",
             jit_fat_binaries_json(verdicts.jit_fat_binaries, install.site_dir),
             "arch/ (registered fat binaries whose code for the GPU is PTX alone)");
    std::string on;
    for (const GpuInfo& gpu : targets.gpus) on += (on.empty() ? "CC " : ", CC ") + arch::cc_text(gpu.sm);
    if (!targets.gpus_given) on = "every GPU here (" + on + ")";
    Check check = framework_check(id, verdicts.worst, "");
    check.evidence = coverage + "\n" + verdicts.evidence;
    if (verdicts.worst == Status::pass) {
        check.summary = label(install) + " has native SASS for " + on;
    } else if (verdicts.worst == Status::warn && verdicts.worst_is_refusal) {
        check.summary = label(install) + " holds code this driver cannot load: " + verdicts.first_problem;
        check.remedy = refused_code_remedy();
    } else if (verdicts.worst == Status::warn) {
        check.summary = label(install) + " runs only through PTX JIT: " + verdicts.first_problem;
        check.remedy =
            "expect the first launch of every kernel to compile (minutes for a large framework); "
            "keep the JIT cache (CUDA_CACHE_MAXSIZE=4294967296, a persistent CUDA_CACHE_PATH), or "
            "install a build with native SASS: " +
            architecture_remedy(install, targets.gpus);
    } else if (verdicts.files_failing < verdicts.files_with_code) {
        // One library without the GPU's code (torch 2.13's linalg module has
        // no sm_75 while the rest has): its operations fail, the rest runs.
        check.summary =
            label(install) + " cannot run part of its kernels (" + std::to_string(verdicts.files_failing) +
            " of " + std::to_string(verdicts.files_with_code) +
            " libraries with device code; the operations they implement fail): " + verdicts.first_problem;
        check.remedy = architecture_remedy(install, targets.gpus);
    } else {
        check.summary = label(install) + " cannot run: " + verdicts.first_problem;
        check.remedy = architecture_remedy(install, targets.gpus);
    }
    report.add_check(std::move(check));
}

void check_cuda_driver(const FrameworkInstall& install, const FrameworkTargets& targets, Report& report) {
    std::string id = "framework.cuda_driver." + install.id;
    auto release = parse_cuda_release(install.cuda_version);
    auto build = release ? std::optional<arch::CudaVersion>(release->version()) : std::nullopt;
    if (!build) {
        report.add_check(framework_check(
            id, Status::skip, label(install) + ": its files do not record the CUDA it was built for"));
        return;
    }
    auto driver = arch::parse_driver_version(targets.driver_version);
    if (!driver) {
        Check check = framework_check(id, Status::skip,
                                      label(install) + " is built for CUDA " + install.cuda_version +
                                          "; no driver here to hold it against");
        check.remedy = "strata frameworks --driver 570.86.10 judges it for a driver you plan to install";
        report.add_check(std::move(check));
        return;
    }
    auto supported = arch::cuda_supported_by_driver(*driver);
    std::string built =
        label(install) + " is built for CUDA " + install.cuda_version + " (" + install.cuda_source + ")";
    std::string driver_text = "driver " + driver->text;
    Check check = framework_check(id, Status::pass, "");
    if (!supported) {
        check.status = Status::fail;
        check.summary = built + ", older than every driver strata knows can run";
    } else if (*build <= *supported) {
        check.summary = built + "; " + driver_text + " runs up to CUDA " + supported->text();
    } else if (build->major == supported->major) {
        auto floor = arch::minor_version_compat_floor(build->major);
        if (floor && driver->major >= *floor) {
            check.status = Status::warn;
            check.summary = built + ", newer than CUDA " + supported->text() + " that " + driver_text +
                            " supports: it runs under minor-version compatibility, but PTX from CUDA " +
                            install.cuda_version + " cannot be JIT-compiled and newer APIs fail";
            check.remedy = "fine while the GPU runs native SASS; upgrade the driver to one for CUDA " +
                           install.cuda_version + " to remove the limits";
        } else {
            check.status = Status::fail;
            check.summary = built + " but " + driver_text + " is below the CUDA " +
                            std::to_string(build->major) + " minor-version-compatibility floor (" +
                            (floor ? std::to_string(*floor) : std::string("unknown")) + ")";
        }
    } else {
        check.status = Status::fail;
        check.summary = built + " but " + driver_text + " runs CUDA " + supported->text() +
                        " at most: it fails at start (\"driver is too old\", error 35)";
    }
    if (check.status == Status::fail) {
        auto floor = arch::minor_version_compat_floor(build->major);
        check.remedy =
            "upgrade the driver to " +
            (floor ? std::to_string(*floor) : std::string("a branch for CUDA ") + install.cuda_version) +
            " or newer, or install a " + install.name + " build for CUDA " +
            (supported ? supported->text() : std::string("your driver supports")) + " or older";
    }
    check.evidence = "framework CUDA " + install.cuda_version + " from " + install.cuda_source + "; " +
                     driver_text + (targets.driver_given ? " (given with --driver)" : " (installed)") +
                     (supported ? " supports CUDA " + supported->text() : "");
    report.add_check(std::move(check));
}

bool inside(const std::string& path, const std::string& dir) {
    auto relative = fs::path(path).lexically_relative(dir);
    return !relative.empty() && *relative.begin() != "..";
}

std::string canonical(const std::string& path) {
    std::error_code error;
    return fs::weakly_canonical(path, error).string();
}

void check_libraries(const FrameworkInstall& install, Report& report) {
    std::string id = "framework.libraries." + install.id;
    Status worst = Status::pass;
    std::string first_problem, remedy;
    std::vector<std::string> lines;
    auto note = [&](Status status, std::string line, std::string fix = {}) {
        if (severity(status) > severity(worst)) {
            worst = status;
            first_problem = line;
            remedy = std::move(fix);
        }
        lines.push_back(std::string(status_name(status)) + ": " + line);
    };
    for (const std::string& mismatch : install.mismatches)
        note(Status::fail, mismatch,
             "install " + install.name + "'s parts from one release (the same version of each)");
    for (const WheelDependency& dependency : install.dependencies) {
        std::string spec = dependency.name +
                           (dependency.specifier.empty() ? "" : " " + dependency.specifier) +
                           (dependency.via.empty() ? "" : " (through " + dependency.via + ")");
        std::string floor = specifier_floor(dependency.specifier);
        if (!dependency.installed.empty() && !floor.empty() && version_older(dependency.installed, floor)) {
            note(Status::fail, "requires " + spec + " but " + dependency.installed + " is installed",
                 "pip install '" + dependency.name + dependency.specifier + "' into " + where(install));
        } else if (!dependency.installed.empty() && !meets_pin(dependency.installed, dependency.specifier)) {
            note(Status::warn, "pins " + spec + " but " + dependency.installed + " is installed",
                 "pip install '" + dependency.name + dependency.specifier + "' into " + where(install));
        } else if (!dependency.installed.empty()) {
            lines.push_back("dependency " + spec + ": " + dependency.installed + " installed" +
                            (dependency.extra.empty() ? "" : " (extra " + dependency.extra + ")"));
        } else if (dependency.extra.empty()) {
            // Where the loader finds every library the wheel would have
            // brought elsewhere (the toolkit's), the framework loads: pip's
            // metadata is unmet, not the framework. The libraries' own lines
            // judge those copies.
            std::vector<std::string> elsewhere;
            std::vector<std::string> sonames =
                wheel_sonames(dependency.name, specifier_floor(dependency.specifier));
            for (const std::string& soname : sonames)
                for (const LibraryNeed& need : install.libraries)
                    if (need.soname == soname && !need.candidates.empty())
                        elsewhere.push_back(soname + " from " + need.candidates.front().real_path);
            bool served = !sonames.empty() && elsewhere.size() == sonames.size();
            note(served ? Status::warn : Status::fail,
                 "requires " + spec + ", which is not installed" +
                     (served ? ": the loader gives it " + join(elsewhere, ", ") + " instead" : ""),
                 "pip install '" + dependency.name + dependency.specifier + "' into " + where(install));
        } else {
            lines.push_back("dependency " + spec + " (extra " + dependency.extra + "): not installed");
        }
    }
    for (const LibraryNeed& need : install.libraries) {
        std::string how =
            need.linked ? "linked by " + fs::path(need.needed_by).filename().string() : "loaded by name";
        if (need.candidates.empty() && !need.linked && !need.wheel_copy.empty()) {
            // Its wheel is installed, yet no search path of the framework's
            // files or the system's reaches that copy: whether the framework
            // loads it by name at all, or finds it its own way, its files do
            // not say (TensorFlow and its nvidia-cuda-nvrtc-cu12 dependency).
            note(Status::warn,
                 need.soname + " (from the " + need.wheel + " wheel, " + need.wheel_copy +
                     ") is on no search path of " + install.name +
                     "'s files or the system's: code that loads it by name does not find it",
                 "if " + install.name + " reports it missing, add " +
                     fs::path(need.wheel_copy).parent_path().string() + " to LD_LIBRARY_PATH");
            continue;
        }
        if (need.candidates.empty()) {
            std::string provider = !need.missing_wheel.empty() ? need.missing_wheel
                                   : !need.wheel.empty()       ? need.wheel
                                                               : need.soname;
            std::string file = fs::path(need.needed_by).filename().string();
            std::string consequence =
                !need.linked ? "the " + install.name + " features that need it fail at first use"
                : need.required_by_guide
                    ? file + " cannot load: every " + install.name + " call that needs it fails"
                : loaded_on_demand(need.needed_by) || need.optional ? file + " cannot load"
                                                                    : install.name + " will not import";
            std::string fix =
                "install " + provider + " into " + where(install) + " (or the library system-wide)";
            if (!need.extra.empty()) {
                // An install without the extra that brings its CUDA libraries;
                // a release that does not declare it yet is upgraded to one.
                bool declared = std::any_of(
                    install.dependencies.begin(), install.dependencies.end(),
                    [&](const WheelDependency& dependency) { return dependency.extra == need.extra; });
                fix = std::string(declared ? "pip install '" : "pip install -U '") + install.distribution +
                      "[" + need.extra + "]' into " + where(install) + " (its " + need.extra +
                      " extra installs the CUDA libraries it needs), or install " + need.soname +
                      " system-wide";
            }
            std::string installed_at;
            if (!need.wheel_copy.empty()) {
                // The wheel is there; nothing the loader searches reaches it.
                std::string directory = fs::path(need.wheel_copy).parent_path().string();
                installed_at = ", although the " + need.wheel + " wheel installs it at " + need.wheel_copy;
                fix = preload_first(install, "add " + directory + " to LD_LIBRARY_PATH");
            }
            note(need.optional ? Status::warn : Status::fail,
                 need.soname + " (" + how + ") is not found anywhere the loader looks" + installed_at + ": " +
                     consequence,
                 fix);
            continue;
        }
        const LibraryLocation& winner = need.candidates.front();
        const std::string& version = need.versions.front();
        std::string picked = need.soname + " (" + how + ") -> " + winner.real_path + " (" + winner.via +
                             (version.empty() ? "" : ", " + version) + ")";
        // The same soname from another CUDA major (libcusparse.so.12 of CUDA
        // 13 for a CUDA 12 build, NCCL +cuda13.0): it loads, then fails or
        // misbehaves. Whatever copy it is, even the environment's own.
        std::string framework_major = install.cuda_version.substr(0, install.cuda_version.find('.'));
        if (!need.built_for_cuda.empty() && !framework_major.empty() &&
            framework_major.find_first_not_of("0123456789") == std::string::npos &&
            need.built_for_cuda != framework_major) {
            std::string should_win =
                !need.wheel_copy.empty() && canonical(need.wheel_copy) != canonical(winner.real_path)
                    ? "the " + need.wheel + " wheel's copy (" + need.wheel_copy + ")"
                    : "a copy built for CUDA " + framework_major +
                          (need.missing_wheel.empty() ? "" : " (" + need.missing_wheel + ")");
            note(need.optional ? Status::warn : Status::fail,
                 need.soname + ": the loader picks a copy built for CUDA " + need.built_for_cuda + " (" +
                     need.built_for_evidence + "), but " + label(install) + " is built for CUDA " +
                     install.cuda_version + ": " + picked + "; " + should_win + " should win",
                 "make " + should_win + " come first: take " + fs::path(winner.path).parent_path().string() +
                     " out of " +
                     (winner.via.rfind("LD_LIBRARY_PATH", 0) == 0 ? "LD_LIBRARY_PATH" : "the search path") +
                     " for " + install.name +
                     (need.missing_wheel.empty() ? "" : ", or pip install '" + need.missing_wheel + "'"));
            continue;
        }
        bool own = (!need.wheel_copy.empty() && canonical(winner.real_path) == canonical(need.wheel_copy)) ||
                   inside(canonical(winner.real_path), canonical(install.site_dir));
        if (own) {
            lines.push_back("ok: " + picked);
            continue;
        }
        bool older = !version.empty() && !need.expected.empty() && version_older(version, need.expected);
        std::string fix =
            "take " + fs::path(winner.path).parent_path().string() + " out of " +
            (winner.via.rfind("LD_LIBRARY_PATH", 0) == 0 ? "LD_LIBRARY_PATH" : "the search path") + " for " +
            install.name + ", or install the version it needs";
        if (!need.wheel.empty()) {
            fix = preload_first(install, fix);
            std::string wheel = "the " + need.wheel + " wheel's copy" +
                                (need.expected.empty() ? "" : " (" + need.expected + ")");
            if (older)
                note(Status::fail, need.soname + ": an older copy shadows " + wheel + ": " + picked, fix);
            else
                note(Status::warn,
                     need.soname + ": a copy from outside the environment wins over " + wheel + ": " + picked,
                     fix);
        } else if (older) {
            note(Status::fail,
                 need.soname + ": the loader picks " + version + ", older than the " + need.expected + " " +
                     install.name + " needs: " + picked,
                 need.missing_wheel.empty() ? fix
                                            : "pip install '" + need.missing_wheel + ">=" + need.expected +
                                                  "' into " + where(install) + ", or " + fix);
        } else {
            lines.push_back("ok: " + picked);
        }
    }
    Check check = framework_check(id, worst, "");
    if (worst == Status::pass)
        check.summary = label(install) + ": " + std::to_string(install.libraries.size()) +
                        " CUDA libraries resolve to copies it can use";
    else
        check.summary = label(install) + ": " + first_problem;
    check.evidence = join(lines, "\n");
    check.remedy = remedy;
    report.add_check(std::move(check));
}

}  // namespace

bool version_older(std::string_view candidate, std::string_view wanted) {
    auto components = [](std::string_view text) {
        size_t count = 0;
        for (size_t i = 0;
             i < text.size() && (std::isdigit(static_cast<unsigned char>(text[i])) || text[i] == '.'); ++i)
            count += text[i] == '.';
        return count + 1;
    };
    size_t keep = std::min(components(candidate), components(wanted));
    auto truncate = [keep](std::string_view text) {
        size_t dots = 0, i = 0;
        for (; i < text.size(); ++i)
            if (text[i] == '.' && ++dots == keep) break;
        return text.substr(0, i);
    };
    return compare_versions(truncate(candidate), truncate(wanted)) < 0;
}

// The device code of every CUDA library the loader gives the framework
// (the copies it resolves to, and the NVIDIA libraries vendored into its
// wheel). A required library without an image for the GPU stops the
// framework as surely as its own kernels would (NCCL without sm_120 fails
// every collective); an optional one (a module's library, an extra's) only
// disables that module, so it warns and is named.
void check_library_code(const FrameworkInstall& install, const FrameworkTargets& targets, Report& report) {
    std::string id = "framework.library_code." + install.id;
    std::vector<std::string> required, optional;
    for (const LibraryNeed& need : install.libraries) {
        if (need.candidates.empty()) continue;  // check_libraries reports it
        const std::string& copy = need.candidates.front().real_path;
        auto& list = need.optional ? optional : required;
        if (std::find(list.begin(), list.end(), copy) == list.end()) list.push_back(copy);
    }
    for (const std::string& file : install.vendored_files)
        if (std::find(optional.begin(), optional.end(), file) == optional.end()) optional.push_back(file);
    if (targets.gpus.empty() || (required.empty() && optional.empty())) return;
    FileVerdicts must = judge_files(required, targets.gpus, targets.driver_version);
    FileVerdicts may = judge_files(optional, targets.gpus, targets.driver_version);
    if (must.files_with_code + may.files_with_code == 0) return;
    Status status = must.worst;
    if (may.worst != Status::pass && status == Status::pass) status = Status::warn;
    Check check = framework_check(id, status, "");
    check.evidence =
        must.evidence + (must.evidence.empty() || may.evidence.empty() ? "" : "\n") + may.evidence;
    std::string counted =
        std::to_string(must.files_with_code + may.files_with_code) + " CUDA libraries with device code";
    if (status == Status::pass) {
        check.summary = label(install) + ": " + counted + " have native SASS for the target";
    } else if (must.worst == Status::fail) {
        check.summary =
            label(install) + " cannot run: a library it needs has no image: " + must.first_problem;
        check.remedy =
            "install a build of that library with the GPU's architecture (a newer nvidia-* wheel of "
            "the same CUDA major, as the framework's pins allow)";
    } else if (must.worst == Status::warn && must.worst_is_refusal) {
        check.summary =
            label(install) + ": a library it needs holds code this driver cannot load: " + must.first_problem;
        check.remedy = refused_code_remedy();
    } else if (must.worst == Status::warn) {
        check.summary =
            label(install) + ": a library it needs runs only through PTX JIT: " + must.first_problem;
        check.remedy = "expect slow first launches; a newer build of that library has native SASS";
    } else if (may.worst_is_refusal) {
        check.summary = label(install) +
                        ": an optional component holds code this driver cannot load: " + may.first_problem;
        check.remedy = refused_code_remedy();
    } else {
        check.summary = label(install) + ": an optional component has no native image: " + may.first_problem;
        check.remedy =
            "only the feature that component backs is affected (for example torch's sparse "
            "semi-structured kernels in libcusparseLt, or CuPy's cuTENSOR routines)";
    }
    report.add_check(std::move(check));
}

// Files of the install strata could not read (a truncated libtorch_cuda.so,
// an unreadable torch/version.py): what it found says nothing of them, so
// the install is not judged sound on the rest.
void check_readable(const FrameworkInstall& install, Report& report) {
    if (install.problems.empty()) return;
    Check check = framework_check(
        "framework.files." + install.id, Status::fail,
        label(install) + ": " + std::to_string(install.problems.size()) +
            " of its files cannot be read (a damaged or partial install): " + install.problems.front());
    check.evidence = join(install.problems, "\n");
    check.remedy = "reinstall " + install.name + " into " + where(install) +
                   " (pip install --force-reinstall --no-deps " + install.distribution +
                   "==" + install.version + ")";
    report.add_check(std::move(check));
}

void rule_frameworks(const std::vector<PythonEnvironment>& environments,
                     const std::vector<FrameworkInstall>& installs, const FrameworkTargets& targets,
                     Report& report) {
    check_found(environments, installs, report);
    for (const FrameworkInstall& install : installs) {
        check_readable(install, report);
        if (!install.problems.empty() && !install.cuda_build) continue;  // its build is unknown
        if (!install.cuda_build) {
            // A CPU-only build matters only where there is a GPU it will not use.
            Status status = targets.gpus.empty() ? Status::skip : Status::warn;
            Check check =
                framework_check("framework.cuda_driver." + install.id, status,
                                label(install) + " is " + install.build_kind + ": it will not use the GPU");
            if (status == Status::warn)
                check.remedy = "install a CUDA build of " + install.name + " into " + where(install);
            report.add_check(std::move(check));
            continue;
        }
        check_architectures(install, targets, report);
        check_cuda_driver(install, targets, report);
        check_libraries(install, report);
        check_library_code(install, targets, report);
        check_extensions(install, targets, report);
    }
}

}  // namespace strata
