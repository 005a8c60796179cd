#include "report/writers.h"

namespace strata {

namespace {

// Table cells cannot hold newlines or bare pipes.
std::string cell(std::string_view text) {
    std::string out;
    for (char c : text) {
        if (c == '|')
            out += "\\|";
        else if (c == '\n')
            out += "<br>";
        else
            out += c;
    }
    return out;
}

}  // namespace

std::string render_markdown(const Report& report) {
    std::string out = "## strata doctor\n\n| layer | status | summary |\n|---|---|---|\n";
    for (const LayerSummary& layer : report.layer_summaries())
        out += "| " + std::string(layer_name(layer.layer)) + " | " + std::string(status_name(layer.status)) +
               " | " + cell(layer.summary) + " |\n";
    out += "\n### Checks\n\n| id | status | summary | fix |\n|---|---|---|---|\n";
    for (const Check& check : report.checks())
        out += "| `" + check.id + "` | " + std::string(status_name(check.status)) +
               (check.ignored ? " (ignored)" : "") + " | " + cell(check.summary) + " | " +
               cell(check.remedy) + " |\n";
    out += "\n<details><summary>Environment</summary>\n\n| fact | value | source |\n|---|---|---|\n";
    for (const Fact& fact : report.facts())
        out += "| `" + fact.key + "` | " +
               cell(fact.value.is_string() ? fact.value.get<std::string>() : to_json_text(fact.value)) +
               " | " + cell(fact.source) + " |\n";
    out += "\n</details>\n";
    return out;
}

}  // namespace strata
