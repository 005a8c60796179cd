// The readers of what a Python package installs about itself (METADATA,
// RECORD, version.py-style build records, requirement specifiers): the
// framework layer runs them on whatever a site-packages directory holds.
#include <cstdint>
#include <string>

#include "diagnosis/framework_rules.h"
#include "frameworks/nvidia_wheels.h"
#include "frameworks/python_metadata.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    using namespace strata;
    std::string_view text(reinterpret_cast<const char*>(data), size);
    if (auto metadata = parse_package_metadata(text)) {
        if (metadata->name.empty() || metadata->version.empty()) __builtin_trap();
        for (const Requirement& requirement : metadata->requires_dist) {
            (void)specifier_floor(requirement.specifier);
            (void)wheel_sonames(requirement.name, specifier_floor(requirement.specifier));
            (void)meets_pin(metadata->version, requirement.specifier);
            for (const std::string& extra : requirement.extras)
                if (extra.empty()) __builtin_trap();  // blanks are dropped, never kept
        }
    }
    (void)parse_record(text);
    for (std::string_view key : {"cuda", "cuda_version", "hip", "'", "=", ""})
        (void)python_string_value(text, key);
    (void)parse_requirement(text);
    (void)normalize_package_name(text);
    std::string_view left = text.substr(0, size / 2), right = text.substr(size / 2);
    int forward = compare_versions(left, right), backward = compare_versions(right, left);
    if (forward != -backward) __builtin_trap();  // an ordering, whatever the text
    (void)version_older(left, right);
    (void)meets_pin(left, right);
    return 0;
}
