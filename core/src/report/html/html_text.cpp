#include "report/html/html_text.h"

#include <cmath>
#include <cstdio>

namespace strata {

namespace {

constexpr std::string_view kReplacement = "\xEF\xBF\xBD";  // U+FFFD

// The length of the valid UTF-8 sequence at `text[i]` and its code point,
// or 0 for a byte that starts none (overlong, surrogate, beyond U+10FFFF, cut).
size_t utf8_sequence(std::string_view text, size_t i, char32_t& code_point) {
    auto byte = [&](size_t k) { return static_cast<unsigned char>(text[k]); };
    unsigned char lead = byte(i);
    size_t length = lead < 0x80           ? 1
                    : (lead >> 5) == 0x6  ? 2
                    : (lead >> 4) == 0xE  ? 3
                    : (lead >> 3) == 0x1E ? 4
                                          : 0;
    if (length == 0 || i + length > text.size()) return 0;
    code_point = length == 1 ? lead : length == 2 ? lead & 0x1F : length == 3 ? lead & 0x0F : lead & 0x07;
    for (size_t k = 1; k < length; ++k) {
        if ((byte(i + k) & 0xC0) != 0x80) return 0;
        code_point = (code_point << 6) | (byte(i + k) & 0x3F);
    }
    static constexpr char32_t smallest[] = {0, 0, 0x80, 0x800, 0x10000};
    if (code_point < smallest[length] || code_point > 0x10FFFF ||
        (code_point >= 0xD800 && code_point <= 0xDFFF))
        return 0;
    return length;
}

// What the HTML standard calls a parse error in text: controls other than
// whitespace, and noncharacters.
bool forbidden(char32_t c) {
    if (c == '\t' || c == '\n' || c == '\r') return false;
    if (c < 0x20 || (c >= 0x7F && c <= 0x9F)) return true;
    return (c >= 0xFDD0 && c <= 0xFDEF) || (c & 0xFFFE) == 0xFFFE;
}

}  // namespace

std::string html_escape(std::string_view text) {
    std::string out;
    out.reserve(text.size() + text.size() / 8);
    for (size_t i = 0; i < text.size();) {
        char32_t code_point = 0;
        size_t length = utf8_sequence(text, i, code_point);
        if (length == 0 || forbidden(code_point)) {
            out += kReplacement;
            i += length == 0 ? 1 : length;
            continue;
        }
        switch (code_point) {
            case '&': out += "&amp;"; break;
            case '<': out += "&lt;"; break;
            case '>': out += "&gt;"; break;
            case '"': out += "&quot;"; break;
            case '\'': out += "&#39;"; break;
            default: out.append(text.substr(i, length));
        }
        i += length;
    }
    return out;
}

std::string svg_number(double value) {
    if (!std::isfinite(value)) return "0";
    char buffer[48];
    std::snprintf(buffer, sizeof buffer, "%.2f", value);
    std::string out = buffer;
    while (out.back() == '0') out.pop_back();
    if (out.back() == '.') out.pop_back();
    return out == "-0" ? "0" : out;
}

}  // namespace strata
