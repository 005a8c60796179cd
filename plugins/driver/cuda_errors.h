// Names and meanings of the CUresult codes strata meets, for drivers too old
// (or stubs too bare) to name them through cuGetErrorName.
#pragma once

namespace strata::driver {

const char* cuda_error_name(int code);     // "CUDA_ERROR_NO_DEVICE", or "CUDA_ERROR_<code>"
const char* cuda_error_meaning(int code);  // the driver's own one-line text, or "unknown error code"

}  // namespace strata::driver
