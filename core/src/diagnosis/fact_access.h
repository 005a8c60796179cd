// Typed reads of facts for the diagnosis rules: a missing fact or one of
// another type reads as nullopt, so a rule never acts on half a picture.
#pragma once

#include <optional>
#include <string>

#include "model/report.h"

namespace strata {

inline std::optional<std::string> fact_string(const Report& report, std::string_view key) {
    const Fact* fact = report.find_fact(key);
    if (!fact || !fact->value.is_string()) return std::nullopt;
    return fact->value.get<std::string>();
}

inline std::optional<long long> fact_int(const Report& report, std::string_view key) {
    const Fact* fact = report.find_fact(key);
    if (!fact || !fact->value.is_number_integer()) return std::nullopt;
    return fact->value.get<long long>();
}

inline bool fact_true(const Report& report, std::string_view key) {
    const Fact* fact = report.find_fact(key);
    return fact && fact->value.is_boolean() && fact->value.get<bool>();
}

// 12040 -> "12.4"
inline std::string cuda_version_text(long long version) {
    return std::to_string(version / 1000) + "." + std::to_string((version % 1000) / 10);
}

}  // namespace strata
