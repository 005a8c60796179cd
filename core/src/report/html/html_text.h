// Text placed in an HTML page. Every name there is untrusted: a benchmark,
// node, GPU or package name is whatever a record or results file said, and
// a check's evidence may quote a kernel log. Escaped, it can neither open a
// tag nor end an attribute, and the page stays valid HTML (a validator
// refuses control characters and broken UTF-8 as much as a stray '<').
#pragma once

#include <string>
#include <string_view>

namespace strata {

// `&<>"'` as character references; invalid UTF-8, NUL and the other C0 and
// C1 controls (tab, newline and carriage return excepted), DEL and Unicode
// noncharacters as U+FFFD. Safe in element content and in quoted attributes.
std::string html_escape(std::string_view text);

// A number as SVG coordinates take it: fixed, at most two decimals, no
// trailing zeros ("12.5", "300", "-0.25"); 0 for what is not finite.
std::string svg_number(double value);

}  // namespace strata
