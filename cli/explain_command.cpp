// strata explain "ERROR TEXT" | strata explain < log | strata explain --evaluate FILE.jsonl...
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iostream>

#include "cli/commands.h"
#include "cli/run_options.h"
#include "explain/assessment.h"
#include "explain/explain.h"
#include "explain/explain_context.h"
#include "explain/text_lines.h"
#include "model/untrusted_input.h"
#include "model/usage_error.h"
#include "probes/probe_context.h"
#include "probes/probes.h"
#include "strata/arch/tables.h"

namespace strata::cli {

namespace {

// The JSON document's version: docs/explain.schema.json describes it.
constexpr const char* kExplainSchemaVersion = "1.1.0";
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

Json assessment_json(const Assessment& assessment) {
    Json out = {{"confidence", std::string(confidence_name(assessment.confidence))},
                {"answered", assessment.answered()},
                {"program_error", assessment.program_error},
                {"confidence_reasons", assessment.reasons}};
    Json candidates = Json::array();
    for (const Candidate& c : assessment.candidates)
        candidates.push_back(
            {{"failure_class", c.failure_class}, {"why", c.why}, {"tell_apart", c.tell_apart}});
    out["candidates"] = candidates;
    Json similar = Json::array();
    for (const SimilarReport& s : assessment.similar)
        similar.push_back({{"id", s.report->id},
                           {"source", s.report->source},
                           {"failure_class", s.report->failure_class},
                           {"cause", s.report->cause},
                           {"fix", s.report->fix},
                           {"score", std::round(s.score * 10) / 10}});
    out["similar_reports"] = similar;
    return out;
}

Json explanation_json(const Explanation& explanation, const Assessment& assessment,
                      const FailureClass* failure_class, const std::vector<CauseVerdict>& verdicts,
                      bool probed) {
    Json out = {{"schema_version", kExplainSchemaVersion}, {"command", "explain"}};
    out["recognised"] = explanation.cause.has_value();
    out["lines"] = explanation.lines;
    out.update(assessment_json(assessment));
    if (explanation.cause && assessment.answered()) {
        const Finding& cause = *explanation.cause;
        out["failure_class"] = cause.failure_class;
        out["layer"] = std::string(layer_name(cause.layer));
        out["title"] = failure_class ? std::string(failure_class->title) : std::string();
    } else {
        out["failure_class"] = nullptr;
        out["layer"] = nullptr;
    }
    if (explanation.cause) {
        out["decided_by"] = finding_json(*explanation.cause);
    } else {
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

void print_similar(const Assessment& assessment) {
    if (assessment.similar.empty()) return;
    std::cout << "\nreports like this one, solved before:\n";
    for (const SimilarReport& s : assessment.similar)
        std::cout << "  " << printable_excerpt(s.report->source, "") << " (" << s.report->failure_class
                  << ")\n    " << printable_excerpt(s.report->cause, "") << "\n";
}

void print_candidates(const std::vector<Candidate>& candidates, size_t from) {
    for (size_t i = from; i < candidates.size(); ++i) {
        const Candidate& c = candidates[i];
        std::cout << "  " << (i - from + 1) << ". " << c.failure_class << ": " << printable_excerpt(c.why, "")
                  << "\n";
        if (!c.tell_apart.empty()) std::cout << "     tell apart: " << c.tell_apart << "\n";
    }
}

void print_explanation(const Explanation& explanation, const Assessment& assessment,
                       const FailureClass* failure_class, const std::vector<CauseVerdict>& verdicts) {
    if (!explanation.cause && assessment.candidates.empty()) {
        std::cout << "strata does not recognise a CUDA-stack failure in this text (" << explanation.lines
                  << " line(s) read).\nTo find the layer, collect and look at:\n";
        for (std::string_view item : what_to_collect()) std::cout << "  - " << item << "\n";
        return;
    }
    std::string why = assessment.reasons.empty() ? std::string() : " (" + assessment.reasons.front() + ")";
    if (!assessment.answered()) {
        std::cout << "strata cannot tell from this text alone which cause it is: confidence low" << why
                  << ".\n";
        if (explanation.cause)
            std::cout << "deciding line:  line " << explanation.cause->line << ": "
                      << explanation.cause->line_text << "\n                " << explanation.cause->meaning
                      << "\n";
        std::cout << "\nthe candidates, most likely first:\n";
        print_candidates(assessment.candidates, 0);
        print_similar(assessment);
        return;
    }
    const Finding& cause = *explanation.cause;
    std::cout << "layer at fault: " << layer_name(cause.layer) << " (" << cause.failure_class << ")\n";
    if (failure_class) std::cout << "what it means:  " << failure_class->title << "\n";
    if (assessment.program_error)
        std::cout << "                your program's own error, not the CUDA stack: run it under "
                     "compute-sanitizer, "
                     "or with CUDA_LAUNCH_BLOCKING=1\n";
    std::cout << "confidence:     " << confidence_name(assessment.confidence) << why << "\n";
    std::cout << "decided by:     line " << cause.line << ": " << cause.line_text << "\n"
              << "                " << cause.meaning << "\n"
              << "                (message from " << cause.source << ")\n";
    if (assessment.candidates.size() > 1) {
        std::cout << "\nother causes these words follow:\n";
        print_candidates(assessment.candidates, 1);
    }
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
    for (const Candidate& c : assessment.candidates) shown.push_back(c.failure_class);
    bool header = false;
    for (const Finding& f : explanation.findings) {
        if (std::find(shown.begin(), shown.end(), f.failure_class) != shown.end() || shown.size() > 6)
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
    print_similar(assessment);
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

// The three numbers a diagnosis tool is judged by: answers that are right,
// no answer but candidates (and whether the cause is among them), and
// answers that are confidently wrong - worse than no answer.
struct Score {
    size_t total = 0, right = 0, candidates = 0, cause_among_candidates = 0, wrong = 0, rules_right = 0;
    void add(const Score& other) {
        total += other.total, right += other.right, candidates += other.candidates;
        cause_among_candidates += other.cause_among_candidates, wrong += other.wrong;
        rules_right += other.rules_right;
    }
};

// Classifies each record's error_text and compares with its root_layer, as
// `strata explain` would answer it: with the record's container flag as the
// context, and never finding the record itself among the similar reports.
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
        const std::string text = record["error_text"].get<std::string>();
        Explanation found = explain_text(text, container);
        AssessmentContext context;
        context.in_container = container;
        if (record.contains("source") && record["source"].is_string())
            context.excluded_source = record["source"].get<std::string>();
        Assessment assessment = assess(found, text, context);
        std::string want = record["root_layer"].get<std::string>();
        ++score.total;
        if (found.cause && found.cause->failure_class == want) ++score.rules_right;
        std::string outcome;
        if (assessment.answered() && assessment.candidates.front().failure_class == want) {
            ++score.right;
            continue;
        }
        if (assessment.answered()) {
            ++score.wrong;
            outcome = "answered " + assessment.candidates.front().failure_class;
        } else {
            ++score.candidates;
            bool among = std::any_of(assessment.candidates.begin(), assessment.candidates.end(),
                                     [&](const Candidate& c) { return c.failure_class == want; });
            if (among) ++score.cause_among_candidates;
            outcome = std::string("candidates ") + (among ? "holding it" : "without it");
        }
        if (!quiet)
            std::cout << (assessment.answered() ? "wrong " : "unsure ") << printable_excerpt(id, "")
                      << ": expected " << printable_excerpt(want, "") << ", " << outcome << "\n";
    }
    if (score.total == 0) throw UsageError(path + " holds no records");
    return score;
}

std::string percent(size_t part, size_t whole) {
    char text[16];
    std::snprintf(text, sizeof text, "%.1f%%", whole ? 100.0 * part / whole : 0.0);
    return text;
}

// "FILE: 29/32 right (90.6%), 2 unanswered with candidates (2 hold the cause), 1 confidently wrong (3.1%)"
void print_score(const std::string& label, const Score& score) {
    std::cout << label << ": " << score.right << "/" << score.total << " right ("
              << percent(score.right, score.total) << "), " << score.candidates
              << " unanswered with candidates (" << score.cause_among_candidates << " hold the cause), "
              << score.wrong << " confidently wrong (" << percent(score.wrong, score.total)
              << "); the rules alone classify " << score.rules_right << "\n";
}

int evaluate(const std::vector<std::string>& paths, bool quiet) {
    Score all;
    for (const std::string& path : paths) {
        Score score = evaluate_file(path, quiet);
        print_score(path, score);
        all.add(score);
    }
    if (paths.size() > 1) print_score("all", all);
    return 0;
}

// Whether the driver runs the CUDA release the program needs: the one test
// --driver and --cuda (or a record's driver) decide without the text.
void test_driver_against_runtime(const std::string& driver_text, const std::string& cuda_text,
                                 Assessment& assessment) {
    auto driver = arch::parse_driver_version(driver_text);
    if (!driver) throw UsageError("--driver " + driver_text + ": not a driver version like 580.65.06");
    auto dot = cuda_text.find('.');
    uint32_t major = 0, minor = 0;
    try {
        major = static_cast<uint32_t>(std::stoul(cuda_text.substr(0, dot)));
        if (dot != std::string::npos) minor = static_cast<uint32_t>(std::stoul(cuda_text.substr(dot + 1)));
    } catch (const std::exception&) {
        throw UsageError("--cuda " + cuda_text + ": not a CUDA release like 12.4");
    }
    arch::CudaVersion needed{major, minor};
    auto supported = arch::cuda_supported_by_driver(*driver);
    bool too_old = !supported || *supported < needed;
    std::string fact = "driver " + driver->text + " runs CUDA up to " +
                       (supported ? supported->text() : std::string("none strata knows")) + "; CUDA " +
                       needed.text() + " is needed";
    auto it =
        std::find_if(assessment.candidates.begin(), assessment.candidates.end(),
                     [](const Candidate& c) { return c.failure_class == "driver_too_old_for_runtime"; });
    if (too_old) {
        if (it == assessment.candidates.end())
            assessment.candidates.insert(assessment.candidates.begin(),
                                         {"driver_too_old_for_runtime", fact, "nvidia-smi"});
        else
            std::rotate(assessment.candidates.begin(), it, it + 1);
        if (assessment.confidence == Confidence::low) assessment.confidence = Confidence::medium;
        assessment.reasons.insert(assessment.reasons.begin(), "the context settles it: " + fact);
    } else if (it != assessment.candidates.end()) {
        bool was_answer = it == assessment.candidates.begin();
        assessment.candidates.erase(it);
        assessment.reasons.insert(assessment.reasons.begin(), "ruled out by the context: " + fact);
        if (was_answer) assessment.confidence = Confidence::low;
    }
}

}  // namespace

std::function<int()> register_explain(CLI::App& app, const std::string& executable) {
    struct Options {
        std::vector<std::string> words;
        EnvironmentOptions environments;
        std::vector<std::string> evaluate;
        bool json = false, no_probe = false, quiet = false;
        std::string container = "auto";
        std::string record, driver, cuda;
        std::vector<std::string> compute_capabilities;
    };
    auto options = std::make_shared<Options>();
    CLI::App* command =
        app.add_subcommand("explain",
                           "Explain a CUDA error message or a whole log: the layer at fault, "
                           "how sure strata is, the line that decides it, what it means, "
                           "similar reports solved before, and which likely cause holds on the "
                           "machine");
    command->add_option(
        "text", options->words,
        "The error text (read from standard input when absent or '-'; of a log longer than 8 MiB, its first "
        "2 MiB and last 6 MiB)");
    command->add_flag("--json", options->json, "Print the explanation as JSON (docs/explain.schema.json)");
    command->add_flag("--no-probe", options->no_probe, "Classify only; do not check this machine");
    command
        ->add_option("--container", options->container,
                     "Whether the error happened in a container: yes, no, or auto (what the log or --record "
                     "says; never this machine)")
        ->check(CLI::IsMember({"auto", "yes", "no"}));
    command->add_option("--record", options->record,
                        "A `strata record` or `doctor --json` file from the machine the error came from: its "
                        "checks are the causes checked, instead of this machine's");
    command->add_option(
        "--driver", options->driver,
        "The driver of the machine the error came from (580.65.06); with --cuda, decides whether "
        "the driver is too old");
    command->add_option("--cuda", options->cuda, "The CUDA release the failing program needs (12.4)");
    command->add_option(
        "--cc,--gpu", options->compute_capabilities,
        "The compute capability of the GPU the error came from (9.0, sm_90): installed frameworks "
        "are judged for it");
    add_environment_options(*command, options->environments);
    command
        ->add_option(
            "--evaluate", options->evaluate,
            "Score every record of failure-reports JSONL files (error_text, root_layer, container): right, "
            "unanswered with candidates, and confidently wrong, per file")
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
        if (!options->cuda.empty() && options->driver.empty() && options->record.empty())
            throw UsageError("--cuda needs --driver (or a --record that holds the driver)");
        std::vector<uint32_t> sms = compute_capabilities_named(text);
        for (const std::string& word : options->compute_capabilities) {
            auto sm = arch::parse_compute_capability(word);
            if (!sm) throw UsageError("--cc " + word + ": not a compute capability like 9.0 or sm_90");
            sms.push_back(*sm);
        }
        // The machine whose causes are checked: the record's, or this one.
        Report machine;
        bool checked = false;
        std::string checked_where = "this machine";
        if (!options->record.empty()) {
            Json document =
                parse_json_input(read_input_file(options->record, kMaxEvaluationFile), options->record);
            machine = machine_from_document(document, options->record);
            checked = true;
            checked_where = options->record;
        } else if (!options->no_probe) {
            RunOptions run = make_run_options(PluginOptions{}, options->environments, executable);
            // With no GPU here, the frameworks are judged for the GPU the
            // message (or --cc) names ("... with CUDA capability sm_120 is not compatible").
            run.frameworks.sms_without_gpu = sms;
            machine = run_environment(run, ProbeContext::live());
            checked = true;
        }
        // Whether the error came from a container: the flag, the log, the
        // record - never this machine, which may not be the one that failed.
        std::optional<bool> in_container;
        if (options->container != "auto") in_container = options->container == "yes";
        if (!in_container) in_container = log_says_container(text);
        const Fact* recorded = options->record.empty() ? nullptr : machine.find_fact("container.detected");
        if (!in_container && recorded && recorded->value.is_boolean())
            in_container = recorded->value.get<bool>();
        const Fact* here = machine.find_fact("container.detected");
        bool here_in_container = options->record.empty() && here && here->value == true;

        Explanation explanation = explain_text(text, in_container.value_or(false));
        number_as_in_stream(explanation, excerpt);
        AssessmentContext context;
        context.in_container = in_container;
        Assessment assessment = assess(explanation, text, context);
        std::string driver = options->driver;
        if (driver.empty() && !options->record.empty())
            if (const Fact* fact = machine.find_fact("driver.kernel_module.version");
                fact && fact->value.is_string())
                driver = fact->value.get<std::string>();
        if (!options->cuda.empty() && !driver.empty())
            test_driver_against_runtime(driver, options->cuda, assessment);
        else if (!options->cuda.empty())
            std::cerr << "strata: --cuda " << options->cuda << " was not tested: " << options->record
                      << " holds no driver version (driver.kernel_module.version); pass --driver\n";
        if (here_in_container && !in_container)
            std::cerr
                << "strata: this machine is a container, but the text does not say it came from one: it is "
                   "read as from a host (say --container yes if it came from a container)\n";

        const std::string answer = assessment.answered() ? assessment.candidates.front().failure_class : "";
        const FailureClass* failure_class = answer.empty() ? nullptr : find_failure_class(answer);
        std::vector<CauseVerdict> verdicts;
        if (failure_class && checked) verdicts = evaluate_causes(*failure_class, machine);
        int status = explanation.cause || !assessment.candidates.empty() ? 0 : 1;
        if (options->json) {
            Json document = explanation_json(explanation, assessment, failure_class, verdicts, checked);
            if (!answer.empty() && explanation.cause && answer != explanation.cause->failure_class)
                document["failure_class"] = answer;
            document["context"] = {{"container", in_container ? Json(*in_container) : Json(nullptr)},
                                   {"causes_checked_on", checked ? checked_where : std::string()}};
            std::cout << command_document(document, "explain", status);
        } else {
            print_explanation(explanation, assessment, failure_class, verdicts);
        }
        return status;
    };
}

}  // namespace strata::cli
