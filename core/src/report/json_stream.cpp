#include "report/json_stream.h"

#include <cstdio>

#include "report/utf8.h"

namespace strata {

void append_json_string(std::string& out, std::string_view text) {
    out += '"';
    for (size_t i = 0; i < text.size();) {
        unsigned char c = static_cast<unsigned char>(text[i]);
        if (c == '"' || c == '\\') {
            out += '\\';
            out += static_cast<char>(c);
            ++i;
        } else if (c < 0x20) {
            char escaped[8];
            std::snprintf(escaped, sizeof escaped, "\\u%04x", c);
            out += escaped;
            ++i;
        } else if (size_t n = utf8_sequence(text, i); n > 0) {
            out.append(text.substr(i, n));
            i += n;
        } else {
            out += "\\ufffd";
            ++i;
        }
    }
    out += '"';
}

void JsonStream::separate() {
    if (after_key_) {
        after_key_ = false;
        return;
    }
    if (!first_.empty()) {
        if (!first_.back()) out_ += ',';
        first_.back() = false;
    }
}

JsonStream& JsonStream::begin_object() {
    separate();
    out_ += '{';
    first_.push_back(true);
    return *this;
}

JsonStream& JsonStream::end_object() {
    out_ += '}';
    first_.pop_back();
    return *this;
}

JsonStream& JsonStream::begin_array() {
    separate();
    out_ += '[';
    first_.push_back(true);
    return *this;
}

JsonStream& JsonStream::end_array() {
    out_ += ']';
    first_.pop_back();
    return *this;
}

JsonStream& JsonStream::key(std::string_view name) {
    separate();
    append_json_string(out_, name);
    out_ += ':';
    after_key_ = true;
    return *this;
}

JsonStream& JsonStream::value(std::string_view text) {
    separate();
    append_json_string(out_, text);
    return *this;
}

JsonStream& JsonStream::value(uint64_t number) {
    separate();
    out_ += std::to_string(number);
    return *this;
}

JsonStream& JsonStream::value(int number) {
    separate();
    out_ += std::to_string(number);
    return *this;
}

JsonStream& JsonStream::value(bool truth) {
    separate();
    out_ += truth ? "true" : "false";
    return *this;
}

JsonStream& JsonStream::null() {
    separate();
    out_ += "null";
    return *this;
}

}  // namespace strata
