#include "explain/line_patterns.h"

#include <re2/re2.h>
#include <re2/set.h>

#include <algorithm>
#include <array>
#include <mutex>

namespace strata {

namespace {

// Bytes are characters (Latin-1), so no input is refused as invalid UTF-8;
// case-insensitive, as the finders compare lower-cased lines. The budget
// holds the DFAs of some 500 literals with room to spare; past it RE2
// reports an error and every line is read instead.
RE2::Options pattern_options() {
    RE2::Options options;
    options.set_encoding(RE2::Options::EncodingLatin1);
    options.set_case_sensitive(false);
    options.set_log_errors(false);
    options.set_max_mem(int64_t{64} << 20);
    return options;
}

// Words most literals contain. The whole-log pass looks for these and for
// each literal that contains none of them, rather than for every literal:
// the same lines are found (a literal's line holds its gate), from an
// automaton a quarter the size, which RE2 builds and runs faster. Which
// words are here changes the speed, never the answer.
constexpr std::array<std::string_view, 24> kGateWords = {
    "cuda", "nccl",   "cudnn",   "cublas", "nvml",  "nvidia", "driver", "error",
    "gpu",  "device", "kernel",  "xid",    ".so",   "nvrtc",  "ptx",    "librar",
    "fail", "memory", "version", "symbol", "torch", "cannot", "unable", "invalid"};

// One automaton for "any of these literals"; null (with the reason in
// `errors`) where RE2 refuses it or a literal is empty (it occurs anywhere).
std::unique_ptr<RE2> alternation_of(const std::vector<std::string_view>& literals,
                                    std::vector<std::string>& errors) {
    std::vector<std::string_view> sorted(literals.begin(), literals.end());
    std::sort(sorted.begin(), sorted.end());  // the same automaton on every run
    sorted.erase(std::unique(sorted.begin(), sorted.end()), sorted.end());
    std::string alternation;
    for (std::string_view literal : sorted) {
        if (literal.empty()) return nullptr;
        if (!alternation.empty()) alternation += '|';
        alternation += RE2::QuoteMeta(literal);
    }
    auto any = std::make_unique<RE2>(alternation, pattern_options());
    if (any->ok()) return any;
    errors.push_back("an alternation of " + std::to_string(sorted.size()) + " literals: " + any->error());
    return nullptr;
}

// What to look for in the whole log: the gate words that some literal
// contains, and each literal that contains none. Null when a literal is
// empty (it occurs on every line) or RE2 refuses the alternation.
std::unique_ptr<RE2> gate_alternation(const std::vector<std::string_view>& literals,
                                      std::vector<std::string>& errors) {
    std::vector<std::string_view> gates;
    for (std::string_view literal : literals) {
        auto gate = std::find_if(kGateWords.begin(), kGateWords.end(), [&](std::string_view word) {
            return literal.find(word) != std::string_view::npos;
        });
        gates.push_back(gate == kGateWords.end() ? literal : *gate);
    }
    return alternation_of(gates, errors);
}

}  // namespace

struct LinePatterns::Impl {
    // What each literal of the Set stands for.
    enum class Part { anchor, text };
    struct Entry {
        Part part;
        size_t index;  // the signal's or the text's
    };

    RE2::Set set{pattern_options(), RE2::UNANCHORED};
    bool set_usable = false;
    std::vector<Entry> entries;  // by the Set's pattern index
    size_t signal_count = 0;
    std::vector<std::string> regexes;  // by signal; empty where it has none
    // Compiled on first use: most regexes never meet their anchor in a log,
    // and a process explains one log.
    mutable std::vector<std::unique_ptr<RE2>> compiled;
    mutable std::vector<std::once_flag> compile_once;
    size_t text_count = 0;
    // By finder: one alternation of its words; null where RE2 refused it
    // (then the finder reads every line).
    std::vector<std::unique_ptr<RE2>> finder_words;
    std::unique_ptr<RE2> gates;  // null: every line is read

    void add(const std::string& pattern, Part part, size_t index, std::vector<std::string>& errors,
             std::string_view what) {
        std::string error;
        if (set.Add(pattern, &error) < 0) {
            errors.push_back(std::string(what) + ": " + error);
            return;
        }
        entries.push_back({part, index});
    }

