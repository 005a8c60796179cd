// What a pasted log shows about the loader's search path. People often paste
// `echo $LD_LIBRARY_PATH` (or an `export LD_LIBRARY_PATH=…` line) beside the
// error; when that value names a CUDA directory while a program that brings
// its own CUDA libraries (a pip wheel, PyTorch, a conda env) reports a version
// mismatch, the mismatch came through the search order, not from a wrong
// install. PyTorch applies the same reasoning in torch/backends/cudnn
// ("Looks like your LD_LIBRARY_PATH contains incompatible version of cudnn").
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace strata {

// Reads a log line by line; remembers the first LD_LIBRARY_PATH value that
// names a CUDA directory, and whether the log shows a bundled copy.
class SearchPathEvidence {
public:
    // `lower` is `line` in ASCII lower case; `line_number` is 1-based.
    void read(std::string_view line, std::string_view lower, size_t line_number);

    // The CUDA directory on LD_LIBRARY_PATH, when the log shows one and shows
    // a program that carries its own CUDA libraries.
    std::optional<std::string> conflicting_entry() const;
    size_t line_number() const { return line_number_; }
    const std::string& line_text() const { return line_text_; }  // printable

    // Every lower-case word read() looks for: a line holding none of them
    // tells it nothing, unless wants_next_line() (a value printed on the line
    // after the variable's name), when the next line must be read whatever it holds.
    static std::vector<std::string_view> words();
    bool wants_next_line() const { return value_on_next_line_; }

private:
    void take_value(std::string_view line, std::string_view lower, std::string_view value,
                    size_t line_number);

    bool value_on_next_line_ = false;
    bool bundled_copy_ = false;
    std::string cuda_entry_;
    std::string line_text_;
    size_t line_number_ = 0;
};

}  // namespace strata
