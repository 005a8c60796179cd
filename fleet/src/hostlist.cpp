#include "hostlist.h"

#include <algorithm>
#include <map>
#include <set>

#include "model/usage_error.h"

namespace strata::fleet {

namespace {

[[noreturn]] void refuse(std::string_view list, const std::string& why) {
    throw UsageError("hostlist '" + std::string(list.substr(0, 200)) + "': " + why);
}

bool all_digits(std::string_view text) {
    return !text.empty() &&
           std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; });
}

std::string padded(unsigned long long value, size_t width) {
    std::string digits = std::to_string(value);
    return digits.size() < width ? std::string(width - digits.size(), '0') + digits : digits;
}

// The alternatives of one bracket's contents: "1-3,7" -> 1 2 3 7.
std::vector<std::string> bracket_values(std::string_view inside, std::string_view list, size_t limit) {
    std::vector<std::string> out;
    size_t start = 0;
    while (start <= inside.size()) {
        size_t comma = inside.find(',', start);
        std::string_view item =
            inside.substr(start, comma == std::string_view::npos ? inside.npos : comma - start);
        size_t dash = item.find('-');
        std::string_view low = item.substr(0, dash);
        std::string_view high = dash == std::string_view::npos ? low : item.substr(dash + 1);
        if (!all_digits(low) || !all_digits(high) || low.size() > 18 || high.size() > 18)
            refuse(list, "'[" + std::string(inside) + "]' is not a list of numbers and ranges");
        unsigned long long from = std::stoull(std::string(low)), to = std::stoull(std::string(high));
        if (to < from) refuse(list, "the range " + std::string(item) + " runs backwards");
        if (to - from >= limit || out.size() + (to - from) >= limit)
            refuse(list, "more than " + std::to_string(limit) + " names");
        for (unsigned long long value = from; value <= to; ++value) out.push_back(padded(value, low.size()));
        if (comma == std::string_view::npos) break;
        start = comma + 1;
    }
    return out;
}

// One comma-free element at the top level: literal text and brackets, every
// combination ("rack[1-2]-n[1-2]" -> rack1-n1 rack1-n2 rack2-n1 rack2-n2).
void expand_element(std::string_view element, std::string_view list, size_t limit,
                    std::vector<std::string>& out) {
    std::vector<std::string> partial = {""};
    size_t at = 0;
    while (at < element.size()) {
        size_t open = element.find('[', at);
        std::string_view literal =
            element.substr(at, open == std::string_view::npos ? element.npos : open - at);
        if (literal.find(']') != std::string_view::npos) refuse(list, "a ']' without its '['");
        for (std::string& name : partial) name += literal;
        if (open == std::string_view::npos) break;
        size_t close = element.find(']', open);
        if (close == std::string_view::npos) refuse(list, "a '[' without its ']'");
        std::vector<std::string> values =
            bracket_values(element.substr(open + 1, close - open - 1), list, limit);
        if (partial.size() * values.size() > limit)
            refuse(list, "more than " + std::to_string(limit) + " names");
        std::vector<std::string> next;
        next.reserve(partial.size() * values.size());
        for (const std::string& name : partial)
            for (const std::string& value : values) next.push_back(name + value);
        partial = std::move(next);
        at = close + 1;
    }
    if (partial.size() == 1 && partial.front().empty()) refuse(list, "an empty name");
    if (out.size() + partial.size() > limit) refuse(list, "more than " + std::to_string(limit) + " names");
    out.insert(out.end(), partial.begin(), partial.end());
}

}  // namespace

std::vector<std::string> expand_hostlist(std::string_view list, size_t limit) {
    std::vector<std::string> names;
    size_t depth = 0, start = 0;
    for (size_t i = 0; i <= list.size(); ++i) {
        char c = i < list.size() ? list[i] : ',';
        if (c == ' ' || c == '\t' || c == '\n') refuse(list, "a name with white space");
        if (c == '[' && ++depth > 1) refuse(list, "brackets inside brackets");
        if (c == ']' && depth-- == 0) refuse(list, "a ']' without its '['");
        if (c == ',' && depth == 0) {
            if (i > start) expand_element(list.substr(start, i - start), list, limit, names);
            start = i + 1;
        }
    }
    if (depth != 0) refuse(list, "a '[' without its ']'");
    if (names.empty()) refuse(list, "no names");
    std::vector<std::string> unique;
    std::set<std::string> seen;
    for (std::string& name : names)
        if (seen.insert(name).second) unique.push_back(std::move(name));
    return unique;
}

std::string compress_hostlist(std::vector<std::string> names) {
    struct Split {
        std::string prefix, digits;
    };
    std::vector<Split> splits;
    std::set<std::string> plain;
    std::set<std::pair<std::string, size_t>> padded_widths;  // "n007": ("n", 3)
    for (const std::string& name : names) {
        // A name (from a record: untrusted) that holds hostlist syntax would
        // read as several nodes, "n[1-128]" as 128: it is shown quoted, alone.
        if (name.find_first_of("[],") != std::string::npos) {
            plain.insert("\"" + name + "\"");
            continue;
        }
        size_t start = name.size();
        while (start > 0 && name[start - 1] >= '0' && name[start - 1] <= '9') --start;
        size_t length = name.size() - start;
        if (length == 0 || length > 18) {
            plain.insert(name);
            continue;
        }
        splits.push_back({name.substr(0, start), name.substr(start)});
        if (name[start] == '0' && length > 1) padded_widths.insert({splits.back().prefix, length});
    }
    // prefix and width (0: unpadded) -> the numbers. "n100" joins n[001-099]
    // as Slurm writes it; "n9" and "n10" share n[9-10].
    std::map<std::pair<std::string, size_t>, std::set<unsigned long long>> numbered;
    for (const Split& split : splits) {
        size_t width = split.digits.size();
        bool padded_group = split.digits[0] == '0' || padded_widths.count({split.prefix, width});
        numbered[{split.prefix, padded_group && width > 1 ? width : 0}].insert(std::stoull(split.digits));
    }
    // Sorted by the text each part starts with, so the output is stable.
    std::map<std::string, std::string> parts;
    for (const std::string& name : plain) parts[name] = name;
    for (const auto& [key, numbers] : numbered) {
        const auto& [prefix, width] = key;
        if (numbers.size() == 1) {
            std::string name = prefix + padded(*numbers.begin(), width);
            parts[name] = name;
            continue;
        }
        std::string ranges;
        auto it = numbers.begin();
        while (it != numbers.end()) {
            unsigned long long first = *it, last = *it;
            auto next = std::next(it);
            while (next != numbers.end() && *next == last + 1) last = *next++;
            ranges += (ranges.empty() ? "" : ",") + padded(first, width) +
                      (last > first ? "-" + padded(last, width) : "");
            it = next;
        }
        parts[prefix + padded(*numbers.begin(), width)] = prefix + "[" + ranges + "]";
    }
    std::string out;
    for (const auto& [order, part] : parts) out += (out.empty() ? "" : ",") + part;
    return out;
}

}  // namespace strata::fleet
