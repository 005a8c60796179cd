#include "explain/assessment.h"

#include <algorithm>
#include <unordered_set>

#include "explain/ambiguous_evidence.h"
#include "explain/failure_classes.h"

namespace strata {

namespace {

// A decider this specific names one cause; below the lower bound it is a
// generic word (a component named beside "failed", a catch-all code).
constexpr int kHighSpecificity = 80;
constexpr int kMediumSpecificity = 50;
// Another class this close to the decider competes with it.
constexpr int kCompetingMargin = 5;
// A text longer than this is compared with the shipped reports by the lines
// that decided, not whole.
constexpr size_t kWholeTextQuery = 16u << 10;
// A neighbour this close (BM25) shares most of the error's rare words; it
// lowers the confidence only when it and another close one agree on a cause
// the rules did not give.
// Measured on the shipped sets (tests/explain/README.md): a stricter floor
// keeps more confidently wrong answers, a looser one loses right ones.
constexpr double kStrongNeighbour = 10.0;
constexpr double kBackingShare = 0.5;
constexpr size_t kBackingNeighbours = 1;

// Codes a program's own work returns: out of memory, a device-side assert,
// a kernel's bad access or resource request. "Your program, not the stack."
bool is_program_error(const Finding& f) {
    static const std::unordered_set<std::string_view> ids = {"cudaErrorMemoryAllocation",
                                                             "CUDA_ERROR_OUT_OF_MEMORY",
                                                             "cudaErrorAssert",
                                                             "CUDA_ERROR_ASSERT",
                                                             "cudaErrorIllegalAddress",
                                                             "CUDA_ERROR_ILLEGAL_ADDRESS",
                                                             "cudaErrorLaunchFailure",
                                                             "CUDA_ERROR_LAUNCH_FAILED",
                                                             "cudaErrorMisalignedAddress",
                                                             "CUDA_ERROR_MISALIGNED_ADDRESS",
                                                             "cudaErrorIllegalInstruction",
                                                             "CUDA_ERROR_ILLEGAL_INSTRUCTION",
                                                             "cudaErrorLaunchOutOfResources",
                                                             "CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES",
                                                             "cudaErrorHardwareStackError",
                                                             "CUDA_ERROR_HARDWARE_STACK_ERROR",
                                                             "CUBLAS_STATUS_ALLOC_FAILED",
                                                             "CUDNN_STATUS_ALLOC_FAILED",
                                                             "pytorch.out_of_memory",
                                                             "toolchain.too_much_shared_data"};
    return f.failure_class == "other" && ids.count(f.id) > 0;
}

Confidence lower(Confidence c) {
    return c == Confidence::high ? Confidence::medium : Confidence::low;
}

std::string first_manual_check(std::string_view failure_class) {
    const FailureClass* known = find_failure_class(failure_class);
    if (!known || known->manual_checks.empty()) return "";
    return std::string(known->manual_checks.front());
}

std::string class_title(std::string_view failure_class) {
    const FailureClass* known = find_failure_class(failure_class);
    return known ? std::string(known->title) : std::string(failure_class);
}

void add_candidate(std::vector<Candidate>& out, std::string_view failure_class, std::string why,
                   std::string tell_apart) {
    for (const Candidate& c : out)
        if (c.failure_class == failure_class) return;
    out.push_back({std::string(failure_class), std::move(why), std::move(tell_apart)});
}

// The lines that decided, joined: what a long log is compared by.
std::string query_text(const Explanation& explanation, std::string_view text) {
    if (text.size() <= kWholeTextQuery || explanation.findings.empty())
        return std::string(text.substr(0, kWholeTextQuery));
    std::string out;
    for (const Finding& f : explanation.findings) out += f.line_text + "\n";
    return out;
}

}  // namespace

std::string_view confidence_name(Confidence confidence) {
    switch (confidence) {
        case Confidence::high: return "high";
        case Confidence::medium: return "medium";
        case Confidence::low: return "low";
    }
    return "low";
}

Assessment assess(const Explanation& explanation, std::string_view text, const AssessmentContext& context) {
    Assessment out;
    out.similar =
        similar_reports(query_text(explanation, text), context.similar_count, context.excluded_source);
    if (!explanation.cause) {
        out.reasons.push_back("no message of the CUDA stack strata knows is in the text");
        for (const SimilarReport& similar : out.similar)
            add_candidate(out.candidates, similar.report->failure_class,
                          "as in the similar report " + similar.report->id + ": " + similar.report->cause,
                          first_manual_check(similar.report->failure_class));
        return out;
    }
    const Finding& decider = *explanation.cause;
    add_candidate(out.candidates, decider.failure_class, decider.meaning,
                  first_manual_check(decider.failure_class));
    out.program_error = is_program_error(decider);

    if (decider.specificity >= kHighSpecificity) {
        out.confidence = Confidence::high;
        out.reasons.push_back("the deciding message names one cause");
    } else if (decider.specificity >= kMediumSpecificity || out.program_error) {
        out.confidence = Confidence::medium;
        out.reasons.push_back(out.program_error
                                  ? "the code is one a program's own work returns"
                                  : "the deciding message points at one layer but not one cause");
    } else {
        out.confidence = Confidence::low;
        out.reasons.push_back("the deciding words are generic: several layers print them");
    }

    if (const AmbiguousEvidence* ambiguous = find_ambiguous_evidence(decider.id)) {
        bool unsettled_here = ambiguous->unsettled_in_container_without_driver &&
                              context.in_container.value_or(false) && !explanation.shows_driver_version;
        if (unsettled_here) {
            out.confidence = Confidence::low;
            out.reasons.push_back(
                "inside a container these words come as well from a container with no "
                "driver at all, and the log does not show the driver (" +
                std::string(ambiguous->source) + ")");
        } else if (!ambiguous->usual_reading_holds) {
            out.confidence = Confidence::low;
            out.reasons.push_back("several causes print these words (" + std::string(ambiguous->source) +
                                  ")");
        } else if (out.confidence == Confidence::high) {
            out.confidence = Confidence::medium;
            out.reasons.insert(out.reasons.begin(),
                               "these words usually mean this, but other causes print them too");
        }
        for (const AlternativeCause& alternative : ambiguous->alternatives)
            add_candidate(out.candidates, alternative.failure_class, std::string(alternative.when),
                          std::string(alternative.tell_apart));
    }

    // Another class the text supports nearly as well. Words documented to be
    // printed by the decider's cause too (their ambiguity lists it: 804's
    // words beside NVML's version mismatch) do not disagree with it.
    auto also_means_decider = [&](const Finding& f) {
        const AmbiguousEvidence* words = find_ambiguous_evidence(f.id);
        return words && std::any_of(words->alternatives.begin(), words->alternatives.end(),
                                    [&](const AlternativeCause& alternative) {
                                        return alternative.failure_class == decider.failure_class;
                                    });
    };
    for (const Finding& f : explanation.findings) {
        if (f.failure_class == decider.failure_class || f.specificity < kMediumSpecificity ||
            f.specificity + kCompetingMargin < decider.specificity || also_means_decider(f))
            continue;
        if (out.confidence == Confidence::high) out.confidence = Confidence::medium;
        out.reasons.push_back("line " + std::to_string(f.line) + " points at " + f.failure_class +
                              " nearly as well");
        add_candidate(out.candidates, f.failure_class, f.meaning, first_manual_check(f.failure_class));
        break;
    }

    // Where no container context was given, the words' container reading is a candidate.
    if (!context.in_container && !decider.failure_class_in_container.empty() &&
        decider.failure_class_in_container != decider.failure_class) {
        if (out.confidence == Confidence::high) out.confidence = Confidence::medium;
        out.reasons.push_back("inside a container the same words mean " + decider.failure_class_in_container +
                              " (say --container yes or no)");
        add_candidate(out.candidates, decider.failure_class_in_container,
                      class_title(decider.failure_class_in_container),
                      first_manual_check(decider.failure_class_in_container));
    }

    // The real reports most like this one: where the closest ones agree on
    // another cause, the rules and the record of solved cases disagree.
    if (!out.similar.empty() && out.similar.front().score >= kStrongNeighbour) {
        bool any_agrees = std::any_of(out.similar.begin(), out.similar.end(), [&](const SimilarReport& s) {
            return s.report->failure_class == decider.failure_class;
        });
        const std::string& other = out.similar.front().report->failure_class;
        size_t backing = std::count_if(out.similar.begin(), out.similar.end(), [&](const SimilarReport& s) {
            return s.report->failure_class == other && s.score >= kStrongNeighbour * kBackingShare;
        });
        if (!any_agrees && backing >= kBackingNeighbours) {
            out.confidence = lower(out.confidence);
            out.reasons.insert(out.reasons.begin(), "the most similar solved reports had another cause (" +
                                                        out.similar.front().report->id + ": " + other + ")");
        }
        if (!any_agrees)
            for (const SimilarReport& s : out.similar)
                add_candidate(out.candidates, s.report->failure_class,
                              "as in the similar report " + s.report->id + ": " + s.report->cause,
                              first_manual_check(s.report->failure_class));
    }
    return out;
}

}  // namespace strata
