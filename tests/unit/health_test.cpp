// Node health: Xid events read from kernel logs as the driver prints them,
// and each health check judged from the facts the driver plugin records.
#include <catch2/catch.hpp>
#include <fstream>

#include "diagnosis/health_rules.h"
#include "probes/kernel_log.h"
#include "probes/probes.h"
#include "support/fixture_tree.h"

using namespace strata;

namespace {

// A kernel log as dmesg, journalctl (-o short and -o short-iso) and a newer
// driver's multi-line report print it, with lines that must not count.
const char* kLog =
    "[    4.912345] nvidia: module license 'NVIDIA' taints kernel.\n"
    "[    5.001122] NVRM: loading NVIDIA UNIX x86_64 Kernel Module  580.65.06  Sun Jul 27 07:09:59 UTC 2025\n"
    "[ 1843.308145] NVRM: Xid (PCI:0000:3b:00): 79, pid='<unknown>', name=<unknown>, GPU has fallen off the "
    "bus.\n"
    "Dec 03 10:11:12 gpu017 kernel: NVRM: Xid (PCI:0000:18:00): 13, pid=4242, name=python3, Graphics "
    "Exception: ESR 0x405840=0x13000000\n"
    "2026-12-03T10:12:00+0000 gpu017 kernel: NVRM: Xid (PCI:0000:18:00): 13, pid=4243, name=python3, "
    "Graphics Exception\n"
    "[ 1900.000001] NVRM: Xid (PCI:0000:5e:00): 48, pid=1001, name=train, DBE (double bit error) ECC error\n"
    "[ 2001.500000] NVRM: The NVIDIA GPU 0000:b3:00.0\n"
    "               NVRM: (PCI ID: 10de:2335) installed in this system has\n"
    "               NVRM: fallen off the bus and is not responding to commands.\n"
    "[ 2002.000000] usb 1-1: new high-speed USB device number 2 using xhci_hcd (id 0x8087)\n"
    "[ 2003.000000] audit: type=1400 apparmor=\"DENIED\" operation=\"open\" profile=\"android\"\n";

// A report with the facts the driver plugin records for `count` GPUs on
// buses 0x18, 0x19, ... (the fake NVML's layout).
Report gpus(int count) {
    Report report;
    add_fact(report, Layer::device, "device.count", count, "test");
    for (int i = 0; i < count; ++i) {
        char bus[32];
        std::snprintf(bus, sizeof bus, "0000:%02X:00.0", 0x18 + i);
        add_fact(report, Layer::device, "device." + std::to_string(i) + ".pci_bus_id", std::string(bus),
                 "test");
    }
    return report;
}

void set(Report& report, int gpu, const std::string& field, Json value) {
    add_fact(report, Layer::device, "device." + std::to_string(gpu) + "." + field, std::move(value), "test");
}

const Check& judged(Report& report, const std::string& id, const HealthOptions& options = {}) {
    ProbeContext context("/nonexistent-root", {});
    judge_node_health(context, options, report);
    const Check* check = report.find_check(id);
    REQUIRE(check != nullptr);
    return *check;
}

}  // namespace

TEST_CASE("Xid events are read from every log format, with their GPU and time") {
    KernelLog log;
    log.source = "test";
    std::string text = kLog;
    for (size_t start = 0, end; start < text.size(); start = end + 1) {
        end = text.find('\n', start);
        log.lines.push_back(text.substr(start, end - start));
    }
    std::vector<LoggedXid> events = find_xid_events(log);
    REQUIRE(events.size() == 5);
    CHECK(events[0].event.number == 79);
    CHECK(events[0].event.pci == "0000:3b:00");
    CHECK(events[0].time == "[ 1843.308145]");
    CHECK(events[1].event.number == 13);
    CHECK(events[1].time == "Dec 03 10:11:12");
    CHECK(events[2].time == "2026-12-03T10:12:00+0000");
    CHECK(events[3].event.number == 48);
    // The newer driver's report without an Xid is read as Xid 79.
    CHECK(events[4].event.number == 79);
    CHECK(canonical_pci(events[4].event.pci) == "0000:b3:00");
}

