#include "nccl_probe.h"

#include <nccl.h>

#include "loaded_files.h"

namespace strata::nccl {

void probe_nccl(const plugin::Reporter& report) {
    int version = 0;
    ncclResult_t rc = ncclGetVersion(&version);
    std::string path = plugin::defining_file(reinterpret_cast<void*>(&ncclGetVersion));
    report.fact("library.nccl.path", path, "dladdr");
    plugin::report_loaded_files(report, "nccl", {"libnccl"});
    if (rc != ncclSuccess) {
        report.check("library.nccl.load", STRATA_LAYER_LIBRARY, STRATA_STATUS_FAIL,
                     {std::string("ncclGetVersion failed: ") + ncclGetErrorString(rc), path,
                      "reinstall NCCL (libnccl2 or the nvidia-nccl wheel)"});
        return;
    }
    // NCCL >= 2.9 encodes major*10000 + minor*100 + patch.
    report.fact("library.nccl.version", static_cast<int64_t>(version), "ncclGetVersion");
    report.fact("library.nccl.version_text", plugin::dotted_version(version), "ncclGetVersion");
    report.check("library.nccl.load", STRATA_LAYER_LIBRARY, STRATA_STATUS_PASS,
                 {"NCCL " + plugin::dotted_version(version) + " from " + path,
                  "",
                  "",
                  {"library.nccl.version", "library.nccl.path"}});
}

}  // namespace strata::nccl
