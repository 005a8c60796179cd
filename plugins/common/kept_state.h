// What a plugin's benchmarks keep between calls: one object per benchmark
// (library handles, communicators, device buffers), made on first use so that
// no timed region includes creating it, and freed by release(), which the
// plugin's release_benchmarks task calls while the harness's stream and the
// CUDA context still exist. Left to the static destructor, the objects would
// be destroyed after main returns, when the CUDA runtime may be gone.
#pragma once

#include <array>
#include <cstddef>
#include <memory>

namespace strata::plugin {

template <typename T, size_t N>
class KeptState {
public:
    // The I-th object, made by `make()` (returning std::unique_ptr<T>) the first time.
    template <typename Make>
    T& get(size_t index, Make&& make) {
        if (!items_[index]) items_[index] = make();
        return *items_[index];
    }
    // Destroys every object, last made first.
    void release() {
        for (size_t i = N; i-- > 0;) items_[i].reset();
    }

private:
    std::array<std::unique_ptr<T>, N> items_;
};

}  // namespace strata::plugin