TEST_CASE("only the driver's own records count: text users write into the log never drains a node") {
    // Issue #37: each line below is the kernel's own format around a string
    // a user chose (a program's name, a library's file name, an OOM victim,
    // a USB product string, a filesystem label, another program's syslog
    // line); with "Xid 79" anywhere in it the node was drained as "fallen
    // off the bus".
    const char* planted[] = {
        "[ 5123.456789] Xid 79[4242]: segfault at 0 ip 0000559b1c2a1139 sp 00007ffd3a1b2c40 error 6 in "
        "a.out[559b1c2a1000+1000] likely on CPU 3 (core 3, socket 0)",
        // A program named as the driver's record starts: 15 characters, all a name may hold.
        "[ 5124.000001] NVRM: Xid (PCI:[4243]: segfault at 0 ip 0000559b1c2a1139 sp 00007ffd3a1b2c40 error 6 "
        "in "
        "a.out[559b1c2a1000+1000] likely on CPU 1 (core 1, socket 0)",
        "[   77.120000] python3[999]: segfault at 8 ip 00007f3a2b1c0d10 sp 00007ffc1d2e3f40 error 4 in "
        "libxid 79.so[7f3a2b1c0000+2000] likely on CPU 0 (core 0, socket 0)",
        "[  900.000000] Out of memory: Killed process 4242 (Xid 79) total-vm:123456kB, anon-rss:120000kB, "
        "file-rss:0kB, shmem-rss:0kB, UID:1000 pgtables:400kB oom_score_adj:0",
        "[  900.000001] "
        "oom-kill:constraint=CONSTRAINT_NONE,nodemask=(null),cpuset=/,mems_allowed=0,global_oom,"
        "task_memcg=/user.slice,task=Xid 79,pid=4242,uid=1000",
        "[   12.300000] usb 1-1: Product: NVRM: Xid (PCI:0000:3b:00): 79, GPU has fallen off the bus.",
        "[   30.100000] BTRFS: device label Xid 79 devid 1 transid 8 /dev/sdb1 scanned by mount (1234)",
        "Dec 03 10:11:12 gpu017 myjob[4242]: NVRM: Xid (PCI:0000:18:00): 79, pid=1, GPU has fallen off the "
        "bus.",
        "2026-12-03T10:12:00+0000 gpu017 sudo[77]: NVRM: Xid (PCI:0000:18:00): 48, DBE (double bit error)",
        // A record's argument that starts a continuation line is not a record.
        "               NVRM: Xid (PCI:0000:3b:00): 79, pid=1, GPU has fallen off the bus.",
        "[  950.000000] NVRM: Xid (PCI:0000:3b:00): 79x, not the driver's form",
        "[  950.000001] NVRM: Xid (PCI:not-an-address): 79, pid=1",
    };
    for (const char* line : planted) {
        KernelLog log;
        log.lines = {line};
        INFO(line);
        CHECK(find_xid_events(log).empty());
    }
    // The driver's own records still count, behind every prefix.
    for (const char* line : {"[ 1843.308145] NVRM: Xid (PCI:0000:3b:00): 79, pid='<unknown>', "
                             "name=<unknown>, GPU has fallen off the bus.",
                             "Dec  3 10:11:12 gpu017 kernel: [ 1843.308145] NVRM: Xid (PCI:0000:3b:00): 79, "
                             "pid=1, GPU has fallen off",
                             "[Mon Dec  3 10:11:12 2026] NVRM: Xid (PCI:00000000:3B:00.0): 79, pid=1",
                             "NVRM: Xid (PCI:3b:00.0): 79"}) {
        KernelLog log;
        log.lines = {line};
        INFO(line);
        auto events = find_xid_events(log);
        REQUIRE(events.size() == 1);
        CHECK(events[0].event.number == 79);
    }
    // However long the prefix (a long host name), the event names its line.
    KernelLog log;
    log.lines = {"[ 1.0] usb 1-1: new device",
                 "Dec 03 10:11:12 " + std::string(420, 'h') + " kernel: NVRM: Xid (PCI:0000:3b:00): 48, DBE"};
    auto events = find_xid_events(log);
    REQUIRE(events.size() == 1);
    CHECK(events[0].event.number == 48);
    CHECK(events[0].line_index == 1);
}

