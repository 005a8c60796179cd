// Little-endian reads from a byte range, and the bounds check every read of a
// file offset is guarded by: with subtraction, never an addition that can wrap.
#pragma once

#include <cstdint>
#include <cstring>
#include <string_view>

namespace strata::arch {

using Bytes = std::string_view;

// True when [offset, offset + size) lies inside `bytes`.
inline bool in_bounds(Bytes bytes, uint64_t offset, uint64_t size) {
    return offset <= bytes.size() && size <= bytes.size() - offset;
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
