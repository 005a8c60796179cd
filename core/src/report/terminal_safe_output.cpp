#include "report/terminal_safe_output.h"

#include <cstdio>
#include <iostream>
#include <memory>
#include <sstream>

namespace strata {

namespace {

constexpr unsigned char kEscape = 0x1b;
constexpr unsigned char kUtf8C1Lead = 0xc2;  // U+0080..U+009F are C2 80..C2 9F
constexpr size_t kLongestColourSequence = 16;

bool is_c0_to_escape(unsigned char c) {
    return (c < 0x20 && c != '\n' && c != '\t') || c == 0x7f;
}

// Whether "ESC [ params m" is a colour strata prints itself (text_report.cpp:
// bold, dim, red, green, yellow, reset). Any other rendition stays escaped:
// conceal (8) in a benchmark name hid every row after it, and reverse video,
// blink or black on black can hide or forge as well.
bool is_strata_colour(std::string_view sequence) {
    std::string_view params = sequence.substr(2, sequence.size() - 3);  // between "ESC [" and "m"
    while (true) {
        size_t end = params.find(';');
        std::string_view one = params.substr(0, end);
        if (!(one.empty() || one == "0" || one == "1" || one == "2" || one == "22" || one == "31" ||
              one == "32" || one == "33" || one == "39"))
            return false;
        if (end == std::string_view::npos) return true;
        params.remove_prefix(end + 1);
    }
}

}  // namespace

TerminalSafeBuffer::~TerminalSafeBuffer() {
    flush_pending_escaped();
    target_->pubsync();
}

bool TerminalSafeBuffer::emit(std::string_view text) {
    if (text.empty()) return true;
    if (target_->sputn(text.data(), static_cast<std::streamsize>(text.size())) !=
        static_cast<std::streamsize>(text.size()))
        failed_ = true;
    return !failed_;
}

bool TerminalSafeBuffer::emit_escaped(unsigned char c) {
    char text[8];
    std::snprintf(text, sizeof text, "\\u%04x", static_cast<unsigned>(c));
    return emit(text);
}

// What was held back turned out not to be a colour sequence (or the stream
// ends inside one): show it, escaped.
bool TerminalSafeBuffer::flush_pending_escaped() {
    std::string held = std::move(pending_);
    pending_.clear();
    if (held.empty()) return true;
    if (static_cast<unsigned char>(held[0]) == kUtf8C1Lead) return emit(held);
    emit_escaped(kEscape);
    for (size_t i = 1; i < held.size(); ++i) put(static_cast<unsigned char>(held[i]));
    return !failed_;
}

bool TerminalSafeBuffer::put(unsigned char c) {
    if (!pending_.empty()) {
        unsigned char lead = static_cast<unsigned char>(pending_[0]);
        if (lead == kUtf8C1Lead) {
            pending_.clear();
            if (c >= 0x80 && c <= 0x9f) return emit_escaped(c);
            if (!emit(std::string_view("\xc2", 1))) return false;
        } else if (pending_.size() == 1) {  // after ESC: only '[' may follow
            if (c == '[') {
                pending_ += static_cast<char>(c);
                return true;
            }
            if (!flush_pending_escaped()) return false;
        } else if ((c >= '0' && c <= '9') || c == ';') {  // inside ESC [
            if (pending_.size() < kLongestColourSequence) {
                pending_ += static_cast<char>(c);
                return true;
            }
            if (!flush_pending_escaped()) return false;
        } else if (c == 'm') {  // a complete rendition sequence: strata's own colours pass
            pending_ += 'm';
            if (!is_strata_colour(pending_)) return flush_pending_escaped();
            std::string colour = std::move(pending_);
            pending_.clear();
            return emit(colour);
        } else if (!flush_pending_escaped()) {
            return false;
        }
    }
    if (c == kEscape || c == kUtf8C1Lead) {
        pending_ = static_cast<char>(c);
        return true;
    }
    if (is_c0_to_escape(c)) return emit_escaped(c);
    char plain = static_cast<char>(c);
    return emit(std::string_view(&plain, 1));
}

TerminalSafeBuffer::int_type TerminalSafeBuffer::overflow(int_type c) {
    if (traits_type::eq_int_type(c, traits_type::eof())) return traits_type::not_eof(c);
    return put(static_cast<unsigned char>(traits_type::to_char_type(c))) ? c : traits_type::eof();
}

std::streamsize TerminalSafeBuffer::xsputn(const char* data, std::streamsize count) {
    std::streamsize done = 0;
    while (done < count) {
        // The common case: a run of ordinary bytes goes out in one call.
        std::streamsize run = 0;
        if (pending_.empty()) {
            while (done + run < count) {
                unsigned char c = static_cast<unsigned char>(data[done + run]);
                if (c == kEscape || c == kUtf8C1Lead || is_c0_to_escape(c)) break;
                ++run;
            }
            if (run > 0) {
                if (!emit(std::string_view(data + done, static_cast<size_t>(run)))) return done;
                done += run;
                continue;
            }
        }
        if (!put(static_cast<unsigned char>(data[done]))) return done;
        ++done;
    }
    return done;
}

int TerminalSafeBuffer::sync() {
    // A held-back ESC or C2 may still be completed by the next write, so it
    // stays; everything before it is pushed out.
    return failed_ || target_->pubsync() != 0 ? -1 : 0;
}

void make_standard_streams_terminal_safe() {
    // Deliberately leaked: the streams are used until the process exits.
    static auto* out = new TerminalSafeBuffer(std::cout.rdbuf());
    static auto* err = new TerminalSafeBuffer(std::cerr.rdbuf());
    std::cout.rdbuf(out);
    std::cerr.rdbuf(err);
    std::cerr.setf(std::ios::unitbuf);
}

std::string one_line(std::string_view text) {
    std::string out;
    out.reserve(text.size());
    char escaped[8];
    for (char c : text) {
        auto byte = static_cast<unsigned char>(c);
        if (byte < 0x20 || byte == 0x7f) {
            std::snprintf(escaped, sizeof escaped, "\\u%04x", static_cast<unsigned>(byte));
            out += escaped;
        } else {
            out += c;
        }
    }
    return out;
}

std::string terminal_safe(std::string_view text) {
    std::ostringstream out;
    {
        TerminalSafeBuffer filter(out.rdbuf());
        filter.sputn(text.data(), static_cast<std::streamsize>(text.size()));
    }
    return out.str();
}

}  // namespace strata
