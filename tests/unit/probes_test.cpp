// The core's probes against fixture trees: synthetic machines built per test.
#include "probes/probes.h"

#include <sys/stat.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <chrono>
#include <filesystem>
#include <fstream>

#include "explain/explain.h"
#include "explain/failure_classes.h"
#include "probes/shared_memory.h"
#include "support/fixture_tree.h"
#include "support/ld_cache_builder.h"

using namespace strata;
using strata::test::FixtureTree;

namespace {

Report probe(const FixtureTree& tree, std::map<std::string, std::string> env = {}) {
    ProbeContext context(tree.root(), std::move(env));
    Report report;
    run_core_probes(context, report);
    return report;
}

const Check& check(const Report& report, const std::string& id) {
    const Check* found = report.find_check(id);
    INFO("check " << id);
    REQUIRE(found);
    return *found;
}

const char* proprietary =
    "NVRM version: NVIDIA UNIX x86_64 Kernel Module  580.65.06  Sun Jul 27 07:09:29 UTC 2025\n"
    "GCC version:  gcc version 12.2.0 (Debian 12.2.0-14)\n";
const char* open_module =
    "NVRM version: NVIDIA UNIX Open Kernel Module for x86_64  595.84  Release Build  (dvs-builder@U16)\n";

}  // namespace

TEST_CASE("a machine without a driver fails the driver layer and gates the device layer") {
    FixtureTree tree;
    tree.write("/etc/os-release",
               "PRETTY_NAME=\"Debian GNU/Linux 12 (bookworm)\"\nID=debian\nVERSION_ID=\"12\"\n");
    Report report = probe(tree);
    CHECK(report.find_fact("host.os.name")->value == "Debian GNU/Linux 12 (bookworm)");
    CHECK(check(report, "driver.kernel_module").status == Status::fail);
    CHECK(check(report, "driver.kernel_module").summary == "no NVIDIA kernel module loaded");
    CHECK(check(report, "driver.libcuda").status == Status::fail);
    CHECK(check(report, "driver.libcuda").summary == "libcuda.so.1 not found");
    CHECK_FALSE(check(report, "driver.kernel_module").remedy.empty());
    const Check& nodes = check(report, "device.nodes");
    CHECK(nodes.status == Status::skip);
    CHECK(nodes.summary.find("driver layer failed: no NVIDIA kernel module loaded") != std::string::npos);
    CHECK(report.exit_code() == 1);
}

TEST_CASE("a GPU host whose kernel loads only signed modules names that as why the driver did not load") {
    // A host with an NVIDIA GPU on its PCI bus and no module loaded; the EFI
    // SecureBoot variable holds 4 attribute bytes, then the value (1 = on).
    auto host = [](std::string secure_boot_variable, const char* lockdown = nullptr,
                   const char* sig_enforce = nullptr, bool module_loaded = false) {
        FixtureTree tree;
        tree.write("/sys/bus/pci/devices/0000:01:00.0/vendor", "0x10de\n");
        tree.write("/sys/bus/pci/devices/0000:01:00.0/class", "0x030200\n");
        tree.write("/sys/bus/pci/devices/0000:01:00.0/device", "0x2335\n");
        tree.write("/sys/firmware/efi/efivars/SecureBoot-8be4df61-93ca-11d2-aa0d-00e098032b8c",
                   secure_boot_variable);
        if (lockdown) tree.write("/sys/kernel/security/lockdown", lockdown);
        if (sig_enforce) tree.write("/sys/module/module/parameters/sig_enforce", sig_enforce);
        if (module_loaded) tree.write("/proc/driver/nvidia/version", proprietary);
        return probe(tree);
    };
    const std::string on("\x06\x00\x00\x00\x01", 5);
    const std::string off("\x06\x00\x00\x00\x00", 5);
    SECTION("Secure Boot on") {
        Report report = host(on);
        const Check& module = check(report, "driver.kernel_module");
        CHECK(module.status == Status::fail);
        CHECK(module.summary == "no NVIDIA kernel module loaded");
        CHECK(module.remedy.find("only signed modules (Secure Boot is on)") != std::string::npos);
        CHECK(module.remedy.find("mokutil --import") != std::string::npos);
        CHECK(report.find_fact("driver.module_signatures_enforced")->value == "Secure Boot is on");
    }
    SECTION("kernel lockdown and module.sig_enforce, with Secure Boot off") {
        Report report = host(off, "none [integrity] confidentiality\n", "Y\n");
        CHECK(report.find_fact("driver.module_signatures_enforced")->value ==
              "kernel lockdown (integrity), module.sig_enforce=1");
    }
    SECTION("nothing enforced: lockdown [none], sig_enforce N, Secure Boot off") {
        Report report = host(off, "[none] integrity confidentiality\n", "N\n");
        CHECK_FALSE(report.find_fact("driver.module_signatures_enforced"));
        CHECK(check(report, "driver.kernel_module").remedy.find("signed") == std::string::npos);
    }
    SECTION("a truncated EFI variable is not read as Secure Boot on") {
        CHECK_FALSE(host(std::string("\x06\x00", 2)).find_fact("driver.module_signatures_enforced"));
    }
    SECTION("the module loaded: enforcement is not a finding") {
        Report report = host(on, nullptr, nullptr, true);
        CHECK(check(report, "driver.kernel_module").status == Status::pass);
        CHECK_FALSE(report.find_fact("driver.module_signatures_enforced"));
    }
}

