// The real failure reports strata ships (tests/explain/*.jsonl, embedded at
// build time), and the few most like a given error, ranked by BM25 over
// normalised error tokens. Retrieval, not rules: it finds the thread where
// people already solved the same words, whatever the catalogs say, so
// `strata explain` can point at it and notice when the rules disagree.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace strata {

struct ShippedReport {
    std::string id;      // "FF07"
    std::string source;  // a public issue: "https://github.com/owner/repo/issues/N" or "owner/repo#N"
    std::string error_text;
    std::string failure_class;  // the class the thread's established cause belongs to
    std::string cause;          // the cause, in a sentence
    std::string fix;            // empty where the report states none apart from the cause
    bool container = false;
};

struct SimilarReport {
    const ShippedReport* report = nullptr;
    double score = 0;  // BM25; comparable only within one query
};

// Every shipped report, parsed once.
const std::vector<ShippedReport>& shipped_reports();

// The error's tokens as retrieval sees them: lower case; numbers, versions,
// addresses and paths' digits dropped or folded ("libcublasLt.so.11" and
// "libcublasLt.so.12" are one token), so two pastes of the same failure from
// different machines meet; common English words left out.
std::vector<std::string> retrieval_tokens(std::string_view text);

// Up to `count` shipped reports most like `text`, best first, none scoring
// below a floor that keeps unrelated reports out. Reports from
// `excluded_source` are skipped (an evaluation never finds the report it
// scores). Bounded: the query is at most its first 64 KiB of tokens.
std::vector<SimilarReport> similar_reports(std::string_view text, size_t count,
                                           std::string_view excluded_source = {});

// The shipped reports as one JSON-lines text (generated; explain_reports_data.cpp).
std::string_view shipped_report_lines();

}  // namespace strata
