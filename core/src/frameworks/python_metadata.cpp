#include "frameworks/python_metadata.h"

#include <algorithm>
#include <cctype>

#include "probes/text_util.h"

namespace strata {

namespace {

bool is_name_char(char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_' || c == '.';
}

bool is_identifier_char(char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
}

// The extra a marker names ("extra == 'with-cuda'"), or "".
std::string marker_extra(std::string_view marker) {
    size_t at = marker.find("extra");
    while (at != std::string_view::npos) {
        bool starts_word = at == 0 || !is_identifier_char(marker[at - 1]);
        std::string_view rest = trim(marker.substr(at + 5));
        if (starts_word && rest.substr(0, 2) == "==") {
            rest = trim(rest.substr(2));
            if (!rest.empty() && (rest.front() == '"' || rest.front() == '\'')) {
                size_t end = rest.find(rest.front(), 1);
                if (end != std::string_view::npos) return normalize_package_name(rest.substr(1, end - 1));
            }
        }
        at = marker.find("extra", at + 5);
    }
    return {};
}

}  // namespace

std::string normalize_package_name(std::string_view name) {
    std::string out;
    bool separator = false;
    for (char c : name) {
        if (c == '-' || c == '_' || c == '.') {
            separator = true;
            continue;
        }
        if (separator && !out.empty()) out += '-';
        separator = false;
        out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    }
    return out;
}

Requirement parse_requirement(std::string_view line) {
    Requirement out;
    size_t semicolon = line.find(';');
    std::string_view requirement = trim(line.substr(0, semicolon));
    if (semicolon != std::string_view::npos) out.extra = marker_extra(line.substr(semicolon + 1));
    size_t end = 0;
    while (end < requirement.size() && is_name_char(requirement[end])) ++end;
    out.name = normalize_package_name(requirement.substr(0, end));
    std::string_view rest = trim(requirement.substr(end));
    if (!rest.empty() && rest.front() == '[') {  // extras requested of the dependency
        size_t close = rest.find(']');
        std::string_view list =
            close == std::string_view::npos ? std::string_view{} : rest.substr(1, close - 1);
        while (!list.empty()) {
            size_t comma = list.find(',');
            // An extra of separators alone ("_", "-.") normalizes to nothing: dropped like a blank.
            std::string extra = normalize_package_name(trim(list.substr(0, comma)));
            if (!extra.empty()) out.extras.push_back(std::move(extra));
            list = comma == std::string_view::npos ? std::string_view{} : list.substr(comma + 1);
        }
        rest = close == std::string_view::npos ? std::string_view{} : trim(rest.substr(close + 1));
    }
    if (!rest.empty() && rest.front() == '(' && rest.back() == ')')
        rest = trim(rest.substr(1, rest.size() - 2));
    for (char c : rest)
        if (!std::isspace(static_cast<unsigned char>(c))) out.specifier += c;
    return out;
}

std::optional<PackageMetadata> parse_package_metadata(std::string_view text) {
    PackageMetadata out;
    for (std::string_view line : split_lines(text)) {
        if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
        if (line.empty()) break;  // the headers end; the description follows
        if (line.front() == ' ' || line.front() == '\t') continue;  // a folded continuation
        size_t colon = line.find(':');
        if (colon == std::string_view::npos) continue;
        std::string_view field = line.substr(0, colon), value = trim(line.substr(colon + 1));
        if (field == "Name" && out.name.empty()) out.name = std::string(value);
        if (field == "Version" && out.version.empty()) out.version = std::string(value);
        if (field == "Requires-Dist") {
            Requirement requirement = parse_requirement(value);
            if (!requirement.name.empty()) out.requires_dist.push_back(std::move(requirement));
        }
    }
    if (out.name.empty() || out.version.empty()) return std::nullopt;
    return out;
}

std::vector<std::string> parse_record(std::string_view text) {
    std::vector<std::string> out;
    for (std::string_view line : split_lines(text)) {
        if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
        if (line.empty()) continue;
        std::string path;
        if (line.front() == '"') {  // quoted: "" is a literal quote
            size_t i = 1;
            bool closed = false;
            for (; i < line.size(); ++i) {
                if (line[i] != '"') {
                    path += line[i];
                } else if (i + 1 < line.size() && line[i + 1] == '"') {
                    path += '"';
                    ++i;
                } else {
                    closed = true;
                    break;
                }
            }
            if (!closed) continue;
        } else {
            path = std::string(line.substr(0, line.find(',')));
        }
        if (!path.empty()) out.push_back(std::move(path));
    }
    return out;
}

std::optional<std::string> python_string_value(std::string_view source, std::string_view key) {
    if (key.empty()) return std::nullopt;
    for (size_t at = source.find(key); at != std::string_view::npos; at = source.find(key, at + 1)) {
        char before = at == 0 ? '\n' : source[at - 1];
        size_t after_key = at + key.size();
        char after = after_key < source.size() ? source[after_key] : '\n';
        bool quoted = (before == '\'' || before == '"') && after == before;
        if (!quoted && (is_identifier_char(before) || is_identifier_char(after))) continue;
        std::string_view rest = source.substr(quoted ? after_key + 1 : after_key);
        rest = trim(rest);
        // Separator: '=' (assignment), ':' (dict entry, or an annotation
        // followed by '='), ',' (a (key, value) tuple).
        if (rest.empty()) continue;
        char separator = rest.front();
        if (separator != '=' && separator != ':' && separator != ',') continue;
        // A quoted key is a dict entry ('key': value) or the first item of a
        // (key, value) tuple; in a list (__all__ = ['cuda', 'hip']) it is
        // neither. An unquoted key is assigned or annotated.
        if (quoted && separator == '=') continue;
        if (!quoted && separator == ',') continue;
        if (separator == ',') {
            size_t open = at - 1;
            while (open > 0 && std::isspace(static_cast<unsigned char>(source[open - 1]))) --open;
            if (open == 0 || source[open - 1] != '(') continue;
        }
        if (separator == '=' && rest.substr(0, 2) == "==") continue;  // a comparison
        rest = trim(rest.substr(1));
        if (separator == ':' && !rest.empty() && rest.front() != '\'' && rest.front() != '"') {
            // `cuda: Optional[str] = '12.4'`: skip the annotation, on this line only.
            size_t equals = rest.substr(0, rest.find('\n')).find('=');
            if (equals == std::string_view::npos) continue;
            rest = trim(rest.substr(equals + 1));
        }
        if (rest.empty() || (rest.front() != '\'' && rest.front() != '"')) continue;
        // The literal ends on its own line: search that line only, so a file
        // with many mentions of the key stays linear.
        std::string_view line = rest.substr(0, rest.find('\n'));
        size_t end = line.find(line.front(), 1);
        if (end == std::string_view::npos) continue;
        return std::string(line.substr(1, end - 1));
    }
    return std::nullopt;
}

std::string specifier_floor(std::string_view specifier) {
    for (std::string_view clause :
         {std::string_view("=="), std::string_view("~="), std::string_view(">="), std::string_view("===")}) {
        size_t at = specifier.find(clause);
        while (at != std::string_view::npos && clause == ">=" && at > 0 && specifier[at - 1] == '=')
            at = specifier.find(clause, at + 1);
        if (at == std::string_view::npos) continue;
        std::string_view rest = specifier.substr(at + clause.size());
        size_t end = rest.find(',');
        std::string version(trim(rest.substr(0, end)));
        if (version.size() >= 2 && version.compare(version.size() - 2, 2, ".*") == 0)
            version.resize(version.size() - 2);
        if (!version.empty() && version.front() != '=') return version;
    }
    return {};
}

int compare_versions(std::string_view a, std::string_view b) {
    auto next = [](std::string_view& text) -> std::optional<unsigned long long> {
        if (text.empty() || !std::isdigit(static_cast<unsigned char>(text.front()))) return std::nullopt;
        unsigned long long value = 0;
        size_t digits = 0;
        while (digits < text.size() && std::isdigit(static_cast<unsigned char>(text[digits]))) {
            if (value < 1'000'000'000'000ULL) value = value * 10 + static_cast<unsigned>(text[digits] - '0');
            ++digits;
        }
        text.remove_prefix(digits);
        if (!text.empty() && text.front() == '.') text.remove_prefix(1);
        return value;
    };
    while (true) {
        auto x = next(a), y = next(b);
        if (!x && !y) return 0;
        unsigned long long left = x.value_or(0), right = y.value_or(0);
        if (left != right) return left < right ? -1 : 1;
    }
}

bool meets_pin(std::string_view version, std::string_view specifier) {
    size_t at = specifier.find("==");
    if (at == std::string_view::npos || specifier.substr(at, 3) == "===") return true;
    std::string_view pin = specifier.substr(at + 2);
    pin = trim(pin.substr(0, pin.find(',')));
    // PEP 440: a pin without a local label matches any local build of it
    // ("==2.10.0" is met by "2.10.0+cu128").
    if (size_t plus = pin.find('+'); plus == std::string_view::npos) {
        version = version.substr(0, version.find('+'));
    } else {
        // A pinned local label must be the same one ("+cu126" is not "+cu128").
        size_t own = version.find('+');
        if (own == std::string_view::npos || version.substr(own) != pin.substr(plus)) return false;
    }
    if (!pin.ends_with(".*")) return compare_versions(version, pin) == 0;
    pin.remove_suffix(2);
    // Compare only as many components as the prefix has: "13.0.3" against "13".
    size_t components = 1 + static_cast<size_t>(std::count(pin.begin(), pin.end(), '.'));
    size_t end = 0;
    for (size_t dots = 0; end < version.size(); ++end)
        if (version[end] == '.' && ++dots == components) break;
    return compare_versions(version.substr(0, end), pin) == 0;
}

}  // namespace strata