TEST_CASE("proprietary kernel module, libcuda, device nodes and a PCI GPU") {
    FixtureTree tree;
    tree.write("/proc/driver/nvidia/version", proprietary);
    tree.write("/usr/lib/x86_64-linux-gnu/libcuda.so.580.65.06", "ELF");
    tree.symlink("/usr/lib/x86_64-linux-gnu/libcuda.so.1", "libcuda.so.580.65.06");
    tree.write("/dev/nvidiactl");
    tree.write("/dev/nvidia0");
    tree.write("/dev/nvidia-uvm");
    tree.write("/sys/bus/pci/devices/0000:01:00.0/vendor", "0x10de\n");
    tree.write("/sys/bus/pci/devices/0000:01:00.0/class", "0x030200\n");
    tree.write("/sys/bus/pci/devices/0000:01:00.0/device", "0x2335\n");
    tree.write("/sys/bus/pci/devices/0000:01:00.1/vendor", "0x10de\n");  // the GPU's audio function
    tree.write("/sys/bus/pci/devices/0000:01:00.1/class", "0x040300\n");

    Report report = probe(tree);
    CHECK(report.find_fact("driver.kernel_module.version")->value == "580.65.06");
    CHECK(report.find_fact("driver.kernel_module.flavor")->value == "proprietary");
    CHECK(check(report, "driver.kernel_module").status == Status::pass);
    CHECK(check(report, "driver.libcuda").status == Status::pass);
    CHECK(report.find_fact("driver.libcuda.path")->value == "/usr/lib/x86_64-linux-gnu/libcuda.so.580.65.06");
    CHECK(check(report, "device.nodes").status == Status::pass);
    CHECK(report.find_fact("host.pci.nvidia_gpus")->value == Json::array({"0000:01:00.0 (10de:2335)"}));
    CHECK(check(report, "host.pci.nvidia_gpu").status == Status::pass);
    CHECK(report.exit_code() == 0);
}

TEST_CASE("open kernel module format") {
    FixtureTree tree;
    tree.write("/proc/driver/nvidia/version", open_module);
    Report report = probe(tree);
    CHECK(report.find_fact("driver.kernel_module.version")->value == "595.84");
    CHECK(report.find_fact("driver.kernel_module.flavor")->value == "open");
    CHECK(check(report, "driver.kernel_module").summary == "NVIDIA open kernel module 595.84 loaded");
}

TEST_CASE("missing device nodes fail the device layer once the driver is there") {
    FixtureTree tree;
    tree.write("/proc/driver/nvidia/version", proprietary);
    tree.write("/usr/lib64/libcuda.so.1", "ELF");
    tree.write("/dev/null");
    Report report = probe(tree);
    CHECK(check(report, "device.nodes").status == Status::fail);
    CHECK(check(report, "device.nodes").summary == "/dev/nvidiactl is missing");
}

