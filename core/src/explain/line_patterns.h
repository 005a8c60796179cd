// Every word and pattern `strata explain` looks for, matched by RE2 in time
// linear in the input (no backtracking, no recursion: a crafted line costs
// what a plain one of its length does).
//
// Built once:
//  - one alternation of the words every literal a finder needs (signal
//    anchors, printed texts, the other finders' words) contains, run over the
//    whole log: the lines holding none of them are skipped unread, at DFA
//    speed;
//  - one RE2::Set of the signals' anchors and the printed texts, run on each
//    line that is read: which of them occur;
//  - per finder of explain's own, one alternation of its words: whether it
//    can find anything on the line.
// A signal's word list ("any:") is checked by its finder, and its regex runs,
// compiled on first use, only on a line that holds its anchor. Short common
// words stay out of the Set: RE2's many-match DFA multiplies its states by
// them. RE2 was chosen over Hyperscan because it builds on every
// architecture a GPU node runs (Hyperscan is x86-only; Grace nodes are arm64).
//
// The Set only narrows: every candidate it returns is confirmed by its
// finder exactly as before (an anchor by its position in the lower-case line,
// a regex by its own match), so it can never add a finding. Where RE2 cannot
// build or run an automaton in its memory budget, every candidate is returned
// and every line is read: slower, never different.
#pragma once

#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "explain/signal.h"

namespace re2 {
class RE2;
}

namespace strata {

class LinePatterns {
public:
    // `texts`: lower-case literals reported by index (the status codes'
    // printed texts); `finder_words`: per finder of explain's own, the
    // lower-case words without which it finds nothing on a line. No literal
    // may hold a line break.
    LinePatterns(const std::vector<Signal>& signals, const std::vector<std::string>& texts,
                 const std::vector<std::vector<std::string_view>>& finder_words);
    ~LinePatterns();
    LinePatterns(const LinePatterns&) = delete;
    LinePatterns& operator=(const LinePatterns&) = delete;

    // The offset of the first literal at or after `from` in `text`
    // (case-insensitive), or npos when none follows.
    size_t next_literal(std::string_view text, size_t from) const;

    // Which signals and texts may occur on `line`, each in ascending order,
    // and which finders have a word on it: a superset of those that do (see
    // above).
    struct Candidates {
        std::vector<size_t> signals;
        std::vector<size_t> texts;
        std::vector<bool> finders;  // by the index of finder_words
    };
    // Fills `out` (its buffers reused from line to line: no allocation per line).
    void candidates(std::string_view line, Candidates& out) const;
    // Every signal, text and finder: what a line gets where the Set cannot
    // answer, and the reference the narrowing is tested against.
    void everything(Candidates& out) const;

    // Where signal `index`'s regex matches on `line`, leftmost-first
    // (case-insensitive); nullopt when it does not, or the signal has none.
    std::optional<std::string_view> regex_match(size_t index, std::string_view line) const;

    // The patterns RE2 refused, one line each ("signal regex '…(?!…)':
    // invalid perl operator: (?!"); compiles every regex to know. Empty in a
    // correct build; the tests hold it so.
    std::vector<std::string> errors() const;

private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
    std::vector<std::string> errors_;
};

}  // namespace strata
