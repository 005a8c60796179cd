# Enables CUDA when nvcc is present; without it, core, arch and their tests
# still build and the summary says what was left out.
option(STRATA_ENABLE_CUDA "Build the CUDA parts when nvcc is found" ON)
include(CheckLanguage)
include(StrataArchitectures)
if(STRATA_ENABLE_CUDA)
  if(NOT CMAKE_CUDA_COMPILER AND EXISTS /usr/local/cuda/bin/nvcc)
    set(CMAKE_CUDA_COMPILER /usr/local/cuda/bin/nvcc)
  endif()
  check_language(CUDA)
endif()
set(STRATA_HAVE_CUDA OFF)
set(STRATA_CUDA_TOOLKIT_VERSION "none")
set(STRATA_KERNEL_ARCHITECTURES "")

# SASS for every architecture we test on, PTX for the newest so GPUs newer
# than this list still run our kernels through the driver's JIT.
set(STRATA_CUDA_ARCHITECTURES "75-real;80-real;86-real;89-real;90-real;100-real;120"
    CACHE STRING "CUDA architectures for strata's kernels (CMake CUDA_ARCHITECTURES syntax)")

if(STRATA_ENABLE_CUDA AND CMAKE_CUDA_COMPILER)
  enable_language(CUDA)
  # CMake 3.25 does not know nvcc's C++20 flag; kernels need no more than C++17.
  set(CMAKE_CUDA_STANDARD 17)
  set(CMAKE_CUDA_STANDARD_REQUIRED ON)
  find_package(CUDAToolkit REQUIRED)
  set(STRATA_HAVE_CUDA ON)
  set(STRATA_CUDA_TOOLKIT_VERSION ${CUDAToolkit_VERSION})
  set(STRATA_KERNEL_ARCHITECTURES "${STRATA_CUDA_ARCHITECTURES}")
  set(STRATA_CUDA_SUMMARY "${CUDAToolkit_VERSION} (kernels for ${STRATA_CUDA_ARCHITECTURES})")
  # Where libraries installed beside the toolkit (cuDNN, NCCL) are looked for.
  # CMake 4 gives CUDAToolkit_LIBRARY_DIR as targets/<arch>/lib, where a cuDNN
  # copied into the toolkit's lib64 is not.
  set(STRATA_CUDA_LIBRARY_HINTS ${CUDAToolkit_LIBRARY_DIR} ${CUDAToolkit_LIBRARY_ROOT}/lib64
      ${CUDAToolkit_LIBRARY_ROOT}/lib ${CUDAToolkit_BIN_DIR}/../lib64 ${CUDAToolkit_BIN_DIR}/../lib)
else()
  set(STRATA_CUDA_SUMMARY "not built (nvcc not found or STRATA_ENABLE_CUDA=OFF): kernels/ and the CUDA plugins are left out")
endif()
