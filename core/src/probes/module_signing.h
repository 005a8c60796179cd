// Whether this kernel loads only signed modules. A driver built by DKMS (or by
// a GPU Operator driver container) is unsigned unless someone enrolled a key,
// so on such a kernel "no NVIDIA kernel module loaded" most often means the
// kernel refused it: the words users then see are modprobe's "Key was rejected
// by service" or the installer's "not signed by a key that is trusted".
#pragma once

#include <optional>
#include <string>

namespace strata {

class ProbeContext;

// Why this kernel enforces module signatures ("Secure Boot is on", "kernel
// lockdown (integrity)", "module.sig_enforce=1"), or nullopt where it does not
// or nothing can be read.
std::optional<std::string> module_signature_enforcement(const ProbeContext& context);

}  // namespace strata
