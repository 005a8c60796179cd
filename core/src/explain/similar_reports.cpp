#include "explain/similar_reports.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <unordered_map>
#include <unordered_set>

#include "explain/text_lines.h"
#include "model/untrusted_input.h"

namespace strata {

namespace {

constexpr size_t kMaxQueryBytes = 64u << 10;
// BM25's usual constants (Robertson and Zaragoza, "The Probabilistic
// Relevance Framework: BM25 and Beyond", 2009).
constexpr double kTermSaturation = 1.2;  // k1
constexpr double kLengthNorm = 0.75;     // b
// Below this a match is one or two common words ("cuda", "error"): noise.
constexpr double kMinScore = 6.0;

bool is_stopword(std::string_view word) {
    static const std::unordered_set<std::string_view> words = {
        "the",  "a",           "an",    "of",     "to",    "is",    "in",    "on",   "for",
        "and",  "or",          "not",   "be",     "was",   "were",  "with",  "this", "that",
        "it",   "at",          "by",    "as",     "from",  "are",   "has",   "have", "had",
        "no",   "can",         "could", "please", "check", "your",  "you",   "if",   "see",
        "more", "information", "use",   "using",  "than",  "which", "file",  "line", "traceback",
        "most", "recent",      "call",  "last",   "py",    "self",  "return"};
    return words.count(word) > 0;
}

bool all_digits_or_dots(std::string_view word) {
    return std::all_of(word.begin(), word.end(),
                       [](char c) { return std::isdigit(static_cast<unsigned char>(c)) || c == '.'; });
}

// Digits at the end of a word part go ("cudnn64_8" -> "cudnn64_#"), and
// version parts after a dot too ("libcublaslt.so.11.2" -> "libcublaslt.so",
// "cudnn64_8.dll" -> "cudnn64_#.dll"). "sm_120" stays: the architecture is
// the point of the message.
void fold_into(std::string_view word, std::string& out) {
    out.clear();
    if (word.starts_with("sm_") || word.starts_with("compute_")) {
        out.assign(word);
        return;
    }
    size_t start = 0;
    while (start <= word.size()) {
        size_t dot = word.find('.', start);
        std::string_view part =
            word.substr(start, dot == std::string_view::npos ? std::string_view::npos : dot - start);
        start = dot == std::string_view::npos ? word.size() + 1 : dot + 1;
        if (part.empty() || (!out.empty() && all_digits_or_dots(part))) continue;
        size_t end = part.size();
        while (end > 0 && std::isdigit(static_cast<unsigned char>(part[end - 1]))) --end;
        bool has_letter = std::any_of(part.begin(), part.begin() + end,
                                      [](char c) { return std::isalpha(static_cast<unsigned char>(c)); });
        if (!out.empty()) out += '.';
        if (end < part.size() && has_letter) {
            out += part.substr(0, end);
            out += '#';
        } else {
            out += part;
        }
    }
}

// Calls take(token) with each retrieval token of `text`, as a view into a
// buffer reused from one token to the next (no allocation per token).
template <typename Take>
void for_each_retrieval_token(std::string_view text, const Take& take) {
    text = text.substr(0, std::min(text.size(), kMaxQueryBytes));
    std::string lower, folded;
    size_t i = 0;
    while (i < text.size()) {
        auto word_char = [](char c) {
            return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.';
        };
        while (i < text.size() && !word_char(text[i])) ++i;
        size_t start = i;
        while (i < text.size() && word_char(text[i])) ++i;
        std::string_view raw = text.substr(start, i - start);
        while (!raw.empty() && raw.front() == '.') raw.remove_prefix(1);
        while (!raw.empty() && raw.back() == '.') raw.remove_suffix(1);
        if (raw.size() < 2 || raw.size() > 64 || all_digits_or_dots(raw)) continue;
        assign_lower_ascii(raw, lower);
        if (lower.starts_with("0x") || is_stopword(lower)) continue;
        fold_into(lower, folded);
        take(std::string_view(folded));
    }
}

// One spelling per thread: "https://github.com/o/r/issues/7" and "o/r#7"
// are the same report (the older sets cite the short form).
std::string canonical_source(std::string_view source) {
    constexpr std::string_view github = "https://github.com/";
    if (!source.starts_with(github)) return std::string(source);
    source.remove_prefix(github.size());
    for (std::string_view kind : {"/issues/", "/pull/", "/discussions/"}) {
        size_t at = source.find(kind);
        if (at != std::string_view::npos)
            return std::string(source.substr(0, at)) + "#" + std::string(source.substr(at + kind.size()));
    }
    return std::string(source);
}

// An inverted index: each term's postings (the reports holding it, with how
// often), so a query costs its terms' postings, not terms × reports.
struct Posting {
    uint32_t report;
    uint32_t count;
};
// A term's postings, its idf and its rank in the sorted terms: a query sums
// its terms in that order, so every score adds up the same way every time.
struct Term {
    std::vector<Posting> postings;
    double idf = 0;
    uint32_t rank = 0;
};
using Terms = std::unordered_map<std::string, Term, StringViewHash, std::equal_to<>>;
struct Index {
    std::vector<std::string> sources;  // canonical_source() of each report, computed once
    Terms terms;
    std::vector<double> length_factors;  // BM25's 1 - b + b * length / average, by report
};

const Index& index() {
    static const Index built = [] {
        Index out;
        size_t total = 0;
        std::vector<size_t> lengths;
        const auto& reports = shipped_reports();
        for (size_t d = 0; d < reports.size(); ++d) {
            std::unordered_map<std::string, uint32_t> counts;
            std::vector<std::string> tokens = retrieval_tokens(reports[d].error_text);
            for (std::string& token : tokens) ++counts[std::move(token)];
            for (auto& [token, n] : counts)
                out.terms[token].postings.push_back({static_cast<uint32_t>(d), n});
            lengths.push_back(tokens.size());
            total += tokens.size();
            out.sources.push_back(canonical_source(reports[d].source));
        }
        const double average = lengths.empty() ? 1 : std::max(1.0, double(total) / lengths.size());
        for (size_t length : lengths)
            out.length_factors.push_back(1 - kLengthNorm + kLengthNorm * double(length) / average);
        const double documents = double(reports.size());
        std::vector<std::pair<const std::string*, Term*>> sorted;
        for (auto& [name, term] : out.terms) {
            const double df = double(term.postings.size());
            term.idf = std::log(1 + (documents - df + 0.5) / (df + 0.5));
            sorted.emplace_back(&name, &term);
        }
        std::sort(sorted.begin(), sorted.end(),
                  [](const auto& a, const auto& b) { return *a.first < *b.first; });
        for (size_t rank = 0; rank < sorted.size(); ++rank)
            sorted[rank].second->rank = static_cast<uint32_t>(rank);
        return out;
    }();
    return built;
}

std::string string_field(const Json& record, const char* name) {
    auto it = record.find(name);
    return it != record.end() && it->is_string() ? it->get<std::string>() : std::string();
}

}  // namespace

const std::vector<ShippedReport>& shipped_reports() {
    static const std::vector<ShippedReport> reports = [] {
        std::vector<ShippedReport> out;
        for (std::string_view line : text_lines(shipped_report_lines())) {
            auto record = try_parse_json_input(line);
            if (!record || !record->is_object()) continue;
            ShippedReport report;
            report.id = string_field(*record, "id");
            report.source = string_field(*record, "source");
            report.error_text = string_field(*record, "error_text");
            report.failure_class = string_field(*record, "root_layer");
            report.cause = string_field(*record, "root_cause");
            report.fix = string_field(*record, "fix");
            auto container = record->find("container");
            report.container =
                container != record->end() && container->is_boolean() && container->get<bool>();
            if (report.error_text.empty() || report.failure_class.empty() || report.source.empty()) continue;
            out.push_back(std::move(report));
        }
        return out;
    }();
    return reports;
}

std::vector<std::string> retrieval_tokens(std::string_view text) {
    std::vector<std::string> out;
    for_each_retrieval_token(text, [&](std::string_view token) { out.emplace_back(token); });
    return out;
}

std::vector<SimilarReport> similar_reports(std::string_view text, size_t count,
                                           std::string_view excluded_source) {
    const Index& idx = index();
    const auto& reports = shipped_reports();
    // The query's terms that some report holds, each once, in the terms'
    // sorted order (so every score sums its terms in one fixed order).
    std::vector<const Term*> query;
    for_each_retrieval_token(text, [&](std::string_view token) {
        auto term = idx.terms.find(token);
        if (term != idx.terms.end()) query.push_back(&term->second);
    });
    std::sort(query.begin(), query.end(), [](const Term* a, const Term* b) { return a->rank < b->rank; });
    query.erase(std::unique(query.begin(), query.end()), query.end());
    std::vector<double> scores(reports.size(), 0.0);
    std::vector<uint32_t> touched;  // the reports sharing a term, each once
    for (const Term* term : query) {
        for (const Posting& posting : term->postings) {
            const double tf = posting.count;
            if (scores[posting.report] == 0.0) touched.push_back(posting.report);
            scores[posting.report] += term->idf * tf * (kTermSaturation + 1) /
                                      (tf + kTermSaturation * idx.length_factors[posting.report]);
        }
    }
    const std::string excluded = canonical_source(excluded_source);
    std::vector<SimilarReport> scored;
    scored.reserve(touched.size());
    std::sort(touched.begin(), touched.end());  // ties keep the shipped order
    for (uint32_t d : touched) {
        if (scores[d] < kMinScore || (!excluded.empty() && idx.sources[d] == excluded)) continue;
        scored.push_back({&reports[d], scores[d]});
    }
    // Best first; among equals, the shipped order.
    std::sort(scored.begin(), scored.end(), [](const SimilarReport& a, const SimilarReport& b) {
        return a.score != b.score ? a.score > b.score : a.report < b.report;
    });
    // The same thread in two sets is one report.
    std::vector<SimilarReport> out;
    std::vector<const std::string*> seen;
    for (const SimilarReport& s : scored) {
        if (out.size() == count) break;
        const std::string& source = idx.sources[size_t(s.report - reports.data())];
        if (std::any_of(seen.begin(), seen.end(), [&](const std::string* other) { return *other == source; }))
            continue;
        seen.push_back(&source);
        out.push_back(s);
    }
    return out;
}

}  // namespace strata
