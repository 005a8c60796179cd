// The driver, device, runtime and kernel layers end to end with the real
// driver and cudart plugins in their workers, the real cudart, and the
// fault-injection libcuda/NVML (tests/fakes) answering as each test says.
// Core probes read a fixture machine; the workers inherit this process's
// environment, which points the loader at the fake.
#include <catch2/catch.hpp>
#include <cstdlib>
#include <filesystem>

#include "diagnosis/rules.h"
#include "doctor/doctor.h"
#include "support/fixture_tree.h"

using namespace strata;
using strata::test::FixtureTree;

namespace {

// Sets environment variables for one test and restores them after.
class ScopedEnv {
public:
    void set(const char* name, const std::string& value) {
        const char* old = std::getenv(name);
        saved_.emplace_back(name, old ? std::optional<std::string>(old) : std::nullopt);
        ::setenv(name, value.c_str(), 1);
    }
    ~ScopedEnv() {
        for (auto it = saved_.rbegin(); it != saved_.rend(); ++it) {
            if (it->second)
                ::setenv(it->first.c_str(), it->second->c_str(), 1);
            else
                ::unsetenv(it->first.c_str());
        }
    }

private:
    std::vector<std::pair<std::string, std::optional<std::string>>> saved_;
};

// A GPU node whose kernel module is `module_version`, with libcuda, device
// nodes and a PCI GPU, as the core probes see it.
void gpu_machine(FixtureTree& tree, const std::string& module_version = "580.65.06") {
    tree.write("/proc/driver/nvidia/version", "NVRM version: NVIDIA UNIX x86_64 Kernel Module  " +
                                                  module_version + "  Sun Jul 27 07:09:29 UTC 2025\n");
    tree.write("/usr/lib/x86_64-linux-gnu/libcuda.so." + module_version, "ELF");
    tree.symlink("/usr/lib/x86_64-linux-gnu/libcuda.so.1", "libcuda.so." + module_version);
    tree.write("/dev/nvidiactl");
    tree.write("/dev/nvidia0");
    tree.write("/dev/nvidia-uvm");
    tree.write("/sys/bus/pci/devices/0000:18:00.0/vendor", "0x10de\n");
    tree.write("/sys/bus/pci/devices/0000:18:00.0/class", "0x030200\n");
    tree.write("/sys/bus/pci/devices/0000:18:00.0/device", "0x2335\n");
}

Report doctor_with_fake(const FixtureTree& tree, const std::string& fake,
                        std::map<std::string, std::string> env = {},
                        const std::string& library_path = STRATA_TEST_FAKE_DRIVER_DIR) {
    ScopedEnv scoped;
    scoped.set("STRATA_FAKE_CUDA", fake);
    scoped.set("LD_LIBRARY_PATH", library_path);
    RunOptions options;
    options.executable = STRATA_TEST_BINARY;
    options.plugins.include_builtin = true;
    return run_doctor(options, ProbeContext(tree.root(), std::move(env)));
}

const Check& check(const Report& report, const std::string& id) {
    const Check* found = report.find_check(id);
    INFO("check " << id);
    REQUIRE(found);
    return *found;
}

bool has(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}

}  // namespace

TEST_CASE("a 12.4 driver under the 13.0 runtime names the driver floor") {
    FixtureTree tree;
    gpu_machine(tree);
    Report report = doctor_with_fake(tree, "version=12040");
    const Check& compat = check(report, "runtime.driver_compatibility");
    CHECK(compat.layer == Layer::runtime);
    CHECK(compat.status == Status::fail);
    CHECK(compat.summary == "driver supports CUDA 12.4; this runtime needs ≥ 13.0 (driver ≥ 580)");
    CHECK(has(compat.remedy, "update the NVIDIA driver to branch 580"));
    // The real cudart answered 35 through the fake's cuGetProcAddress.
    CHECK(report.find_fact("runtime.cudart.device_count_result")->value == 35);
    CHECK(has(check(report, "runtime.cudart.device_count").summary,
              "supports CUDA 12.4, older than this runtime"));
    CHECK(report.exit_code() == 1);
}

