// Bounds-checked little-endian reads from a byte range. Every offset from a
// file is checked with subtraction, never with an addition that can wrap.
#pragma once

#include <cstdint>
#include <cstring>
#include <optional>
#include <string_view>

namespace strata::arch {

using Bytes = std::string_view;

// True when [offset, offset + size) lies inside `bytes`.
inline bool in_bounds(Bytes bytes, uint64_t offset, uint64_t size) {
    return offset <= bytes.size() && size <= bytes.size() - offset;
}

template <typename T>
std::optional<T> read_le(Bytes bytes, uint64_t offset) {
    if (!in_bounds(bytes, offset, sizeof(T))) return std::nullopt;
    T value;
    std::memcpy(&value, bytes.data() + offset, sizeof(T));  // x86-64 and AArch64 are little-endian
    return value;
}

// Reads a field known to be in bounds (checked by the caller for the whole header).
template <typename T>
T load_le(Bytes bytes, uint64_t offset) {
    T value;
    std::memcpy(&value, bytes.data() + offset, sizeof(T));
    return value;
}

inline Bytes slice(Bytes bytes, uint64_t offset, uint64_t size) {
    return bytes.substr(static_cast<size_t>(offset), static_cast<size_t>(size));
}

}  // namespace strata::arch
