#include "probes/module_signing.h"

#include <string_view>
#include <vector>

#include "probes/probe_context.h"
#include "probes/text_util.h"

namespace strata {

namespace {

// EFI variables are 4 bytes of attributes followed by the value; the
// SecureBoot variable's value is one byte, 1 when Secure Boot is on.
bool secure_boot_on(const ProbeContext& context) {
    constexpr std::string_view variable =
        "/sys/firmware/efi/efivars/SecureBoot-8be4df61-93ca-11d2-aa0d-00e098032b8c";
    auto bytes = context.read(variable, 64);
    return bytes && bytes->size() >= 5 && (*bytes)[4] == 1;
}

// /sys/kernel/security/lockdown lists the modes with the active one in
// brackets: "none [integrity] confidentiality". Either lockdown mode refuses
// unsigned modules.
std::optional<std::string> lockdown_mode(const ProbeContext& context) {
    auto text = context.read("/sys/kernel/security/lockdown", 256);
    if (!text) return std::nullopt;
    size_t open = text->find('[');
    size_t close = open == std::string::npos ? open : text->find(']', open);
    if (close == std::string::npos) return std::nullopt;
    std::string mode = text->substr(open + 1, close - open - 1);
    if (mode == "none" || mode.empty()) return std::nullopt;
    return mode;
}

bool sig_enforce_on(const ProbeContext& context) {
    auto text = context.read("/sys/module/module/parameters/sig_enforce", 16);
    return text && !text->empty() && ((*text)[0] == 'Y' || (*text)[0] == '1');
}

}  // namespace

std::optional<std::string> module_signature_enforcement(const ProbeContext& context) {
    std::vector<std::string> reasons;
    if (secure_boot_on(context)) reasons.push_back("Secure Boot is on");
    if (auto mode = lockdown_mode(context)) reasons.push_back("kernel lockdown (" + *mode + ")");
    if (sig_enforce_on(context)) reasons.push_back("module.sig_enforce=1");
    if (reasons.empty()) return std::nullopt;
    return join(reasons, ", ");
}

}  // namespace strata
