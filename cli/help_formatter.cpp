#include "cli/help_formatter.h"

#include <algorithm>
#include <cctype>

namespace strata::cli {

namespace {

bool is_plain_word(const std::string& text) {
    return !text.empty() && std::all_of(text.begin(), text.end(), [](unsigned char c) {
        return std::isupper(c) || c == '_' || c == '-';
    });
}

std::string base_placeholder(const std::string& base) {
    if (base == "INT" || base == "UINT") return "N";
    if (base == "FLOAT") return "NUMBER";
    return base.empty() ? "VALUE" : base;
}

bool takes_many(const CLI::Option* option) {
    return option->get_expected_max() > 1;
}

}  // namespace

std::string value_placeholder(const std::string& type_name) {
    std::string::size_type colon = type_name.find(':');
    std::string base = type_name.substr(0, colon);
    if (colon == std::string::npos) return base_placeholder(base);
    std::string detail = type_name.substr(colon + 1);
    if (!detail.empty() && detail.front() == '{') return detail;
    // Range checks ("INT in [1 - 100]") and sign checks (POSITIVE) are
    // stated by the description; the placeholder names the kind of value.
    if (detail.find(" in [") != std::string::npos || detail == "POSITIVE" || detail == "NONNEGATIVE")
        return base_placeholder(base);
    return is_plain_word(detail) ? detail : base_placeholder(base);
}

std::string HelpFormatter::make_option_name(const CLI::Option* option, bool is_positional) const {
    if (!is_positional) return CLI::Formatter::make_option_name(option, is_positional);
    if (!option->get_option_text().empty()) return option->get_option_text();
    std::string name = option->get_name(true, false);
    std::transform(name.begin(), name.end(), name.begin(), [](unsigned char c) { return std::toupper(c); });
    return takes_many(option) ? name + "..." : name;
}

std::string HelpFormatter::make_option_opts(const CLI::Option* option) const {
    // A flag has no type name: it takes no value.
    if (option->get_positional() || option->get_type_name().empty()) return "";
    std::string placeholder = option->get_option_text();
    if (placeholder.empty()) placeholder = value_placeholder(option->get_type_name());
    return " " + placeholder + (takes_many(option) ? " ..." : "");
}

std::string HelpFormatter::make_option_usage(const CLI::Option* option) const {
    std::string usage = make_option_name(option, true);
    bool optional = !option->get_required() && usage.front() != '[';
    return optional ? "[" + usage + "]" : usage;
}

}  // namespace strata::cli
