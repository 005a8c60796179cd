// A value or a one-line error, for parsers of untrusted input (C++20 has no
// std::expected). Errors name what was wrong and where, in hex offsets.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <variant>

namespace strata::arch {

struct Error {
    std::string message;
};

template <typename T>
class [[nodiscard]] Expected {
public:
    Expected(T value) : state_(std::move(value)) {}
    Expected(Error error) : state_(std::move(error)) {}

    explicit operator bool() const { return std::holds_alternative<T>(state_); }
    T& operator*() { return std::get<T>(state_); }
    const T& operator*() const { return std::get<T>(state_); }
    T* operator->() { return &std::get<T>(state_); }
    const T* operator->() const { return &std::get<T>(state_); }
    const std::string& error() const { return std::get<Error>(state_).message; }

private:
    std::variant<T, Error> state_;
};

std::string hex(uint64_t value);

}  // namespace strata::arch
