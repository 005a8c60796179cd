// strata explain "ERROR TEXT" | strata explain < log | strata explain --evaluate FILE.jsonl
#include <fstream>
#include <iostream>
#include <iterator>
#include <regex>
#include <sstream>

#include "cli/commands.h"
#include "cli/run_options.h"
#include "explain/explain.h"
#include "model/usage_error.h"
#include "probes/probes.h"
#include "strata/arch/tables.h"

namespace strata::cli {

namespace {

std::string read_all(std::istream& in) {
    return {std::istreambuf_iterator<char>(in), {}};
}

const char* state_word(CauseState state) {
    switch (state) {
        case CauseState::holds: return "HOLDS";
        case CauseState::ruled_out: return "no";
        case CauseState::unknown: return "unknown";
    }
    return "unknown";
}

Json explanation_json(const Classification& found, const std::vector<CauseVerdict>& verdicts) {
    Json out = Json::object();
    out["failure_class"] = found.failure_class;
    out["layer"] = std::string(layer_name(found.rule->layer));
    out["title"] = found.rule->title;
    out["matched"] = found.matched;
    Json causes = Json::array();
    for (const CauseVerdict& verdict : verdicts)
        causes.push_back({{"cause", verdict.cause->text},
                          {"check", verdict.cause->check_id},
                          {"state", state_word(verdict.state)},
                          {"evidence", verdict.evidence}});
    out["causes"] = causes;
    out["manual_checks"] = found.rule->manual_checks;
    return out;
}

void print_explanation(const Classification& found, const std::vector<CauseVerdict>& verdicts) {
    std::cout << "layer at fault: " << layer_name(found.rule->layer) << " (" << found.failure_class << ")\n"
              << "what it means:  " << found.rule->title << "\n"
              << "recognised by:  \"" << found.matched << "\"\n";
    if (!verdicts.empty()) std::cout << "\nlikely causes, checked on this machine:\n";
    for (const CauseVerdict& verdict : verdicts)
        std::cout << "  " << state_word(verdict.state)
                  << std::string(9 - std::string(state_word(verdict.state)).size(), ' ')
                  << verdict.cause->text << "\n           " << verdict.evidence << "\n";
    if (!found.rule->manual_checks.empty()) std::cout << "\nto look further:\n";
    for (const std::string& check : found.rule->manual_checks) std::cout << "  $ " << check << "\n";
}

// "sm_120", "compute capability 12.0", "capability 8.6": each CC an error
// message names, once.
std::vector<uint32_t> compute_capabilities_named(const std::string& text) {
    static const std::regex pattern(R"((?:capability|CC)[ :]+(sm_\d+|\d+\.\d))", std::regex::icase);
    std::vector<uint32_t> out;
    std::string capped = text.substr(0, 1 << 16);
    for (auto it = std::sregex_iterator(capped.begin(), capped.end(), pattern); it != std::sregex_iterator();
         ++it)
        if (auto sm = arch::parse_compute_capability((*it)[1].str()))
            if (std::find(out.begin(), out.end(), *sm) == out.end()) out.push_back(*sm);
    return out;
}

// Classifies each record's error_text and compares with its root_layer.
int evaluate(const std::string& path) {
    std::ifstream in(path);
    if (!in) throw UsageError("cannot read '" + path + "'");
    size_t total = 0, right = 0, line_number = 0;
    std::string line;
    while (std::getline(in, line)) {
        ++line_number;
        if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
        Json record = Json::parse(line, nullptr, false);
        if (record.is_discarded() || !record.is_object() || !record.contains("error_text") ||
            !record["error_text"].is_string() || !record.contains("root_layer") ||
            !record["root_layer"].is_string())
            throw UsageError(path + ":" + std::to_string(line_number) +
                             ": not a JSON object with string error_text and root_layer");
        bool container = record.value("container", false) == true;
        Classification found = classify_error(record["error_text"].get<std::string>(), container);
        std::string want = record["root_layer"].get<std::string>();
        ++total;
        if (found.failure_class == want) {
            ++right;
            continue;
        }
        std::cout << "miss " << record.value("id", "line " + std::to_string(line_number)) << ": expected "
                  << want << ", got " << (found.rule ? found.failure_class : std::string("no match")) << "\n";
    }
    if (total == 0) throw UsageError(path + " holds no records");
    std::printf("%zu/%zu classified to their root layer (%.1f%%)\n", right, total, 100.0 * right / total);
    return 0;
}

}  // namespace

std::function<int()> register_explain(CLI::App& app, const std::string& executable) {
    struct Options {
        std::vector<std::string> words;
        EnvironmentOptions environments;
        std::string evaluate;
        bool json = false, no_probe = false;
        std::string container = "auto";
    };
    auto options = std::make_shared<Options>();
    CLI::App* command = app.add_subcommand(
        "explain",
        "Explain a CUDA error message: the layer at fault, the likely causes, and which holds here");
    command->add_option("text", options->words,
                        "The error text (read from standard input when absent or '-')");
    command->add_flag("--json", options->json, "Print the explanation as JSON");
    command->add_flag("--no-probe", options->no_probe, "Classify only; do not check this machine");
    command
        ->add_option("--container", options->container,
                     "Whether the error happened in a container: yes, no, or auto (this machine)")
        ->check(CLI::IsMember({"auto", "yes", "no"}));
    add_environment_options(*command, options->environments);
    command->add_option("--evaluate", options->evaluate,
                        "Classify every record of a failure-reports JSONL file and print the fraction right");

    return [options, executable]() {
        if (!options->evaluate.empty()) return evaluate(options->evaluate);
        std::string text;
        if (options->words.empty() || (options->words.size() == 1 && options->words[0] == "-")) {
            text = read_all(std::cin);
        } else {
            for (const std::string& word : options->words) text += (text.empty() ? "" : " ") + word;
        }
        if (text.find_first_not_of(" \t\r\n") == std::string::npos)
            throw UsageError("no error text given (pass it as an argument or on standard input)");
        Report machine;
        if (!options->no_probe) {
            RunOptions run = make_run_options(PluginOptions{}, options->environments, executable);
            // With no GPU here, the frameworks are judged for the GPU the
            // message names ("... with CUDA capability sm_120 is not compatible").
            run.frameworks.sms_without_gpu = compute_capabilities_named(text);
            machine = run_environment(run, ProbeContext::live());
        }
        bool in_container = options->container == "yes" ||
                            (options->container == "auto" && machine.find_fact("container.detected") &&
                             machine.find_fact("container.detected")->value == true);
        Classification found = classify_error(text, in_container);
        if (!found.rule) {
            if (options->json)
                std::cout << to_json_text(Json{{"failure_class", nullptr}, {"matched", nullptr}}, 2) << '\n';
            else
                std::cout << "no rule recognises this text; `strata doctor` checks every layer anyway\n";
            return 1;
        }
        auto verdicts =
            options->no_probe ? std::vector<CauseVerdict>{} : evaluate_causes(*found.rule, machine);
        if (options->json)
            std::cout << to_json_text(explanation_json(found, verdicts), 2) << '\n';
        else
            print_explanation(found, verdicts);
        return 0;
    };
}

}  // namespace strata::cli
