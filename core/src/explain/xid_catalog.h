// The NVIDIA driver's Xid events: what each number means, what it points at
// (the application, the driver or the hardware) and what to do. Source:
// NVIDIA, "Xid Errors" (docs.nvidia.com/deploy/xid-errors), and the
// driver's kernel-log format "NVRM: Xid (PCI:0000:3b:00): 79, ...".
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace strata {

enum class XidOrigin { application, driver, hardware };
std::string_view xid_origin_name(XidOrigin origin);

struct XidInfo {
    int number;
    std::string_view meaning;
    XidOrigin points_at;
    std::string_view action;
};

// nullopt for a number the catalog does not hold.
std::optional<XidInfo> find_xid(int number);

// One Xid event read from a line of the kernel log (or a paste of one).
struct XidEvent {
    int number = 0;
    std::string pci;  // "0000:3b:00", empty when the line does not say
    std::optional<XidInfo> info;
};
// Reads "NVRM: Xid (PCI:0000:3b:00): 79, pid=..." and the spellings tools use
// ("XID 79", "Xid=79", "xid 79 (...)"); nullopt when the line holds none.
std::optional<XidEvent> parse_xid(std::string_view line);

}  // namespace strata
