#include "frameworks/framework_proof.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <set>

#include "explain/explain.h"
#include "model/fact.h"
#include "plugins/plugin_trust.h"
#include "probes/probes.h"
#include "probes/run_program.h"

namespace strata {

namespace {

// The child: imports one framework and prints its view as one JSON line
// after "STRATA-VIEW ". Written for Python 3.8 and later; it imports nothing
// but the framework and the standard library, and never raises.
constexpr const char* kProver = R"PY(
import json, sys, time, traceback, warnings
kind = sys.argv[1]
view = {"imported": False}
caught = []
def remember(message, category, filename, lineno, file=None, line=None):
    if not issubclass(category, ResourceWarning) and str(message).strip():
        caught.append(str(message).strip().splitlines()[0])
warnings.showwarning = remember
def loaded():
    names = ("libcuda.so", "libcudart", "libcudnn", "libcublas", "libnccl", "libcufft", "libcusparse",
             "libcusolver", "libnvrtc", "libnvJitLink", "libcupti")
    out = []
    try:
        with open("/proc/self/maps") as maps:
            for line in maps:
                parts = line.split()
                if len(parts) >= 6 and parts[5].startswith("/"):
                    base = parts[5].rsplit("/", 1)[-1]
                    if base.startswith(names) and parts[5] not in out:
                        out.append(parts[5])
    except OSError:
        pass
    return out
def version_text(number):
    # cuDNN's 8902 -> 8.9.2, 90100 -> 9.1.0
    if not isinstance(number, int) or number <= 0:
        return ""
    if number >= 10000:
        return "%d.%d.%d" % (number // 10000, number // 100 % 100, number % 100)
    return "%d.%d.%d" % (number // 1000, number // 100 % 10, number % 100)
def check_sum(compute, n):
    # The framework imported: a computation that raises (no kernel image, an
    # illegal address) is the GPU's answer, not an import failure.
    expected = float(n - 1) * n  # 2 * sum(0 .. n-1)
    what = "2 * (0 + 1 + ... + %d) on the GPU" % (n - 1)
    try:
        total = compute()
    except Exception as e:
        view["computed"] = False
        view["computation"] = "%s failed: %s" % (what, (str(e).strip().splitlines() or [repr(e)])[0])
        view["computation_traceback"] = "\n".join(traceback.format_exc().strip().splitlines()[-8:])
        return
    ok = abs(float(total) - expected) <= 1e-3 * expected
    view["computed"] = ok
    view["computation"] = "%s: %s, expected %s" % (what, total, expected)
started = time.time()
try:
    if kind == "torch":
        import torch
        view["version"] = torch.__version__
        view["cuda"] = torch.version.cuda or ""
        try:
            view["cudnn"] = version_text(torch.backends.cudnn.version())
        except Exception as e:
            view["cudnn"] = ""
        try:
            view["nccl"] = ".".join(str(p) for p in torch.cuda.nccl.version())
        except Exception:
            view["nccl"] = ""
        flags = getattr(torch._C, "_cuda_getArchFlags", lambda: "")() or ""
        view["architectures"] = flags.split()
        view["gpu_usable"] = bool(torch.cuda.is_available())
        view["devices"] = torch.cuda.device_count() if view["gpu_usable"] else 0
        if not view["gpu_usable"]:
            try:  # is_available() says no without saying why; initialising does
                torch._C._cuda_init()
            except Exception as e:
                caught.insert(0, str(e).strip().splitlines()[0])
        if view["gpu_usable"]:
            n = 1 << 20
            check_sum(lambda: (torch.arange(n, device="cuda", dtype=torch.float64) * 2).sum().item(), n)
    elif kind == "jax":
        import jax
        import jax.numpy as jnp
        view["version"] = jax.__version__
        try:
            gpus = jax.devices("gpu")
        except Exception as e:
            gpus = []
            caught.append(str(e).strip().splitlines()[0])
        view["gpu_usable"] = len(gpus) > 0
        view["devices"] = len(gpus)
        if gpus:
            n = 1 << 20
            check_sum(lambda: float((jax.device_put(jnp.arange(n, dtype=jnp.float32), gpus[0]) * 2).sum()), n)
    elif kind == "cupy":
        import cupy
        view["version"] = cupy.__version__
        r = cupy.cuda.runtime.runtimeGetVersion()
        view["cuda"] = "%d.%d" % (r // 1000, r % 1000 // 10)
        try:
            view["devices"] = cupy.cuda.runtime.getDeviceCount()
            view["gpu_usable"] = view["devices"] > 0
        except Exception as e:
            view["gpu_usable"] = False
            caught.append(str(e).strip().splitlines()[0])
        if view["gpu_usable"]:
            n = 1 << 20
            check_sum(lambda: float((cupy.arange(n, dtype=cupy.float64) * 2).sum()), n)
    elif kind == "onnxruntime":
        import onnxruntime
        view["version"] = onnxruntime.__version__
        providers = onnxruntime.get_available_providers()
        view["providers"] = providers
        view["gpu_usable"] = "CUDAExecutionProvider" in providers
    elif kind == "tensorflow":
        import tensorflow as tf
        view["version"] = tf.__version__
        info = tf.sysconfig.get_build_info()
        view["cuda"] = info.get("cuda_version", "") or ""
        view["cudnn"] = info.get("cudnn_version", "") or ""
        gpus = tf.config.list_physical_devices("GPU")
        view["gpu_usable"] = len(gpus) > 0
        view["devices"] = len(gpus)
    else:
        raise ImportError("strata cannot prove the framework kind " + kind)
    view["imported"] = True
except BaseException as e:
    lines = traceback.format_exc().strip().splitlines()
    view["import_error"] = lines[-1] if lines else repr(e)
    view["traceback"] = "\n".join(lines[-12:])
view["seconds"] = round(time.time() - started, 3)
view["loaded"] = loaded()
# The versions of the libraries actually mapped, asked of the libraries
# themselves: a framework's own answer is often what it was built with.
def ask(path, symbol, by_pointer):
    import ctypes
    try:
        function = getattr(ctypes.CDLL(path), symbol)
        if by_pointer:
            value = ctypes.c_int(0)
            return value.value if function(ctypes.byref(value)) == 0 else 0
        function.restype = ctypes.c_size_t
        return function()
    except Exception:
        return 0
versions = {}
for path in view["loaded"]:
    base = path.rsplit("/", 1)[-1]
    if base.startswith("libnccl.so") and "nccl" not in versions:
        code = ask(path, "ncclGetVersion", True)
        if code >= 10000:
            versions["nccl"] = "%d.%d.%d" % (code // 10000, code // 100 % 100, code % 100)
        elif code > 0:
            versions["nccl"] = "%d.%d.%d" % (code // 1000, code // 100 % 10, code % 100)
    elif base.startswith("libcudnn.so") and "cudnn" not in versions:
        versions["cudnn"] = version_text(ask(path, "cudnnGetVersion", False))
    elif base.startswith("libcudart.so") and "cudart" not in versions:
        code = ask(path, "cudaRuntimeGetVersion", True)
        if code > 0:
            versions["cudart"] = "%d.%d" % (code // 1000, code % 1000 // 10)
view["loaded_versions"] = versions
if view.get("gpu_usable") is False:
    view["unusable_reason"] = next((c for c in caught if c), "")
sys.stdout.write("\nSTRATA-VIEW " + json.dumps(view) + "\n")
sys.stdout.flush()
)PY";

const std::string kMarker = "STRATA-VIEW ";

std::string module_kind(const std::string& id) {
    std::string kind = id.substr(0, id.find('-'));  // "torch-2" -> "torch"
    return kind;
}

std::string string_member(const Json& object, const char* key) {
    auto it = object.find(key);
    return it != object.end() && it->is_string() ? it->get<std::string>() : std::string();
}

// "12.1" from "12.1", "12.1.105", "12"; compared to the precision both give.
bool versions_agree(const std::string& read, const std::string& said) {
    if (read.empty() || said.empty()) return true;  // one side does not say: nothing to hold against
    // A local version label says how it was built, not which release: 2.3.0+cu121 is 2.3.0.
    std::string a = read.substr(0, read.find('+')), b = said.substr(0, said.find('+'));
    for (std::string* s : {&a, &b})
        if (s->size() > 2 && s->compare(s->size() - 2, 2, ".x") == 0) s->resize(s->size() - 2);
    size_t n = std::min(a.size(), b.size());
    return a.compare(0, n, b, 0, n) == 0 && (a.size() == n || a[n] == '.') && (b.size() == n || b[n] == '.');
}

std::string canonical(const std::string& path) {
    std::error_code ec;
    auto resolved = std::filesystem::canonical(path, ec);
    return ec ? path : resolved.string();
}

}  // namespace

std::optional<FrameworkView> ask_framework(const FrameworkInstall& install,
                                           const PythonEnvironment* environment, const ProofOptions& options,
                                           std::string& problem, Status& status) {
    std::string interpreter =
        environment && !environment->interpreter.empty() ? environment->interpreter : "python3";
    // Importing runs the environment's code as whoever runs strata, often
    // root: only an environment and a package tree no one else could write.
    std::optional<std::string> untrusted;
    if (environment && !environment->untrusted.empty()) untrusted = environment->untrusted;
    if (!untrusted)
        if (auto refusal = check_directory_trust(install.site_dir)) untrusted = "its packages: " + *refusal;
    if (untrusted) {
        problem = "not imported: " + *untrusted;
        status = Status::skip;
        return std::nullopt;
    }
    // The directory strata read comes first, so the import is of the same files.
    const char* inherited = std::getenv("PYTHONPATH");
    std::vector<std::string> env = {
        "PYTHONPATH=" + install.site_dir + (inherited && *inherited ? ":" + std::string(inherited) : ""),
        "PYTHONDONTWRITEBYTECODE=1", "PYTHONNOUSERSITE=1"};
    ProgramResult ran =
        run_program({interpreter, "-c", kProver, module_kind(install.id)}, options.deadline, 4 << 20, env);
    size_t at = ran.output.rfind(kMarker);
    if (at == std::string::npos) {
        problem = ran.problem.empty() ? "the interpreter printed no view" : ran.problem;
        status = problem.find("timed out") != std::string::npos ? Status::timeout
                 : problem.find("signal") != std::string::npos  ? Status::crashed
                                                                : Status::error;
        return std::nullopt;
    }
    Json json = Json::parse(ran.output.substr(at + kMarker.size()), nullptr, false);
    if (!json.is_object()) {
        problem = "the interpreter's view is not JSON";
        status = Status::error;
        return std::nullopt;
    }
    FrameworkView view;
    view.imported = json.value("imported", false);
    view.import_seconds = json.value("seconds", 0.0);
    view.version = string_member(json, "version");
    view.cuda = string_member(json, "cuda");
    view.cudnn = string_member(json, "cudnn");
    view.nccl = string_member(json, "nccl");
    if (json.contains("architectures") && json["architectures"].is_array())
        for (const Json& a : json["architectures"])
            if (a.is_string()) view.architectures.push_back(a.get<std::string>());
    if (json.contains("gpu_usable") && json["gpu_usable"].is_boolean())
        view.gpu_usable = json["gpu_usable"].get<bool>();
    if (json.contains("devices") && json["devices"].is_number_integer())
        view.devices = json["devices"].get<long long>();
    view.unusable_reason = string_member(json, "unusable_reason");
    if (json.contains("loaded") && json["loaded"].is_array())
        for (const Json& path : json["loaded"])
            if (path.is_string()) view.loaded.push_back(path.get<std::string>());
    view.import_error = string_member(json, "import_error");
    view.traceback = string_member(json, "traceback");
    if (json.contains("computed") && json["computed"].is_boolean())
        view.computed = json["computed"].get<bool>();
    if (json.contains("loaded_versions") && json["loaded_versions"].is_object())
        for (const auto& [library, version] : json["loaded_versions"].items())
            if (version.is_string() && !version.get<std::string>().empty())
                view.loaded_versions[library] = version.get<std::string>();
    view.computation = string_member(json, "computation");
    view.computation_traceback = string_member(json, "computation_traceback");
    return view;
}

std::vector<std::string> view_disagreements(const FrameworkInstall& install, const FrameworkView& view) {
    std::vector<std::string> out;
    std::string said = module_kind(install.id);
    if (!versions_agree(install.version, view.version))
        out.push_back("version: strata read " + install.version + ", " + said + " says " + view.version);
    if (install.cuda_build && !versions_agree(install.cuda_version, view.cuda))
        out.push_back("CUDA: strata read " + install.cuda_version + " (" + install.cuda_source + "), " +
                      said + " says " + view.cuda);
    if (!install.library_versions_are_floors) {
        if (!versions_agree(install.cudnn_version, view.cudnn))
            out.push_back("cuDNN: strata read " + install.cudnn_version + ", " + said + " says " +
                          view.cudnn);
        if (!versions_agree(install.nccl_version, view.nccl))
            out.push_back("NCCL: strata read " + install.nccl_version + ", " + said + " says " + view.nccl);
    }
    // The libraries it loaded, asked for their own versions, against what it
    // was built with or pins.
    auto loaded = [&](const char* library) {
        auto it = view.loaded_versions.find(library);
        return it == view.loaded_versions.end() ? std::string() : it->second;
    };
    if (!install.library_versions_are_floors) {
        if (!versions_agree(install.nccl_version, loaded("nccl")))
            out.push_back("NCCL: built with and pinned at " + install.nccl_version +
                          ", the library it loaded is " + loaded("nccl"));
        if (!versions_agree(install.cudnn_version, loaded("cudnn")))
            out.push_back("cuDNN: built with and pinned at " + install.cudnn_version +
                          ", the library it loaded is " + loaded("cudnn"));
    }
    std::string cudart = loaded("cudart");
    if (install.cuda_build && !install.cuda_version.empty() && !cudart.empty() &&
        install.cuda_version.substr(0, install.cuda_version.find('.')) != cudart.substr(0, cudart.find('.')))
        out.push_back("CUDA runtime: built for CUDA " + install.cuda_version +
                      ", the libcudart it loaded is " + cudart);
    // Architectures: the SASS strata found against the sm_ the framework
    // names (its PTX list is spelled differently by each framework).
    std::set<std::string> named;
    for (const std::string& a : view.architectures)
        if (a.rfind("sm_", 0) == 0) named.insert(a);
    if (!named.empty() && !install.sass.empty()) {
        std::set<std::string> read(install.sass.begin(), install.sass.end());
        std::vector<std::string> missing, extra;
        for (const std::string& a : named)
            if (!read.count(a)) missing.push_back(a);
        if (!missing.empty()) {
            std::string list;
            for (const std::string& a : missing) list += (list.empty() ? "" : " ") + a;
            out.push_back("architectures: " + said + " names " + list + ", for which strata found no SASS");
        }
    }
    // Libraries: what strata predicted the loader picks against what was mapped.
    for (const LibraryNeed& need : install.libraries) {
        if (need.candidates.empty()) continue;
        std::string predicted = canonical(need.candidates.front().real_path);
        std::string stem = need.soname.substr(0, need.soname.find(".so"));
        for (const std::string& path : view.loaded) {
            std::string base = std::filesystem::path(path).filename().string();
            if (base.rfind(stem + ".so", 0) != 0) continue;
            if (canonical(path) != predicted)
                out.push_back(need.soname + ": strata predicted " + predicted + ", the import loaded " +
                              path);
        }
    }
    return out;
}

void prove_frameworks(const FrameworkLayer& layer, long long gpus_here, const ProofOptions& options,
                      Report& report) {
    for (const FrameworkInstall& install : layer.installs) {
        const PythonEnvironment* environment = nullptr;
        for (const PythonEnvironment& env : layer.environments)
            if (env.label == install.environment && std::find(env.directories.begin(), env.directories.end(),
                                                              install.site_dir) != env.directories.end())
                environment = &env;
        std::string id = "framework." + install.id + ".proof";
        std::string problem;
        Status status = Status::pass;
        std::optional<FrameworkView> view = ask_framework(install, environment, options, problem, status);
        std::string who = install.name + " " + install.version + " (" + install.environment + ")";
        if (!view) {
            report.add_check(make_check(
                id, Layer::framework, status,
                status == Status::skip ? who + " " + problem : "importing " + who + " failed: " + problem, "",
                status == Status::skip
                    ? "run strata as the environment's owner, or make it root's and writable by no one else"
                    : "run the import by hand in that environment to see what it prints"));
            continue;
        }
        if (!view->imported) {
            Explanation why = explain_text(view->import_error + "\n" + view->traceback, false);
            std::string layer_text =
                why.cause ? std::string(layer_name(why.cause->layer)) + " layer: " + why.cause->meaning
                          : "not recognised";
            report.add_check(make_check(id, Layer::framework, Status::fail,
                                        "import " + module_kind(install.id) + " fails: " + view->import_error,
                                        "explained in the " + layer_text + "\n" + view->traceback,
                                        why.cause && !why.cause->meaning.empty()
                                            ? "see `strata explain` on the line above; " + why.cause->meaning
                                            : "reinstall the framework with the versions it pins"));
            continue;
        }
        std::vector<std::string> disagreements = view_disagreements(install, *view);
        char seconds[32];
        std::snprintf(seconds, sizeof seconds, "%.1f", view->import_seconds);
        std::string summary = "imported " + who + " in " + seconds + " s";
        std::string said;
        if (!view->cuda.empty()) said += "CUDA " + view->cuda;
        if (!view->cudnn.empty()) said += (said.empty() ? "" : ", ") + std::string("cuDNN ") + view->cudnn;
        if (!view->nccl.empty()) said += (said.empty() ? "" : ", ") + std::string("NCCL ") + view->nccl;
        if (!said.empty()) summary += " (" + said + ")";
        Status result = Status::pass;
        std::vector<std::string> evidence;
        if (view->gpu_usable == false) {
            summary +=
                "; it sees no GPU" + (view->unusable_reason.empty() ? "" : ": " + view->unusable_reason);
            if (gpus_here > 0) result = Status::fail;
        } else if (view->gpu_usable == true) {
            summary += "; it sees " + std::to_string(view->devices) + " GPU(s)";
        }
        if (view->computed == false) {
            result = Status::fail;
            summary += "; its GPU computation did not pass: " + view->computation;
            if (!view->computation_traceback.empty()) evidence.push_back(view->computation_traceback);
        } else if (view->computed == true) {
            summary += ", computed and verified on one";
        }
        if (!disagreements.empty()) {
            if (result == Status::pass) result = Status::warn;
            summary +=
                "; it disagrees with strata's reading: " + disagreements.front() +
                (disagreements.size() > 1 ? " (and " + std::to_string(disagreements.size() - 1) + " more)"
                                          : "");
            evidence.insert(evidence.end(), disagreements.begin(), disagreements.end());
        } else {
            summary += "; its view agrees with strata's reading of its files";
        }
        if (!view->loaded.empty()) {
            std::string loaded;
            for (const std::string& path : view->loaded) loaded += (loaded.empty() ? "" : ", ") + path;
            evidence.push_back("loaded: " + loaded);
        }
        std::string joined;
        for (const std::string& line : evidence) joined += (joined.empty() ? "" : "\n") + line;
        std::string remedy =
            result == Status::pass ? ""
            : gpus_here > 0 && view->gpu_usable == false
                ? "the driver has GPUs this framework cannot use: see the framework layer's "
                  "other checks (CUDA version, images) and the reason above"
                : "strata's reading and the framework disagree: report it to strata with this "
                  "output";
        report.add_check(make_check(id, Layer::framework, result, summary, joined, remedy));
    }
}

}  // namespace strata