TEST_CASE("a docker container without the compute capability") {
    FixtureTree tree;
    tree.write("/.dockerenv");
    Report report = probe(tree, {{"NVIDIA_DRIVER_CAPABILITIES", "utility"}});
    CHECK(report.find_fact("container.detected")->value == true);
    CHECK(report.find_fact("container.runtime")->value == "docker");
    CHECK(check(report, "container.detected").status == Status::pass);
    CHECK(check(report, "container.nvidia_visible_devices").status == Status::warn);
    const Check& capabilities = check(report, "container.nvidia_driver_capabilities");
    CHECK(capabilities.status == Status::fail);
    CHECK(capabilities.summary.find("lacks compute") != std::string::npos);
    // Inside a container the driver's remedy points at the host.
    tree.write("/sys/bus/pci/devices/0000:01:00.0/vendor", "0x10de\n");
    tree.write("/sys/bus/pci/devices/0000:01:00.0/class", "0x030000\n");
    Report with_gpu = probe(tree, {{"NVIDIA_DRIVER_CAPABILITIES", "utility"}});
    CHECK(check(with_gpu, "driver.kernel_module").remedy.find("on the host") != std::string::npos);
}

TEST_CASE("a missing /dev/nvidia-uvm fails where nothing will create it, and explains cuInit's 999") {
    auto gpu_host = [](FixtureTree& tree) {
        tree.write("/proc/driver/nvidia/version", proprietary);
        tree.write("/usr/lib/x86_64-linux-gnu/libcuda.so.580.65.06", "ELF");
        tree.symlink("/usr/lib/x86_64-linux-gnu/libcuda.so.1", "libcuda.so.580.65.06");
        tree.write("/dev/nvidiactl");
        tree.write("/dev/nvidia0");
    };
    FixtureTree bare;
    gpu_host(bare);
    Report missing = probe(bare);
    const Check& uvm = check(missing, "device.uvm");
    CHECK(uvm.status == Status::fail);
    CHECK(uvm.summary ==
          "/dev/nvidia-uvm is missing: CUDA cannot initialise (cuInit returns CUDA_ERROR_UNKNOWN, 999)");
    CHECK(uvm.evidence ==
          "no /dev/nvidia-uvm; nvidia_uvm module not loaded (/sys/module/nvidia_uvm); no "
          "nvidia-modprobe");
    CHECK(uvm.remedy.find("install nvidia-modprobe") != std::string::npos);
    CHECK(check(missing, "device.nodes").status == Status::pass);

    // explain's reading of cuInit's unknown error checks the node.
    Explanation init = explain_text("failed call to cuInit: CUDA_ERROR_UNKNOWN", false);
    REQUIRE(init.cause);
    auto verdicts = evaluate_causes(*find_failure_class(init.cause->failure_class), missing);
    CHECK(std::any_of(verdicts.begin(), verdicts.end(), [](const CauseVerdict& v) {
        return v.cause->check_id == "device.uvm" && v.state == CauseState::holds;
    }));

    // On a host, libcuda has nvidia-modprobe create the node on first use.
    FixtureTree with_helper;
    gpu_host(with_helper);
    with_helper.write("/usr/bin/nvidia-modprobe");
    CHECK(check(probe(with_helper), "device.uvm").status == Status::pass);
    CHECK(check(probe(with_helper), "device.uvm").summary ==
          "/dev/nvidia-uvm is not created yet; /usr/bin/nvidia-modprobe creates it on the first CUDA call");
    // A container cannot create it, helper or not.
    with_helper.write("/.dockerenv");
    Report container = probe(with_helper, {{"NVIDIA_VISIBLE_DEVICES", "all"}});
    const Check& in_container = check(container, "device.uvm");
    CHECK(in_container.status == Status::fail);
    CHECK(in_container.remedy.find("on the host") != std::string::npos);
    // Present: passes; absent GPU nodes: device.nodes fails and says nothing of uvm.
    bare.write("/dev/nvidia-uvm");
    CHECK(check(probe(bare), "device.uvm").status == Status::pass);
    FixtureTree no_nodes;
    no_nodes.write("/proc/driver/nvidia/version", proprietary);
    no_nodes.write("/usr/lib64/libcuda.so.1", "ELF");
    no_nodes.write("/dev/null");
    CHECK_FALSE(probe(no_nodes).find_check("device.uvm"));
}