TEST_CASE("a saved kernel log is read from its newest part; a missing one is bad usage") {
    test::FixtureTree tree;
    tree.write("/kern.log", kLog);
    ProbeContext context(tree.root(), {});
    Report report;
    probe_kernel_log(context, (tree.root() / "kern.log").string(), report);
    const Fact* events = report.find_fact("host.kernel_log.xid_events");
    REQUIRE(events != nullptr);
    CHECK(events->value.size() == 5);
    CHECK_THROWS(probe_kernel_log(context, (tree.root() / "missing.log").string(), report));
    CHECK_THROWS(probe_kernel_log(context, tree.root().string(), report));  // a directory
}

TEST_CASE("Xid events are judged by what they point at, also on GPUs no longer present") {
    Report report = gpus(2);  // 0000:18:00 and 0000:19:00
    add_fact(report, Layer::host, "host.kernel_log.source", "test", "test");
    add_fact(report, Layer::host, "host.kernel_log.xid_events",
             Json::array({{{"xid", 13}, {"pci", "0000:18:00"}, {"time", "[1.0]"}}}), "test");
    Report application = report;
    CHECK(judged(application, "health.xid").status == Status::pass);  // an application's fault
    add_fact(report, Layer::host, "host.kernel_log.xid_events",
             Json::array({{{"xid", 13}, {"pci", "0000:18:00"}, {"time", "[1.0]"}},
                          {{"xid", 119}, {"pci", "0000:19:00"}, {"time", "[2.0]"}}}),
             "test");
    Report driver = report;
    const Check& gsp = judged(driver, "health.xid");
    CHECK(gsp.status == Status::warn);
    CHECK_THAT(gsp.summary, Catch::Contains("GPU 1 (0000:19:00): Xid 119 x1"));
    add_fact(report, Layer::host, "host.kernel_log.xid_events",
             Json::array({{{"xid", 79}, {"pci", "0000:3b:00"}, {"time", "[3.0]"}}}), "test");
    const Check& vanished = judged(report, "health.xid");
    CHECK(vanished.status == Status::fail);
    CHECK_THAT(vanished.summary, Catch::Contains("0000:3b:00 (not present now"));
    CHECK_THAT(vanished.remedy, Catch::Contains("drain the node"));
}

TEST_CASE("an unreadable kernel log skips the Xid check and says how to read one") {
    Report report = gpus(1);
    add_fact(report, Layer::host, "host.kernel_log.problem", "/dev/kmsg: Operation not permitted", "test");
    const Check& check = judged(report, "health.xid");
    CHECK(check.status == Status::skip);
    CHECK_THAT(check.remedy, Catch::Contains("--kernel-log"));
}

TEST_CASE("memory health: volatile, lifetime, retired pages and row remapping") {
    auto memory = [](auto&& configure) {
        Report report = gpus(2);
        for (int gpu = 0; gpu < 2; ++gpu) {
            set(report, gpu, "ecc_errors.volatile_uncorrected", 0);
            set(report, gpu, "ecc_errors.aggregate_uncorrected", 0);
            set(report, gpu, "retired_pages_pending", false);
            set(report, gpu, "row_remap.pending", false);
            set(report, gpu, "row_remap.failed", false);
        }
        configure(report);
        return judged(report, "health.memory").status;
    };
    CHECK(memory([](Report&) {}) == Status::pass);
    CHECK(memory([](Report& r) { set(r, 1, "ecc_errors.volatile_uncorrected", 2); }) == Status::fail);
    CHECK(memory([](Report& r) { set(r, 1, "ecc_errors.aggregate_uncorrected", 2); }) == Status::warn);
    CHECK(memory([](Report& r) { set(r, 0, "retired_pages_pending", true); }) == Status::fail);
    CHECK(memory([](Report& r) { set(r, 0, "row_remap.pending", true); }) == Status::fail);
    CHECK(memory([](Report& r) { set(r, 0, "row_remap.failed", true); }) == Status::fail);
    CHECK(memory([](Report& r) { set(r, 0, "ecc_errors.volatile_corrected", 500); }) == Status::pass);
}