TEST_CASE("a sandbox that hides /proc/driver/nvidia does not fail the driver layer where CUDA works") {
    // Issue #41: gVisor's nvproxy, some restricted runtimes and WSL give the
    // driver's device node but no /proc/driver/nvidia.
    FixtureTree tree;
    gpu_machine(tree);
    std::filesystem::remove(tree.root() / "proc/driver/nvidia/version");
    Report report = doctor_with_fake(tree, "devices=2");
    const Check& module = check(report, "driver.kernel_module");
    CHECK(module.status == Status::warn);
    CHECK(has(module.summary, "/proc/driver/nvidia/version is hidden here, but /dev/nvidiactl is present"));
    CHECK(check(report, "driver.cuda_init").status == Status::pass);
    CHECK_FALSE(report.gate_for(Layer::device).has_value());
    CHECK(check(report, "device.nodes").status == Status::pass);
    // Where cuInit fails too, the driver layer still fails, on cuInit's word.
    Report broken = doctor_with_fake(tree, "init=100");
    CHECK(check(broken, "driver.cuda_init").status == Status::fail);
    CHECK(broken.gate_for(Layer::device).has_value());
    // Without the device node either, no module is loaded: a failure as before.
    std::filesystem::remove(tree.root() / "dev/nvidiactl");
    Report bare = doctor_with_fake(tree, "devices=2");
    CHECK(check(bare, "driver.kernel_module").status == Status::fail);
    CHECK(has(check(bare, "driver.kernel_module").summary, "no NVIDIA kernel module loaded"));
}

TEST_CASE("no device inside a container is the container's fault, with the --gpus remedy") {
    FixtureTree tree;
    gpu_machine(tree);
    tree.write("/.dockerenv");
    Report report = doctor_with_fake(tree, "init=100");
    const Check& init = check(report, "driver.cuda_init");
    CHECK(init.layer == Layer::container);
    CHECK(init.status == Status::fail);
    CHECK(has(init.summary, "no GPU is exposed to this container"));
    CHECK(has(init.remedy, "--gpus all"));
    CHECK(has(init.remedy, "NVIDIA_VISIBLE_DEVICES"));
    // Self-tests of later layers are gated by it.
    CHECK(check(report, "runtime.cudart.selftest").status == Status::skip);
}

TEST_CASE("error 803 and a user-mode driver newer than the kernel module") {
    FixtureTree tree;
    gpu_machine(tree, "460.56");
    Report report = doctor_with_fake(tree, "init=803;nvml_driver=460.73.01");
    const Check& init = check(report, "driver.cuda_init");
    CHECK(init.layer == Layer::driver);
    CHECK(init.status == Status::fail);
    CHECK(has(init.summary, "does not match the kernel module (error 803)"));
    CHECK(has(init.remedy, "reboot"));
    const Check& versions = check(report, "driver.version_agreement");
    CHECK(versions.status == Status::fail);
    CHECK(has(versions.summary, "Driver/library version mismatch"));
    CHECK(has(versions.summary, "kernel module 460.56"));
    CHECK(has(versions.summary, "NVML 460.73.01"));
}

TEST_CASE("NVML's own version-mismatch error fails the agreement check") {
    FixtureTree tree;
    gpu_machine(tree);
    Report report = doctor_with_fake(tree, "nvml_init=18");
    const Check& versions = check(report, "driver.version_agreement");
    CHECK(versions.status == Status::fail);
    CHECK(has(versions.evidence, "Driver/library version mismatch (18)"));
}

TEST_CASE("every other nvmlInit failure is a check with its name and what to do") {
    FixtureTree tree;
    gpu_machine(tree);
    struct Case {
        int code;
        const char* name;
        const char* remedy_part;
    };
    for (const Case& c : {Case{9, "NVML_ERROR_DRIVER_NOT_LOADED", "modprobe nvidia"},
                          Case{12, "NVML_ERROR_LIBRARY_NOT_FOUND", "user-mode libraries"},
                          Case{999, "NVML_ERROR_UNKNOWN", "dmesg"}}) {
        INFO(c.name);
        Report report = doctor_with_fake(tree, "nvml_init=" + std::to_string(c.code));
        const Check* nvml = report.find_check("driver.nvml_init");
        REQUIRE(nvml);
        // CUDA itself starts in this fake: the GPUs compute, only NVML's view is missing.
        CHECK(nvml->status == Status::warn);
        CHECK(has(nvml->summary, std::string("NVML cannot start: ") + c.name));
        CHECK(has(nvml->remedy, c.remedy_part));
    }
    Report with_cuda_down = doctor_with_fake(tree, "nvml_init=9;init=100");
    const Check* failed = with_cuda_down.find_check("driver.nvml_init");
    REQUIRE(failed);
    CHECK(failed->status == Status::fail);
    // The mismatch (18) is the version agreement's to judge, once.
    CHECK_FALSE(doctor_with_fake(tree, "nvml_init=18").find_check("driver.nvml_init"));
}

