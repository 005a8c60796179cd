// The framework layer end to end: site-packages trees with real metadata
// files around shared libraries whose device code nvcc built for chosen
// architectures (tests/frameworks), judged by `strata frameworks`, `doctor`
// and `env` for given GPUs and drivers.
#include <sys/stat.h>

#include <catch2/catch.hpp>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "frameworks/framework_scan.h"
#include "frameworks/jit_proof_plan.h"
#include "probes/probe_context.h"
#include "strata/arch/dynamic.h"
#include "strata/arch/mapped_file.h"
#include "support/run_process.h"

using strata::test::line_count;
using strata::test::run_process;
using strata::test::strata_binary;
namespace fs = std::filesystem;
using Json = nlohmann::json;

namespace {

const std::string fixtures = STRATA_TEST_FRAMEWORK_FIXTURES;

void write(const fs::path& path, const std::string& content) {
    fs::create_directories(path.parent_path());
    std::ofstream(path) << content;
}

void copy(const std::string& from, const fs::path& to) {
    fs::create_directories(to.parent_path());
    fs::copy_file(from, to, fs::copy_options::overwrite_existing);
}

// A distribution as pip leaves it: dist-info with METADATA and RECORD.
void install(const fs::path& site, const std::string& name, const std::string& version,
             const std::vector<std::string>& requires_dist, const std::vector<std::string>& files) {
    std::string dist_info = name;
    std::replace(dist_info.begin(), dist_info.end(), '-', '_');
    dist_info += "-" + version + ".dist-info";
    std::string metadata = "Metadata-Version: 2.1\nName: " + name + "\nVersion: " + version + "\n";
    for (const std::string& line : requires_dist) metadata += "Requires-Dist: " + line + "\n";
    write(site / dist_info / "METADATA", metadata + "\nA description.\n");
    std::string record;
    for (const std::string& file : files) record += file + ",sha256=x,1\n";
    write(site / dist_info / "RECORD", record + dist_info + "/RECORD,,\n");
}

// Scratch trees live under one directory per test process, removed when
// the suite ends.
fs::path scratch(const std::string& name) {
    struct Root {
        fs::path path = strata::test::scratch_path("frameworks");
        ~Root() {
            std::error_code ignored;
            fs::remove_all(path, ignored);
        }
    };
    static Root root;
    fs::path path = root.path / name;
    fs::remove_all(path);
    return path;
}

// torch with its CUDA library built from `library` (a fixture), the CUDA
// version its version.py records, and the pip cuDNN wheel it pins.
fs::path torch_site(const std::string& name, const std::string& library, const std::string& cuda) {
    fs::path site = scratch(name) / "lib/python3.11/site-packages";
    install(
        site, "torch", "2.7.0+cu128",
        {"nvidia-cudnn-cu12==9.7.1.26; platform_system == \"Linux\" and platform_machine == \"x86_64\"",
         "filelock"},
        {"torch/__init__.py", "torch/version.py", "torch/lib/libtorch_cuda.so", "torch/lib/libtorch_cpu.so"});
    write(site / "torch/__init__.py", "");
    write(site / "torch/version.py",
          "from typing import Optional\n__version__ = '2.7.0+cu128'\ndebug = False\ncuda: Optional[str] = " +
              (cuda.empty() ? std::string("None") : "'" + cuda + "'") + "\nhip: Optional[str] = None\n");
    copy(fixtures + "/" + library, site / "torch/lib/libtorch_cuda.so");
    write(site / "torch/lib/libtorch_cpu.so", "not an ELF file");
    install(site, "nvidia-cudnn-cu12", "9.7.1.26", {}, {"nvidia/cudnn/lib/libcudnn.so.9"});
    copy(fixtures + "/wheel_cudnn/libcudnn.so.9", site / "nvidia/cudnn/lib/libcudnn.so.9");
    return site;
}

// An older cuDNN as a system install leaves it: libcudnn.so.9 -> libcudnn.so.9.0.0.
std::string system_cudnn_dir() {
    fs::path dir = scratch("system-cudnn");
    copy(fixtures + "/system_cudnn/libcudnn.so.9.0.0", dir / "libcudnn.so.9.0.0");
    fs::create_symlink("libcudnn.so.9.0.0", dir / "libcudnn.so.9");
    return dir.string();
}

struct Run {
    int exit_code;
    Json report;
    std::string err;
};

Run frameworks_json(const std::vector<std::string>& args, const std::string& ld_library_path = "") {
    std::vector<std::string> argv = {strata_binary(), "frameworks", "--json"};
    argv.insert(argv.end(), args.begin(), args.end());
    auto result = run_process(
        argv, {ld_library_path.empty() ? "LD_LIBRARY_PATH" : "LD_LIBRARY_PATH=" + ld_library_path});
    INFO(result.out << result.err);
    Json report = Json::parse(result.out, nullptr, false);
    REQUIRE(report.is_object());
    return {result.exit_code, report, result.err};
}

const Json& check(const Json& report, const std::string& id) {
    for (const Json& item : report["checks"])
        if (item["id"] == id) return item;
    FAIL("no check " << id << " in " << report["checks"].dump(2));
    static Json none;
    return none;
}

bool contains(const Json& value, const std::string& text) {
    return value.get<std::string>().find(text) != std::string::npos;
}

}  // namespace

TEST_CASE("framework fixtures carry what their build flags say") {
    auto file = strata::arch::MappedFile::open(fixtures + "/sm80_sm90.so");
    REQUIRE(file);
    auto elf = strata::arch::parse_elf(file->bytes());
    REQUIRE(elf);
    auto dynamic = strata::arch::read_dynamic(*elf);
    REQUIRE(dynamic);
    CHECK(std::find(dynamic->needed.begin(), dynamic->needed.end(), "libcudnn.so.9") !=
          dynamic->needed.end());
    CHECK(dynamic->runpath == std::vector<std::string>{"$ORIGIN/../../nvidia/cudnn/lib"});
    CHECK(dynamic->rpath.empty());
    auto rpath_file = strata::arch::MappedFile::open(fixtures + "/sm90_rpath.so");
    REQUIRE(rpath_file);
    auto rpath_elf = strata::arch::parse_elf(rpath_file->bytes());
    REQUIRE(rpath_elf);
    auto rpath_dynamic = strata::arch::read_dynamic(*rpath_elf);
    REQUIRE(rpath_dynamic);
    CHECK(rpath_dynamic->rpath == std::vector<std::string>{"$ORIGIN/../../nvidia/cudnn/lib"});
    CHECK(rpath_dynamic->runpath.empty());
}

