#include "explain/search_path_evidence.h"

#include <array>

#include "explain/text_lines.h"

namespace strata {

namespace {

constexpr std::string_view kVariable = "ld_library_path";

bool names_cuda(std::string_view entry) {
    static constexpr std::array<std::string_view, 8> words = {"cuda",  "cudnn",   "nccl",   "nvidia",
                                                              "nvhpc", "hpc_sdk", "cublas", "tensorrt"};
    for (std::string_view word : words)
        if (entry.find(word) != std::string_view::npos) return true;
    return false;
}

// Where the program's own copies live: wheels (site-packages/nvidia/…),
// PyTorch (it ships cuDNN, cuBLAS and NCCL with its wheels and conda
// packages), virtual and conda environments.
constexpr std::array<std::string_view, 5> kBundledCopyWords = {"site-packages", "dist-packages", "torch",
                                                               "conda", "venv"};
bool shows_bundled_copy(std::string_view lower) {
    for (std::string_view word : kBundledCopyWords)
        if (lower.find(word) != std::string_view::npos) return true;
    return false;
}

std::string_view trim(std::string_view text) {
    while (!text.empty() && (text.front() == ' ' || text.front() == '\t' || text.front() == '"' ||
                             text.front() == '\'' || text.front() == '$'))
        text.remove_prefix(1);
    size_t end = text.find_first_of(" \t\"'");
    return text.substr(0, end);
}

}  // namespace

void SearchPathEvidence::read(std::string_view line, std::string_view lower, size_t line_number) {
    if (shows_bundled_copy(lower)) bundled_copy_ = true;
    if (value_on_next_line_) {
        // Only a path list: the next line may as well be the next command.
        value_on_next_line_ = false;
        size_t first = lower.find_first_not_of(" \t");
        if (first != std::string_view::npos && lower[first] == '/')
            take_value(line, lower, trim(lower.substr(first)), line_number);
    }
    size_t at = lower.find(kVariable);
    if (at == std::string_view::npos) return;
    std::string_view rest = lower.substr(at + kVariable.size());
    while (!rest.empty() && (rest.front() == '"' || rest.front() == '\'' || rest.front() == '}'))
        rest.remove_prefix(1);
    // "LD_LIBRARY_PATH=…", "LD_LIBRARY_PATH: …"; a bare name at the end of a
    // line ("echo $LD_LIBRARY_PATH", "LD_LIBRARY_PATH:") has its value on the
    // next line. Words after the name ("LD_LIBRARY_PATH contains …") are prose.
    bool assigned = !rest.empty() && (rest.front() == '=' || rest.front() == ':');
    if (assigned) rest.remove_prefix(1);
    std::string_view value = trim(rest);
    if (value.empty() && rest.find_first_not_of(" \t") == std::string_view::npos) {
        value_on_next_line_ = true;
        return;
    }
    if (assigned) take_value(line, lower, value, line_number);
}

// `value` is a view into `lower`; the entry is kept as the log spells it.
void SearchPathEvidence::take_value(std::string_view line, std::string_view lower, std::string_view value,
                                    size_t line_number) {
    if (!cuda_entry_.empty()) return;
    while (!value.empty()) {
        size_t colon = value.find(':');
        std::string_view entry = value.substr(0, colon);
        if (entry.find('/') != std::string_view::npos && names_cuda(entry)) {
            cuda_entry_ = std::string(line.substr(entry.data() - lower.data(), entry.size()));
            line_text_ = printable_excerpt(line, cuda_entry_);
            line_number_ = line_number;
            return;
        }
        if (colon == std::string_view::npos) break;
        value.remove_prefix(colon + 1);
    }
}

std::optional<std::string> SearchPathEvidence::conflicting_entry() const {
    if (cuda_entry_.empty() || !bundled_copy_) return std::nullopt;
    return cuda_entry_;
}

std::vector<std::string_view> SearchPathEvidence::words() {
    std::vector<std::string_view> out(kBundledCopyWords.begin(), kBundledCopyWords.end());
    out.push_back(kVariable);
    return out;
}

}  // namespace strata
