// read_head_and_tail: a log of any length in bounded memory, whole lines
// only, and each kept line named by the number the whole stream gives it.
#include <algorithm>
#include <catch2/catch.hpp>
#include <sstream>
#include <string>

#include "model/untrusted_input.h"

using strata::read_head_and_tail;
using strata::StreamExcerpt;

namespace {

// "line 1\nline 2\n..." up to `count`.
std::string numbered_lines(int count) {
    std::string text;
    for (int i = 1; i <= count; ++i) text += "line " + std::to_string(i) + "\n";
    return text;
}

StreamExcerpt excerpt_of(const std::string& text, size_t head, size_t tail, size_t scan_limit = 1 << 20) {
    std::istringstream in(text);
    return read_head_and_tail(in, head, tail, scan_limit);
}

// The stream's line `number` as the excerpt's text holds it, by the excerpt's own numbering.
std::string kept_line(const StreamExcerpt& excerpt, size_t number_in_text) {
    std::istringstream lines(excerpt.text);
    std::string line;
    for (size_t i = 0; i < number_in_text; ++i) std::getline(lines, line);
    return line;
}

}  // namespace

TEST_CASE("a stream within head + tail is kept whole") {
    std::string text = numbered_lines(5);
    StreamExcerpt excerpt = excerpt_of(text, 20, 30);
    CHECK(excerpt.text == text);
    CHECK_FALSE(excerpt.lines_skipped);
    CHECK_FALSE(excerpt.scan_cut);
    CHECK(excerpt.bytes_read == text.size());
    CHECK(excerpt.line_in_stream(4) == 4);
}

TEST_CASE("a longer stream keeps its first and last whole lines and numbers them as the stream does") {
    std::string text = numbered_lines(2000);  // "line 1000\n" is 10 bytes
    StreamExcerpt excerpt = excerpt_of(text, 25, 40);
    REQUIRE(excerpt.lines_skipped);
    CHECK(excerpt.bytes_read == text.size());
    // 25 bytes reach into "line 4": the half line is dropped.
    CHECK(excerpt.text.rfind("line 1\nline 2\nline 3\n", 0) == 0);
    CHECK(excerpt.text.find("line 4\n") == std::string::npos);
    // The tail starts at a whole line and ends with the stream's last.
    CHECK(excerpt.text.size() >= 30);
    CHECK(excerpt.text.substr(excerpt.text.size() - 10) == "line 2000\n");
    CHECK(excerpt.head_lines == 3);
    // Every kept line is named by its number in the stream.
    size_t lines_in_text = static_cast<size_t>(std::count(excerpt.text.begin(), excerpt.text.end(), '\n'));
    for (size_t i = 1; i <= lines_in_text; ++i)
        CHECK(kept_line(excerpt, i) == "line " + std::to_string(excerpt.line_in_stream(i)));
    CHECK(excerpt.line_in_stream(lines_in_text) == 2000);
}

TEST_CASE("a stream without line breaks is kept as bytes, and reading stops at the scan limit") {
    std::string zeros(5000, '\0');
    StreamExcerpt long_line = excerpt_of(zeros, 100, 200);
    CHECK(long_line.lines_skipped);
    // The head's part of the line is ended, not joined to the tail's part.
    CHECK(long_line.text.size() == 301);
    CHECK(long_line.text[100] == '\n');
    CHECK(long_line.line_in_stream(1) == 1);
    CHECK(long_line.line_in_stream(2) == 1);
    StreamExcerpt cut = excerpt_of(zeros, 100, 200, 1000);
    CHECK(cut.scan_cut);
    CHECK(cut.bytes_read == 1000);
    StreamExcerpt exact = excerpt_of(std::string(1000, 'x'), 100, 200, 1000);
    CHECK_FALSE(exact.scan_cut);  // ended exactly at the limit
}