TEST_CASE("strata frameworks: architecture coverage against the GPU") {
    SECTION("newest SASS sm_90, no PTX, on an sm_120 GPU: cannot run, the missing architecture named") {
        fs::path site = torch_site("fw-sm90", "sm80_sm90.so", "12.8");
        Run run =
            frameworks_json({"--site-packages", site.string(), "--sm", "12.0", "--driver", "580.65.06"});
        CHECK(run.exit_code == 1);
        const Json& arch = check(run.report, "framework.architectures.torch");
        CHECK(arch["status"] == "fail");
        CHECK(arch["layer"] == "framework");
        CHECK(contains(arch["summary"], "PyTorch 2.7.0+cu128 cannot run"));
        CHECK(contains(arch["summary"], "no image for CC 12.0 (has: sm_80 sm_90)"));
        CHECK(contains(arch["remedy"], "sm_120"));
        // The same build is native on the GPUs it was built for.
        Run h100 =
            frameworks_json({"--site-packages", site.string(), "--sm", "9.0", "--driver", "580.65.06"});
        CHECK(check(h100.report, "framework.architectures.torch")["status"] == "pass");
        CHECK(h100.exit_code == 0);
    }
    SECTION("PTX only: runs through the JIT, with the first-launch cost named") {
        fs::path site = torch_site("fw-ptx", "ptx90.so", "12.8");
        Run run =
            frameworks_json({"--site-packages", site.string(), "--sm", "12.0", "--driver", "580.65.06"});
        const Json& arch = check(run.report, "framework.architectures.torch");
        CHECK(arch["status"] == "warn");
        CHECK(contains(arch["summary"], "runs only through PTX JIT"));
        CHECK(contains(arch["summary"], "compute_90"));
        CHECK(contains(arch["remedy"], "first launch"));
        CHECK(run.exit_code == 0);
        // A driver too old to JIT the PTX's ISA turns the JIT path into "cannot run".
        Run old =
            frameworks_json({"--site-packages", site.string(), "--sm", "12.0", "--driver", "525.60.13"});
        CHECK(check(old.report, "framework.architectures.torch")["status"] == "fail");
    }
    SECTION(
        "a few fat binaries only a newer driver loads, in a library that runs native: warned, not failed") {
        // Two units with sm_90 SASS, one with CUDA 13's compute_80 PTX only,
        // as cuSOLVER of CUDA 13.2 holds on driver 580 (1 of 234).
        fs::path site = torch_site("fw-refused", "sm80_sm90.so", "12.8");
        fs::copy_file(std::string(STRATA_TEST_ARCH_FIXTURES) + "/libmostly_native.so",
                      site / "torch/lib/libtorch_cuda.so", fs::copy_options::overwrite_existing);
        Run run = frameworks_json({"--site-packages", site.string(), "--sm", "9.0", "--driver", "570.86.15"});
        const Json& arch = check(run.report, "framework.architectures.torch");
        CHECK(arch["status"] == "warn");
        CHECK(contains(arch["summary"], "holds code this driver cannot load"));
        CHECK(contains(arch["summary"], "1 of 3 fat binaries refused by this driver while the rest runs"));
        CHECK(contains(arch["summary"], "error 222"));
        CHECK(contains(arch["remedy"], "older driver of the same CUDA major"));
        CHECK(contains(arch["evidence"], "sm_90 (native), except 1 fat binary this driver refuses"));
        CHECK(run.exit_code == 0);
        // A driver that reads the ISA runs that unit through the JIT: nothing to say.
        Run current =
            frameworks_json({"--site-packages", site.string(), "--sm", "9.0", "--driver", "580.65.06"});
        CHECK(check(current.report, "framework.architectures.torch")["status"] == "pass");
        // Where the sm_90 units are code for other GPUs, the refused unit is all there is.
        Run ampere =
            frameworks_json({"--site-packages", site.string(), "--sm", "8.0", "--driver", "570.86.15"});
        CHECK(check(ampere.report, "framework.architectures.torch")["status"] == "fail");
        CHECK(ampere.exit_code == 1);
    }
    SECTION("no GPU and no --sm: the coverage is reported, nothing is judged") {
        fs::path site = torch_site("fw-nogpu", "sm120.so", "12.8");
        Run run = frameworks_json({"--site-packages", site.string()});
        const Json& arch = check(run.report, "framework.architectures.torch");
        CHECK(arch["status"] == "skip");
        CHECK(contains(arch["summary"], "SASS sm_120; PTX compute_120"));
        CHECK(run.report["environment"]["framework.torch.sass"]["value"] == Json::array({"sm_120"}));
        CHECK(run.report["environment"]["framework.torch.ptx"]["value"] == Json::array({"compute_120"}));
        CHECK(check(run.report, "framework.cuda_driver.torch")["status"] == "skip");
        CHECK(run.exit_code == 0);
    }
}

