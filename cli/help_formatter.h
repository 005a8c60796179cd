// How `strata … --help` reads: placeholders a person understands in the
// option column (PATH, N, {quick,standard,long}), positionals in capitals,
// and none of CLI11's own constraint notes (Excludes:, Needs:, sides(0x)),
// which the descriptions already say in words. An option's option_text, where
// a command sets one, is its placeholder (NAME=LIBDIR; for a positional, its
// whole usage: "[BASE CAND]").
#pragma once

#include <CLI/CLI.hpp>
#include <string>

namespace strata::cli {

class HelpFormatter : public CLI::Formatter {
public:
    std::string make_option_name(const CLI::Option* option, bool is_positional) const override;
    std::string make_option_opts(const CLI::Option* option) const override;
    std::string make_option_usage(const CLI::Option* option) const override;
};

// The placeholder for an option's value, from CLI11's type name:
// "TEXT:PATH" -> "PATH", "INT:INT in [0 - 4096]" -> "N",
// "TEXT:{quick,standard,long}" -> "{quick,standard,long}", "FLOAT" -> "NUMBER".
std::string value_placeholder(const std::string& type_name);

}  // namespace strata::cli
