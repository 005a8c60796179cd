// Fixed-width columns for the text tables (`strata plugins`, `strata arch`).
#pragma once

#include <algorithm>
#include <string>

namespace strata {

// `text` padded with spaces to at least `width` characters.
inline std::string pad_right(std::string text, size_t width) {
    text.resize(std::max(text.size(), width), ' ');
    return text;
}

}  // namespace strata