TEST_CASE("strata frameworks: packages built against the framework") {
    // torch 2.7.0+cu128 with an extension that requires it and ships kernels
    // (sm_80/sm_90) and, under auditwheel's name, the CUDA runtime it was built with.
    auto site_with = [](const std::string& name, const std::string& requirement, const std::string& cudart) {
        fs::path site = torch_site(name, "sm80_sm90.so", "12.8");
        install(site, "vision-ops", "1.0", {requirement, "numpy"},
                {"vision_ops/_C.so", "vision_ops.libs/" + cudart, "vision_ops/__init__.py"});
        copy(fixtures + "/sm80_sm90.so", site / "vision_ops/_C.so");
        write(site / ("vision_ops.libs/" + cudart), "not read: the name says the CUDA major");
        write(site / "vision_ops/__init__.py", "");
        return site;
    };
    SECTION("built for the framework's release and CUDA major, with the GPU's kernels: passes") {
        fs::path site = site_with("fw-ext-ok", "torch==2.7.0", "libcudart.3eda8113.so.12");
        Run run = frameworks_json({"--site-packages", site.string(), "--sm", "9.0", "--driver", "580.65.06"});
        const Json& extensions = check(run.report, "framework.extensions.torch");
        CHECK(extensions["status"] == "pass");
        CHECK(contains(extensions["summary"], "extensions (vision-ops 1.0) have native SASS"));
        CHECK(contains(extensions["evidence"], "CUDA 12 (its wheel carries the CUDA 12 runtime)"));
        CHECK(run.report["environment"]["framework.torch.extensions"]["value"] ==
              Json::array({"vision-ops 1.0: 1 file(s) with device code, CUDA 12"}));
        // A GPU its kernels do not cover: the extension is named.
        Run blackwell =
            frameworks_json({"--site-packages", site.string(), "--sm", "12.0", "--driver", "580.65.06"});
        const Json& missing = check(blackwell.report, "framework.extensions.torch");
        CHECK(missing["status"] == "fail");
        CHECK(
            contains(missing["summary"], "vision-ops 1.0 cannot run its kernels: CC 12.0: _C.so: no image"));
        CHECK(contains(missing["remedy"], "TORCH_CUDA_ARCH_LIST"));
        // No GPU: the builds are still compared, the kernels are not judged.
        Run none = frameworks_json({"--site-packages", site.string()});
        CHECK(check(none.report, "framework.extensions.torch")["status"] == "skip");
    }
    SECTION("pinned to another release and built for another CUDA major: fails, both said") {
        fs::path site = site_with("fw-ext-bad", "torch==2.6.0", "libcudart-9f3c1a2b.so.11");
        Run run = frameworks_json({"--site-packages", site.string(), "--sm", "9.0", "--driver", "580.65.06"});
        const Json& extensions = check(run.report, "framework.extensions.torch");
        CHECK(run.exit_code == 1);
        CHECK(extensions["status"] == "fail");
        CHECK(contains(extensions["summary"],
                       "vision-ops 1.0 requires torch==2.6.0, but PyTorch 2.7.0+cu128 is installed"));
        CHECK(contains(extensions["evidence"], "vision-ops 1.0 is built for CUDA 11"));
        CHECK(contains(extensions["remedy"], "release made for PyTorch 2.7.0+cu128"));
    }
    // bitsandbytes' layout: one build per CUDA release, of which it loads the
    // one named for torch.version.cuda. The build for another release (here
    // without sm_90) is never loaded, so it must not decide.
    auto site_with_builds = [](const std::string& name, const std::string& cuda) {
        fs::path site = torch_site(name, "sm80_sm90.so", cuda);
        install(site, "quant-ops", "0.5", {"torch<3,>=2.4", "numpy"},
                {"quant_ops/libquant_ops_cuda118.so", "quant_ops/libquant_ops_cuda128.so",
                 "quant_ops/libquant_ops_cpu.so", "quant_ops/__init__.py"});
        copy(fixtures + "/sm120.so", site / "quant_ops/libquant_ops_cuda118.so");
        copy(fixtures + "/sm80_sm90.so", site / "quant_ops/libquant_ops_cuda128.so");
        write(site / "quant_ops/libquant_ops_cpu.so", "not an ELF file");
        write(site / "quant_ops/__init__.py", "");
        return site;
    };
    SECTION("one build per CUDA release: the one for the framework's CUDA is judged, the others never load") {
        fs::path site = site_with_builds("fw-ext-builds", "12.8");
        Run run = frameworks_json({"--site-packages", site.string(), "--sm", "9.0", "--driver", "580.65.06"});
        const Json& extensions = check(run.report, "framework.extensions.torch");
        CHECK(extensions["status"] == "pass");
        CHECK(contains(extensions["evidence"],
                       "loads libquant_ops_cuda128.so (of 2 CUDA builds), the build for CUDA 12.8"));
        CHECK(!contains(extensions["evidence"], "libquant_ops_cuda118.so"));
    }
    SECTION("one build per CUDA release, none for the framework's: fails, the file it looks for named") {
        fs::path site = site_with_builds("fw-ext-builds-none", "12.6");
        Run run = frameworks_json({"--site-packages", site.string(), "--sm", "9.0", "--driver", "580.65.06"});
        const Json& extensions = check(run.report, "framework.extensions.torch");
        CHECK(run.exit_code == 1);
        CHECK(extensions["status"] == "fail");
        CHECK(extensions["summary"] ==
              "quant-ops 0.5 has no build for CUDA 12.6 (PyTorch 2.7.0+cu128): it loads "
              "libquant_ops_cuda126.so, and its wheel has builds for CUDA 11.8, 12.8");
        CHECK(contains(extensions["remedy"], "with a build for CUDA 12.6"));
    }
    SECTION("per-CUDA builds with absurd releases in their names or the record: read, not a crash") {
        fs::path site = torch_site("fw-ext-builds-absurd", "sm80_sm90.so", "99999999999999999999999.7");
        install(site, "quant-ops", "0.5", {"torch"},
                {"quant_ops/libq_cuda118.so", "quant_ops/libq_cuda99999999999999999999.so",
                 "quant_ops/libq_cu.so", "quant_ops/libq_cuda1.so"});
        copy(fixtures + "/sm80_sm90.so", site / "quant_ops/libq_cuda118.so");
        for (const char* name : {"libq_cuda99999999999999999999.so", "libq_cu.so", "libq_cuda1.so"})
            write(site / "quant_ops" / name, "not an ELF file");
        Run run = frameworks_json({"--site-packages", site.string(), "--sm", "9.0", "--driver", "580.65.06"});
        CHECK((run.exit_code == 0 || run.exit_code == 1));
        CHECK(contains(check(run.report, "framework.extensions.torch")["evidence"], "libq_cuda118.so"));
    }
    // A module built only for Hopper's architecture-specific target beside a
    // portable one (vLLM's FlashAttention-3 beside its other kernels).
    SECTION("a module built only for another GPU's architecture-specific target is not loaded there") {
        fs::path site = torch_site("fw-ext-specific", "sm80_sm90.so", "12.8");
        install(site, "serve-ops", "0.3", {"torch==2.7.0"},
                {"serve_ops/_C.so", "serve_ops/_fa3_C.so", "serve_ops/__init__.py"});
        copy(fixtures + "/sm80_sm90.so", site / "serve_ops/_C.so");
        copy(fixtures + "/sm90a.so", site / "serve_ops/_fa3_C.so");
        write(site / "serve_ops/__init__.py", "");
        Run ampere =
            frameworks_json({"--site-packages", site.string(), "--sm", "8.0", "--driver", "580.65.06"});
        const Json& on_ampere = check(ampere.report, "framework.extensions.torch");
        CHECK(on_ampere["status"] == "pass");
        CHECK(contains(on_ampere["evidence"],
                       "CC 8.0: _fa3_C.so -> not loaded (built only for other GPUs' architecture-specific "
                       "targets"));
        Run hopper =
            frameworks_json({"--site-packages", site.string(), "--sm", "9.0", "--driver", "580.65.06"});
        CHECK(contains(check(hopper.report, "framework.extensions.torch")["evidence"],
                       "CC 9.0: _fa3_C.so -> sm_90a (native)"));
        // With nothing else to run, the same module is a failure.
        fs::remove(site / "serve_ops/_C.so");
        install(site, "serve-ops", "0.3", {"torch==2.7.0"}, {"serve_ops/_fa3_C.so", "serve_ops/__init__.py"});
        Run alone =
            frameworks_json({"--site-packages", site.string(), "--sm", "8.0", "--driver", "580.65.06"});
        const Json& only_specific = check(alone.report, "framework.extensions.torch");
        CHECK(only_specific["status"] == "fail");
        CHECK(contains(only_specific["summary"], "no other file has code for this GPU"));
    }
    // torch whose libc10.so is the interface of `api` ("new" or "old", the
    // older also exporting what the newer dropped; "" for none) beside a
    // package built against the `built_for` release, asking for `requirement`.
    auto site_with_api = [](const std::string& name, const std::string& api, const std::string& built_for,
                            const std::string& requirement) {
        fs::path site = torch_site(name, "sm80_sm90.so", "12.8");
        std::vector<std::string> torch_files = {"torch/__init__.py", "torch/version.py",
                                                "torch/lib/libtorch_cuda.so", "torch/lib/libtorch_cpu.so"};
        if (!api.empty()) {
            torch_files.push_back("torch/lib/libc10.so");
            copy(fixtures + "/api_" + api + "/libc10.so", site / "torch/lib/libc10.so");
        }
        install(site, "torch", "2.7.0+cu128", {}, torch_files);
        install(site, "ext-ops", "1.0", {requirement}, {"ext_ops/_C.so"});
        copy(fixtures + "/extension_for_" + built_for + ".so", site / "ext_ops/_C.so");
        return site;
    };
    SECTION("every symbol it imports from the framework is exported: said, and passes") {
        fs::path site = site_with_api("fw-ext-abi-ok", "new", "new", "torch");
        Run run = frameworks_json({"--site-packages", site.string(), "--sm", "9.0", "--driver", "580.65.06"});
        const Json& extensions = check(run.report, "framework.extensions.torch");
        CHECK(extensions["status"] == "pass");
        CHECK(contains(extensions["evidence"],
                       "imports 2 symbol(s) of PyTorch 2.7.0+cu128's interface; it exports every one"));
        CHECK(run.report["environment"]["framework.torch.extensions"]["value"] ==
              Json::array({"ext-ops 1.0: 1 file(s) with device code, imports 2 framework symbol(s)"}));
        CHECK(!run.report["environment"].contains("framework.torch.extension_missing_symbols"));
    }
    SECTION("built against a release that exported a symbol this one does not: fails, the symbol named") {
        fs::path site = site_with_api("fw-ext-abi-stale", "new", "old", "torch");
        Run run = frameworks_json({"--site-packages", site.string(), "--sm", "9.0", "--driver", "580.65.06"});
        const Json& extensions = check(run.report, "framework.extensions.torch");
        CHECK(run.exit_code == 1);
        CHECK(extensions["status"] == "fail");
        CHECK(extensions["summary"] ==
              "ext-ops 1.0 cannot be imported beside PyTorch 2.7.0+cu128: it imports a symbol PyTorch "
              "2.7.0+cu128 "
              "does not export, first _C.so: c10::cuda::c10_cuda_check_implementation(int, char const*, char "
              "const*, unsigned int, bool) (undefined symbol: "
              "_ZN3c104cuda29c10_cuda_check_implementationEiPKcS2_jb): "
              "it was built against another release");
        CHECK(contains(extensions["remedy"],
                       "pip install --no-build-isolation --no-cache-dir --force-reinstall ext-ops"));
        CHECK(run.report["environment"]["framework.torch.extension_missing_symbols"]["value"] ==
              Json::array({"ext-ops 1.0: _C.so: _ZN3c104cuda29c10_cuda_check_implementationEiPKcS2_jb"}));
    }
    SECTION("pinned to another release whose interface it finds whole: a warning, not a failure") {
        fs::path site = site_with_api("fw-ext-abi-pin", "old", "new", "torch==2.6.0");
        Run run = frameworks_json({"--site-packages", site.string(), "--sm", "9.0", "--driver", "580.65.06"});
        const Json& extensions = check(run.report, "framework.extensions.torch");
        CHECK(run.exit_code == 0);
        CHECK(extensions["status"] == "warn");
        CHECK(extensions["summary"] ==
              "ext-ops 1.0 requires torch==2.6.0, but PyTorch 2.7.0+cu128 is installed: every symbol it "
              "imports "
              "from it is exported, so it loads, but it was built and tested against another release");
        CHECK(extensions["remedy"] == "install the ext-ops release made for PyTorch 2.7.0+cu128");
    }
    SECTION("linking a library of the framework's that is not installed: fails, the library named") {
        fs::path site = site_with_api("fw-ext-abi-nolib", "", "new", "torch");
        Run run = frameworks_json({"--site-packages", site.string(), "--sm", "9.0", "--driver", "580.65.06"});
        const Json& extensions = check(run.report, "framework.extensions.torch");
        CHECK(extensions["status"] == "fail");
        CHECK(contains(extensions["summary"], "_C.so needs libc10.so, which is not installed"));
        CHECK(contains(extensions["summary"], "it imports 2 symbols PyTorch 2.7.0+cu128 does not export"));
    }
    SECTION("a shared object that cannot be read (a FIFO) warns and is named, never hangs") {
        fs::path site = torch_site("fw-ext-fifo", "sm80_sm90.so", "12.8");
        install(site, "fifo-ops", "1.0", {"torch"}, {"fifo_ops/_C.so"});
        fs::create_directories(site / "fifo_ops");
        REQUIRE(::mkfifo((site / "fifo_ops/_C.so").c_str(), 0600) == 0);
        Run run = frameworks_json({"--site-packages", site.string(), "--sm", "9.0", "--driver", "580.65.06"});
        const Json& extensions = check(run.report, "framework.extensions.torch");
        CHECK(extensions["status"] == "warn");
        CHECK(contains(extensions["summary"], "fifo-ops 1.0: 1 shared object(s) could not be read"));
        CHECK(contains(extensions["summary"], "not a regular file"));
    }
    SECTION("a package that needs the framework only for an extra, or ships no kernels, is not one") {
        fs::path site = torch_site("fw-ext-none", "sm80_sm90.so", "12.8");
        install(site, "helper", "1.0", {"torch; extra == \"gpu\""}, {"helper/_C.so"});
        copy(fixtures + "/sm80_sm90.so", site / "helper/_C.so");
        install(site, "pure", "1.0", {"torch>=2"}, {"pure/__init__.py"});
        write(site / "pure/__init__.py", "");
        Run run = frameworks_json({"--site-packages", site.string(), "--sm", "9.0", "--driver", "580.65.06"});
        for (const Json& item : run.report["checks"]) CHECK(item["id"] != "framework.extensions.torch");
    }
}