TEST_CASE("tmpfs sizes as /proc/mounts prints them, and values that are not a byte count") {
    CHECK(parse_tmpfs_size("65536k") == (uint64_t{64} << 20));
    CHECK(parse_tmpfs_size("1G") == (uint64_t{1} << 30));
    CHECK(parse_tmpfs_size("4096") == uint64_t{4096});
    CHECK_FALSE(parse_tmpfs_size("50%"));
    CHECK_FALSE(parse_tmpfs_size("64mb"));
    CHECK_FALSE(parse_tmpfs_size("k"));
    CHECK_FALSE(parse_tmpfs_size(""));
    CHECK_FALSE(parse_tmpfs_size("99999999999999999999"));  // overflows uint64_t
    CHECK_FALSE(parse_tmpfs_size("17179869184e"));          // overflows once shifted
    const char* mounts =
        "overlay / overlay rw,relatime,lowerdir=/l,upperdir=/u,workdir=/w 0 0\n"
        "shm /dev/shm tmpfs rw,nosuid,nodev,noexec,relatime,size=65536k,inode64 0 0\n"
        "tmpfs /dev/shm tmpfs rw,relatime,size=8388608k 0 0\n"  // mounted over the first: this one counts
        "proc /proc proc rw 0 0";
    SharedMemoryMount shm = find_tmpfs_mount(mounts, "/dev/shm");
    CHECK(shm.mounted);
    CHECK(shm.size_bytes == (uint64_t{8} << 30));
    SharedMemoryMount host =
        find_tmpfs_mount("tmpfs /dev/shm tmpfs rw,nosuid,nodev,inode64 0 0\n", "/dev/shm");
    CHECK(host.mounted);
    CHECK_FALSE(host.size_bytes);
    CHECK_FALSE(
        find_tmpfs_mount("tmpfs /dev/shmem tmpfs rw,size=1k 0 0\ntruncated /dev/shm", "/dev/shm").mounted);
}

TEST_CASE("a container's 64 MB /dev/shm warns, names NCCL, and is what explain checks for NCCL failures") {
    FixtureTree tree;
    tree.write("/.dockerenv");
    tree.write("/proc/mounts", "shm /dev/shm tmpfs rw,nosuid,nodev,noexec,relatime,size=65536k 0 0\n");
    Report small = probe(tree, {{"NVIDIA_VISIBLE_DEVICES", "all"}});
    const Check& shm = check(small, "container.shared_memory");
    CHECK(shm.status == Status::warn);
    CHECK(shm.summary ==
          "/dev/shm holds only 64 MiB: too small for NCCL's shared-memory transport between GPUs "
          "and for PyTorch DataLoader workers");
    CHECK(shm.remedy.find("--shm-size=1g") != std::string::npos);
    CHECK(small.find_fact("container.shared_memory_bytes")->value == (uint64_t{64} << 20));

    // explain reads the same check as the likely cause of an NCCL system error.
    Explanation nccl = explain_text("RuntimeError: NCCL error: unhandled system error", true);
    REQUIRE(nccl.cause);
    const FailureClass* other = find_failure_class(nccl.cause->failure_class);
    REQUIRE(other);
    auto verdicts = evaluate_causes(*other, small);
    CHECK(std::any_of(verdicts.begin(), verdicts.end(), [](const CauseVerdict& v) {
        return v.cause->check_id == "container.shared_memory" && v.state == CauseState::holds;
    }));

    tree.write("/proc/mounts", "shm /dev/shm tmpfs rw,size=2g 0 0\n");
    Report large = probe(tree, {{"NVIDIA_VISIBLE_DEVICES", "all"}});
    CHECK(check(large, "container.shared_memory").status == Status::pass);
    CHECK(check(large, "container.shared_memory").summary == "/dev/shm holds 2048 MiB");
    auto ruled_out = evaluate_causes(*other, large);
    CHECK(std::any_of(ruled_out.begin(), ruled_out.end(), [](const CauseVerdict& v) {
        return v.cause->check_id == "container.shared_memory" && v.state == CauseState::ruled_out;
    }));

    tree.write("/proc/mounts", "overlay / overlay rw 0 0\n");
    CHECK(check(probe(tree), "container.shared_memory").summary.starts_with("no /dev/shm is mounted"));
    // A size given as a share of RAM, read from a fixture tree: nothing is claimed.
    tree.write("/proc/mounts", "shm /dev/shm tmpfs rw,size=50% 0 0\n");
    CHECK_FALSE(probe(tree).find_check("container.shared_memory"));
    // On a host (no container) /dev/shm is not judged.
    FixtureTree host;
    host.write("/proc/mounts", "shm /dev/shm tmpfs rw,size=65536k 0 0\n");
    CHECK_FALSE(probe(host).find_check("container.shared_memory"));
}

