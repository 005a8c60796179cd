// NCCL's own messages. Sources: ncclGetErrorString (src/init.cc) for the
// result codes every caller prints ("unhandled system error (run with
// NCCL_DEBUG=INFO for details)"), PyTorch's gloss of them
// (torch/csrc/distributed/c10d/NCCLUtils: "ncclSystemError: System call (e.g.
// socket, malloc) ..."), and the WARN lines that name the failing call
// (src/include/debug.h's "NCCL WARN" prefix; shared memory in
// src/misc/shmutils.cc, sockets in src/misc/socket.cc, the bootstrap in
// src/bootstrap.cc, the network transports in src/transport/net_*.cc).
//
// A result code only says which family failed; the WARN line beside it says
// what. So the codes rank above the bare code names (40, which say no more
// than the code) but below every WARN line and below the CUDA errors a "Cuda
// failure 'no kernel image ...'" line carries (75 and up).
#include "explain/signal.h"

namespace strata {

const std::vector<Signal>& nccl_signals() {
    static const std::vector<Signal> signals = {
        // Result codes (ncclResult_t) in the words ncclGetErrorString prints,
        // which every caller repeats (RCCL and MSCCL++ print the same). The
        // bare enum names are status codes (status_codes_generated.inc).
        {"nccl.system_error", "unhandled system error", "", "other", Layer::host, 45,
         "a system call NCCL made failed (shared memory, sockets, memory registration); its WARN line names "
         "the call (NCCL_DEBUG=WARN). In a container the usual cause is a 64 MB /dev/shm: run it with "
         "--ipc=host or --shm-size=1g",
         "NCCL ncclGetErrorString (ncclSystemError)"},
        {"nccl.unhandled_cuda_error", "unhandled cuda error", "", "other", Layer::runtime, 45,
         "a CUDA call inside NCCL failed: NCCL's \"Cuda failure\" WARN line names the CUDA error, and that "
         "error is the cause (NCCL_DEBUG=WARN)",
         "NCCL ncclGetErrorString (ncclUnhandledCudaError)"},
        {"nccl.internal_error", "internal error - please report this issue to the nccl developers", "",
         "other", Layer::library, 45,
         "an internal check in NCCL failed, most often after an earlier failure on some rank (another NCCL "
         "release or other NCCL settings there, a transport that failed): read every rank's first NCCL WARN "
         "line",
         "NCCL ncclGetErrorString (ncclInternalError)"},
        {"nccl.invalid_usage", "invalid usage (run with nccl_debug", "", "other", Layer::library, 45,
         "NCCL refused how it was called (two ranks on one GPU, ranks that disagree on a collective): its "
         "WARN line says which",
         "NCCL ncclGetErrorString (ncclInvalidUsage)"},
        {"nccl.remote_error", "remote process exited or there was a network error", "", "other", Layer::host,
         50,
         "another rank exited or the network between ranks failed: the first rank to fail holds the cause; "
         "check that NCCL_SOCKET_IFNAME (and NCCL_IB_HCA) name links that reach every node",
         "NCCL ncclGetErrorString (ncclRemoteError)"},
        // WARN lines: what actually failed.
        {"nccl.cuda_failure", "nccl warn cuda failure", "", "other", Layer::runtime, 55,
         "a CUDA call inside NCCL failed with the error quoted on this line: that error is the cause",
         "NCCL src/include/checks.h (CUDACHECK)"},
        {"nccl.shared_memory_segment", "shared memory segment",
         "error while (creating|attaching to) shared memory segment", "other", Layer::host, 80,
         "NCCL could not create or map its buffer in /dev/shm: it is full or too small (a container's "
         "default is 64 MB: --ipc=host or --shm-size=1g; Kubernetes: an emptyDir with medium: Memory at "
         "/dev/shm) or not writable by this user",
         "NCCL src/misc/shmutils.cc"},
        {"nccl.shared_memory_call", "nccl warn call to",
         "nccl warn call to (shm_open|shm_unlink|posix_fallocate|fallocate|ftruncate|mmap) failed", "other",
         Layer::host, 82,
         "a shared-memory call NCCL made failed: \"No space left on device\" is a /dev/shm too small "
         "(containers: --ipc=host or --shm-size=1g), \"Permission denied\" one this user cannot write",
         "NCCL src/misc/shmutils.cc"},
        {"nccl.duplicate_gpu", "duplicate gpu detected", "", "other", Layer::device, 85,
         "two ranks were given the same GPU: each rank must select its own device "
         "(torch.cuda.set_device(local_rank), or one CUDA_VISIBLE_DEVICES entry per rank)",
         "NCCL src/init.cc (duplicate GPU check)"},
        {"nccl.no_interface", "interface found", "no (socket|usable|usable listening) interface found",
         "other", Layer::host, 70,
         "NCCL found no network interface to use: NCCL_SOCKET_IFNAME matches none on this node (or only "
         "loopback and docker bridges exist); set it to the interface that links the nodes (ip -br addr)",
         "NCCL src/misc/socket.cc (ncclFindInterfaces)"},
        {"nccl.connect_failed", "nccl warn",
         "nccl warn.{0,80}(connect to \\S+ failed|call to connect returned|connection refused|no route to "
         "host|connection timed out)",
         "other", Layer::host, 60,
         "a rank could not open a TCP connection to another: check that NCCL_SOCKET_IFNAME picks an "
         "interface that reaches the other nodes, the master address and port, and firewalls",
         "NCCL src/misc/socket.cc"},
        {"nccl.net_warn", "nccl warn net/", "", "other", Layer::host, 45,
         "NCCL's network transport failed (InfiniBand, RoCE or sockets): check the fabric and "
         "NCCL_SOCKET_IFNAME",
         "NCCL src/transport/net_*.cc"},
        // Collectives that never finish. A hang that NCCL_P2P_DISABLE=1 cures
        // is PCIe peer-to-peer traffic rerouted through the root complex by
        // ACS or a translating IOMMU (NCCL User Guide, Troubleshooting: PCI
        // Access Control Services; GPU Direct).
        {"nccl.p2p_hang", "nccl_p2p_disable", "any:hang|deadlock|stuck|freez|fix|avoid|solve|work", "other",
         Layer::host, 72,
         "NCCL's GPU-to-GPU path over PCIe stalls on this host: PCIe ACS (or the IOMMU in translated mode) "
         "routes peer traffic through the root complex. Disable ACS on the PCIe bridges (BIOS, or setpci) "
         "or boot with iommu=pt, rather than keeping NCCL_P2P_DISABLE=1, which costs bandwidth",
         "NCCL User Guide (Troubleshooting: PCI Access Control Services)"},
        {"torch.nccl_watchdog_timeout", "watchdog caught collective operation timeout", "", "other",
         Layer::host, 55,
         "a collective never finished on every rank: one rank failed or lags (its log holds the first "
         "error), or NCCL's peer-to-peer path stalls (on PCIe machines, PCIe ACS or the IOMMU: if "
         "NCCL_P2P_DISABLE=1 makes it pass, disable ACS or boot with iommu=pt)",
         "PyTorch torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp (watchdog)"},
        {"nccl.collective_hang", "nccl",
         "nccl\\w*(allreduce|all_reduce|broadcast|allgather|reducescatter|send|recv)\\w*.{0,40}(hangs?|hung|"
         "deadlocks?|stuck|freezes)",
         "other", Layer::host, 45,
         "an NCCL collective that never returns: a rank that failed or lags, or a stalled transport (PCIe "
         "ACS or the IOMMU on PCIe machines: try NCCL_P2P_DISABLE=1 to tell), or network interfaces that "
         "do not reach each other (NCCL_SOCKET_IFNAME); run with NCCL_DEBUG=INFO on every rank",
         "NCCL User Guide (Troubleshooting)"},
        // Ranks that disagree.
        {"nccl.version_mismatch", "nccl version mismatch", "", "nccl_or_cudnn_version_mismatch",
         Layer::library, 90, "the NCCL loaded differs from the one the program was built with", "NCCL"},
        // The bootstrap read a peer address it cannot parse (family 0 or a
        // garbage number; 1 is AF_UNIX, a configuration of its own): the
        // ranks disagree on what they exchange, most often because the nodes
        // load different NCCL releases.
        {"nccl.bootstrap_address", "is neither af_inet", "family (0|[3-9]|\\d{2,}) is neither af_inet",
         "nccl_or_cudnn_version_mismatch", Layer::library, 55,
         "NCCL received a peer address it cannot read: the ranks do not run the same NCCL (compare each "
         "rank's \"NCCL version\" line) or the same NCCL settings",
         "NCCL src/misc/socket.cc (ncclSocketInit)"},
    };
    return signals;
}

}  // namespace strata
