#include "probes/text_util.h"

#include <cctype>

namespace strata {

std::string_view trim(std::string_view text) {
    while (!text.empty() && std::isspace(static_cast<unsigned char>(text.front()))) text.remove_prefix(1);
    while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back()))) text.remove_suffix(1);
    return text;
}

std::vector<std::string_view> split_lines(std::string_view text) {
    std::vector<std::string_view> lines;
    size_t pos = 0;
    while (pos < text.size()) {
        size_t end = text.find('\n', pos);
        if (end == std::string_view::npos) end = text.size();
        lines.push_back(text.substr(pos, end - pos));
        pos = end + 1;
    }
    return lines;
}

std::string key_value(std::string_view text, std::string_view key, char separator) {
    for (std::string_view line : split_lines(text)) {
        size_t at = line.find(separator);
        if (at == std::string_view::npos || trim(line.substr(0, at)) != key) continue;
        std::string_view value = trim(line.substr(at + 1));
        if (value.size() >= 2 && (value.front() == '"' || value.front() == '\'') &&
            value.back() == value.front())
            value = value.substr(1, value.size() - 2);
        return std::string(value);
    }
    return {};
}

std::vector<std::string> split_path_list(std::string_view list) {
    std::vector<std::string> out;
    size_t pos = 0;
    while (pos <= list.size()) {
        size_t end = list.find(':', pos);
        if (end == std::string_view::npos) end = list.size();
        if (end > pos) out.emplace_back(list.substr(pos, end - pos));
        pos = end + 1;
    }
    return out;
}

std::vector<std::string> split_loader_path_list(std::string_view list) {
    std::vector<std::string> out;
    if (list.empty()) return out;  // set but empty: the loader ignores it
    size_t pos = 0;
    while (pos <= list.size()) {
        size_t end = list.find(':', pos);
        if (end == std::string_view::npos) end = list.size();
        out.emplace_back(end > pos ? list.substr(pos, end - pos) : std::string_view("."));
        pos = end + 1;
    }
    return out;
}

std::string join(const std::vector<std::string>& items, std::string_view separator) {
    std::string out;
    for (size_t i = 0; i < items.size(); ++i) {
        if (i) out += separator;
        out += items[i];
    }
    return out;
}

bool contains(std::string_view text, std::string_view needle) {
    return text.find(needle) != std::string_view::npos;
}

}  // namespace strata
