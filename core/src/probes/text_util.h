// Small text helpers for reading /proc, /sys and /etc files.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace strata {

std::string_view trim(std::string_view text);
std::vector<std::string_view> split_lines(std::string_view text);
// "KEY=value" or KEY="value" lines (os-release); nullopt-like empty when absent.
std::string key_value(std::string_view text, std::string_view key, char separator);
bool contains(std::string_view text, std::string_view needle);
// A colon-separated path list (LD_LIBRARY_PATH, STRATA_PLUGIN_PATH) without its
// empty entries: to ld.so an empty entry means the current directory, which
// strata does not guess for another process.
std::vector<std::string> split_path_list(std::string_view list);
// As the dynamic loader reads LD_LIBRARY_PATH: an empty entry (a leading,
// trailing or doubled colon) is the working directory, given here as ".".
std::vector<std::string> split_loader_path_list(std::string_view list);
// {"a", "b"}, ", " -> "a, b"
std::string join(const std::vector<std::string>& items, std::string_view separator);

}  // namespace strata