    const RE2* regex(size_t index) const {
        if (index >= regexes.size() || regexes[index].empty()) return nullptr;
        std::call_once(compile_once[index],
                       [&] { compiled[index] = std::make_unique<RE2>(regexes[index], pattern_options()); });
        return compiled[index]->ok() ? compiled[index].get() : nullptr;
    }
};

LinePatterns::LinePatterns(const std::vector<Signal>& signals, const std::vector<std::string>& texts,
                           const std::vector<std::vector<std::string_view>>& finder_words)
    : impl_(std::make_unique<Impl>()) {
    Impl& m = *impl_;
    m.signal_count = signals.size();
    m.regexes.resize(signals.size());
    m.compiled.resize(signals.size());
    m.compile_once = std::vector<std::once_flag>(signals.size());
    m.text_count = texts.size();
    std::vector<std::string_view> literals;
    for (const auto& words : finder_words) {
        literals.insert(literals.end(), words.begin(), words.end());
        m.finder_words.push_back(alternation_of(words, errors_));
    }
    for (size_t i = 0; i < signals.size(); ++i) {
        const Signal& signal = signals[i];
        const std::string what = "signal " + std::string(signal.id);
        literals.push_back(signal.anchor);
        m.add(RE2::QuoteMeta(signal.anchor), Impl::Part::anchor, i, errors_, what);
        if (!signal.regex.empty() && !signal.regex.starts_with("any:"))
            m.regexes[i] = std::string(signal.regex);
    }
    for (size_t i = 0; i < texts.size(); ++i) {
        literals.push_back(texts[i]);
        m.add(RE2::QuoteMeta(texts[i]), Impl::Part::text, i, errors_, "text '" + texts[i] + "'");
    }
    m.set_usable = m.set.Compile();
    if (!m.set_usable) errors_.push_back("the literal set does not fit RE2's memory budget");
    m.gates = gate_alternation(literals, errors_);
}

LinePatterns::~LinePatterns() = default;

std::vector<std::string> LinePatterns::errors() const {
    std::vector<std::string> out = errors_;
    for (size_t i = 0; i < impl_->regexes.size(); ++i) {
        if (impl_->regexes[i].empty() || impl_->regex(i)) continue;
        out.push_back("signal regex '" + impl_->regexes[i] + "': " + impl_->compiled[i]->error());
    }
    return out;
}

size_t LinePatterns::next_literal(std::string_view text, size_t from) const {
    if (!impl_->gates) return from;
    re2::StringPiece match;
    if (!impl_->gates->Match(re2::StringPiece(text.data(), text.size()), from, text.size(), RE2::UNANCHORED,
                             &match, 1))
        return std::string_view::npos;
    return static_cast<size_t>(match.data() - text.data());
}

void LinePatterns::candidates(std::string_view line, Candidates& out) const {
    const Impl& m = *impl_;
    thread_local std::vector<int> matched;  // reused: no allocation per line
    matched.clear();
    RE2::Set::ErrorInfo error{};
    bool any = m.set_usable && m.set.Match(re2::StringPiece(line.data(), line.size()), &matched, &error);
    if (!m.set_usable || (!any && error.kind != RE2::Set::kNoError)) return everything(out);
    out.signals.clear();
    out.texts.clear();
    out.finders.clear();
    // A signal's words and regex are the finder's to confirm, on the lines
    // where its anchor is (contains_any_word, regex_match).
    for (int id : matched) {
        const Impl::Entry& entry = m.entries[static_cast<size_t>(id)];
        (entry.part == Impl::Part::anchor ? out.signals : out.texts).push_back(entry.index);
    }
    std::sort(out.signals.begin(), out.signals.end());
    std::sort(out.texts.begin(), out.texts.end());
    for (const auto& words : m.finder_words)
        out.finders.push_back(!words ||
                              RE2::PartialMatch(re2::StringPiece(line.data(), line.size()), *words));
}

void LinePatterns::everything(Candidates& out) const {
    out.signals.resize(impl_->signal_count);
    for (size_t i = 0; i < out.signals.size(); ++i) out.signals[i] = i;
    out.texts.resize(impl_->text_count);
    for (size_t i = 0; i < out.texts.size(); ++i) out.texts[i] = i;
    out.finders.assign(impl_->finder_words.size(), true);
}

std::optional<std::string_view> LinePatterns::regex_match(size_t index, std::string_view line) const {
    const RE2* regex = impl_->regex(index);
    if (!regex) return std::nullopt;
    re2::StringPiece match;
    if (!regex->Match(re2::StringPiece(line.data(), line.size()), 0, line.size(), RE2::UNANCHORED, &match, 1))
        return std::nullopt;
    return std::string_view(match.data(), match.size());
}

}  // namespace strata