TEST_CASE("throttling: hardware limits and heat are faults, idle and power caps are not") {
    auto throttle = [](const std::string& limits, long long temperature) {
        Report report = gpus(1);
        set(report, 0, "clock_limits", limits);
        set(report, 0, "temperature_c", temperature);
        set(report, 0, "slowdown_temperature_c", 87);
        return judged(report, "health.throttling").status;
    };
    CHECK(throttle("none", 40) == Status::pass);
    CHECK(throttle("sw_power_cap, applications_clocks_setting", 60) == Status::pass);
    CHECK(throttle("hw_slowdown", 40) == Status::fail);
    CHECK(throttle("hw_power_brake", 40) == Status::fail);
    CHECK(throttle("sw_thermal", 40) == Status::fail);
    CHECK(throttle("none", 84) == Status::warn);
    CHECK(throttle("none", 87) == Status::fail);
}

TEST_CASE("PCIe: a narrow link fails, a slower generation at idle does not; sysfs stands in for NVML") {
    Report report = gpus(2);
    set(report, 0, "pcie.width", 16);
    set(report, 0, "pcie.max_width", 16);
    set(report, 0, "pcie.generation", 1);  // idle
    set(report, 0, "pcie.max_generation", 5);
    set(report, 1, "pcie.width", 8);
    set(report, 1, "pcie.max_width", 16);
    const Check& check = judged(report, "health.pcie");
    CHECK(check.status == Status::fail);
    CHECK_THAT(check.summary, Catch::Contains("GPU 1 (0000:19:00): x8 of x16"));

    test::FixtureTree tree;
    tree.write("/sys/bus/pci/devices/0000:18:00.0/current_link_width", "4\n");
    tree.write("/sys/bus/pci/devices/0000:18:00.0/max_link_width", "16\n");
    Report from_sysfs = gpus(1);
    ProbeContext context(tree.root(), {});
    judge_node_health(context, {}, from_sysfs);
    const Check* sysfs = from_sysfs.find_check("health.pcie");
    REQUIRE(sysfs != nullptr);
    CHECK(sysfs->status == Status::fail);
    CHECK_THAT(sysfs->summary, Catch::Contains("x4 of x16 (sysfs)"));
}

TEST_CASE("NVLink, GPU count and stragglers") {
    Report report = gpus(3);
    for (int gpu = 0; gpu < 3; ++gpu) {
        set(report, gpu, "nvlink.up", gpu == 2 ? 16 : 18);
        set(report, gpu, "nvlink.down", gpu == 2 ? "3,7" : "");
        set(report, gpu, "max_sm_clock_mhz", gpu == 1 ? 1200 : 1980);
    }
    HealthOptions options;
    options.expected_gpus = 8;
    CHECK(judged(report, "health.nvlink", options).status == Status::fail);
    CHECK_THAT(report.find_check("health.nvlink")->summary,
               Catch::Contains("GPU 2 (0000:1a:00): link(s) 3,7 down"));
    CHECK(report.find_check("health.gpu_count")->status == Status::fail);
    CHECK_THAT(report.find_check("health.gpu_count")->summary,
               Catch::Contains("3 GPU(s) usable through CUDA"));
    CHECK(report.find_check("health.stragglers")->status == Status::fail);
    CHECK_THAT(report.find_check("health.stragglers")->summary, Catch::Contains("GPU 1 (0000:19:00)"));
    Report enough = gpus(3);
    options.expected_gpus = 3;
    CHECK(judged(enough, "health.gpu_count", options).status == Status::pass);
    CHECK(enough.find_check("health.nvlink") == nullptr);  // no NVLink facts: no check, not a pass
}

TEST_CASE("NVLink: links with no peer are not failed, inactive links beside active ones are") {
    // Issue #41: NVML reports every link of an NVLink-capable GPU inactive
    // where nothing is at the other end (one SXM GPU in a VM, no bridge).
    Report alone = gpus(1);
    set(alone, 0, "nvlink.up", 0);
    set(alone, 0, "nvlink.down", "0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17");
    ProbeContext context("/nonexistent-root", {});
    judge_node_health(context, {}, alone);
    CHECK(alone.find_check("health.nvlink") == nullptr);
    CHECK(health_verdict(alone) == HealthVerdict::healthy);
    // The same GPU beside one whose links are active: NVLink is in use here.
    Report pair = gpus(2);
    set(pair, 0, "nvlink.up", 0);
    set(pair, 0, "nvlink.down", "0,1,2,3");
    set(pair, 1, "nvlink.up", 4);
    set(pair, 1, "nvlink.down", "");
    CHECK(judged(pair, "health.nvlink").status == Status::fail);
    CHECK_THAT(pair.find_check("health.nvlink")->summary,
               Catch::Contains("GPU 0 (0000:18:00): link(s) 0,1,2,3 down, 0 up"));
    // Registered with an NVSwitch fabric: its links should be up.
    Report fabric = gpus(1);
    set(fabric, 0, "nvlink.up", 0);
    set(fabric, 0, "nvlink.down", "0,1");
    set(fabric, 0, "fabric.state", "completed");
    set(fabric, 0, "fabric.status", 0);
    CHECK(judged(fabric, "health.nvlink").status == Status::fail);
}

