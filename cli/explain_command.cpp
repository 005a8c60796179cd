// strata explain "ERROR TEXT" | strata explain < log | strata explain --evaluate FILE.jsonl...
#include <cstdio>
#include <iostream>

#include "cli/commands.h"
#include "cli/run_options.h"
#include "explain/explain.h"
#include "explain/text_lines.h"
#include "model/untrusted_input.h"
#include "model/usage_error.h"
#include "probes/probe_context.h"
#include "probes/probes.h"
#include "strata/arch/tables.h"

namespace strata::cli {

namespace {

// The JSON document's version: docs/explain.schema.json describes it.
constexpr const char* kExplainSchemaVersion = "1.0.0";
// A log on standard input may be of any length (an NCCL_DEBUG=INFO run from
// many ranks, a journal): its first 2 MiB and last 6 MiB are read, where the
// first error and the final one are, in bounded memory. Reading stops after
// 1 GiB, so endless input (`< /dev/zero`) ends.
constexpr size_t kInputHead = 2u << 20;
constexpr size_t kInputTail = 6u << 20;
constexpr size_t kInputScanLimit = size_t{1} << 30;

std::string mib_text(size_t bytes) {
    char text[32];
    std::snprintf(text, sizeof text, "%.1f MiB", static_cast<double>(bytes) / (1u << 20));
    return text;
}

// Standard input's text, saying on stderr when only its ends were read.
StreamExcerpt read_standard_input() {
    StreamExcerpt excerpt = read_head_and_tail(std::cin, kInputHead, kInputTail, kInputScanLimit);
    const std::string head = std::to_string(kInputHead >> 20) + " MiB";
    const std::string tail = std::to_string(kInputTail >> 20) + " MiB";
    if (excerpt.scan_cut)
        std::cerr << "strata: standard input went on past " << mib_text(kInputScanLimit)
                  << "; read its first " << head << " and the last " << tail << " before that point\n";
    else if (excerpt.lines_skipped)
        std::cerr << "strata: standard input is " << mib_text(excerpt.bytes_read) << "; read its first "
                  << head << " and last " << tail << " (whole lines; the lines between were skipped)\n";
    return excerpt;
}

// Findings name the lines of the excerpt; name them as the log numbers them,
// and count the lines as the log has them (its last line read is the excerpt's).
void number_as_in_stream(Explanation& explanation, const StreamExcerpt& excerpt) {
    explanation.lines = excerpt.line_in_stream(explanation.lines);
    if (explanation.cause) explanation.cause->line = excerpt.line_in_stream(explanation.cause->line);
    for (Finding& finding : explanation.findings) finding.line = excerpt.line_in_stream(finding.line);
}

// An evaluation file holds many reports; still bounded.
constexpr size_t kMaxEvaluationFile = 64u << 20;

const char* state_word(CauseState state) {
    switch (state) {
        case CauseState::holds: return "HOLDS";
        case CauseState::ruled_out: return "no";
        case CauseState::unknown: return "unknown";
    }
    return "unknown";
}

Json finding_json(const Finding& f) {
    Json out = {{"kind", f.kind},
                {"id", f.id},
                {"failure_class", f.failure_class},
                {"layer", std::string(layer_name(f.layer))},
                {"specificity", f.specificity},
                {"line", f.line},
                {"text", f.line_text},
                {"matched", f.matched},
                {"meaning", f.meaning},
                {"source", f.source}};
    return out;
}

Json explanation_json(const Explanation& explanation, const FailureClass* failure_class,
                      const std::vector<CauseVerdict>& verdicts, bool probed) {
    Json out = {{"schema_version", kExplainSchemaVersion}, {"command", "explain"}};
    out["recognised"] = explanation.cause.has_value();
    out["lines"] = explanation.lines;
    if (explanation.cause) {
        const Finding& cause = *explanation.cause;
        out["failure_class"] = cause.failure_class;
        out["layer"] = std::string(layer_name(cause.layer));
        out["title"] = failure_class ? std::string(failure_class->title) : std::string();
        out["decided_by"] = finding_json(cause);
    } else {
        out["failure_class"] = nullptr;
        out["layer"] = nullptr;
        out["collect"] = Json::array();
        for (std::string_view item : what_to_collect()) out["collect"].push_back(std::string(item));
    }
    Json codes = Json::array();
    for (const StatusCode* code : explanation.codes)
        codes.push_back({{"type", std::string(code->type)},
                         {"name", std::string(code->name)},
                         {"number", code->number},
                         {"description", std::string(code->description)},
                         {"printed", std::string(code->printed)},
                         {"failure_class", std::string(code->failure_class)},
                         {"layer", std::string(layer_name(code->layer))},
                         {"source", std::string(code->source)}});
    out["status_codes"] = codes;
    Json xids = Json::array();
    for (const XidEvent& xid : explanation.xids) {
        Json entry = {{"number", xid.number}, {"pci", xid.pci}};
        if (xid.info) {
            entry["meaning"] = std::string(xid.info->meaning);
            entry["points_at"] = std::string(xid_origin_name(xid.info->points_at));
            entry["action"] = std::string(xid.info->action);
        }
        xids.push_back(entry);
    }
    out["xids"] = xids;
    Json findings = Json::array();
    for (const Finding& f : explanation.findings)
        if (findings.size() < 20) findings.push_back(finding_json(f));
    out["findings"] = findings;
    if (failure_class) {
        Json causes = Json::array();
        for (const CauseVerdict& verdict : verdicts)
            causes.push_back({{"cause", std::string(verdict.cause->text)},
                              {"check", std::string(verdict.cause->check_id)},
                              {"state", state_word(verdict.state)},
                              {"evidence", verdict.evidence}});
        out["causes"] = causes;
        out["causes_checked"] = probed;
        Json manual = Json::array();
        for (std::string_view check : failure_class->manual_checks) manual.push_back(std::string(check));
        out["manual_checks"] = manual;
    }
    return out;
}

void print_explanation(const Explanation& explanation, const FailureClass* failure_class,
                       const std::vector<CauseVerdict>& verdicts) {
    if (!explanation.cause) {
        std::cout << "strata does not recognise a CUDA-stack failure in this text (" << explanation.lines
                  << " line(s) read).\nTo find the layer, collect and look at:\n";
        for (std::string_view item : what_to_collect()) std::cout << "  - " << item << "\n";
        return;
    }
    const Finding& cause = *explanation.cause;
    std::cout << "layer at fault: " << layer_name(cause.layer) << " (" << cause.failure_class << ")\n";
    if (failure_class) std::cout << "what it means:  " << failure_class->title << "\n";
    std::cout << "decided by:     line " << cause.line << ": " << cause.line_text << "\n"
              << "                " << cause.meaning << "\n"
              << "                (message from " << cause.source << ")\n";
    if (!explanation.codes.empty()) std::cout << "\nstatus codes named:\n";
    for (const StatusCode* code : explanation.codes)
        std::cout << "  " << code->name << " (" << code->type << " " << code->number << ", "
                  << code->failure_class << "): "
                  << printable_excerpt(code->description.empty() ? code->printed : code->description, "")
                  << "\n";
    if (!explanation.xids.empty()) std::cout << "\nXid events:\n";
    for (const XidEvent& xid : explanation.xids)
        std::cout << "  Xid " << xid.number << (xid.pci.empty() ? "" : " on " + xid.pci) << ": "
                  << (xid.info ? std::string(xid.info->meaning) + " (points at " +
                                     std::string(xid_origin_name(xid.info->points_at)) + ")"
                               : std::string("not in strata's catalog"))
                  << "\n";
    // Other classes the log also shows, one line each, so a person sees what lost.
    std::vector<std::string> shown = {cause.failure_class};
    bool header = false;
    for (const Finding& f : explanation.findings) {
        if (std::find(shown.begin(), shown.end(), f.failure_class) != shown.end() || shown.size() > 3)
            continue;
        shown.push_back(f.failure_class);
        if (!header) std::cout << "\nalso seen (less specific):\n";
        header = true;
        std::cout << "  line " << f.line << ": " << f.failure_class << " - " << f.meaning << "\n";
    }
    if (!verdicts.empty()) std::cout << "\nlikely causes, checked on this machine:\n";
    for (const CauseVerdict& verdict : verdicts)
        std::cout << "  " << state_word(verdict.state)
                  << std::string(9 - std::string(state_word(verdict.state)).size(), ' ')
                  << verdict.cause->text << "\n           " << verdict.evidence << "\n";
    if (failure_class && !failure_class->manual_checks.empty()) std::cout << "\nto look further:\n";
    if (failure_class)
        for (std::string_view check : failure_class->manual_checks) std::cout << "  $ " << check << "\n";
}

// "sm_120", "compute capability 12.0", "capability 8.6": each CC an error
// message names, once, so the frameworks are judged for that GPU.
std::vector<uint32_t> compute_capabilities_named(const std::string& text) {
    std::vector<uint32_t> out;
    std::string lower = lower_ascii(text.substr(0, 1 << 16));
    for (std::string_view key : {"capability ", "capability: ", "cc "}) {
        for (size_t at = lower.find(key); at != std::string::npos; at = lower.find(key, at + 1)) {
            size_t start = at + key.size();
            size_t end = lower.find_first_not_of("sm_0123456789.", start);
            std::string word =
                lower.substr(start, end == std::string::npos ? std::string::npos : end - start);
            if (auto sm = arch::parse_compute_capability(word))
                if (std::find(out.begin(), out.end(), *sm) == out.end()) out.push_back(*sm);
        }
    }
    return out;
}

struct Score {
    size_t total = 0, right = 0, silent = 0;
};

// Classifies each record's error_text and compares with its root_layer.
Score evaluate_file(const std::string& path, bool quiet) {
    const std::string content = read_input_file(path, kMaxEvaluationFile);
    Score score;
    size_t line_number = 0;
    for (std::string_view line : text_lines(content)) {
        ++line_number;
        if (line.find_first_not_of(" \t") == std::string_view::npos) continue;
        Json record = try_parse_json_input(line).value_or(Json());
        if (!record.is_object() || !record.contains("error_text") || !record["error_text"].is_string() ||
            !record.contains("root_layer") || !record["root_layer"].is_string())
            throw UsageError(path + ":" + std::to_string(line_number) +
                             ": not a JSON object with string error_text and root_layer");
        std::string id = record.contains("id") && record["id"].is_string()
                             ? record["id"].get<std::string>()
                             : "line " + std::to_string(line_number);
        bool container = record.contains("container") && record["container"].is_boolean() &&
                         record["container"].get<bool>();
        Explanation found = explain_text(record["error_text"].get<std::string>(), container);
        std::string want = record["root_layer"].get<std::string>();
        ++score.total;
        if (!found.cause) ++score.silent;
        if (found.cause && found.cause->failure_class == want) {
            ++score.right;
            continue;
        }
        if (!quiet)
            std::cout << "miss " << printable_excerpt(id, "") << ": expected " << printable_excerpt(want, "")
                      << ", got " << (found.cause ? found.cause->failure_class : std::string("no answer"))
                      << "\n";
    }
    if (score.total == 0) throw UsageError(path + " holds no records");
    return score;
}

// "FILE: 40/47 classified to their root layer (85.1%), 0 without an answer"
void print_score(const std::string& label, const Score& score) {
    char percent[16];
    std::snprintf(percent, sizeof percent, "%.1f", 100.0 * score.right / score.total);
    std::cout << label << ": " << score.right << "/" << score.total << " classified to their root layer ("
              << percent << "%), " << score.silent << " without an answer\n";
}

int evaluate(const std::vector<std::string>& paths, bool quiet) {
    Score all;
    for (const std::string& path : paths) {
        Score score = evaluate_file(path, quiet);
        print_score(path, score);
        all.total += score.total;
        all.right += score.right;
        all.silent += score.silent;
    }
    if (paths.size() > 1) print_score("all", all);
    return 0;
}

}  // namespace

std::function<int()> register_explain(CLI::App& app, const std::string& executable) {
    struct Options {
        std::vector<std::string> words;
        EnvironmentOptions environments;
        std::vector<std::string> evaluate;
        bool json = false, no_probe = false, quiet = false;
        std::string container = "auto";
    };
    auto options = std::make_shared<Options>();
    CLI::App* command = app.add_subcommand("explain",
                                           "Explain a CUDA error message or a whole log: the layer at fault, "
                                           "the line that decides it, what it means, "
                                           "and which likely cause holds on this machine");
    command->add_option(
        "text", options->words,
        "The error text (read from standard input when absent or '-'; of a log longer than 8 MiB, its first "
        "2 MiB and last 6 MiB)");
    command->add_flag("--json", options->json, "Print the explanation as JSON (docs/explain.schema.json)");
    command->add_flag("--no-probe", options->no_probe, "Classify only; do not check this machine");
    command
        ->add_option("--container", options->container,
                     "Whether the error happened in a container: yes, no, or auto (this machine)")
        ->check(CLI::IsMember({"auto", "yes", "no"}));
    add_environment_options(*command, options->environments);
    command
        ->add_option(
            "--evaluate", options->evaluate,
            "Classify every record of failure-reports JSONL files (error_text, root_layer, container) and "
            "print the fraction right per file")
        ->expected(1, -1);
    command->add_flag("--quiet", options->quiet, "With --evaluate: print only the scores, not each miss");

    return [options, executable]() {
        if (!options->evaluate.empty()) return evaluate(options->evaluate, options->quiet);
        std::string text;
        StreamExcerpt excerpt;
        if (options->words.empty() || (options->words.size() == 1 && options->words[0] == "-")) {
            excerpt = read_standard_input();
            text = std::move(excerpt.text);
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
        Explanation explanation = explain_text(text, in_container);
        number_as_in_stream(explanation, excerpt);
        const FailureClass* failure_class =
            explanation.cause ? find_failure_class(explanation.cause->failure_class) : nullptr;
        std::vector<CauseVerdict> verdicts;
        if (failure_class && !options->no_probe) verdicts = evaluate_causes(*failure_class, machine);
        int status = explanation.cause ? 0 : 1;
        if (options->json)
            std::cout << command_document(
                explanation_json(explanation, failure_class, verdicts, !options->no_probe), "explain",
                status);
        else
            print_explanation(explanation, failure_class, verdicts);
        return status;
    };
}

}  // namespace strata::cli