TEST_CASE("strata frameworks: the framework's CUDA build against the driver") {
    SECTION("built for CUDA 13.0, driver for CUDA 12.8: fails at start") {
        fs::path site = torch_site("fw-cuda13", "sm120.so", "13.0");
        Run run =
            frameworks_json({"--site-packages", site.string(), "--sm", "12.0", "--driver", "570.86.10"});
        const Json& cuda = check(run.report, "framework.cuda_driver.torch");
        CHECK(cuda["status"] == "fail");
        CHECK(contains(cuda["summary"], "built for CUDA 13.0 (torch/version.py)"));
        CHECK(contains(cuda["summary"], "runs CUDA 12.8 at most"));
        CHECK(contains(cuda["remedy"], "580"));
        CHECK(run.exit_code == 1);
    }
    SECTION("built for CUDA 12.8, an R535 driver (12.2): minor-version compatibility, with its limits") {
        fs::path site = torch_site("fw-minor", "sm120.so", "12.8");
        Run run =
            frameworks_json({"--site-packages", site.string(), "--sm", "12.0", "--driver", "535.104.05"});
        const Json& cuda = check(run.report, "framework.cuda_driver.torch");
        CHECK(cuda["status"] == "warn");
        CHECK(contains(cuda["summary"], "minor-version compatibility"));
        // ... and its sm_120 PTX cannot be JIT-compiled there, but the SASS runs.
        CHECK(check(run.report, "framework.architectures.torch")["status"] == "pass");
    }
    SECTION("a CPU-only build says so, and warns only where there is a GPU it will not use") {
        fs::path site = torch_site("fw-cpu", "sm120.so", "");
        Run run = frameworks_json({"--site-packages", site.string()});
        CHECK(check(run.report, "framework.cuda_driver.torch")["status"] == "skip");
        CHECK(contains(check(run.report, "framework.found")["summary"], "a CPU-only build"));
        Run with_gpu = frameworks_json({"--site-packages", site.string(), "--sm", "9.0"});
        CHECK(check(with_gpu.report, "framework.cuda_driver.torch")["status"] == "warn");
    }
}

