// Text from plugins, packages and benchmark files reaches the terminal only
// through terminal_safe: escape sequences are shown, never obeyed.
#include "report/terminal_safe_output.h"

#include <catch2/catch.hpp>
#include <sstream>

using strata::one_line;
using strata::terminal_safe;

TEST_CASE("control characters are shown as \\u00XX; newline, tab and text pass") {
    CHECK(terminal_safe("plain text\twith tab\n") == "plain text\twith tab\n");
    CHECK(terminal_safe("a\rb") == "a\\u000db");
    CHECK(terminal_safe(std::string("nul\0byte", 8)) == "nul\\u0000byte");
    CHECK(terminal_safe("bell\a del\x7f") == "bell\\u0007 del\\u007f");
    CHECK(terminal_safe("caf\xc3\xa9 \xe2\x9c\x93") == "caf\xc3\xa9 \xe2\x9c\x93");  // UTF-8 is kept
}

TEST_CASE("escape sequences that move, clear or retitle are shown; colour passes") {
    CHECK(terminal_safe("\x1b]0;pwned\x07") == "\\u001b]0;pwned\\u0007");  // window title
    CHECK(terminal_safe("\x1b[2J\x1b[H") == "\\u001b[2J\\u001b[H");        // clear screen, home
    CHECK(terminal_safe("x\x1b[1A") == "x\\u001b[1A");                     // cursor up: overwrite a line
    CHECK(terminal_safe("\x1b[1;31mFAIL\x1b[0m") == "\x1b[1;31mFAIL\x1b[0m");
    CHECK(terminal_safe("\x1b") == "\\u001b");  // cut off at the end
    CHECK(terminal_safe("\x1b[" + std::string(40, '1') + "m").rfind("\\u001b[", 0) == 0);
}

TEST_CASE("only the renditions strata prints pass: conceal, reverse, blink and black are shown") {
    CHECK(terminal_safe("\x1b[8mhidden") == "\\u001b[8mhidden");  // conceal hid every row after it
    CHECK(terminal_safe("\x1b[7m") == "\\u001b[7m");              // reverse video
    CHECK(terminal_safe("\x1b[5m") == "\\u001b[5m");              // blink
    CHECK(terminal_safe("\x1b[30;40m") == "\\u001b[30;40m");      // black on black
    CHECK(terminal_safe("\x1b[1;8m") == "\\u001b[1;8m");          // conceal behind bold
    CHECK(terminal_safe("\x1b[2m\x1b[33mW\x1b[32m\x1b[m") == "\x1b[2m\x1b[33mW\x1b[32m\x1b[m");
}

TEST_CASE("one_line: a name from outside stays on its row") {
    CHECK(one_line("BM_x\n  FAIL  forged") == "BM_x\\u000a  FAIL  forged");
    CHECK(one_line("a\tb\rc\x7f") == "a\\u0009b\\u000dc\\u007f");
    CHECK(one_line("caf\xc3\xa9/size:1") == "caf\xc3\xa9/size:1");
}

TEST_CASE("C1 controls written as UTF-8 (CSI is C2 9B) are shown") {
    CHECK(terminal_safe("\xc2\x9b"
                        "2J") == "\\u009b2J");
    CHECK(terminal_safe("\xc2\xa0nbsp") == "\xc2\xa0nbsp");
}

TEST_CASE("the filter gives the same answer however the text is split into writes") {
    std::string input = "ok \x1b[32mPASS\x1b[0m \x1b]8;;http://x\x07 \xc2\x9b end\n";
    std::string whole = terminal_safe(input);
    for (size_t split = 0; split <= input.size(); ++split) {
        std::ostringstream out;
        {
            strata::TerminalSafeBuffer filter(out.rdbuf());
            std::ostream stream(&filter);
            stream << input.substr(0, split);
            stream.flush();
            stream << input.substr(split);
        }
        INFO(split);
        CHECK(out.str() == whole);
    }
}

TEST_CASE("JSON keeps its meaning: a \\u00XX escape in a string is the same character") {
    CHECK(terminal_safe("{\"name\":\"a\x7f\"}") == "{\"name\":\"a\\u007f\"}");
}
