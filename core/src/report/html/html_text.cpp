#include "report/html/html_text.h"

#include <cmath>
#include <cstdio>

#include "report/utf8.h"

namespace strata {

namespace {

constexpr std::string_view kReplacement = "\xEF\xBF\xBD";  // U+FFFD

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