TEST_CASE("strata frameworks: files that cannot be read fail the install, never pass it") {
    // Issue #37: a truncated libtorch_cuda.so was skipped and the install
    // passed; an unreadable torch/version.py made "a CPU-only build". Exit 0.
    SECTION("a truncated CUDA library") {
        fs::path site = torch_site("fw-truncated", "sm80_sm90.so", "12.8");
        fs::resize_file(site / "torch/lib/libtorch_cuda.so", 3000);
        Run run = frameworks_json({"--site-packages", site.string(), "--sm", "9.0", "--driver", "580.65.06"});
        CHECK(run.exit_code == 1);
        const Json& files = check(run.report, "framework.files.torch");
        CHECK(files["status"] == "fail");
        CHECK(contains(files["summary"], "1 of its files cannot be read"));
        CHECK(contains(files["summary"], "libtorch_cuda.so"));
        CHECK(contains(files["remedy"], "pip install --force-reinstall --no-deps torch==2.7.0+cu128"));
    }
    SECTION("a torch/version.py that cannot be read is no CPU-only build") {
        fs::path site = torch_site("fw-unreadable-version", "sm80_sm90.so", "12.8");
        fs::remove(site / "torch/version.py");
        fs::create_directory(site / "torch/version.py");  // unreadable as a file, even to root
        Run run = frameworks_json({"--site-packages", site.string(), "--sm", "9.0", "--driver", "580.65.06"});
        CHECK(run.exit_code == 1);
        CHECK(check(run.report, "framework.files.torch")["status"] == "fail");
        CHECK_FALSE(contains(check(run.report, "framework.found")["summary"], "CPU-only"));
        CHECK(contains(check(run.report, "framework.found")["summary"], "torch/version.py cannot be read"));
    }
}

