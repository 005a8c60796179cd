#include "explain/xid_catalog.h"

#include <algorithm>
#include <array>
#include <cctype>

namespace strata {

namespace {

using enum XidOrigin;

// Ordered by number. Where NVIDIA lists several possible origins, the one an
// operator should look at first is given; the action says what else to check.
constexpr std::array kXids = {
    XidInfo{
        8, "GPU stopped processing (a channel timed out)", application,
        "Check the application for a hang or infinite loop; if it recurs on one GPU only, check that GPU."},
    XidInfo{13, "Graphics engine exception (an illegal instruction, address or launch in a kernel)",
            application,
            "Run the application under compute-sanitizer; recurring on one GPU with healthy code points at "
            "hardware."},
    XidInfo{31, "GPU memory page fault (a kernel touched memory it does not own)", application,
            "An illegal memory access in the application or a library; reproduce with compute-sanitizer."},
    XidInfo{32, "Invalid or corrupted push buffer stream", driver,
            "Corruption on the PCIe bus or in system memory; check dmesg for PCIe (AER) errors and the "
            "driver version."},
    XidInfo{38, "Driver firmware error", driver, "Update the driver; report with nvidia-bug-report.sh."},
    XidInfo{43, "GPU stopped processing (the channel was reset after an application fault)", application,
            "The application was stopped for a fault of its own; other processes keep running."},
    XidInfo{44, "Graphics engine fault during a context switch", driver,
            "Reset the GPU or reboot; update the driver if it recurs."},
    XidInfo{45, "Preemptive cleanup after earlier errors (a process was killed)", application,
            "Follows another Xid or a killed process; look at the Xid before it."},
    XidInfo{
        48, "Double-bit (uncorrectable) ECC error", hardware,
        "Drain the node, reset the GPU; if it recurs or pages cannot be retired/remapped, replace the GPU."},
    XidInfo{54, "Auxiliary power is not connected to the GPU", hardware,
            "Check the power cables and the PSU."},
    XidInfo{56, "Display engine error", driver, "Update the driver; check the display configuration."},
    XidInfo{57, "Error programming the video memory interface", hardware,
            "Check the GPU's health; replace if it recurs."},
    XidInfo{58, "Unstable video memory interface detected", hardware,
            "Check the GPU's health; replace if it recurs."},
    XidInfo{61, "Internal micro-controller breakpoint or warning", driver,
            "Reset the GPU or reboot; update the driver if it recurs."},
    XidInfo{62, "Internal micro-controller halt", driver,
            "Reset the GPU or reboot; check temperature and power."},
    XidInfo{63, "ECC page retirement or row-remapping event recorded", hardware,
            "Memory was repaired; reset the GPU to apply it, and watch the counts (nvidia-smi -q -d "
            "ROW_REMAPPER)."},
    XidInfo{64, "ECC page retirement or row-remapping recording failure", hardware,
            "The repair could not be recorded: drain the node and have the GPU replaced."},
    XidInfo{68, "Video decoder (NVDEC) exception", driver,
            "Update the driver; check the application's video path."},
    XidInfo{69, "Graphics engine class error", driver, "Update the driver; reset the GPU if it recurs."},
    XidInfo{74, "NVLink error", hardware,
            "Check NVLink state (nvidia-smi nvlink -s) and the fabric; reseat or replace the board if it "
            "recurs."},
    XidInfo{
        79, "GPU has fallen off the bus", hardware,
        "The GPU stopped answering on PCIe: drain the node; check power, temperature, seating and the system "
        "BIOS; a reboot is needed to recover."},
    XidInfo{92, "High single-bit ECC error rate", hardware,
            "Watch the ECC counters; schedule a GPU reset and replace the GPU if the rate stays high."},
    XidInfo{94, "Contained ECC error (the affected application was stopped)", hardware,
            "Restart the application; reset the GPU to remap the memory."},
    XidInfo{95, "Uncontained ECC error", hardware,
            "Drain the node and reset the GPU; every process on it is affected."},
    XidInfo{109, "Context switch timeout", application,
            "Usually an application or a driver hang; update the driver if it recurs across applications."},
    XidInfo{119, "GSP RPC timeout (the GPU System Processor did not answer)", driver,
            "Reset the GPU or reboot; update the driver (early R525/R535 GSP firmware) or disable GSP if "
            "advised."},
    XidInfo{120, "GSP error", driver, "Reset the GPU or reboot; update the driver and report it."},
    XidInfo{121, "C2C link corrected error", hardware, "Watch for recurrence; the link corrected it."},
    XidInfo{123, "SPI PMU RPC write failure", driver, "Reset the GPU; update the driver."},
    XidInfo{136, "Link training failure", hardware, "Check the board's links and seating."},
    XidInfo{140, "Unrecovered ECC error", hardware,
            "Drain the node and reset the GPU; replace it if it recurs."},
    XidInfo{143, "GPU initialization failure", hardware,
            "Reset the GPU or reboot; replace the GPU if it recurs."},
    XidInfo{144, "NVLink: SAW/MVB error", hardware, "Check NVLink state; reset the GPU."},
    XidInfo{145, "NVLink: RLW error", hardware, "Check NVLink state; reset the GPU."},
    XidInfo{146, "NVLink: TLW error", hardware, "Check NVLink state; reset the GPU."},
    XidInfo{147, "NVLink: TREX error", hardware, "Check NVLink state; reset the GPU."},
    XidInfo{148, "NVLink: NVLPW control error", hardware, "Check NVLink state; reset the GPU."},
    XidInfo{149, "NVLink: NETIR error", hardware, "Check NVLink and the fabric; reset the GPU."},
    XidInfo{150, "NVLink: MSE error", hardware, "Check NVLink state; reset the GPU."},
    XidInfo{154, "GPU recovery action changed (the driver says what is now needed: reset, reboot or drain)",
            driver, "Follow the recovery action in the message (nvidia-smi -q | grep -i recovery)."},
};

bool iequals_prefix(std::string_view text, size_t at, std::string_view word) {
    if (at + word.size() > text.size()) return false;
    for (size_t i = 0; i < word.size(); ++i)
        if (std::tolower(static_cast<unsigned char>(text[at + i])) != word[i]) return false;
    return true;
}

}  // namespace

std::string_view xid_origin_name(XidOrigin origin) {
    switch (origin) {
        case application: return "application";
        case driver: return "driver";
        case hardware: return "hardware";
    }
    return "hardware";
}

std::optional<XidInfo> find_xid(int number) {
    auto it = std::find_if(kXids.begin(), kXids.end(), [&](const XidInfo& x) { return x.number == number; });
    if (it == kXids.end()) return std::nullopt;
    return *it;
}

std::optional<XidEvent> parse_xid(std::string_view line) {
    for (size_t at = 0; at + 3 <= line.size(); ++at) {
        if (!iequals_prefix(line, at, "xid")) continue;
        // A word of its own: "Xid", "XID", not "...xidation".
        if (at > 0 && std::isalnum(static_cast<unsigned char>(line[at - 1]))) continue;
        size_t pos = at + 3;
        if (pos < line.size() && std::isalpha(static_cast<unsigned char>(line[pos]))) continue;
        XidEvent event;
        // Optional "(PCI:0000:3b:00)".
        while (pos < line.size() && (line[pos] == ' ' || line[pos] == '=' || line[pos] == ':')) ++pos;
        if (pos < line.size() && line[pos] == '(') {
            size_t close = line.find(')', pos);
            if (close == std::string_view::npos || close - pos > 64) continue;
            std::string_view inside = line.substr(pos + 1, close - pos - 1);
            if (iequals_prefix(inside, 0, "pci:")) event.pci = std::string(inside.substr(4));
            pos = close + 1;
            while (pos < line.size() && (line[pos] == ' ' || line[pos] == ':' || line[pos] == '=')) ++pos;
        }
        size_t digits = pos;
        while (digits < line.size() && digits - pos < 4 &&
               std::isdigit(static_cast<unsigned char>(line[digits])))
            ++digits;
        if (digits == pos || (digits < line.size() && std::isdigit(static_cast<unsigned char>(line[digits]))))
            continue;
        event.number = std::stoi(std::string(line.substr(pos, digits - pos)));
        event.info = find_xid(event.number);
        return event;
    }
    return std::nullopt;
}

}  // namespace strata