TEST_CASE("error 804: forward compatibility on a GPU without it") {
    FixtureTree tree;
    gpu_machine(tree);
    Report report = doctor_with_fake(tree, "init=804");
    const Check& init = check(report, "driver.cuda_init");
    CHECK(init.layer == Layer::driver);
    CHECK(has(init.summary, "forward-compatibility libcuda"));
    CHECK(has(init.remedy, "data-centre GPUs"));
}

TEST_CASE("a forward-compatibility libcuda that initialises is reported as supported") {
    namespace fs = std::filesystem;
    FixtureTree tree;
    gpu_machine(tree, "535.104.05");
    fs::path compat = tree.root() / "usr/local/cuda-13.0/compat";
    fs::create_directories(compat);
    fs::copy_file(fs::path(STRATA_TEST_FAKE_DRIVER_DIR) / "libcuda.so.1", compat / "libcuda.so.1");
    Report report = doctor_with_fake(tree, "version=13000;nvml_driver=535.104.05", {},
                                     compat.string() + ":" + STRATA_TEST_FAKE_DRIVER_DIR);
    CHECK(report.find_fact("driver.libcuda.forward_compat")->value == true);
    const Check& forward = check(report, "driver.forward_compat");
    CHECK(forward.status == Status::pass);
    CHECK(has(forward.summary, "/compat/libcuda.so.1) is in use, and this GPU supports it"));
    CHECK(has(forward.evidence, "kernel module 535.104.05"));
    // The same library on a GPU without forward compatibility: 804.
    Report refused =
        doctor_with_fake(tree, "init=804", {}, compat.string() + ":" + STRATA_TEST_FAKE_DRIVER_DIR);
    CHECK(has(check(refused, "driver.cuda_init").summary,
              "/compat/libcuda.so.1) is in use on a GPU that does not"));
}

TEST_CASE("a working forward-compatibility libcuda newer than the kernel module is no version mismatch") {
    namespace fs = std::filesystem;
    FixtureTree tree;
    gpu_machine(tree, "535.104.05");
    fs::path compat = tree.root() / "usr/local/cuda-13.0/compat";
    fs::create_directories(compat);
    fs::copy_file(fs::path(STRATA_TEST_FAKE_DRIVER_DIR) / "libcuda.so.1", compat / "libcuda.so.580.95.05");
    fs::create_symlink("libcuda.so.580.95.05", compat / "libcuda.so.1");
    Report report = doctor_with_fake(tree, "version=13000;nvml_driver=535.104.05", {},
                                     compat.string() + ":" + STRATA_TEST_FAKE_DRIVER_DIR);
    CHECK(check(report, "driver.forward_compat").status == Status::pass);
    // libcuda 580.95.05 over kernel module 535.104.05 is what forward
    // compatibility is; it was called a "Driver/library version mismatch".
    const Check& versions = check(report, "driver.version_agreement");
    CHECK(versions.status == Status::pass);
    CHECK_FALSE(has(versions.summary, "580.95.05"));
    // The same copy when cuInit refuses it (803) is a mismatch again.
    Report broken = doctor_with_fake(tree, "init=803;nvml_driver=535.104.05", {},
                                     compat.string() + ":" + STRATA_TEST_FAKE_DRIVER_DIR);
    CHECK(check(broken, "driver.version_agreement").status == Status::fail);
}