TEST_CASE("container detection by podman marker, cgroup and container= variable") {
    {
        FixtureTree tree;
        tree.write("/run/.containerenv");
        CHECK(probe(tree).find_fact("container.runtime")->value == "podman");
    }
    {
        FixtureTree tree;
        tree.write("/proc/1/cgroup", "0::/kubepods/besteffort/pod1234/abcdef\n");
        CHECK(probe(tree).find_fact("container.runtime")->value == "kubernetes");
    }
    {
        FixtureTree tree;
        CHECK(probe(tree, {{"container", "oci"}}).find_fact("container.runtime")->value == "oci");
    }
    {
        FixtureTree tree;
        Report report = probe(tree, {{"NVIDIA_VISIBLE_DEVICES", "all"}});
        CHECK(report.find_fact("container.detected")->value == false);
        CHECK(report.find_fact("env.NVIDIA_VISIBLE_DEVICES")->value == "all");
    }
}

TEST_CASE("the toolkit's stub libcuda on LD_LIBRARY_PATH") {
    FixtureTree tree;
    tree.write("/proc/driver/nvidia/version", proprietary);
    tree.write("/usr/local/cuda/lib64/stubs/libcuda.so", "stub");
    tree.write("/usr/lib/x86_64-linux-gnu/libcuda.so.1", "ELF");
    Report report = probe(tree, {{"LD_LIBRARY_PATH", "/usr/local/cuda/lib64/stubs"}});
    const Check& stub = check(report, "driver.search_path.stub_libcuda");
    CHECK(stub.status == Status::fail);
    CHECK(stub.summary.find("/usr/local/cuda/lib64/stubs/libcuda.so (LD_LIBRARY_PATH entry 1)") !=
          std::string::npos);
    CHECK(stub.remedy.find("remove the stubs directory") != std::string::npos);
    // The real libcuda.so.1 still wins for programs that ask for the soname.
    CHECK(check(report, "driver.libcuda").status == Status::pass);

    SECTION("a stub that provides libcuda.so.1 wins the search and fails libcuda") {
        tree.symlink("/usr/local/cuda/lib64/stubs/libcuda.so.1", "libcuda.so");
        Report shadowed = probe(tree, {{"LD_LIBRARY_PATH", "/usr/local/cuda/lib64/stubs"}});
        const Check& libcuda = check(shadowed, "driver.libcuda");
        CHECK(libcuda.status == Status::fail);
        CHECK(libcuda.summary.find("stub libcuda") != std::string::npos);
        CHECK(libcuda.summary.find("error 34") != std::string::npos);
    }
}

