// Runs a helper program (a Python interpreter asked for its search path) with
// a deadline, capturing what it prints. A program that hangs is killed, one
// that floods its output is cut off: the caller gets one line saying which.
#pragma once

#include <chrono>
#include <string>
#include <vector>

namespace strata {

struct ProgramResult {
    bool ok = false;       // ran and exited 0
    std::string output;    // stdout, at most `output_limit` bytes
    std::string problem;   // one line when !ok: "timed out after 5 s", "exited with status 1: ..."
    int exit_status = -1;  // when it exited (not killed, not timed out)
};

// `environment`: NAME=VALUE entries that replace or add to strata's own.
ProgramResult run_program(const std::vector<std::string>& argv, std::chrono::milliseconds deadline,
                          size_t output_limit = 1 << 20, const std::vector<std::string>& environment = {});

}  // namespace strata