TEST_CASE("a GPU no image covers: the driver refuses every image with 209") {
    FixtureTree tree;
    gpu_machine(tree);
    Report report = doctor_with_fake(tree, "cc=3.5;module_load=209;name=Tesla K40");
    const Check& images = check(report, "kernel.driver_images");
    CHECK(images.device == 0);  // the GPU is a field; the id is the same on every node
    CHECK(images.layer == Layer::kernel);
    CHECK(images.status == Status::fail);
    CHECK(has(images.summary, "(CC 3.5): no image of strata's probe kernel can run on it"));
    CHECK(has(images.summary, "CUDA_ERROR_NO_BINARY_FOR_GPU (209)"));
    CHECK(has(images.remedy, "STRATA_CUDA_ARCHITECTURES"));
    CHECK(report.find_fact("device.0.compute_capability")->value == "3.5");
    CHECK(report.find_fact("device.0.name")->value == "Tesla K40");
    // The core's image check reads the same GPU from the driver plugin's facts.
    const Check& own = check(report, "kernel.strata_images");
    CHECK(own.status == Status::fail);
    CHECK(has(own.summary, "GPU 0 (Tesla K40, CC 3.5)"));
    // And the libraries' fat binaries, judged the same way.
    const Check& cublas = check(report, "library.cublas.images");
    CHECK(cublas.layer == Layer::library);
    CHECK(cublas.status == Status::fail);
    CHECK(has(cublas.summary, "GPU 0 (Tesla K40, CC 3.5): libcublas"));
    CHECK(has(cublas.summary, "error 209"));
}

TEST_CASE("PTX too new for the driver (222) names the toolkit the driver must support") {
    FixtureTree tree;
    gpu_machine(tree);
    Report report = doctor_with_fake(tree, "module_load=222");
    const Check& images = check(report, "kernel.driver_images");
    CHECK(images.status == Status::fail);
    CHECK(has(images.summary, "CUDA_ERROR_UNSUPPORTED_PTX_VERSION (222)"));
    CHECK(has(images.evidence, "the PTX is ISA"));
    CHECK(has(images.remedy, "update the driver to one that supports CUDA"));
}

TEST_CASE("an invalid image (200) points at ZSTD images on pre-R550 drivers") {
    FixtureTree tree;
    gpu_machine(tree, "535.104.05");
    Report report = doctor_with_fake(tree, "module_load=200;nvml_driver=535.104.05;version=12020");
    const Check& images = check(report, "kernel.driver_images");
    CHECK(images.status == Status::fail);
    CHECK(has(images.summary, "CUDA_ERROR_INVALID_IMAGE (200)"));
    CHECK(has(images.remedy, "550.54.14"));
    CHECK(has(images.remedy, "ZSTD"));
}

TEST_CASE("a driver that accepts launches but drops them fails verification with the index") {
    FixtureTree tree;
    gpu_machine(tree);
    Report report = doctor_with_fake(tree, "cc=9.0;devices=2;name=NVIDIA H200");
    for (int device : {0, 1}) {
        const Check* per_gpu = report.find_check("kernel.driver_images", device);
        REQUIRE(per_gpu);
        const Check& images = *per_gpu;
        CHECK(images.status == Status::fail);
        CHECK(has(images.summary, "sm_90: wrong result: a[0]"));
    }
    CHECK(report.find_fact("device.count")->value == 2);
    CHECK(report.find_fact("device.1.pci_bus_id")->value == "0000:19:00.0");
    // NVML's view joined by PCI bus id, though NVML writes the domain with 8
    // digits and CUDA with 4 (issue #16: the join found nothing on real GPUs).
    CHECK(report.find_fact("device.1.mig_mode")->value == "disabled");
    CHECK(report.find_fact("device.0.memory_mib")->value == 81920);
    CHECK(check(report, "driver.cuda_init").status == Status::pass);
    CHECK(check(report, "driver.version_agreement").status == Status::pass);
    const Check& own = check(report, "kernel.strata_images");
    CHECK(own.status == Status::pass);
    CHECK(has(own.evidence, "GPU 1 (NVIDIA H200, CC 9.0): libstrata_kernels.so -> sm_90 (native)"));
    const Check& nccl = check(report, "library.nccl.images");
    CHECK(nccl.status == Status::pass);
    CHECK(has(nccl.evidence, "GPU 0 (NVIDIA H200, CC 9.0): libnccl.so.2 -> sm_90 (native)"));
}