TEST_CASE("strata frameworks: which cuDNN the loader gives the framework") {
    fs::path site = torch_site("fw-libs", "sm80_sm90.so", "12.8");
    std::string wheel_copy = fs::canonical(site / "nvidia/cudnn/lib/libcudnn.so.9").string();
    SECTION("the wheel's copy, found through DT_RUNPATH") {
        Run run = frameworks_json({"--site-packages", site.string(), "--sm", "9.0"});
        const Json& libraries = check(run.report, "framework.libraries.torch");
        CHECK(libraries["status"] == "pass");
        CHECK(contains(libraries["evidence"], "libcudnn.so.9 (linked by libtorch_cuda.so) -> " + wheel_copy));
        CHECK(contains(libraries["evidence"], "DT_RUNPATH entry 1 of libtorch_cuda.so"));
        CHECK(contains(libraries["evidence"], "dependency nvidia-cudnn-cu12 ==9.7.1.26: 9.7.1.26 installed"));
    }
    SECTION("an older system cuDNN on LD_LIBRARY_PATH shadows the pip wheel's") {
        std::string system = system_cudnn_dir();
        Run run = frameworks_json({"--site-packages", site.string(), "--sm", "9.0"}, system);
        const Json& libraries = check(run.report, "framework.libraries.torch");
        CHECK(libraries["status"] == "fail");
        CHECK(contains(libraries["summary"],
                       "libcudnn.so.9: an older copy shadows the nvidia-cudnn-cu12 wheel's "
                       "copy (9.7.1.26)"));
        CHECK(contains(libraries["summary"], system + "/libcudnn.so.9.0.0 (LD_LIBRARY_PATH entry 1, 9.0.0)"));
        CHECK(contains(libraries["remedy"], "out of LD_LIBRARY_PATH"));
        CHECK(run.exit_code == 1);
    }
    SECTION("DT_RPATH is searched before LD_LIBRARY_PATH: the wheel's copy still wins") {
        fs::path rpath_site = torch_site("fw-rpath", "sm90_rpath.so", "12.8");
        Run run =
            frameworks_json({"--site-packages", rpath_site.string(), "--sm", "9.0"}, system_cudnn_dir());
        const Json& libraries = check(run.report, "framework.libraries.torch");
        CHECK(libraries["status"] == "pass");
        CHECK(contains(libraries["evidence"], "DT_RPATH entry 1 of libtorch_cuda.so"));
    }
    SECTION("the pinned wheel missing or older than the pin") {
        fs::remove_all(site / "nvidia_cudnn_cu12-9.7.1.26.dist-info");
        fs::remove_all(site / "nvidia");
        Run missing = frameworks_json({"--site-packages", site.string(), "--sm", "9.0"}, system_cudnn_dir());
        const Json& libraries = check(missing.report, "framework.libraries.torch");
        CHECK(libraries["status"] == "fail");
        CHECK(
            contains(libraries["evidence"], "requires nvidia-cudnn-cu12 ==9.7.1.26, which is not installed"));
        CHECK(
            contains(libraries["evidence"], "the loader picks 9.0.0, older than the 9.7.1.26 PyTorch needs"));
        install(site, "nvidia-cudnn-cu12", "9.1.0.70", {}, {});
        Run older = frameworks_json({"--site-packages", site.string(), "--sm", "9.0"});
        CHECK(contains(check(older.report, "framework.libraries.torch")["evidence"],
                       "requires nvidia-cudnn-cu12 ==9.7.1.26 but 9.1.0.70 is installed"));
    }
}

TEST_CASE("strata frameworks: the other frameworks' build records") {
    fs::path site = scratch("fw-others") / "site-packages";
    install(site, "tensorflow", "2.18.0", {}, {"tensorflow/python/platform/build_info.py"});
    write(site / "tensorflow/python/platform/build_info.py",
          "import collections\nbuild_info = {'cpu_compiler': '/usr/lib/llvm-18/bin/clang', "
          "'cuda_compute_capabilities': ['sm_60', 'sm_70', 'sm_80', 'sm_89', 'compute_90'], 'cuda_version': "
          "'12.5.1', 'cudnn_version': '9', 'is_cuda_build': True, 'is_rocm_build': False}\n");
    install(site, "onnxruntime-gpu", "1.20.1", {}, {"onnxruntime/capi/build_and_package_info.py"});
    write(site / "onnxruntime/capi/build_and_package_info.py",
          "package_name = 'onnxruntime-gpu'\n__version__ = '1.20.1'\ncuda_version = '12.2'\n"
          "cudnn_version = '9.1'\n");
    install(site, "cupy-cuda12x", "13.3.0", {}, {"cupy/.data/_wheel.json"});
    write(site / "cupy/.data/_wheel.json",
          R"({"cuda": "12.x", "packaging": "pip", "nccl": {"version": "2.16.5"}})");
    install(site, "jaxlib", "0.4.20+cuda12.cudnn89", {}, {});
    install(site, "onnxruntime", "1.20.1", {}, {});  // the CPU build beside the GPU one, as pip allows
    Run run = frameworks_json({"--site-packages", site.string()});
    const Json& env = run.report["environment"];
    CHECK(env["framework.tensorflow.cuda_build"]["value"] == "12.5.1");
    CHECK(env["framework.tensorflow.cudnn_build"]["value"] == "9");
    CHECK(env["framework.onnxruntime.cuda_build"]["value"] == "12.2");
    CHECK(env["framework.onnxruntime.cudnn_build"]["value"] == "9.1");
    CHECK(env["framework.cupy.cuda_build"]["value"] == "12.x");
    CHECK(env["framework.cupy.nccl_build"]["value"] == "2.16.5");
    CHECK(env["framework.jax.cuda_build"]["value"] == "12");
    CHECK(env["framework.jax.cudnn_build"]["value"] == "8.9");
    CHECK(env["framework.onnxruntime.distributions"]["value"] ==
          Json::array({"onnxruntime 1.20.1", "onnxruntime-gpu 1.20.1"}));
    // jaxlib and a CUDA plugin of another release: JAX refuses the plugin.
    fs::path jax = scratch("fw-jax-mismatch") / "site-packages";
    install(jax, "jaxlib", "0.4.35", {}, {});
    install(jax, "jax-cuda12-plugin", "0.4.30",
            {"jax-cuda12-pjrt==0.4.30", "nvidia-cuda-runtime-cu12>=12.1.105; extra == \"with-cuda\""}, {});
    install(jax, "jax-cuda12-pjrt", "0.4.30", {}, {});
    Run mismatch = frameworks_json({"--site-packages", jax.string()});
    const Json& parts = check(mismatch.report, "framework.libraries.jax");
    CHECK(parts["status"] == "fail");
    CHECK(contains(parts["summary"], "come from different JAX releases"));
    CHECK(contains(parts["evidence"],
                   "jaxlib 0.4.35 and jax-cuda12-plugin 0.4.30 come from different JAX releases"));
    CHECK(contains(parts["evidence"], "dependency jax-cuda12-pjrt ==0.4.30: 0.4.30 installed"));
    CHECK(mismatch.report["environment"]["framework.jax.cuda_build"]["value"] == "12.1");
    // "12.x" is any CUDA 12: a CUDA 12.0-era driver runs it.
    Run judged = frameworks_json({"--site-packages", site.string(), "--driver", "525.60.13"});
    CHECK(check(judged.report, "framework.cuda_driver.cupy")["status"] == "pass");
    CHECK(check(judged.report, "framework.cuda_driver.tensorflow")["status"] == "warn");
}

