// One cell of a Markdown table from any text (`compare --markdown`, `rollout
// --markdown`): a '|' would end the cell and a newline the row; characters
// Markdown would take as emphasis, code, an HTML tag or a link are escaped.
#pragma once

#include <string>
#include <string_view>

namespace strata {

inline std::string markdown_cell(std::string_view text) {
    std::string out;
    for (char c : text) {
        if (c == '|' || c == '\\' || c == '`' || c == '*' || c == '_' || c == '<' || c == '[' || c == ']')
            out += '\\';
        out += c == '\n' || c == '\r' ? ' ' : c;
    }
    return out;
}

}  // namespace strata
