#include "results_merge.h"

#include <cctype>

#include "model/untrusted_input.h"
#include "model/usage_error.h"

namespace strata::bench {

namespace {

// Replaces nan / -nan / inf / -inf / infinity tokens outside strings by null.
std::string without_non_finite(const std::string& text) {
    std::string out;
    out.reserve(text.size());
    bool in_string = false;
    for (size_t i = 0; i < text.size(); ++i) {
        char c = text[i];
        if (in_string) {
            out += c;
            if (c == '\\' && i + 1 < text.size())
                out += text[++i];
            else if (c == '"')
                in_string = false;
            continue;
        }
        if (c == '"') {
            in_string = true;
            out += c;
            continue;
        }
        size_t start = i + (c == '-' ? 1 : 0);
        auto word_at = [&](const char* word) {
            size_t n = std::char_traits<char>::length(word);
            if (text.size() - start < n) return size_t(0);
            for (size_t k = 0; k < n; ++k)
                if (std::tolower(static_cast<unsigned char>(text[start + k])) != word[k]) return size_t(0);
            bool boundary =
                start + n == text.size() || !std::isalnum(static_cast<unsigned char>(text[start + n]));
            return boundary ? n : size_t(0);
        };
        size_t n = word_at("infinity");
        if (!n) n = word_at("inf");
        if (!n) n = word_at("nan");
        if (n) {
            out += "null";
            i = start + n - 1;
            continue;
        }
        out += c;
    }
    return out;
}

}  // namespace

Json parse_benchmark_output(const std::string& text, const std::string& path) {
    return parse_json_input(without_non_finite(text), path);
}

Json merge_runs(const std::vector<Json>& runs, const Json& strata_context) {
    Json context = Json::object();
    Json benchmarks = Json::array();
    for (const Json& run : runs) {
        if (context.empty() && run.contains("context") && run["context"].is_object())
            context = run["context"];
        if (run.contains("benchmarks") && run["benchmarks"].is_array())
            for (const Json& entry : run["benchmarks"]) benchmarks.push_back(entry);
    }
    context["strata"] = strata_context;
    return {{"context", context}, {"benchmarks", benchmarks}};
}

}  // namespace strata::bench