TEST_CASE("libcuda.so.1 without the unversioned libcuda.so is a warning that names the symlink") {
    FixtureTree tree;
    tree.write("/proc/driver/nvidia/version", proprietary);
    tree.write("/usr/lib/x86_64-linux-gnu/libcuda.so.580.65.06", "ELF");
    tree.symlink("/usr/lib/x86_64-linux-gnu/libcuda.so.1", "libcuda.so.580.65.06");

    SECTION("a host: the remedy is the symlink, or TRITON_LIBCUDA_PATH") {
        Report report = probe(tree);
        const Check& unversioned = check(report, "driver.libcuda_unversioned");
        CHECK(unversioned.status == Status::warn);
        CHECK(unversioned.summary.find(
                  "no unversioned libcuda.so beside /usr/lib/x86_64-linux-gnu/libcuda.so.1") !=
              std::string::npos);
        CHECK(unversioned.remedy.find("ln -s libcuda.so.1 /usr/lib/x86_64-linux-gnu/libcuda.so") !=
              std::string::npos);
        CHECK(unversioned.remedy.find("TRITON_LIBCUDA_PATH=/usr/lib/x86_64-linux-gnu") != std::string::npos);
        CHECK(unversioned.remedy.find("container runtime") == std::string::npos);
    }
    SECTION("a container: the runtime mounts libcuda.so.1 alone, so the image must add the link") {
        tree.write("/.dockerenv");
        Report report = probe(tree);
        const Check& unversioned = check(report, "driver.libcuda_unversioned");
        CHECK(unversioned.status == Status::warn);
        CHECK(unversioned.remedy.find("mounts only libcuda.so.1") != std::string::npos);
    }
    SECTION("the link beside it passes") {
        tree.symlink("/usr/lib/x86_64-linux-gnu/libcuda.so", "libcuda.so.1");
        Report report = probe(tree);
        CHECK(check(report, "driver.libcuda_unversioned").status == Status::pass);
        CHECK(report.find_fact("driver.libcuda.unversioned_path")->value ==
              "/usr/lib/x86_64-linux-gnu/libcuda.so.580.65.06");
    }
    SECTION("WSL: libcuda.so beside libcuda.so.1, but only the soname in the cache") {
        FixtureTree wsl;
        wsl.write("/usr/lib/wsl/lib/libcuda.so.1.1", "ELF");
        wsl.write("/usr/lib/wsl/lib/libcuda.so.1", "ELF");
        wsl.write("/usr/lib/wsl/lib/libcuda.so", "ELF");
        wsl.write("/etc/ld.so.cache",
                  test::build_ld_cache({{"libcuda.so.1", "/usr/lib/wsl/lib/libcuda.so.1"}}));
        Report report = probe(wsl);
        const Check& unversioned = check(report, "driver.libcuda_unversioned");
        CHECK(unversioned.status == Status::warn);
        CHECK(
            unversioned.summary.starts_with("libcuda.so is in /usr/lib/wsl/lib but the loader's search does "
                                            "not reach it"));
        CHECK(unversioned.remedy.starts_with("export LD_LIBRARY_PATH=/usr/lib/wsl/lib:"));
        // With the directory on the path, the name is found.
        Report fixed = probe(wsl, {{"LD_LIBRARY_PATH", "/usr/lib/wsl/lib"}});
        CHECK(check(fixed, "driver.libcuda_unversioned").status == Status::pass);
    }
    SECTION("the toolkit's stub does not count as the unversioned name") {
        tree.write("/usr/local/cuda/lib64/stubs/libcuda.so", "stub");
        Report report = probe(tree, {{"LD_LIBRARY_PATH", "/usr/local/cuda/lib64/stubs"}});
        CHECK(check(report, "driver.libcuda_unversioned").status == Status::warn);
    }
    SECTION("no libcuda.so.1 at all: only driver.libcuda speaks") {
        FixtureTree bare;
        CHECK(probe(bare).find_check("driver.libcuda_unversioned") == nullptr);
    }
}

TEST_CASE("two copies of libcudart on the search path") {
    FixtureTree tree;
    tree.write("/opt/conda/lib/libcudart.so.13.1.0", "ELF");
    tree.symlink("/opt/conda/lib/libcudart.so.13", "libcudart.so.13.1.0");
    tree.write("/usr/local/cuda/lib64/libcudart.so.13.0.88", "ELF");
    tree.symlink("/usr/local/cuda/lib64/libcudart.so.13", "libcudart.so.13.0.88");
    tree.write("/usr/local/cuda/lib64/libcublas.so.13", "ELF");  // one copy only: not a duplicate
    Report report = probe(tree, {{"LD_LIBRARY_PATH", "/opt/conda/lib:/usr/local/cuda/lib64"}});
    const Check& duplicates = check(report, "host.search_path.duplicates");
    CHECK(duplicates.status == Status::warn);
    CHECK(duplicates.summary == "1 CUDA library has more than one copy on the search path");
    CHECK(duplicates.evidence.find(
              "libcudart.so.13: /opt/conda/lib/libcudart.so.13.1.0 (LD_LIBRARY_PATH entry 1) "
              "wins over /usr/local/cuda/lib64/libcudart.so.13.0.88 (LD_LIBRARY_PATH entry 2)") !=
          std::string::npos);
    CHECK(report.find_fact("host.search_path.copies.libcudart.so.13")->value.size() == 2);
    CHECK_FALSE(report.find_fact("host.search_path.copies.libcublas.so.13"));

    SECTION("the same file reached twice is one copy") {
        Report same = probe(tree, {{"LD_LIBRARY_PATH", "/usr/local/cuda/lib64:/usr/local/cuda/lib64/"}});
        CHECK(check(same, "host.search_path.duplicates").status == Status::pass);
    }
}

