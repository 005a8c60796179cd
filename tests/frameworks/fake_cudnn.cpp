// A stand-in libcudnn.so.9 for the framework fixtures: the loader tests need
// a file with the right soname in the right place, not a working cuDNN.
#include <cstddef>

extern "C" size_t cudnnGetVersion() {
    return STRATA_FAKE_CUDNN_VERSION;
}
