// Reading UTF-8 that came from outside (names, versions, log lines) the way
// every output format must before it escapes: one decoder for JSON, JUnit
// XML and HTML, so the three agree on what is well-formed.
#pragma once

#include <string_view>

namespace strata {

// The length of the well-formed UTF-8 sequence at `text[at]` and its code
// point, or 0 for a byte that starts none (RFC 3629: no overlong forms, no
// surrogates, nothing past U+10FFFF, nothing cut short).
size_t utf8_sequence(std::string_view text, size_t at, char32_t& code);
inline size_t utf8_sequence(std::string_view text, size_t at) {
    char32_t ignored = 0;
    return utf8_sequence(text, at, ignored);
}

}  // namespace strata
