// Everything strata prints to a terminal passes through here. Plugin text,
// package metadata, benchmark names and file names come from whoever wrote
// them, and a raw escape sequence among them could rewrite the screen, set
// the window title or hide a FAIL. Control characters (C0 but newline and
// tab, DEL, and C1 as UTF-8) are shown as \u00XX instead, which is also what
// they mean inside a JSON string, so JSON passes through unchanged in meaning.
// Only colour (SGR: ESC [ digits ; ... m), which strata itself prints, is let
// through.
#pragma once

#include <iosfwd>
#include <streambuf>
#include <string>

namespace strata {

class TerminalSafeBuffer final : public std::streambuf {
public:
    explicit TerminalSafeBuffer(std::streambuf* target) : target_(target) {}
    ~TerminalSafeBuffer() override;

protected:
    int_type overflow(int_type c) override;
    std::streamsize xsputn(const char* data, std::streamsize count) override;
    int sync() override;

private:
    bool put(unsigned char c);
    bool emit(std::string_view text);
    bool emit_escaped(unsigned char c);
    bool flush_pending_escaped();

    std::streambuf* target_;
    std::string pending_;  // an escape sequence or a UTF-8 lead byte not yet judged
    bool failed_ = false;
};

// Routes std::cout and std::cerr through TerminalSafeBuffer for the rest of
// the process.
void make_standard_streams_terminal_safe();

// The same rule for one string (for text written elsewhere than the standard
// streams).
std::string terminal_safe(std::string_view text);

// A name from outside made one line: every C0 control, newline and tab
// included, and DEL as \u00XX. For names every report prints in a row of its
// own (benchmarks, their errors): a line break there forged a FAIL line.
std::string one_line(std::string_view text);

}  // namespace strata
