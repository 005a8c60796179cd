#include "prometheus_text.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>

namespace strata {

namespace {

std::string escape_label(const std::string& value) {
    std::string out;
    out.reserve(value.size());
    for (char c : value) {
        if (c == '\\')
            out += "\\\\";
        else if (c == '"')
            out += "\\\"";
        else if (c == '\n')
            out += "\\n";
        else
            out += c;
    }
    return out;
}

std::string escape_help(const std::string& value) {
    std::string out;
    for (char c : value) out += c == '\\' ? "\\\\" : c == '\n' ? "\\n" : std::string(1, c);
    return out;
}

std::string number(double value) {
    if (std::isnan(value)) return "NaN";
    if (std::isinf(value)) return value > 0 ? "+Inf" : "-Inf";
    char text[40];
    std::snprintf(text, sizeof text, "%.17g", value);
    return text;
}

}  // namespace

void PrometheusText::family(const std::string& name, const std::string& help, const std::string& type) {
    if (families_.count(name)) return;
    order_.push_back(name);
    families_[name] = Family{help, type, {}, {}};
}

void PrometheusText::sample(const std::string& name, const PrometheusLabels& labels, double value) {
    Family& family = families_.at(name);
    std::string rendered;
    for (const auto& [key, label_value] : labels)
        rendered += (rendered.empty() ? "" : ",") + key + "=\"" + escape_label(label_value) + "\"";
    if (std::find(family.label_sets.begin(), family.label_sets.end(), rendered) != family.label_sets.end())
        return;
    family.label_sets.push_back(rendered);
    family.lines.push_back(name + (rendered.empty() ? "" : "{" + rendered + "}") + " " + number(value));
}

std::string PrometheusText::render() const {
    std::string out;
    for (const std::string& name : order_) {
        const Family& family = families_.at(name);
        if (family.lines.empty()) continue;
        out += "# HELP " + name + " " + escape_help(family.help) + "\n";
        out += "# TYPE " + name + " " + family.type + "\n";
        for (const std::string& line : family.lines) out += line + "\n";
    }
    return out;
}

std::string prometheus_name_part(const std::string& text) {
    std::string out;
    for (char c : text) {
        unsigned char u = static_cast<unsigned char>(c);
        if (std::isalnum(u) && u < 128)
            out += static_cast<char>(std::tolower(u));
        else if (!out.empty() && out.back() != '_')
            out += '_';
    }
    while (!out.empty() && out.back() == '_') out.pop_back();
    if (!out.empty() && std::isdigit(static_cast<unsigned char>(out[0]))) out = "_" + out;
    return out.empty() ? "unnamed" : out;
}

}  // namespace strata
