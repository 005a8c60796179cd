#include "cublas_probe.h"

#include <cublasLt.h>
#include <cublas_v2.h>

#include "loaded_files.h"

namespace strata::cublas {

void probe_cublas(const plugin::Reporter& report) {
    int major = 0, minor = 0, patch = 0;
    bool have = cublasGetProperty(MAJOR_VERSION, &major) == CUBLAS_STATUS_SUCCESS &&
                cublasGetProperty(MINOR_VERSION, &minor) == CUBLAS_STATUS_SUCCESS &&
                cublasGetProperty(PATCH_LEVEL, &patch) == CUBLAS_STATUS_SUCCESS;
    long long version = major * 10000LL + minor * 100 + patch;
    if (have) {
        report.fact("library.cublas.version", version, "cublasGetProperty");
        report.fact("library.cublas.version_text", plugin::dotted_version(version), "cublasGetProperty");
    }
    auto lt_version = static_cast<long long>(cublasLtGetVersion());
    auto lt_cudart = static_cast<long long>(cublasLtGetCudartVersion());
    report.fact("library.cublaslt.version", lt_version, "cublasLtGetVersion");
    report.fact("library.cublaslt.version_text", plugin::dotted_version(lt_version), "cublasLtGetVersion");
    // The CUDA runtime cuBLASLt was built against: what it needs from the driver.
    report.fact("library.cublaslt.cudart_version", lt_cudart, "cublasLtGetCudartVersion");
    std::string cublas_path = plugin::defining_file(reinterpret_cast<void*>(&cublasGetProperty));
    std::string lt_path = plugin::defining_file(reinterpret_cast<void*>(&cublasLtGetVersion));
    report.fact("library.cublas.path", cublas_path, "dladdr");
    report.fact("library.cublaslt.path", lt_path, "dladdr");
    plugin::report_loaded_files(report, "cublas", {"libcublas"});
    // cuBLAS and cuBLASLt ship together; different versions mean two
    // installations are mixed on the search path.
    bool agree = !have || version == lt_version;
    report.check(
        "library.cublas.load", STRATA_LAYER_LIBRARY, agree ? STRATA_STATUS_PASS : STRATA_STATUS_FAIL,
        {agree ? "cuBLAS " + plugin::dotted_version(version) + " (built for CUDA " +
                     plugin::cuda_version_text(static_cast<int>(lt_cudart)) + ") from " + cublas_path
               : "cuBLAS " + plugin::dotted_version(version) + " and cuBLASLt " +
                     plugin::dotted_version(lt_version) + " come from different releases",
         "libcublas: " + cublas_path + "\nlibcublasLt: " + lt_path,
         agree ? ""
               : "keep one cuBLAS installation on the library search path (libcublas and libcublasLt "
                 "must come from the same release)",
         {"library.cublas.version", "library.cublaslt.version", "library.cublaslt.cudart_version"}});
}

}  // namespace strata::cublas