TEST_CASE("a node-health failure drains without gating the layers after it") {
    Report report = gpus(1);
    set(report, 0, "ecc_errors.volatile_uncorrected", 2);
    judged(report, "health.memory");
    CHECK(report.find_check("health.memory")->status == Status::fail);
    CHECK(health_verdict(report) == HealthVerdict::drain);
    // The self-tests of the runtime and library layers still run...
    CHECK_FALSE(report.gate_through(Layer::runtime).has_value());
    CHECK_FALSE(report.gate_through(Layer::library).has_value());
    // ...while a device failure that is not node health still gates them.
    report.add_check(make_check("device.count", Layer::device, Status::fail, "no GPU usable", "", ""));
    REQUIRE(report.gate_through(Layer::runtime).has_value());
    CHECK(report.gate_through(Layer::runtime)->reason().find("no GPU usable") != std::string::npos);
    CHECK(report.gate_through(Layer::runtime)->reason().find("ECC") == std::string::npos);
}

TEST_CASE("a health check that could not look makes the verdict unknown, never healthy") {
    // Issue #37: with NVML down the GPU health checks vanished and the node
    // was called healthy, so the health check resumed a node drained for ECC.
    Report down = gpus(2);
    add_fact(down, Layer::driver, "driver.nvml.init_result", 18, "test");
    add_fact(down, Layer::driver, "driver.nvml.init_error", "Driver/library version mismatch (18)", "test");
    const Check& nvml = judged(down, "health.nvml");
    CHECK(nvml.status == Status::skip);
    CHECK_THAT(nvml.summary, Catch::Contains("nvmlInit failed: Driver/library version mismatch"));
    CHECK(health_verdict(down) == HealthVerdict::unknown);
    CHECK(health_verdict_name(health_verdict(down)) == "unknown");
    Report missing = gpus(1);
    add_fact(missing, Layer::driver, "driver.nvml.load_error", "libnvidia-ml.so.1: cannot open", "test");
    CHECK(judged(missing, "health.nvml").status == Status::skip);
    CHECK(health_verdict(missing) == HealthVerdict::unknown);
    // An operator who ignores it gets the other checks' verdict back.
    missing.ignore_checks({"health.nvml"});
    CHECK(health_verdict(missing) == HealthVerdict::healthy);
    // A failure still drains.
    Report failing = gpus(1);
    add_fact(failing, Layer::driver, "driver.nvml.load_error", "gone", "test");
    set(failing, 0, "ecc_errors.volatile_uncorrected", 1);
    judged(failing, "health.memory");
    CHECK(health_verdict(failing) == HealthVerdict::drain);
}

TEST_CASE("the node's verdict: drain on a failure, warning on a health warning") {
    Report report = gpus(1);
    set(report, 0, "temperature_c", 84);
    set(report, 0, "slowdown_temperature_c", 87);
    judged(report, "health.throttling");
    CHECK(health_verdict(report) == HealthVerdict::warning);
    set(report, 0, "ecc_errors.volatile_uncorrected", 1);
    Report failing = gpus(1);
    set(failing, 0, "ecc_errors.volatile_uncorrected", 1);
    judged(failing, "health.memory");
    CHECK(health_verdict(failing) == HealthVerdict::drain);
    Report healthy = gpus(1);
    CHECK(health_verdict(healthy) == HealthVerdict::healthy);
    CHECK(canonical_pci("00000000:3B:00.0") == "0000:3b:00");
    CHECK(canonical_pci("not an address") == "");
}
