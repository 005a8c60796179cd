// A small streaming JSON writer for large documents (`strata arch --json` over
// a library with 24,000 images), where building an nlohmann tree first costs
// more than reading the file. Output is compact, strict JSON: strings are
// escaped, invalid UTF-8 becomes U+FFFD, numbers are integers.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace strata {

class JsonStream {
public:
    JsonStream& begin_object();
    JsonStream& end_object();
    JsonStream& begin_array();
    JsonStream& end_array();
    JsonStream& key(std::string_view name);
    JsonStream& value(std::string_view text);
    JsonStream& value(const char* text) { return value(std::string_view(text)); }
    JsonStream& value(uint64_t number);
    JsonStream& value(int number);
    JsonStream& value(bool truth);  // true/false, never 1/0
    JsonStream& null();
    JsonStream& field(std::string_view name, std::string_view text) { return key(name).value(text); }
    JsonStream& field(std::string_view name, uint64_t number) { return key(name).value(number); }

    const std::string& text() const { return out_; }

private:
    void separate();  // a comma before every element but the first
    std::string out_;
    std::vector<bool> first_;  // per open container: nothing written in it yet
    bool after_key_ = false;
};

// Appends `text` as a JSON string literal.
void append_json_string(std::string& out, std::string_view text);

}  // namespace strata