TEST_CASE("strata frameworks: finding Python environments") {
    fs::path prefix = scratch("fw-venv");
    fs::path site = torch_site("fw-venv-site", "sm120.so", "12.8");
    // An interpreter that answers as python -c would: its version, then sys.path.
    write(prefix / "bin/python3", "#!/bin/sh\necho 3.12.3\necho /nonexistent\necho " + site.string() + "\n");
    fs::permissions(prefix / "bin/python3", fs::perms::owner_all);
    SECTION("VIRTUAL_ENV's interpreter is asked for its search path") {
        auto result = run_process({strata_binary(), "frameworks"}, {"VIRTUAL_ENV=" + prefix.string()});
        CHECK(result.exit_code == 0);
        CHECK(result.out.find("VIRTUAL_ENV (Python 3.12.3): " + site.string()) != std::string::npos);
        CHECK(result.out.find("PyTorch 2.7.0+cu128  [torch]  " + site.string()) != std::string::npos);
    }
    SECTION("an interpreter that fails: its prefix's layout is read instead, and the failure shown") {
        fs::path broken = scratch("fw-broken");
        write(broken / "bin/python", "#!/bin/sh\necho 'Fatal Python error: init_fs_encoding' >&2\nexit 1\n");
        fs::permissions(broken / "bin/python", fs::perms::owner_all);
        fs::create_directories(broken / "lib/python3.12");
        fs::create_directory_symlink(site, broken / "lib/python3.12/site-packages");
        auto result =
            run_process({strata_binary(), "frameworks", "--python", (broken / "bin/python").string()});
        CHECK(result.exit_code == 0);
        CHECK(result.out.find("exited with status 1: Fatal Python error: init_fs_encoding") !=
              std::string::npos);
        CHECK(result.out.find("PyTorch 2.7.0+cu128") != std::string::npos);
    }
    SECTION("the same directories through two environments are read once") {
        auto result = run_process({strata_binary(), "frameworks", "--json", "--python",
                                   (prefix / "bin/python3").string(), "--site-packages", site.string()});
        Json report = Json::parse(result.out);
        CHECK(report["environment"].contains("framework.torch.version"));
        CHECK(report["environment"].contains(
            "framework.torch-2.version"));  // listed twice: both were asked for
    }
}

TEST_CASE("strata frameworks: bad input is one line and exit 2; broken files are reported, not fatal") {
    // /bin/false answers nothing and is no Python's layout: judging nothing
    // is not a pass (issue #38 item 6).
    for (const std::vector<std::string>& args : {std::vector<std::string>{"--python", "/nonexistent/python"},
                                                 {"--python", "/bin/false"},
                                                 {"--site-packages", "/nonexistent"},
                                                 {"--sm", "banana"},
                                                 {"--driver", "latest"},
                                                 {"--bogus"}}) {
        std::vector<std::string> argv = {strata_binary(), "frameworks"};
        argv.insert(argv.end(), args.begin(), args.end());
        auto result = run_process(argv);
        INFO(args[0] << ": " << result.err);
        CHECK(result.exit_code == 2);
        CHECK(line_count(result.err) == 1);
    }
    fs::path site = torch_site("fw-corrupt", "sm120.so", "12.8");
    write(site / "torch/lib/libtorch_cuda.so", std::string("\x7f"
                                                           "ELF\x02\x01\x01",
                                                           7) +
                                                   std::string(200, '\xff'));
    write(site / "broken-1.0.dist-info/METADATA", std::string("\0\0\0", 3));
    Run run = frameworks_json({"--site-packages", site.string(), "--sm", "9.0"});
    CHECK(contains(check(run.report, "framework.found")["evidence"],
                   "unreadable: " + (site / "torch/lib/libtorch_cuda.so").string()));
    CHECK(check(run.report, "framework.architectures.torch")["status"] == "skip");
}

TEST_CASE("doctor shows the framework layer last, and env records it") {
    fs::path site = torch_site("fw-doctor", "sm80_sm90.so", "12.8");
    auto doctor = run_process({strata_binary(), "doctor", "--json", "--no-selftest", "--no-builtin-plugins",
                               "--site-packages", site.string()});
    Json report = Json::parse(doctor.out);
    CHECK(report["layers"].back()["name"] == "framework");
    CHECK(check(report, "framework.found")["status"] == "pass");
    // No GPU here: nothing is judged, so the framework layer fails nothing.
    CHECK(check(report, "framework.architectures.torch")["status"] == "skip");
    auto env =
        run_process({strata_binary(), "env", "--no-builtin-plugins", "--site-packages", site.string()});
    Json record = Json::parse(env.out);
    CHECK(record["environment"]["framework.torch.cuda_build"]["value"] == "12.8");
    CHECK(record["environment"]["framework.torch.cuda_build"]["source"] == "torch/version.py");
    CHECK(record["environment"]["framework.torch.version"]["value"] == "2.7.0+cu128");
    auto text = run_process({strata_binary(), "doctor", "--no-selftest", "--no-builtin-plugins",
                             "--site-packages", site.string()});
    CHECK(text.out.find("\nframework\n") != std::string::npos);
    CHECK(text.out.find("\nframework\n") > text.out.find("\nkernel\n"));
}