TEST_CASE("two copies of libcudnn listed in ld.so.cache, none on LD_LIBRARY_PATH") {
    FixtureTree tree;
    tree.write("/opt/conda/lib/libcudnn.so.9.1.0", "ELF");
    tree.symlink("/opt/conda/lib/libcudnn.so.9", "libcudnn.so.9.1.0");
    tree.write("/usr/lib/x86_64-linux-gnu/libcudnn.so.9.10.2", "ELF");
    tree.symlink("/usr/lib/x86_64-linux-gnu/libcudnn.so.9", "libcudnn.so.9.10.2");
    tree.write("/etc/ld.so.cache",
               test::build_ld_cache({{"libcudnn.so.9", "/opt/conda/lib/libcudnn.so.9"},
                                     {"libcudnn.so.9", "/usr/lib/x86_64-linux-gnu/libcudnn.so.9"}}));
    Report report = probe(tree);
    const Check& duplicates = check(report, "host.search_path.duplicates");
    CHECK(duplicates.status == Status::warn);
    CHECK(duplicates.evidence ==
          "libcudnn.so.9: /opt/conda/lib/libcudnn.so.9.1.0 (ld.so.cache) wins over "
          "/usr/lib/x86_64-linux-gnu/libcudnn.so.9.10.2 (ld.so.cache)");
}

TEST_CASE("CUDA_VISIBLE_DEVICES that hides every GPU") {
    FixtureTree tree;
    CHECK(check(probe(tree, {{"CUDA_VISIBLE_DEVICES", ""}}), "device.cuda_visible_devices").status ==
          Status::warn);
    CHECK(check(probe(tree, {{"CUDA_VISIBLE_DEVICES", "-1"}}), "device.cuda_visible_devices").status ==
          Status::warn);
    CHECK(check(probe(tree, {{"CUDA_VISIBLE_DEVICES", "0,1"}}), "device.cuda_visible_devices").status ==
          Status::pass);
    CHECK_FALSE(probe(tree).find_check("device.cuda_visible_devices"));
}

TEST_CASE("read_file stops at its limit and never blocks on a FIFO or reads a device") {
    namespace fs = std::filesystem;
    fs::path dir = fs::temp_directory_path() / ("strata-read-file-" + std::to_string(::getpid()));
    fs::create_directories(dir);
    // A file larger than the limit: exactly the limit comes back (the old
    // loop appended its last buffer forever once the limit was reached).
    {
        std::ofstream big(dir / "METADATA", std::ios::binary);
        big << std::string(3 << 20, 'm');
    }
    auto limited = read_file(dir / "METADATA", 1 << 20);
    REQUIRE(limited);
    CHECK(limited->size() == (1u << 20));
    // A FIFO standing where a file should be: refused at once, no reader needed.
    REQUIRE(::mkfifo((dir / "fifo").c_str(), 0600) == 0);
    auto start = std::chrono::steady_clock::now();
    CHECK_FALSE(read_file(dir / "fifo"));
    CHECK(std::chrono::steady_clock::now() - start < std::chrono::seconds(5));
    // Devices and directories are not files either.
    CHECK_FALSE(read_file("/dev/zero"));
    CHECK_FALSE(read_file(dir));
    // /proc files report size 0 and are read to their end.
    auto self = read_file("/proc/self/status");
    REQUIRE(self);
    CHECK(self->find("Pid:") != std::string::npos);
    fs::remove_all(dir);
}