// The PTX path's JIT time, from the driver plugin's measurements.
std::vector<double> jit_times(const Report& report) {
    std::vector<double> out;
    for (const Measurement& m : report.measurements())
        if (m.origin == "driver" && m.name.size() > 7 && m.name.ends_with(".jit_ms")) out.push_back(m.value);
    return out;
}

TEST_CASE("the PTX JIT is timed cold on every run, not served from the compute cache") {
    FixtureTree tree;
    gpu_machine(tree);
    FixtureTree home;  // the user's ~/.nv/ComputeCache lives here
    ScopedEnv scoped;
    scoped.set("HOME", home.root().string());
    // As the real driver: a JIT costs 300 ms unless its result is cached.
    for (int run = 1; run <= 2; ++run) {
        INFO("run " << run);
        auto times = jit_times(doctor_with_fake(tree, "cc=9.0;name=NVIDIA H200;jit_ms=300"));
        REQUIRE(!times.empty());
        for (double ms : times) CHECK(ms >= 250);
    }
}

TEST_CASE("a context that cannot be made current is released, not leaked") {
    FixtureTree tree;
    gpu_machine(tree);
    // strict_contexts: the fake refuses a primary context (999) while an
    // earlier one is still retained. GPU 0's context cannot be made current;
    // if it is not released, GPU 1 is refused (issue #16: it leaked).
    Report report = doctor_with_fake(tree, "devices=2;ctx_set_current=201;strict_contexts=1");
    for (int device : {0, 1}) {
        const Check* images = report.find_check("kernel.driver_images", device);
        REQUIRE(images);
        INFO("GPU " << device << ": " << images->summary);
        CHECK(images->status == Status::fail);
        CHECK(has(images->summary, "cannot create a context"));
        CHECK(has(images->summary, "201"));
        CHECK_FALSE(has(images->summary, "999"));
    }
}

TEST_CASE("GPU counts: CUDA_VISIBLE_DEVICES explains a smaller CUDA count") {
    FixtureTree tree;
    gpu_machine(tree);
    Report same = doctor_with_fake(tree, "devices=1");
    CHECK(check(same, "device.count_agreement").status == Status::pass);
    Report hidden = doctor_with_fake(tree, "devices=1", {{"CUDA_VISIBLE_DEVICES", "0"}});
    CHECK(check(hidden, "device.count_agreement").status == Status::pass);
}

TEST_CASE("driver version from a library file name") {
    CHECK(version_from_library_path("/usr/lib/x86_64-linux-gnu/libcuda.so.580.65.06", "libcuda.so") ==
          "580.65.06");
    CHECK(version_from_library_path("/usr/lib/libcuda.so.1", "libcuda.so").empty());
    CHECK(version_from_library_path("libnvidia-ml.so.1", "libcuda.so").empty());
}

TEST_CASE("a GPU in exclusive compute mode warns, a prohibited one fails, the default passes") {
    FixtureTree tree;
    gpu_machine(tree);
    {
        Report report = doctor_with_fake(tree, "devices=2");
        const Check& mode = check(report, "device.compute_mode");
        CHECK(mode.status == Status::pass);
        const Fact* second = report.find_fact("device.1.compute_mode");
        REQUIRE(second);
        CHECK(second->value == "default");
    }
    {
        Report report = doctor_with_fake(tree, "devices=2;compute_mode=3");
        const Check& mode = check(report, "device.compute_mode");
        CHECK(mode.status == Status::warn);
        CHECK(
            has(mode.summary, "GPU 0 (exclusive_process), GPU 1 (exclusive_process): one process at a time"));
        CHECK(has(mode.summary, "busy or unavailable"));
    }
    {
        Report report = doctor_with_fake(tree, "compute_mode=2");
        const Check& mode = check(report, "device.compute_mode");
        CHECK(mode.status == Status::fail);
        CHECK(has(mode.summary, "GPU 0 in prohibited compute mode"));
        CHECK(has(mode.remedy, "-c DEFAULT"));
    }
}