TEST_CASE("strata explain says which framework cause holds here") {
    auto cause = [](const Json& explanation, const std::string& check_id) {
        for (const Json& item : explanation["causes"])
            if (item["check"] == check_id) return item;
        FAIL("no cause checked by " << check_id << " in " << explanation.dump(2));
        return Json();
    };
    SECTION("the GPU the message names is the target when none is here") {
        fs::path site = torch_site("fw-explain-arch", "sm80_sm90.so", "12.8");
        auto result =
            run_process({strata_binary(), "explain", "--json", "--site-packages", site.string(),
                         "NVIDIA GeForce RTX 5090 with CUDA capability sm_120 is not compatible with the "
                         "current PyTorch installation."},
                        {"LD_LIBRARY_PATH"});
        CHECK(result.exit_code == 0);
        Json explanation = Json::parse(result.out);
        CHECK(explanation["failure_class"] == "no_kernel_image_for_gpu_arch");
        const Json arch = cause(explanation, "framework.architectures.");
        CHECK(arch["state"] == "HOLDS");
        CHECK(
            contains(arch["evidence"], "CC 12.0: libtorch_cuda.so: no image for CC 12.0 (has: sm_80 sm_90)"));
    }
    SECTION("a cuDNN mismatch: the older copy on LD_LIBRARY_PATH is named") {
        fs::path site = torch_site("fw-explain-libs", "sm80_sm90.so", "12.8");
        auto result =
            run_process({strata_binary(), "explain", "--json", "--site-packages", site.string(),
                         "RuntimeError: cuDNN version incompatibility: PyTorch was compiled against "
                         "(9, 7, 1) but found runtime version (9, 0, 0)."},
                        {"LD_LIBRARY_PATH=" + system_cudnn_dir()});
        Json explanation = Json::parse(result.out);
        const Json libraries = cause(explanation, "framework.libraries.");
        CHECK(libraries["state"] == "HOLDS");
        CHECK(contains(libraries["evidence"], "an older copy shadows the nvidia-cudnn-cu12 wheel's copy"));
    }
}

TEST_CASE("strata frameworks: FIFOs, oversized and escaping file lists in site-packages are bounded") {
    namespace fs = std::filesystem;
    std::string site = strata::test::scratch_path("hostile-site");
    fs::remove_all(site);
    fs::create_directories(site + "/torch-2.5.1.dist-info");
    fs::create_directories(site + "/torch/lib");
    fs::create_directories(site + "/numpy-2.0.dist-info");
    std::ofstream(site + "/torch-2.5.1.dist-info/METADATA")
        << "Metadata-Version: 2.1\nName: torch\nVersion: 2.5.1\n";
    // RECORD: 20 MiB of lines, an entry that climbs out of site-packages,
    // and entries that are FIFOs where a library and version.py should be.
    {
        std::ofstream record(site + "/torch-2.5.1.dist-info/RECORD");
        record << "torch/version.py,,\ntorch/lib/libtorch_cuda.so,,\n../../../etc/passwd,,\n";
        std::string filler = "torch/filler/" + std::string(200, 'f') + ".py,sha256=x,1\n";
        for (size_t written = 0; written < (20u << 20); written += filler.size()) record << filler;
    }
    REQUIRE(::mkfifo((site + "/torch/version.py").c_str(), 0600) == 0);
    REQUIRE(::mkfifo((site + "/torch/lib/libtorch_cuda.so").c_str(), 0600) == 0);
    // Another distribution's METADATA is a FIFO too.
    REQUIRE(::mkfifo((site + "/numpy-2.0.dist-info/METADATA").c_str(), 0600) == 0);
    auto start = std::chrono::steady_clock::now();
    auto result =
        run_process({strata_binary(), "frameworks", "--json", "--site-packages", site, "--sm", "9.0"});
    CHECK(std::chrono::steady_clock::now() - start < std::chrono::seconds(60));
    INFO(result.err);
    REQUIRE((result.exit_code == 0 || result.exit_code == 1));
    auto report = nlohmann::json::parse(result.out);
    CHECK(report["environment"]["framework.torch.version"]["value"] == "2.5.1");
    // The escaping entry is not the framework's file, and nothing hung.
    CHECK(result.out.find("/etc/passwd") == std::string::npos);
    fs::remove_all(site);
}

TEST_CASE(
    "the JIT proof's plan: the fat binaries `frameworks` says the JIT compiles, from trusted packages") {
    fs::path site = torch_site("fw-jit-plan", "ptx90.so", "12.8");
    Run run = frameworks_json({"--site-packages", site.string(), "--sm", "12.0"});
    const Json& fact = run.report["environment"]["framework.torch.jit_fat_binaries"]["value"];
    REQUIRE(fact.size() == 1);
    CHECK(fact[0]["cc"] == "12.0");
    CHECK(fact[0]["file"] == "torch/lib/libtorch_cuda.so");
    REQUIRE(fact[0]["fat_binaries"].size() == 1);
    const uint64_t offset = fact[0]["fat_binaries"][0][0], bytes = fact[0]["fat_binaries"][0][1];

    strata::FrameworkOptions options;
    options.environments.site_packages = {site.string()};
    strata::FrameworkLayer layer = strata::scan_framework_layer(strata::ProbeContext::live(), options);
    strata::JitProofPlan plan = strata::plan_jit_proof(layer, 120);
    REQUIRE(plan.items.size() == 1);
    const strata::JitProofItem& item = plan.items.front();
    CHECK(item.offset == offset);
    CHECK(item.bytes == bytes);
    CHECK(item.image == "compute_90");
    char expected_name[96];
    std::snprintf(expected_name, sizeof expected_name, "torch/torch/lib/libtorch_cuda.so@0x%llx",
                  static_cast<unsigned long long>(offset));
    CHECK(item.name == expected_name);
    // The bytes handed over are a whole fat binary: its magic, and the size its header gives.
    std::ifstream in(item.file, std::ios::binary);
    in.seekg(static_cast<std::streamoff>(offset));
    std::string head(16, '\0');
    in.read(head.data(), 16);
    CHECK(head.substr(0, 4) == std::string("\x50\xed\x55\xba", 4));
    uint64_t entries = 0;
    std::memcpy(&entries, head.data() + 8, 8);
    CHECK(16 + entries == bytes);
    CHECK(strata::jit_proof_list(plan)["fat_binaries"][0]["offset"] == offset);

    // SASS-less but for a GPU the PTX cannot reach: nothing to compile.
    CHECK(strata::plan_jit_proof(layer, 80).items.empty());

    // Packages others could write are never handed to the driver's compiler.
    fs::permissions(site, fs::perms::others_write, fs::perm_options::add);
    strata::JitProofPlan untrusted = strata::plan_jit_proof(layer, 120);
    fs::permissions(site, fs::perms::others_write, fs::perm_options::remove);
    CHECK(untrusted.items.empty());
    REQUIRE(untrusted.left_out.size() == 1);
    CHECK(untrusted.left_out[0].find("not handed to the driver") != std::string::npos);
    fs::remove_all(site);
}
