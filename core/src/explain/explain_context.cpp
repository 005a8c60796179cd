#include "explain/explain_context.h"

#include <array>

#include "explain/text_lines.h"
#include "model/usage_error.h"

namespace strata {

std::optional<bool> log_says_container(std::string_view text) {
    // Words only a container runtime, orchestrator or container shell prints.
    static constexpr std::array<std::string_view, 16> words = {
        "docker run",       "docker: error response from daemon",
        "oci runtime",      "nvidia-container-cli",
        "runc create",      "crun:",
        "kubectl ",         "kubelet",
        "singularity>",     "apptainer>",
        "singularity exec", "apptainer exec",
        "podman run",       "/.dockerenv",
        "in the pod",       "containerd"};
    std::string lower = lower_ascii(text.substr(0, std::min<size_t>(text.size(), 1u << 20)));
    for (std::string_view word : words)
        if (lower.find(word) != std::string::npos) return true;
    return std::nullopt;
}

Report machine_from_document(const Json& document, const std::string& path) {
    const Json* doctor = &document;
    if (document.is_object() && document.contains("doctor") && document["doctor"].is_object())
        doctor = &document["doctor"];
    if (!doctor->is_object() || !doctor->contains("checks") || !(*doctor)["checks"].is_array())
        throw UsageError(path +
                         ": not a `strata doctor --json` document or a `strata record` file (no checks)");
    Report machine;
    for (const Json& entry : (*doctor)["checks"]) {
        if (!entry.is_object() || !entry.contains("id") || !entry["id"].is_string() ||
            !entry.contains("status") || !entry["status"].is_string())
            continue;
        auto status = parse_status(entry["status"].get<std::string>());
        if (!status) continue;
        Check check;
        check.id = entry["id"].get<std::string>();
        check.status = *status;
        if (entry.contains("summary") && entry["summary"].is_string())
            check.summary = entry["summary"].get<std::string>();
        machine.add_check(std::move(check));
    }
    const Json* environment = nullptr;
    if (doctor->contains("environment") && (*doctor)["environment"].is_object())
        environment = &(*doctor)["environment"];
    if (!environment && document.contains("environment") && document["environment"].is_object())
        environment = &document["environment"];
    if (environment)
        for (const auto& [key, entry] : environment->items())
            if (entry.is_object() && entry.contains("value"))
                machine.add_fact(Fact{key, entry["value"], "record", Layer::host});
    return machine;
}

}  // namespace strata
