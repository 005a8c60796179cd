#include "report/markdown_cell.h"
#include "report/writers.h"

namespace strata {

namespace {

// A cell from any text (summaries, evidence, fact values: often from outside):
// markup, emphasis, links and pipes escaped (markdown_cell), each line break
// a <br> strata writes itself.
std::string cell(std::string_view text) {
    std::string out;
    size_t start = 0;
    for (size_t end = text.find('\n');; end = text.find('\n', start)) {
        out += markdown_cell(text.substr(start, end == std::string_view::npos ? end : end - start));
        if (end == std::string_view::npos) break;
        out += "<br>";
        start = end + 1;
    }
    return out;
}

// An identifier in a code span: a backtick would end the span, and a pipe
// the cell even inside it (GitHub's tables), so neither passes as itself.
std::string code_cell(std::string_view text) {
    std::string out = "`";
    for (char c : text) {
        if (c == '`' || c == '\n' || c == '\r')
            out += c == '`' ? '\'' : ' ';
        else if (c == '|')
            out += "\\|";
        else
            out += c;
    }
    return out + "`";
}

}  // namespace

std::string render_markdown(const Report& report) {
    std::string out = "## strata doctor\n\n| layer | status | summary |\n|---|---|---|\n";
    for (const LayerSummary& layer : report.layer_summaries())
        out += "| " + std::string(layer_name(layer.layer)) + " | " + std::string(status_name(layer.status)) +
               " | " + cell(layer.summary) + " |\n";
    out += "\n### Checks\n\n| id | status | summary | fix |\n|---|---|---|---|\n";
    for (const Check& check : report.checks())
        out += "| " + code_cell(check.id) + " | " + std::string(status_name(check.status)) +
               (check.ignored ? " (ignored)" : "") + " | " + cell(check.summary) + " | " +
               cell(check.remedy) + " |\n";
    out += "\n<details><summary>Environment</summary>\n\n| fact | value | source |\n|---|---|---|\n";
    for (const Fact& fact : report.facts())
        out += "| " + code_cell(fact.key) + " | " +
               cell(fact.value.is_string() ? fact.value.get<std::string>() : to_json_text(fact.value)) +
               " | " + cell(fact.source) + " |\n";
    out += "\n</details>\n";
    return out;
}

}  // namespace strata
