#include <sys/ioctl.h>
#include <unistd.h>

#include <algorithm>

#include "diagnosis/health_rules.h"
#include "report/columns.h"
#include "report/writers.h"

namespace strata {

namespace {

struct Style {
    bool color;
    std::string paint(std::string_view text, const char* code) const {
        return color ? std::string("\033[") + code + "m" + std::string(text) + "\033[0m" : std::string(text);
    }
    std::string badge(Status status) const {
        switch (status) {
            case Status::pass: return paint("PASS", "32");
            case Status::warn: return paint("WARN", "33");
            case Status::skip: return paint("SKIP", "2");
            case Status::fail: return paint("FAIL", "1;31");
            case Status::error: return paint("ERR ", "1;31");
            case Status::crashed: return paint("CRSH", "1;31");
            case Status::timeout: return paint("TIME", "1;31");
        }
        return "????";
    }
};

// Appends one line of `text` after `lead`, wrapped at `width` columns (0: as
// it is) between words, each continuation indented like the block. A word
// longer than the width (a path) stays whole.
void append_wrapped(std::string& out, const std::string& lead, std::string_view line, size_t width,
                    size_t indent) {
    out += lead;
    size_t column = lead.size();
    if (width == 0 || column + line.size() <= width) {
        out.append(line);
        out += '\n';
        return;
    }
    bool first_word = true;
    size_t pos = 0;
    while (pos < line.size()) {
        size_t end = line.find(' ', pos);
        if (end == std::string_view::npos) end = line.size();
        std::string_view word = line.substr(pos, end - pos);
        if (!first_word && column + 1 + word.size() > width) {
            out += '\n' + std::string(indent, ' ');
            column = indent;
        } else if (!first_word) {
            out += ' ';
            ++column;
        }
        out.append(word);
        column += word.size();
        first_word = false;
        pos = end + 1;
    }
    out += '\n';
}

void indent_block(std::string& out, std::string_view label, const std::string& text, size_t width) {
    if (text.empty()) return;
    size_t pos = 0;
    bool first = true;
    size_t indent = 11 + label.size();
    while (pos <= text.size()) {
        size_t end = text.find('\n', pos);
        if (end == std::string::npos) end = text.size();
        std::string lead = first ? "         " + std::string(label) + ": " : std::string(indent, ' ');
        append_wrapped(out, lead, std::string_view(text).substr(pos, end - pos), width, indent + 2);
        first = false;
        pos = end + 1;
    }
}

}  // namespace

std::string fact_text(const Report& report, std::string_view key) {
    const Fact* fact = report.find_fact(key);
    if (!fact) return "?";
    return fact->value.is_string() ? fact->value.get<std::string>() : to_json_text(fact->value);
}

std::string render_layer_checks(const Report& report, Layer layer, bool color, size_t width) {
    Style style{color};
    std::string out;
    for (const Check& check : report.checks()) {
        if (check.layer != layer) continue;
        out +=
            "  " + style.badge(check.status) + "  " + (check.ignored ? "(ignored) " : "") + check.summary +
            "  " +
            style.paint("[" + check.id + (check.device ? ", GPU " + std::to_string(*check.device) : "") + "]",
                        "2") +
            "\n";
        if (check.status != Status::pass && check.status != Status::skip) {
            indent_block(out, "evidence", check.evidence, width);
            indent_block(out, "fix", check.remedy, width);
        }
    }
    return out;
}

std::string render_text(const Report& report, bool color, size_t width) {
    Style style{color};
    std::string out = "strata " + fact_text(report, "strata.version") + " doctor — " +
                      fact_text(report, "host.os.name") + ", kernel " +
                      fact_text(report, "host.kernel.release") + "\n";
    for (const LayerSummary& layer : report.layer_summaries()) {
        out += "\n" + style.paint(layer_name(layer.layer), "1") + "\n";
        std::string checks = render_layer_checks(report, layer.layer, color, width);
        out += checks;
        if (checks.empty()) out += "  " + style.badge(layer.status) + "  " + layer.summary + "\n";
    }
    out += "\n" + check_count_line(report) + "\n";
    out += "node health: " + std::string(health_verdict_name(health_verdict(report))) + "\n";
    return out;
}

std::string check_count_line(const Report& report) {
    int failed = 0, warned = 0, passed = 0, skipped = 0, ignored = 0;
    for (const Check& check : report.checks()) {
        if (check.ignored && is_failure(check.status))
            ++ignored;
        else if (is_failure(check.status))
            ++failed;
        else if (check.status == Status::warn)
            ++warned;
        else if (check.status == Status::pass)
            ++passed;
        else
            ++skipped;
    }
    return std::to_string(passed) + " passed, " + std::to_string(failed) + " failed, " +
           std::to_string(warned) + " warnings, " + std::to_string(skipped) + " skipped" +
           (ignored ? ", " + std::to_string(ignored) + " failed but ignored" : "") + "; " +
           std::to_string(report.plugins().size()) + " plugin(s)";
}

std::string render_plugin_table(const Report& report) {
    if (report.plugins().empty())
        return "no plugins found (looked next to strata in lib/strata/plugins, in --plugin-path and in "
               "STRATA_PLUGIN_PATH)\n";
    size_t name_width = 6;
    for (const PluginRecord& plugin : report.plugins()) name_width = std::max(name_width, plugin.name.size());
    std::string out = pad_right("PLUGIN", name_width) + "  " + pad_right("STATE", 18) + "  DETAIL\n";
    for (const PluginRecord& plugin : report.plugins()) {
        std::string detail;
        if (plugin.state == PluginState::loaded) {
            detail = std::string(layer_name(plugin.layer.value_or(Layer::host))) + " layer, version " +
                     plugin.version + ", ABI " + std::to_string(plugin.abi_major) + "." +
                     std::to_string(plugin.abi_minor) + (plugin.has_selftest ? ", self-test" : "") + ", " +
                     std::to_string(plugin.benchmarks.size()) + " benchmark(s)";
        } else if (plugin.state == PluginState::missing_dependency) {
            detail = plugin.missing_library + " not found";
        } else {
            detail = plugin.message;
        }
        out += pad_right(plugin.name, name_width) + "  " +
               pad_right(std::string(plugin_state_name(plugin.state)), 18) + "  " + detail + "\n" +
               std::string(name_width + 22, ' ') + plugin.path + "\n";
        if (plugin.state == PluginState::missing_dependency)
            out += std::string(name_width + 22, ' ') + plugin.message + "\n";
    }
    return out;
}

size_t terminal_columns() {
    if (!::isatty(STDOUT_FILENO)) return 0;
    struct winsize size {};
    if (::ioctl(STDOUT_FILENO, TIOCGWINSZ, &size) != 0 || size.ws_col < 40) return 0;
    return size.ws_col;
}

}  // namespace strata
