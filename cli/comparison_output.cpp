#include "cli/comparison_output.h"

#include <algorithm>
#include <iostream>

#include "change_text.h"
#include "report/columns.h"
#include "report/markdown_cell.h"

namespace strata::cli {

namespace {

// new/base of a time, the way every strata command says a change:
// "+19.8% time (slower)" (bench/src/change_text.h).
std::string time_change(double ratio) {
    return bench::change_text(ratio, "real_time", false);
}

}  // namespace

Json comparison_json(const bench::Comparison& result, std::string_view metric) {
    Json rows = Json::array();
    for (const auto& row : result.rows) {
        Json entry = {{"name", row.name},
                      {"base_ns", row.base_ns},
                      {"new_ns", row.new_ns},
                      {"ratio", row.ratio},
                      {"p_value", row.p_value ? Json(*row.p_value) : Json(nullptr)},
                      {"verdict", std::string(bench::verdict_name(row.verdict))},
                      {"base_repetitions", row.base_count},
                      {"new_repetitions", row.new_count},
                      {"trips_gate", row.trips_gate}};
        if (!row.note.empty()) entry["note"] = row.note;
        rows.push_back(std::move(entry));
    }
    return {{"schema_version", kComparisonSchemaVersion},
            {"metric", std::string(metric)},
            {"benchmarks", rows},
            {"geometric_mean_ratio",
             result.geometric_mean_ratio ? Json(*result.geometric_mean_ratio) : Json(nullptr)},
            {"geometric_mean_count", result.geometric_mean_count},
            {"only_in_base", result.only_in_base},
            {"only_in_new", result.only_in_new},
            {"warnings", result.warnings},
            {"gate_tripped", result.gate_tripped}};
}

void print_comparison(const bench::Comparison& result, bool markdown) {
    std::vector<std::vector<std::string>> table;
    for (const auto& row : result.rows)
        table.push_back({row.name, row.base_ns > 0 ? bench::time_text(row.base_ns) : "-",
                         row.new_ns > 0 ? bench::time_text(row.new_ns) : "-",
                         row.ratio > 0 ? time_change(row.ratio) : "-", bench::p_value_text(row),
                         std::string(bench::verdict_name(row.verdict)) + (row.trips_gate ? " (gate)" : "")});
    const std::vector<std::string> header = {"benchmark", "base", "new", "change", "p", "verdict"};
    if (markdown) {
        std::cout << "| benchmark | base | new | change | p | verdict |\n|---|---:|---:|---:|---:|---|\n";
        for (const auto& cells : table) {
            std::cout << "|";
            for (const auto& cell : cells) std::cout << " " << markdown_cell(cell) << " |";
            std::cout << "\n";
        }
    } else {
        std::vector<size_t> widths(header.size());
        for (size_t c = 0; c < header.size(); ++c) widths[c] = header[c].size();
        for (const auto& cells : table)
            for (size_t c = 0; c < cells.size(); ++c) widths[c] = std::max(widths[c], cells[c].size());
        auto print_row = [&](const std::vector<std::string>& cells) {
            std::string line;
            for (size_t c = 0; c < cells.size(); ++c) line += pad_right(cells[c], widths[c] + 2);
            while (!line.empty() && line.back() == ' ') line.pop_back();
            std::cout << line << "\n";
        };
        print_row(header);
        for (const auto& cells : table) print_row(cells);
    }
    for (const auto& row : result.rows)
        if (!row.note.empty())
            std::cout << (markdown ? "\n- " + markdown_cell(row.name) : "note: " + row.name) << ": "
                      << row.note << "\n";
    if (result.geometric_mean_ratio)
        std::cout << (markdown ? "\n" : "") << "geometric mean over " << result.geometric_mean_count
                  << " benchmark(s): " << time_change(*result.geometric_mean_ratio) << "\n";
    auto name_text = [&](const std::string& name) { return markdown ? markdown_cell(name) : name; };
    for (const auto& name : result.only_in_base) std::cout << "only in base: " << name_text(name) << "\n";
    for (const auto& name : result.only_in_new) std::cout << "only in new: " << name_text(name) << "\n";
    for (const auto& warning : result.warnings) std::cerr << "strata: warning: " << warning << "\n";
}

}  // namespace strata::cli
