#include "explain/explain.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <unordered_map>
#include <unordered_set>

#include "explain/decider_context.h"
#include "explain/line_patterns.h"
#include "explain/loader_messages.h"
#include "explain/search_path_evidence.h"
#include "explain/signal.h"
#include "explain/text_lines.h"

namespace strata {

namespace {

// Codes whose words, inside a container, usually mean the GPU was not given
// to it rather than that the host lacks a driver.
bool means_not_exposed_in_container(std::string_view name) {
    static const std::unordered_set<std::string_view> names = {
        "cudaErrorNoDevice",
        "CUDA_ERROR_NO_DEVICE",
        "NVML_ERROR_DRIVER_NOT_LOADED",
        "NVML_ERROR_LIBRARY_NOT_FOUND",
        "NVML_ERROR_UNKNOWN",
        // The runtime mounts libnvidia-ptxjitcompiler only for the "compute"
        // driver capability (NVIDIA_DRIVER_CAPABILITIES).
        "cudaErrorJitCompilerNotFound",
        "CUDA_ERROR_JIT_COMPILER_NOT_FOUND",
    };
    return names.count(name) > 0;
}

// The printed texts of status codes, lower-cased, longest first so that a
// longer text wins over one it contains.
struct PrintedText {
    std::string lower;
    const StatusCode* code;
};
const std::vector<PrintedText>& printed_texts() {
    static const std::vector<PrintedText> texts = [] {
        std::vector<PrintedText> out;
        std::unordered_set<std::string> seen;
        for (const StatusCode& code : status_codes()) {
            // cuDNN and NVRTC print code names (a deprecated alias prints its
            // successor's): those are found as names, not as texts.
            bool identifier = code.printed.find(' ') == std::string_view::npos;
            if (code.printed.size() < 8 || identifier || code.failure_class == "success") continue;
            std::string lower = lower_ascii(code.printed);
            if (!seen.insert(lower + std::string(code.type)).second) continue;
            out.push_back({lower, &code});
            // People and wrappers drop the article: "PTX JIT compilation
            // failed" for "a PTX JIT compilation failed".
            for (std::string_view article : {"a ", "an ", "the "}) {
                if (!lower.starts_with(article) || lower.size() - article.size() < 20) continue;
                std::string bare = lower.substr(article.size());
                if (seen.insert(bare + std::string(code.type)).second) out.push_back({bare, &code});
            }
        }
        std::stable_sort(out.begin(), out.end(), [](const PrintedText& a, const PrintedText& b) {
            return a.lower.size() > b.lower.size();
        });
        return out;
    }();
    return texts;
}

// The CUDA-specific nouns of a bare CamelCase code (find_bare_runtime_code).
constexpr std::array<std::string_view, 8> kBareCodeNouns = {"Ptx", "Kernel", "Driver", "Device",
                                                            "ECC", "Nvlink", "Compat", "Jit"};
// The words a bare code number follows (find_code_numbers).
constexpr std::array<std::string_view, 4> kNumberKeywords = {"error", "code", "failure", "status"};

// Lower-case words without which a line names no status code, holds no code
// number and no Xid: every code name's first four letters (a name is found
// only whole), "error" for the wrappers' spellings (ERROR_…, Error…), the
// nouns of bare codes, the number keywords and "xid".
std::vector<std::string> code_words() {
    std::vector<std::string> out;
    std::unordered_set<std::string> seen;
    auto add = [&](std::string word) {
        if (seen.insert(word).second) out.push_back(std::move(word));
    };
    for (const StatusCode& code : status_codes()) add(lower_ascii(code.name.substr(0, 4)));
    add("error");
    for (std::string_view noun : kBareCodeNouns) add(lower_ascii(noun));
    for (std::string_view keyword : kNumberKeywords) add(std::string(keyword));
    add("xid");
    return out;
}

// explain's own finders, by the index LinePatterns knows their words under.
enum Finder : size_t { code_finder, loader_finder, search_path_finder, context_finder, finder_count };

// Built once, and never destroyed: a process explains, then exits.
const LinePatterns& line_patterns() {
    static const LinePatterns* patterns = [] {
        std::vector<std::string> texts;
        for (const PrintedText& text : printed_texts()) texts.push_back(text.lower);
        static const std::vector<std::string> codes = code_words();
        std::vector<std::vector<std::string_view>> words(finder_count);
        words[code_finder].assign(codes.begin(), codes.end());
        words[loader_finder] = loader_message_words();
        words[search_path_finder] = SearchPathEvidence::words();
        words[context_finder] = DeciderContext::words();
        return new LinePatterns(all_signals(), texts, words);
    }();
    return *patterns;
}

bool is_specific(std::string_view failure_class) {
    return failure_class != "other";
}

Finding code_finding(const StatusCode& code, std::string_view kind, std::string matched, int specificity) {
    Finding f;
    f.kind = "status_code";
    f.id = std::string(code.name);
    f.failure_class = std::string(code.failure_class);
    f.layer = code.layer;
    f.specificity = specificity;
    f.matched = std::move(matched);
    std::string description(code.description.empty() ? code.printed : code.description);
    f.meaning = std::string(code.name) + " (" + std::string(code.type) + " " + std::to_string(code.number) +
                "): " + description;
    f.source = std::string(code.source) + (kind == "printed" ? ", as printed by the library" : "");
    f.code = &code;
    return f;
}

bool is_identifier_char(char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
}

// A name a wrapper prints for a CUDA code under its own spelling: CUDA.jl
// drops "CUDA_" ("code 221, ERROR_JIT_COMPILER_NOT_FOUND"), pynvml drops
// "NVML_" ("ERROR_GPU_IS_LOST"), ManagedCuda drops "cuda" ("ErrorInvalidPtx").
// `nvml_first` picks NVML's reading of an ERROR_ name both families have.
const StatusCode* find_respelled_code(std::string_view word, bool nvml_first) {
    if (word.starts_with("ERROR_")) {
        const StatusCode* cuda = find_status_code("CUDA_" + std::string(word));
        const StatusCode* nvml = find_status_code("NVML_" + std::string(word));
        return nvml_first ? (nvml ? nvml : cuda) : (cuda ? cuda : nvml);
    }
    if (word.size() > 5 && word.starts_with("Error") && std::isupper(static_cast<unsigned char>(word[5])))
        return find_status_code("cuda" + std::string(word));
    return nullptr;
}

// Rust's cust and other bindings print only the tail of cudaError_t's name
// ("Error: InvalidPtx"). A bare CamelCase word is read as a code only when
// it names a CUDA-specific thing (PTX, a kernel image, the driver, a device,
// ECC, NVLink, forward compatibility) and its class is specific: "NotReady"
// or "InvalidValue" alone say nothing about the stack.
const StatusCode* find_bare_runtime_code(std::string_view word) {
    if (!std::isupper(static_cast<unsigned char>(word.front()))) return nullptr;
    if (std::any_of(word.begin(), word.end(), [](char c) { return c == '_'; })) return nullptr;
    if (std::none_of(kBareCodeNouns.begin(), kBareCodeNouns.end(),
                     [&](std::string_view noun) { return word.find(noun) != std::string_view::npos; }))
        return nullptr;
    const StatusCode* code = find_status_code("cudaError" + std::string(word));
    return code && is_specific(code->failure_class) ? code : nullptr;
}

// Status codes named in the line: cudaErrorLaunchFailure, CUDA_ERROR_INVALID_PTX,
// CUBLAS_STATUS_NOT_INITIALIZED, ncclUnhandledCudaError, and the wrappers'
// spellings of them (find_respelled_code, find_bare_runtime_code).
void find_code_names(std::string_view line, std::string_view lower, std::vector<Finding>& out) {
    bool nvml_first =
        lower.find("nvml") != std::string_view::npos || lower.find("nvidia-smi") != std::string_view::npos;
    for (size_t i = 0; i < line.size();) {
        if (!is_identifier_char(line[i]) || (i > 0 && is_identifier_char(line[i - 1]))) {
            ++i;
            continue;
        }
        size_t end = i;
        while (end < line.size() && is_identifier_char(line[end])) ++end;
        std::string_view word = line.substr(i, end - i);
        i = end;
        if (word.size() < 8 || word.size() > 80) continue;
        int specificity = 80;
        const StatusCode* code = find_status_code(word);
        if (!code) code = find_respelled_code(word, nvml_first);
        if (!code && (code = find_bare_runtime_code(word))) specificity = 60;
        if (!code || code->failure_class == "success") continue;
        out.push_back(code_finding(*code, "name", std::string(word),
                                   is_specific(code->failure_class) ? specificity : 40));
    }
}

// The texts the libraries print for their codes ("no kernel image is available
// for execution on the device"). Short, generic texts ("unknown error") count
// only on a line that is about CUDA.
void find_printed_texts(std::string_view lower, const std::vector<size_t>& candidates,
                        std::vector<Finding>& out) {
    bool about_cuda =
        lower.find("cuda") != std::string_view::npos || lower.find("nccl") != std::string_view::npos ||
        lower.find("cublas") != std::string_view::npos || lower.find("cudnn") != std::string_view::npos;
    bool about_nvml =
        lower.find("nvml") != std::string_view::npos || lower.find("nvidia-smi") != std::string_view::npos;
    std::vector<std::pair<size_t, size_t>> taken;
    // Candidates ascend, and the texts are longest first: a longer text is
    // still taken before one it contains.
    for (size_t index : candidates) {
        const PrintedText& text = printed_texts()[index];
        if (text.code->family == StatusFamily::nvml ? !about_nvml : (text.lower.size() < 24 && !about_cuda))
            continue;
        size_t at = lower.find(text.lower);
        if (at == std::string_view::npos) continue;
        // A shorter text inside a longer one already found is the same words.
        bool inside = std::any_of(taken.begin(), taken.end(), [&](auto& span) {
            return at >= span.first && at + text.lower.size() <= span.second;
        });
        if (inside) continue;
        taken.emplace_back(at, at + text.lower.size());
        int specificity = is_specific(text.code->failure_class) ? 75 : (text.lower.size() >= 24 ? 35 : 25);
        out.push_back(code_finding(*text.code, "printed", std::string(text.code->printed), specificity));
    }
}

// Bare numbers: "CUDA error 999", "Error 804:", "code=222", "Cuda failure 1",
// "error #30". Small numbers collide with everything, so below 100 the line
// must be about CUDA.
void find_code_numbers(std::string_view line, std::string_view lower, std::vector<Finding>& out) {
    bool about_cuda = lower.find("cuda") != std::string_view::npos;
    for (std::string_view keyword : kNumberKeywords) {
        for (size_t at = lower.find(keyword); at != std::string_view::npos;
             at = lower.find(keyword, at + 1)) {
            size_t pos = at + keyword.size();
            size_t gap = 0;
            while (pos < lower.size() && gap < 3 &&
                   std::string_view(" =:#([").find(lower[pos]) != std::string_view::npos)
                ++pos, ++gap;
            size_t digits = pos;
            while (digits < lower.size() && digits - pos < 4 &&
                   std::isdigit(static_cast<unsigned char>(lower[digits])))
                ++digits;
            if (digits == pos) continue;
            if (digits < lower.size() && (std::isdigit(static_cast<unsigned char>(lower[digits])) ||
                                          lower[digits] == '.' || lower[digits] == 'x'))
                continue;
            int64_t number = std::stoll(std::string(lower.substr(pos, digits - pos)));
            if (number == 0 || (number < 100 && !about_cuda)) continue;
            const StatusCode* code = find_cuda_runtime_code(number);
            if (!code) continue;
            out.push_back(code_finding(*code, "number", std::string(line.substr(at, digits - at)),
                                       is_specific(code->failure_class) ? 65 : 30));
        }
    }
}

// Whether `lower` contains one of the '|'-separated words.
bool contains_any_word(std::string_view lower, std::string_view words) {
    while (!words.empty()) {
        size_t bar = words.find('|');
        if (lower.find(words.substr(0, bar)) != std::string_view::npos) return true;
        if (bar == std::string_view::npos) break;
        words.remove_prefix(bar + 1);
    }
    return false;
}

// `kept(id, specificity)`: whether a finding of that id at least that
// specific is already kept, so a later one on this line could not replace it
// (a signal's specificity is fixed: only its first line counts). Skipping
// those spares their regexes on a log that repeats its errors.
template <typename Kept>
void find_signals(std::string_view line, std::string_view lower, const std::vector<size_t>& candidates,
                  const Kept& kept, std::vector<Finding>& out) {
    const auto& signals = all_signals();
    for (size_t i : candidates) {
        const Signal& signal = signals[i];
        if (kept(signal.id, signal.specificity)) continue;
        size_t at = lower.find(signal.anchor);
        if (at == std::string_view::npos) continue;
        std::string matched(line.substr(at, signal.anchor.size()));
        if (signal.regex.substr(0, 4) == "any:") {
            if (!contains_any_word(lower, signal.regex.substr(4))) continue;
        } else if (!signal.regex.empty()) {
            auto match = line_patterns().regex_match(i, line);
            if (!match) continue;
            matched = std::string(*match);
        }
        Finding f;
        f.kind = "message";
        f.id = std::string(signal.id);
        f.failure_class = std::string(signal.failure_class);
        f.layer = signal.layer;
        f.specificity = signal.specificity;
        f.matched = matched;
        f.meaning = std::string(signal.meaning);
        f.source = std::string(signal.source);
        f.failure_class_in_container = std::string(signal.failure_class_in_container);
        out.push_back(std::move(f));
    }
}

void find_xid(std::string_view line, std::vector<Finding>& out, std::vector<XidEvent>& xids) {
    auto event = parse_xid(line);
    if (!event) return;
    xids.push_back(*event);
    Finding f;
    f.kind = "xid";
    f.id = "xid." + std::to_string(event->number);
    f.failure_class = "hardware_or_xid_fault";
    f.layer = Layer::device;
    f.matched = "Xid " + std::to_string(event->number);
    if (event->info) {
        f.specificity = event->info->points_at == XidOrigin::application ? 88 : 96;
        f.meaning = "Xid " + std::to_string(event->number) + ": " + std::string(event->info->meaning) +
                    " (points at " + std::string(xid_origin_name(event->info->points_at)) + "). " +
                    std::string(event->info->action);
    } else {
        f.specificity = 85;
        f.meaning = "Xid " + std::to_string(event->number) +
                    ": a driver-reported GPU event strata's catalog does not describe; look it up in "
                    "NVIDIA's Xid list";
    }
    f.source = "NVIDIA driver kernel log (NVRM: Xid); meanings from NVIDIA's Xid Errors document";
    f.xid = event;
    out.push_back(std::move(f));
}

// Applies the container variant of a finding's class.
void apply_container(Finding& f, bool in_container) {
    bool driver_words = (f.code && means_not_exposed_in_container(f.code->name)) ||
                        (f.kind == "loader" && f.failure_class == "driver_missing");
    if (f.failure_class_in_container.empty() && driver_words)
        f.failure_class_in_container = "container_device_not_exposed";
    if (!in_container || f.failure_class_in_container.empty()) return;
    f.failure_class = f.failure_class_in_container;
    f.layer = Layer::container;
    // A meaning that already says what the words mean in a container stands.
    if (f.meaning.find("container") == std::string::npos)
        f.meaning += " (inside a container: usually the GPU was not handed to it)";
}

// A library of another release than the one the program was built with, as
// opposed to one that is missing altogether.
bool is_version_mismatch(const Finding& f) {
    static const std::unordered_set<std::string_view> mismatch_ids = {
        "loader.cuda_symbol", "loader.symbol", "loader.link_time_reference", "loader.version_not_found",
        "jax.found_library_version"};
    if (f.failure_class == "nccl_or_cudnn_version_mismatch") return true;
    return f.failure_class == "missing_or_mismatched_shared_library" && mismatch_ids.count(f.id) > 0;
}

// The finding that says the mismatch came through LD_LIBRARY_PATH, ranked
// just above the mismatch it explains.
Finding search_path_finding(const Finding& mismatch, const std::string& entry,
                            const SearchPathEvidence& evidence) {
    Finding f;
    f.kind = "loader";
    f.id = "loader.search_path";
    f.failure_class = "wrong_library_via_LD_LIBRARY_PATH";
    f.layer = Layer::library;
    f.specificity = std::min(99, mismatch.specificity + 1);
    f.line = evidence.line_number();
    f.matched = entry;
    f.line_text = evidence.line_text();
    f.meaning = "LD_LIBRARY_PATH puts " + entry +
                " ahead of the CUDA libraries the program ships with, so the loader takes that release's "
                "copy: take the directory off LD_LIBRARY_PATH (or unset it) and run again";
    f.source = "the LD_LIBRARY_PATH value shown in the log, with the mismatch on line " +
               std::to_string(mismatch.line) + " (PyTorch's torch/backends/cudnn reasons the same way)";
    return f;
}

}  // namespace

Explanation explain_text(std::string_view text, bool in_container, LineSelection selection) {
    const LinePatterns& patterns = line_patterns();
    Explanation out;
    // By id, looked up by a view (a signal's id) without making a string.
    std::unordered_map<std::string, size_t, StringViewHash, std::equal_to<>> first_of_id;
    SearchPathEvidence search_path;
    DeciderContext context;
    size_t line_number = 0;
    // Where the next literal any finder looks for occurs: the lines before it
    // are skipped unread (most of a long log), unless a finder asked for the
    // line after its own.
    size_t next_literal = 0;
    bool next_literal_known = false;
    // Buffers reused from line to line.
    std::string lower;
    LinePatterns::Candidates candidates;
    std::vector<Finding> found;
    for (std::string_view line : text_lines(text)) {
        ++line_number;
        if (selection == LineSelection::with_literals && !search_path.wants_next_line()) {
            size_t start = static_cast<size_t>(line.data() - text.data());
            if (!next_literal_known || (next_literal != std::string_view::npos && next_literal < start)) {
                next_literal = patterns.next_literal(text, start);
                next_literal_known = true;
            }
            if (next_literal == std::string_view::npos || next_literal >= start + line.size()) continue;
        }
        if (line.find_first_not_of(" \t") == std::string_view::npos) continue;
        assign_lower_ascii(line, lower);
        if (selection == LineSelection::every_line)
            patterns.everything(candidates);
        else
            patterns.candidates(line, candidates);
        if (candidates.finders[search_path_finder] || search_path.wants_next_line())
            search_path.read(line, lower, line_number);
        if (candidates.finders[context_finder]) context.read(line, lower, line_number);
        auto kept = [&](std::string_view id, int specificity) {
            if (selection == LineSelection::every_line) return false;
            auto it = first_of_id.find(id);
            return it != first_of_id.end() && out.findings[it->second].specificity >= specificity;
        };
        found.clear();
        find_signals(line, lower, candidates.signals, kept, found);
        if (candidates.finders[code_finder]) find_code_names(line, lower, found);
        find_printed_texts(lower, candidates.texts, found);
        if (candidates.finders[code_finder]) {
            find_code_numbers(line, lower, found);
            find_xid(line, found, out.xids);
        }
        if (candidates.finders[loader_finder]) find_loader_messages(line, lower, found);
        for (Finding& f : found) {
            apply_container(f, in_container);
            // One finding per id, its first most specific occurrence: a log
            // that repeats a line a million times is one fact, and memory
            // stays bounded by the catalogs, not by the input.
            auto [it, fresh] = first_of_id.try_emplace(f.id, out.findings.size());
            if (!fresh && out.findings[it->second].specificity >= f.specificity) continue;
            f.line = line_number;
            f.line_text = printable_excerpt(line, f.matched);
            if (fresh)
                out.findings.push_back(std::move(f));
            else
                out.findings[it->second] = std::move(f);
        }
    }
    out.lines = line_number;
    out.shows_driver_version = context.shows_driver_version();
    auto ranks_before = [](const Finding& a, const Finding& b) {
        if (a.specificity != b.specificity) return a.specificity > b.specificity;
        return a.line < b.line;
    };
    // The finding that would decide, re-read in the light of what the log
    // shows beside it: a mismatch its own LD_LIBRARY_PATH explains, a driver
    // mismatch with cuda-compat's libcuda loaded, no device with
    // CUDA_VISIBLE_DEVICES hiding them.
    auto decider = std::min_element(out.findings.begin(), out.findings.end(), ranks_before);
    if (decider != out.findings.end()) {
        auto entry = search_path.conflicting_entry();
        if (entry && is_version_mismatch(*decider))
            out.findings.push_back(search_path_finding(*decider, *entry, search_path));
        else if (auto reread = context.reread(*decider))
            out.findings.push_back(std::move(*reread));
    }
    std::stable_sort(out.findings.begin(), out.findings.end(), ranks_before);
    for (const Finding& f : out.findings)
        if (f.code && std::find(out.codes.begin(), out.codes.end(), f.code) == out.codes.end())
            out.codes.push_back(f.code);
    if (!out.findings.empty()) out.cause = out.findings.front();
    return out;
}

std::vector<std::string> explain_pattern_errors() {
    return line_patterns().errors();
}

std::vector<CauseVerdict> evaluate_causes(const FailureClass& failure_class, const Report& machine) {
    std::vector<CauseVerdict> out;
    for (const ExplainCause& cause : failure_class.causes) {
        bool prefix = !cause.check_id.empty() && cause.check_id.back() == '.';
        const Check* worst = nullptr;
        for (const Check& check : machine.checks()) {
            bool match = prefix
                             ? std::string_view(check.id).substr(0, cause.check_id.size()) == cause.check_id
                             : check.id == cause.check_id;
            if (match && (!worst || severity(check.status) > severity(worst->status))) worst = &check;
        }
        if (!worst) {
            out.push_back({&cause, CauseState::unknown,
                           "no " + std::string(cause.check_id) + " check ran on this machine"});
            continue;
        }
        bool holds =
            std::find(cause.holds_on.begin(), cause.holds_on.end(), worst->status) != cause.holds_on.end();
        CauseState state = holds                           ? CauseState::holds
                           : worst->status == Status::pass ? CauseState::ruled_out
                                                           : CauseState::unknown;
        out.push_back({&cause, state, worst->id + ": " + worst->summary});
    }
    return out;
}

}  // namespace strata
