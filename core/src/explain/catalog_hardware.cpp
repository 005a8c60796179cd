// Hardware fault messages other than Xid lines (those are parsed by
// xid_catalog.cpp). Sources: the NVRM kernel log ("fallen off the bus",
// "RmInitAdapter failed"), nvidia-smi's clock event reasons and ECC report,
// Linux PCIe AER messages (drivers/pci/pcie/aer.c).
#include "explain/signal.h"

namespace strata {

const std::vector<Signal>& hardware_signals() {
    static const std::vector<Signal> signals = {
        {"nvrm.fallen_off_bus", "fallen off", "fallen off (of )?the bus", "hardware_or_xid_fault",
         Layer::device, 96,
         "the GPU stopped answering on PCIe (Xid 79): drain the node; check power, temperature, seating and "
         "the "
         "system BIOS; a reboot is needed",
         "NVRM kernel log"},
        {"nvrm.gpu_lost", "gpu is lost", "", "hardware_or_xid_fault", Layer::device, 90,
         "the GPU has become inaccessible (usually after Xid 79)", "NVML / nvidia-smi"},
        {"nvrm.rminitadapter", "rminitadapter failed", "", "hardware_or_xid_fault", Layer::device, 88,
         "the driver could not initialise the GPU: a hardware, firmware or power problem (or an unsupported "
         "GPU)",
         "NVRM kernel log"},
        {"nvidia_smi.device_handle", "unable to determine the device handle for gpu", "",
         "hardware_or_xid_fault", Layer::device, 88,
         "nvidia-smi cannot reach one GPU: it is lost or needs a reset", "nvidia-smi"},
        {"gpu.requires_reset", "reset", "gpu (requires|needs) (a )?reset|reset required",
         "hardware_or_xid_fault", Layer::device, 85, "the GPU must be reset before it can be used again",
         "NVML / nvidia-smi"},
        // The kernel driver's own status codes (open-gpu-kernel-modules
        // nvstatuscodes.h) in NVRM lines: the GPU is in a state only a reset
        // (or a reboot) leaves. They say why a CUDA call beside them failed
        // ("busy or unavailable", "unknown error"), so they outrank it.
        {"nvrm.status_reset_required", "nv_err_", "nv_err_(reset_required|gpu_in_fullchip_reset|gpu_is_lost)",
         "hardware_or_xid_fault", Layer::device, 92,
         "the kernel driver reports this GPU lost or in need of a reset (NV_ERR_RESET_REQUIRED, "
         "NV_ERR_GPU_IS_LOST): an unrecoverable GPU error; drain the node, reset the GPU (nvidia-smi -r) or "
         "reboot, and read the Xid lines before it",
         "NVRM kernel log (open-gpu-kernel-modules nvstatuscodes.h)"},
        {"ecc.uncorrectable", "ecc",
         "(uncorrectable|double.bit|uncorrected) ecc|ecc error.{0,40}(uncorrectable|double)",
         "hardware_or_xid_fault", Layer::device, 90,
         "an uncorrectable memory error: drain the node and reset the GPU; replace it if it recurs",
         "CUDA runtime / NVRM"},
        {"ecc.row_remap_failure", "remap",
         "row.?remap\\w*.{0,40}(fail|pending)|remapped rows.{0,20}pending\\s*:\\s*yes|remapping failure "
         "occurred\\s*:\\s*yes",
         "hardware_or_xid_fault", Layer::device, 85,
         "the GPU's memory repair (row remapping) failed or is pending a reset",
         "nvidia-smi -q -d ROW_REMAPPER"},
        {"ecc.page_retirement", "retire", "retired pages|page retirement", "hardware_or_xid_fault",
         Layer::device, 60, "memory pages were retired for ECC errors", "nvidia-smi -q -d PAGE_RETIREMENT"},
        {"clocks.hw_slowdown", "slowdown",
         "hw (thermal |power brake )?slowdown\\s*:?\\s*active|thermal slowdown|power brake",
         "hardware_or_xid_fault", Layer::device, 80,
         "the GPU is throttled by hardware (overheating or the power brake): check cooling and power",
         "nvidia-smi clocks_event_reasons"},
        {"pcie.aer", "aer:", "aer:.{0,80}(uncorrected|fatal)", "hardware_or_xid_fault", Layer::device, 75,
         "the PCIe link reports uncorrected errors: reseat the GPU or check the riser and slot",
         "Linux drivers/pci/pcie/aer.c"},
        {"pcie.bus_error", "pcie bus error", "pcie bus error.{0,80}(uncorrected|fatal)",
         "hardware_or_xid_fault", Layer::device, 75, "the PCIe link reports uncorrected errors",
         "Linux drivers/pci/pcie/aer.c"},
        // nvidia-smi prints ERR! in its table for a GPU it cannot read.
        {"nvidia_smi.err_field", "err!", "\\|[^|]{0,60}err!|err![^|]{0,60}\\|", "hardware_or_xid_fault",
         Layer::device, 70,
         "nvidia-smi cannot read this GPU's fields (ERR!): it is failing or lost; check the NVRM Xid lines "
         "and reset or drain it",
         "nvidia-smi"},
        {"power.insufficient", "insufficient external power", "", "hardware_or_xid_fault", Layer::device, 85,
         "the GPU's auxiliary power is not connected", "NVML"},
    };
    return signals;
}

const std::vector<Signal>& all_signals() {
    static const std::vector<Signal> all = [] {
        std::vector<Signal> out;
        for (const auto* catalog :
             {&driver_signals(), &container_signals(), &framework_signals(), &nccl_signals(),
              &toolchain_signals(), &hardware_signals(), &vocabulary_signals()})
            out.insert(out.end(), catalog->begin(), catalog->end());
        return out;
    }();
    return all;
}

}  // namespace strata
