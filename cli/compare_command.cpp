// strata compare BASE.json NEW.json [--threshold 2%] [--fail-above 5%] [--metric real_time|cpu_time]
//                [--filter REGEX] [--json|--markdown]
#include <regex.h>

#include <cmath>
#include <cstdio>
#include <iostream>
#include <memory>

#include "cli/commands.h"
#include "cli/comparison_output.h"
#include "cli/run_options.h"
#include "comparison.h"
#include "model/usage_error.h"
#include "report/atomic_file.h"
#include "results_html.h"

namespace strata::cli {

namespace {

// "2", "2%" or "0.5%" -> 0.02 / 0.005.
double parse_percent(const std::string& text, const char* option) {
    std::string number = !text.empty() && text.back() == '%' ? text.substr(0, text.size() - 1) : text;
    char* end = nullptr;
    double value = std::strtod(number.c_str(), &end);
    if (number.empty() || *end != '\0' || !std::isfinite(value) || value < 0)
        throw UsageError(std::string(option) + " takes a percentage such as 2 or 2%, not '" + text + "'");
    return value / 100;
}

// An extended POSIX regular expression (as --benchmark_filter takes), matched
// anywhere in the name. POSIX, not std::regex: the names come from files, and
// std::regex recurses per character.
std::function<bool(const std::string&)> name_filter(const std::string& pattern) {
    auto expression = std::make_unique<regex_t>();
    if (int code = regcomp(expression.get(), pattern.c_str(), REG_EXTENDED | REG_NOSUB); code != 0) {
        char why[256];
        regerror(code, expression.get(), why, sizeof why);
        throw UsageError("--filter '" + pattern + "' is not a regular expression: " + why);
    }
    std::shared_ptr<regex_t> compiled(expression.release(), [](regex_t* re) {
        regfree(re);
        delete re;
    });
    return [compiled](const std::string& name) {
        return regexec(compiled.get(), name.c_str(), 0, nullptr, 0) == 0;
    };
}

}  // namespace

std::function<int()> register_compare(CLI::App& app) {
    struct Options {
        std::string base, next, threshold = "2%", fail_above, metric = "real_time", filter, html;
        double alpha = 0.05;
        bool json = false, markdown = false;
    };
    auto options = std::make_shared<Options>();
    CLI::App* command = app.add_subcommand(
        "compare",
        "Compare two benchmark result files (Google Benchmark JSON): ratio, significance, verdict");
    command->add_option("base", options->base, "Results of the baseline run")->required();
    command->add_option("new", options->next, "Results of the run to judge")->required();
    command->add_option("--threshold", options->threshold,
                        "Smallest difference that matters, in percent (default 2%)");
    command->add_option("--fail-above", options->fail_above,
                        "Exit 1 when a benchmark is significantly slower by more than this percentage");
    command
        ->add_option("--alpha", options->alpha,
                     "Significance level of the Mann-Whitney U test (default 0.05)")
        ->check(CLI::Range(1e-6, 0.5));
    command->add_option("--metric", options->metric, "Which time to compare: real_time (default) or cpu_time")
        ->check(CLI::IsMember({"real_time", "cpu_time"}));
    command->add_option("--filter", options->filter,
                        "Compare only benchmarks whose name matches this regular expression (POSIX ERE)");
    auto* json = command->add_flag("--json", options->json, "Print the comparison as JSON");
    command->add_flag("--markdown", options->markdown, "Print the table as Markdown")->excludes(json);
    add_html_option(*command, options->html);

    return [options]() {
        if (!options->html.empty()) prepare_output_file(options->html);
        bench::ComparisonOptions settings;
        settings.threshold = parse_percent(options->threshold, "--threshold");
        settings.alpha = options->alpha;
        if (!options->fail_above.empty())
            settings.fail_above = parse_percent(options->fail_above, "--fail-above");
        if (!options->filter.empty()) settings.include = name_filter(options->filter);
        auto metric =
            options->metric == "cpu_time" ? bench::TimeMetric::cpu_time : bench::TimeMetric::real_time;
        bench::ResultsFile base = bench::read_results_file(options->base, metric);
        bench::ResultsFile next = bench::read_results_file(options->next, metric);
        bench::Comparison result = bench::compare_results(base, next, settings);
        if (!options->html.empty())
            write_file_atomically(
                options->html,
                fleet::render_comparison_html({{"BASE", "NEW", &base, &next, &result}}, options->metric));
        if (options->json) {
            std::cout << command_document(comparison_json(result, options->metric), "compare",
                                          result.gate_tripped ? 1 : 0);
            for (const auto& warning : result.warnings) std::cerr << "strata: warning: " << warning << "\n";
        } else {
            print_comparison(result, options->markdown);
        }
        return result.gate_tripped ? 1 : 0;
    };
}

}  // namespace strata::cli
