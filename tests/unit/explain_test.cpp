// `strata explain` in process: scores on real reports (with a held-out half
// and reports the rules were never tuned on), every generated status code,
// Xid events, whole logs, containers, and hostile input.
#include "explain/explain.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <sstream>

#include "explain/ambiguous_evidence.h"
#include "explain/assessment.h"
#include "explain/explain_context.h"
#include "explain/signal.h"
#include "explain/similar_reports.h"
#include "explain/text_lines.h"
#include "model/usage_error.h"
#include "probes/probes.h"

using namespace strata;

namespace {

struct Score {
    int total = 0, right = 0, silent = 0;
    std::vector<std::string> misses;
};

// Positions 0, 2, 4 … of the shared reports are the half the rules may be
// tuned on; 1, 3, 5 … are only ever scored (`every_other` picks one).
Score score_file(const char* path, int every_other = -1) {
    std::ifstream in(path);
    REQUIRE(in);
    Score score;
    std::string line;
    for (int position = 0; std::getline(in, line); ++position) {
        if (every_other >= 0 && position % 2 != every_other) continue;
        auto record = nlohmann::json::parse(line);
        Explanation found =
            explain_text(record["error_text"].get<std::string>(), record.value("container", false));
        ++score.total;
        if (!found.cause) ++score.silent;
        if (found.cause && found.cause->failure_class == record["root_layer"])
            ++score.right;
        else
            score.misses.push_back(record["id"].get<std::string>());
    }
    return score;
}

std::string cause_class(std::string_view text, bool in_container = false) {
    Explanation found = explain_text(text, in_container);
    return found.cause ? found.cause->failure_class : "(none)";
}

std::string cause_id(std::string_view text, bool in_container = false) {
    Explanation found = explain_text(text, in_container);
    return found.cause ? found.cause->id : "(none)";
}

// A public set keeps `total` reports, answers every one, and reaches the
// class of at least `right` of them.
void check_public_set(const char* path, int total, int right) {
    Score score = score_file(path);
    INFO(path << " misses: " << nlohmann::json(score.misses).dump());
    CHECK(score.total == total);
    CHECK(score.silent == 0);
    CHECK(score.right >= right);
}

}  // namespace

// The figures are floors: a change that loses a report fails here and must
// say why. They are measured, not tuned: see tests/explain/README.md.
TEST_CASE("real failure reports reach their class, and none goes without an answer") {
    Score tune = score_file(STRATA_TEST_FAILURE_REPORTS, 0);
    Score held_out = score_file(STRATA_TEST_FAILURE_REPORTS, 1);
    Score unseen = score_file(STRATA_TEST_PUBLIC_REPORTS);
    INFO("tune misses: " << nlohmann::json(tune.misses).dump());
    INFO("held-out misses: " << nlohmann::json(held_out.misses).dump());
    INFO("public misses: " << nlohmann::json(unseen.misses).dump());
    CHECK(tune.total == 23);
    CHECK(held_out.total == 22);
    CHECK(unseen.total >= 40);
    CHECK(tune.silent + held_out.silent + unseen.silent == 0);
    CHECK(tune.right >= 22);
    CHECK(held_out.right >= 21);
    CHECK(unseen.right >= 46);
}

// The second public set was gathered after the rules above were written and
// scored before any change (26 of 32, one without an answer); the rules that
// reach the five it then missed are general ones (tests below), so this floor
// is a regression guard, not a measure of unseen accuracy.
TEST_CASE("the second public set keeps its class and no report goes without an answer") {
    check_public_set(STRATA_TEST_PUBLIC_REPORTS_2, 32, 31);
}

// The third public set, scored once with the engine frozen: 22 of 35, two
// without an answer. The rules that reach its misses are general (tests
// below); the three it still misses are ones the text cannot settle
// (tests/explain/README.md).
TEST_CASE("the third public set keeps its class and no report goes without an answer") {
    check_public_set(STRATA_TEST_PUBLIC_REPORTS_3, 35, 33);
}

// The fourth public set, gathered after the third set's rules and scored
// once with the engine frozen: 22 of 35, one without an answer. Its misses
// led to the general rules below; the eight it still misses are ones the
// text cannot settle (tests/explain/README.md).
TEST_CASE("the fourth public set keeps its class and no report goes without an answer") {
    check_public_set(STRATA_TEST_PUBLIC_REPORTS_4, 35, 28);
}

// The fifth public set, gathered after the probes and scored once with the
// engine frozen: 14 of 21, one without an answer; six of its seven misses
// read as another class than the thread's cause (tests/explain/README.md).
TEST_CASE("the fifth public set keeps its class and no report goes without an answer") {
    check_public_set(STRATA_TEST_PUBLIC_REPORTS_5, 21, 16);
}

// The sixth public set, gathered after all of the above and scored once with
// the engine frozen: 19 of 23, two without an answer. The two it still
// misses are hardware faults whose text reads as a program's
// (tests/explain/README.md).
TEST_CASE("the sixth public set keeps its class and no report goes without an answer") {
    check_public_set(STRATA_TEST_PUBLIC_REPORTS_6, 23, 21);
}

// The seventh public set, gathered after all of the above (on 2026-12-05,
// with many of the trackers' threads already in other sets) and scored once
// with the engine frozen: 17 of 18, none without an answer. The miss led to
// the link-time-reference rule below.
TEST_CASE("the seventh public set keeps its class and no report goes without an answer") {
    check_public_set(STRATA_TEST_PUBLIC_REPORTS_7, 18, 18);
}

// The eighth public set, gathered on 2026-12-06 after all of the above and
// scored once with the engine frozen: 16 of 19. Its three misses are texts
// that cannot settle (tests/explain/README.md); what it taught (NCCL's result
// codes said "an NCCL call failed" and no more) is tested below, on other texts.
TEST_CASE("the eighth public set keeps its class and no report goes without an answer") {
    check_public_set(STRATA_TEST_PUBLIC_REPORTS_8, 19, 16);
}

// The ninth public set, gathered on 2026-12-06 after the eighth's rules and
// scored once with the engine frozen: 19 of 22. Two misses were the unversioned
// libcuda.so of a machine whose driver works (one shows libcuda.so.1 loading in
// the same paste; the other cannot settle from its text), the third JAX's CUDA
// plugin wording a cuDNN older than its build; both led to the rules below.
TEST_CASE("the ninth public set keeps its class and no report goes without an answer") {
    check_public_set(STRATA_TEST_PUBLIC_REPORTS_9, 22, 21);
}

// The tenth public set, gathered on 2026-12-06 (stop 32) and scored once with
// the engine frozen: 15 of 20, two without an answer. Its misses led to the
// rules below (a pip package's sibling library lost to another copy, cuDNN
// asking for the unversioned libcuda.so, TensorFlow's "kernel driver does not
// appear to be running", XLA's DNN initialisation, NCCL hangs); the same
// sibling rule also reached three earlier known misses (P40, T25, V25). The
// one it still misses (BB06) is a bare "DNN library initialization failed"
// that a driver upgrade cured: the words are the same as a cuDNN mismatch.
TEST_CASE("the tenth public set keeps its class and no report goes without an answer") {
    check_public_set(STRATA_TEST_PUBLIC_REPORTS_10, 20, 19);
}

// The eleventh set (CC01-CC17), scored once with the engine frozen: 13 of 17,
// two without an answer. Its misses led to the rules below: the kernel's,
// lockdown's and the driver installer's words for a module refused for its
// signature, the installer's bare "Unable to load the kernel module", and
// NVRTC's "failed to load builtins". The one it still misses (CC12) is a
// Windows "Loaded runtime CuDNN library" whose cause was an old DLL earlier on
// PATH: the words are those of an installed cuDNN of the wrong version.
TEST_CASE("the eleventh public set keeps its class and no report goes without an answer") {
    check_public_set(STRATA_TEST_PUBLIC_REPORTS_11, 17, 16);
}

// The twelfth set (DD01-DD22), scored once with the engine frozen: 12 of 22,
// none without an answer. Its misses led to the rules below: wrappers'
// spellings of status codes (CUDA.jl, ManagedCuda, Rust's cust), the PTX JIT
// library as a missing library, NVML's version mismatch inside a running
// container, nvidia-docker 1.0's CUDA check, an empty driver library, the
// kernel driver's NV_ERR_RESET_REQUIRED, and a toolkit newer than the driver
// beside "no kernel image". The same container reading reached W01. The four
// it still misses are ones the text cannot settle (tests/explain/README.md).
TEST_CASE("the twelfth public set keeps its class and no report goes without an answer") {
    check_public_set(STRATA_TEST_PUBLIC_REPORTS_12, 22, 18);
}

// The thirteenth set (EE01-EE14), scored once after the twelfth set's rules
// with the engine frozen: 8 of 14, four without an answer. Its misses led to
// the rules below: Windows' and MATLAB's words for a library that cannot be
// loaded, MATLAB's driver messages, PyTorch's device-index assertion (MIG),
// and peer access a GPU pair lacks. The one left unanswered (EE05) has no
// error in it: a device count of 0 beside a MIG UUID.
TEST_CASE("the thirteenth public set keeps its class") {
    Score score = score_file(STRATA_TEST_PUBLIC_REPORTS_13);
    INFO("misses: " << nlohmann::json(score.misses).dump());
    CHECK(score.total == 14);
    CHECK(score.right >= 13);
    CHECK(score.silent <= 1);
}

TEST_CASE("a library that cannot be loaded, in Windows', MATLAB's and prose's words") {
    CHECK(cause_class("Error: nvcuda.dll not found") == "driver_missing");
    CHECK(cause_class("Error: nvcuda.dll not found", true) == "container_device_not_exposed");
    CHECK(
        cause_id("W tensorflow/stream_executor/platform/default/dso_loader.cc: cudart64_110.dll not found") ==
        "loader.cuda_library_missing");
    CHECK(cause_id("OSError: Could not load \"cublas64_11.dll\": The specified module could not be found.") ==
          "loader.cuda_library_missing");
    CHECK(
        cause_class("The CUDA driver could not be loaded. The library name used was 'nvcuda.dll'. The error "
                    "was: The specified module could not be found.") == "driver_missing");
    // A verb before something that is not a library is not a loader message.
    CHECK(cause_id("could not load symbol cuInit from the driver") != "loader.cuda_library_missing");
    CHECK(cause_id("the checkpoint was not found") == "(none)");
}

TEST_CASE("MATLAB's driver messages, PyTorch's device-index assertion and a GPU pair without peer access") {
    CHECK(cause_id(
              "Caused by:\n    The CUDA driver was found, but it is too old. The CUDA driver on your system "
              "supports CUDA version 10.1. The required CUDA version is 11.2 or greater.") ==
          "matlab.driver_too_old");
    CHECK(cause_class("Error using gpuDevice\nThe CUDA driver could not be loaded.", true) ==
          "container_device_not_exposed");
    Explanation assert_failed = explain_text(
        "RuntimeError: device >= 0 && device < num_gpus INTERNAL ASSERT FAILED at "
        "\"../aten/src/ATen/cuda/CUDAContext.cpp\":50, please report a bug to PyTorch.",
        false);
    REQUIRE(assert_failed.cause);
    CHECK(assert_failed.cause->id == "pytorch.device_index_assert");
    CHECK(assert_failed.cause->meaning.find("MIG") != std::string::npos);
    for (std::string_view text :
         {"RuntimeError: CUDA error: peer access is not supported between these two devices",
          "cudaDeviceEnablePeerAccess failed: peer access is not supported between these two"}) {
        INFO(text);
        CHECK(cause_id(text) == "cuda.peer_access_unsupported");
        CHECK(cause_class(text) == "other");
    }
}

TEST_CASE("status codes are read in the spellings wrappers print them in") {
    // CUDA.jl drops "CUDA_", pynvml "NVML_"; the line says which family.
    CHECK(cause_id("ERROR: CUDA error: no kernel image (code 209, ERROR_NO_BINARY_FOR_GPU)") ==
          "CUDA_ERROR_NO_BINARY_FOR_GPU");
    CHECK(cause_id("cuModuleGetFunction returned ERROR_NOT_FOUND") == "CUDA_ERROR_NOT_FOUND");
    CHECK(cause_id("nvmlDeviceGetHandleByPciBusId_v2 returned ERROR_NOT_FOUND") == "NVML_ERROR_NOT_FOUND");
    // ManagedCuda drops "cuda".
    CHECK(cause_id("ManagedCuda.CudaException: ErrorNoKernelImageForDevice") ==
          "cudaErrorNoKernelImageForDevice");
    // Rust's cust keeps the tail; only a tail naming a CUDA thing with a
    // specific class counts.
    Explanation bare = explain_text("Error: NoKernelImageForDevice", false);
    REQUIRE(bare.cause);
    CHECK(bare.cause->id == "cudaErrorNoKernelImageForDevice");
    CHECK(bare.cause->specificity == 60);
    CHECK(cause_id("Error: InvalidValue") != "cudaErrorInvalidValue");
    CHECK(cause_id("Error: SymbolNotFound") != "cudaErrorSymbolNotFound");
    CHECK(cause_id("the parser raised InvalidSource") != "cudaErrorInvalidSource");
}

TEST_CASE("the PTX JIT library missing is a missing driver library, and a container not given it") {
    for (std::string_view text : {"RuntimeError: CUDA error: PTX JIT compiler library not found",
                                  "cuLinkCreate failed: CUDA_ERROR_JIT_COMPILER_NOT_FOUND",
                                  "CUDA error (code 221, ERROR_JIT_COMPILER_NOT_FOUND)"}) {
        INFO(text);
        CHECK(cause_class(text) == "missing_or_mismatched_shared_library");
        CHECK(cause_class(text, true) == "container_device_not_exposed");
    }
    Explanation found = explain_text("RuntimeError: CUDA error: PTX JIT compiler library not found", false);
    REQUIRE(found.cause);
    CHECK(found.cause->meaning.find("libnvidia-ptxjitcompiler") != std::string::npos);
}

TEST_CASE("NVML's version mismatch inside a running container is the image's own driver libraries") {
    const std::string inside =
        "$ nvidia-smi\nFailed to initialize NVML: Driver/library version mismatch\n"
        "NVML library version: 550.54\n";
    CHECK(cause_class(inside, false) == "driver_missing");
    CHECK(cause_class(inside, true) == "container_device_not_exposed");
    CHECK(cause_class("$ nvtop\nImpossible to initialize nvidia nvml : Driver/library version mismatch",
                      true) == "container_device_not_exposed");
    // The runtime's hook runs on the host: its mismatch is the host's driver.
    const std::string hook =
        "docker: Error response from daemon: failed to create shim task: OCI runtime create failed: "
        "nvidia-container-cli: initialization error: nvml error: driver/library version mismatch: unknown.";
    Explanation found = explain_text(hook, true);
    REQUIRE(found.cause);
    CHECK(found.cause->id == "nvidia_container_cli.host_version_mismatch");
    CHECK(found.cause->failure_class == "driver_missing");
}

TEST_CASE("nvidia-docker 1.0's CUDA check is a driver older than the image") {
    CHECK(
        cause_class("nvidia-docker | 2017/01/21 06:46:02 Error: unsupported CUDA version: driver 8.0 < image "
                    "9.0.176") == "driver_too_old_for_runtime");
}

TEST_CASE("an empty or foreign file under a driver library's name") {
    for (std::string_view text :
         {"OSError: libcuda.so.1: file too short",
          "ImportError: /usr/lib/aarch64-linux-gnu/tegra/libnvrm_gpu.so: file too short",
          "error while loading shared libraries: /usr/lib/x86_64-linux-gnu/libnvidia-ml.so.1: invalid ELF "
          "header"}) {
        INFO(text);
        CHECK(cause_id(text) == "loader.driver_library_unusable");
        CHECK(cause_class(text) == "driver_missing");
        CHECK(cause_class(text, true) == "container_device_not_exposed");
    }
    // A 32-bit driver copy is one the loader passes over on a multilib host.
    CHECK(cause_id("Unable to load /usr/lib/libcuda.so.535.183.01: wrong ELF class: ELFCLASS32") !=
          "loader.driver_library_unusable");
    // A CUDA library's empty file is that library's problem, in or out of a container.
    CHECK(
        cause_id("OSError: /venv/lib/python3.12/site-packages/nvidia/cuda_runtime/lib/libcudart.so.12: file "
                 "too short") == "loader.not_a_library");
    CHECK(cause_class("OSError: libcudart.so.12: file too short", true) ==
          "missing_or_mismatched_shared_library");
}

TEST_CASE("the kernel driver's reset-required and GPU-lost codes outrank the CUDA error beside them") {
    const std::string log =
        "RuntimeError: CUDA error: CUDA-capable device(s) is/are busy or unavailable\n"
        "[ 812.1] NVRM: GPU3 nvAssertOkFailedNoLog: Assertion failed: GPU lost from the bus "
        "[NV_ERR_GPU_IS_LOST] (0x0000000F) returned from pRmApi->Control\n";
    Explanation found = explain_text(log, false);
    REQUIRE(found.cause);
    CHECK(found.cause->id == "nvrm.status_reset_required");
    CHECK(found.cause->failure_class == "hardware_or_xid_fault");
    CHECK(cause_class("Unable to reset GPU 00000000:3B:00.0: Reset required") == "hardware_or_xid_fault");
    CHECK(cause_class("nvidia-smi: GPU requires reset") == "hardware_or_xid_fault");
}

TEST_CASE("'no kernel image' beside a toolkit newer than the driver is code the driver cannot load") {
    const std::string newer =
        "$ nvcc --version\nCuda compilation tools, release 12.4, V12.4.131\n"
        "| NVIDIA-SMI 535.104.05             Driver Version: 535.104.05   CUDA Version: 12.2     |\n"
        "jaxlib.xla_extension.XlaRuntimeError: INTERNAL: no kernel image is available for execution on the "
        "device\n";
    Explanation found = explain_text(newer, false);
    REQUIRE(found.cause);
    CHECK(found.cause->id == "context.toolkit_newer_than_driver");
    CHECK(found.cause->failure_class == "ptx_too_new_for_driver");
    CHECK(found.cause->meaning.find("12.4") != std::string::npos);
    CHECK(found.cause->meaning.find("12.2") != std::string::npos);
    // A driver branch in words, a toolkit directory, CuPy compiling with it.
    CHECK(cause_class("export PATH=/usr/local/cuda-12.3/bin:$PATH\nnvidia driver version 525\n"
                      "cupy_backends.cuda.api.driver.CUDADriverError: no kernel image is available for "
                      "execution on the device") == "ptx_too_new_for_driver");
    // conda list's columns, with numba compiling.
    CHECK(cause_class(
              "cudatoolkit               11.3.1   h2bc3f7f_2\nNVIDIA-SMI 460.32.03    Driver Version: "
              "460.32.03    CUDA Version: 11.2\nnumba.cuda.cudadrv.driver.CudaAPIError: [209] no kernel "
              "image is available for execution on the device") == "ptx_too_new_for_driver");
    // PyTorch's kernels are prebuilt, not compiled by the toolkit shown: its
    // "no kernel image" is still the GPU's architecture.
    CHECK(
        cause_class("cudatoolkit               11.3.1   h2bc3f7f_2\nNVIDIA-SMI 460.32.03    Driver Version: "
                    "460.32.03    CUDA Version: 11.2\nRuntimeError: CUDA error: no kernel image is available "
                    "for execution on the device") == "no_kernel_image_for_gpu_arch");
    // The driver as new as the toolkit, or only one of the two shown: the GPU's architecture.
    CHECK(
        cause_class("Cuda compilation tools, release 12.1, V12.1.105\nDriver Version: 550.54.14   CUDA "
                    "Version: 12.4\nCUDA error: no kernel image is available for execution on the device") ==
        "no_kernel_image_for_gpu_arch");
    CHECK(cause_class("Cuda compilation tools, release 12.8\nCUDA error: no kernel image is available for "
                      "execution on the device") == "no_kernel_image_for_gpu_arch");
    // cuda-compat's directory is not a toolkit.
    CHECK(
        cause_class("LD_LIBRARY_PATH=/usr/local/cuda-12.8/compat\nDriver Version: 535.104.05   CUDA Version: "
                    "12.2\nCUDA error: no kernel image is available for execution on the device") ==
        "no_kernel_image_for_gpu_arch");
}

TEST_CASE("a kernel module refused for its signature is a missing driver, in any words and in a pod") {
    const std::vector<std::string> refusals = {
        "[    4.211] Loading of unsigned module is rejected\n",
        "[    3.902] Lockdown: modprobe: unsigned module loading is restricted; see man kernel_lockdown.7\n",
        "ERROR: The kernel module failed to load, because it was not signed by a key that is trusted by the "
        "kernel.\n",
    };
    for (const std::string& text : refusals) {
        for (bool container : {false, true}) {
            Explanation explanation = explain_text(text, container);
            INFO(text);
            REQUIRE(explanation.cause);
            CHECK(explanation.cause->failure_class == "driver_missing");
            CHECK(explanation.cause->layer == Layer::driver);
            CHECK(explanation.cause->specificity >= 90);
        }
    }
    // The installer's bare load failure is answered, below a named cause.
    const std::string bare = "ERROR: Unable to load the kernel module 'nvidia-drm.ko'.\n";
    Explanation load = explain_text(bare, true);
    REQUIRE(load.cause);
    CHECK(load.cause->id == "nvidia_installer.module_load_failed");
    CHECK(load.cause->failure_class == "driver_missing");
    Explanation named = explain_text(bare + refusals[0], false);
    REQUIRE(named.cause);
    CHECK(named.cause->id == "kernel.unsigned_module_rejected");
    // The kernel's taint warning for an unsigned module that did load is not a failure.
    CHECK_FALSE(
        explain_text("nvidia: module verification failed: signature and/or required key missing - tainting "
                     "kernel\n",
                     false)
            .cause);
}

TEST_CASE("NVRTC failing to load its builtins library is a missing library, not the kernel layer") {
    Explanation builtins =
        explain_text("RuntimeError: nvrtc: error: failed to load builtins for compute_86.\n", false);
    REQUIRE(builtins.cause);
    CHECK(builtins.cause->id == "nvrtc.builtins_not_loaded");
    CHECK(builtins.cause->failure_class == "missing_or_mismatched_shared_library");
    CHECK(builtins.cause->layer == Layer::library);
}

TEST_CASE(
    "a library of a package missing a symbol versioned by its own sibling is another copy found first") {
    // cuFFT's two libraries ship together; cuDNN's sub-libraries too.
    const std::string cufft =
        "ImportError: /opt/venv/lib/python3.11/site-packages/nvidia/cufft/lib/libcufftw.so.11: undefined "
        "symbol: cufftXtExec, version libcufft.so.11\n";
    Explanation sibling = explain_text(cufft, false);
    REQUIRE(sibling.cause);
    CHECK(sibling.cause->failure_class == "wrong_library_via_LD_LIBRARY_PATH");
    CHECK(sibling.cause->id == "loader.sibling_copy");
    CHECK(sibling.cause->meaning.find("ships beside its own libcufft.so.11") != std::string::npos);
    CHECK(cause_id("/usr/lib/x86_64-linux-gnu/libcudnn_adv_train.so.8: undefined symbol: "
                   "_ZN5cudnn3ops18someInternalEv, version libcudnn_ops_infer.so.8\n") ==
          "loader.sibling_copy");
    // Across packages the installed version is what is wrong: cuBLAS needing a
    // newer nvJitLink, or a symbol with no version at all.
    CHECK(cause_class(
              "OSError: /env/lib/python3.12/site-packages/nvidia/cublas/lib/libcublasLt.so.13: undefined "
              "symbol: __nvJitLinkAddData_13_1, version libnvJitLink.so.13\n") ==
          "missing_or_mismatched_shared_library");
    const std::string unversioned =
        "OSError: /env/lib/python3.12/site-packages/nvidia/cublas/lib/libcublas.so.12: undefined symbol: "
        "cublasLtSSSMatmulAlgoInit\n";
    CHECK(cause_id(unversioned) != "(none)");
    CHECK(cause_id(unversioned) != "loader.sibling_copy");
    // cuSPARSELt shares cuSPARSE's prefix but ships on its own.
    const std::string lt =
        "OSError: /env/lib/python3.12/site-packages/nvidia/cusparselt/lib/libcusparseLt.so.0: undefined "
        "symbol: cusparseCreate, version libcusparse.so.12\n";
    CHECK(cause_id(lt) != "(none)");
    CHECK(cause_id(lt) != "loader.sibling_copy");
}

TEST_CASE("cuDNN asking for the unversioned libcuda.so is the name alone, the driver works") {
    const std::string text =
        "Could not load library libcudnn_ops_infer.so.8. Error: libcuda.so: cannot open shared object file: "
        "No such file or directory\nPlease make sure libcudnn_ops_infer.so.8 is in your library path!\n";
    Explanation cudnn = explain_text(text, false);
    REQUIRE(cudnn.cause);
    CHECK(cudnn.cause->failure_class == "missing_or_mismatched_shared_library");
    CHECK(cudnn.cause->id == "loader.cudnn_unversioned_libcuda");
    // Another program wanting libcuda.so says nothing of a working driver.
    CHECK(cause_id("OSError: libcuda.so: cannot open shared object file: No such file\n") ==
          "loader.unversioned_libcuda_missing");
    // cuDNN missing a library of its own is still that library.
    CHECK(cause_id("Could not load library libcudnn_cnn_infer.so.8. Error: libcudnn_ops_infer.so.8: cannot "
                   "open shared object file: No such file or directory\n") == "loader.cuda_library_missing");
}

TEST_CASE("TensorFlow finding no kernel driver outranks the stub libcuda's code beside it") {
    const std::string text =
        "E tensorflow/compiler/xla/stream_executor/cuda/cuda_driver.cc:266] failed call to cuInit: "
        "UNKNOWN ERROR (34)\n"
        "I tensorflow/compiler/xla/stream_executor/cuda/cuda_diagnostics.cc:168] kernel driver does not "
        "appear to be running on this host (worker-0): /proc/driver/nvidia/version does not exist\n";
    Explanation host = explain_text(text, false);
    REQUIRE(host.cause);
    CHECK(host.cause->id == "tensorflow.no_kernel_driver");
    CHECK(host.cause->failure_class == "driver_missing");
    CHECK(cause_class(text, true) == "container_device_not_exposed");
    // Alone, error 34 is still the stub library found first.
    CHECK(cause_class(
              "E tensorflow/compiler/xla/stream_executor/cuda/cuda_driver.cc:266] failed call to cuInit: "
              "UNKNOWN ERROR (34)\n") == "wrong_library_via_LD_LIBRARY_PATH");
    Explanation node = explain_text(
        "I tensorflow/stream_executor/cuda/cuda_diagnostics.cc:163] no NVIDIA GPU device is present: "
        "/dev/nvidia0 does not exist\n",
        true);
    REQUIRE(node.cause);
    CHECK(node.cause->id == "tensorflow.no_device_node");
    CHECK(node.cause->failure_class == "container_device_not_exposed");
}

TEST_CASE("XLA's DNN initialisation failure is answered, and the line above it decides when pasted") {
    Explanation bare = explain_text(
        "jaxlib.xla_extension.XlaRuntimeError: FAILED_PRECONDITION: DNN library initialization failed. Look "
        "at the errors above for more details.\n",
        false);
    REQUIRE(bare.cause);
    CHECK(bare.cause->id == "xla.dnn_init_failed");
    CHECK(bare.cause->meaning.find("XLA_PYTHON_CLIENT_MEM_FRACTION") != std::string::npos);
    const std::string pasted =
        "E0102 cuda_dnn.cc:535] Loaded runtime CuDNN library: 9.1.0 but source was compiled with: 9.3.0.\n"
        "XlaRuntimeError: FAILED_PRECONDITION: DNN library initialization failed.\n";
    CHECK(cause_id(pasted) == "tensorflow.cudnn_loaded_vs_compiled");
}

TEST_CASE("an NCCL collective that hangs is answered, and a hang NCCL_P2P_DISABLE cures is the PCIe path") {
    Explanation p2p = explain_text(
        "all_reduce hangs forever with 4 GPUs on our PCIe box; setting NCCL_P2P_DISABLE=1 fixes it\n", false);
    REQUIRE(p2p.cause);
    CHECK(p2p.cause->id == "nccl.p2p_hang");
    CHECK(p2p.cause->meaning.find("iommu=pt") != std::string::npos);
    CHECK(
        cause_id(
            "[rank1]:[E ProcessGroupNCCL.cpp:563] [Rank 1] Watchdog caught collective operation timeout: "
            "WorkNCCL(SeqNum=7, OpType=ALLREDUCE, NumelIn=1, NumelOut=1, Timeout(ms)=600000) ran for 600291 "
            "milliseconds before timing out.\n") == "torch.nccl_watchdog_timeout");
    CHECK(cause_id("ncclAllGather is stuck after init on node 3\n") == "nccl.collective_hang");
    // Setting the variable is not a report of anything.
    CHECK(cause_id("export NCCL_P2P_DISABLE=1\n") == "(none)");
}

TEST_CASE("the unversioned libcuda.so missing beside a present libcuda.so.1 is the name, not the driver") {
    const std::string cudarc =
        "Unable to dynamically load the \"cuda\" shared library - searched for library names: [\"cuda\"]\n";
    const std::string python =
        "OSError: libcuda.so: cannot open shared object file: No such file or directory\n";
    // Alone, the words cannot tell a machine without a driver from one with libcuda.so.1 only.
    for (const std::string& text : {cudarc, python}) {
        Explanation alone = explain_text(text, false);
        REQUIRE(alone.cause);
        CHECK(alone.cause->failure_class == "driver_missing");
        CHECK(alone.cause->id == "loader.unversioned_libcuda_missing");
        CHECK(alone.cause->meaning.find("only its libcuda.so.1") != std::string::npos);
    }
    // The paste showing the driver's library resolved, opened or handed out re-reads it.
    for (auto [shown, line] :
         {std::pair{"\tlibcuda.so.1 (libc6,x86-64) => /lib/x86_64-linux-gnu/libcuda.so.1\n", 1},
          std::pair{"\tlibcuda.so.1 => /usr/lib64/libcuda.so.1 (0x00007f3a)\n", 1},
          std::pair{">>> ctypes.CDLL('libcuda.so.1')\n<CDLL 'libcuda.so.1', handle 55d0 at 0x7f>\n", 2},
          std::pair{"I0312 dso_loader.cc:53] Successfully opened dynamic library libcuda.so.535.104.05\n", 1},
          std::pair{"$ ls /usr/lib/wsl/lib\nlibcuda.so.1  libd3d12.so  libdxcore.so\n", 1}}) {
        for (const std::string& failure : {cudarc, python}) {
            INFO(shown << failure);
            Explanation found = explain_text(shown + failure, false);
            REQUIRE(found.cause);
            CHECK(found.cause->failure_class == "missing_or_mismatched_shared_library");
            CHECK(found.cause->id == "context.unversioned_libcuda");
            CHECK(found.cause->line == static_cast<size_t>(line));
        }
    }
    // Not evidence: ldd's "not found", the toolkit's stub, a failure to open libcuda.so.1 itself.
    CHECK(cause_class("\tlibcuda.so.1 => not found\n" + python) == "driver_missing");
    CHECK(cause_class("libcuda.so.1 => /usr/local/cuda/lib64/stubs/libcuda.so.1\n" + python) ==
          "driver_missing");
    CHECK(cause_class("libcuda.so.1 (libc6,x86-64) => /usr/lib/x86_64-linux-gnu/libcuda.so.1\n"
                      "OSError: libcuda.so.1: cannot open shared object file: No such file or directory\n") ==
          "driver_missing");
}

TEST_CASE("Triton's own libcuda search says whether the driver or only its unversioned name is missing") {
    Explanation symlink = explain_text(
        "AssertionError: libcuda.so cannot found!\nPossible files are located at "
        "['/usr/lib/x86_64-linux-gnu/libcuda.so.1'].Please create a symlink of libcuda.so to any of the "
        "files.",
        true);
    REQUIRE(symlink.cause);
    CHECK(symlink.cause->id == "triton.libcuda_symlink");
    CHECK(symlink.cause->failure_class == "missing_or_mismatched_shared_library");
    CHECK(cause_class("AssertionError: libcuda.so cannot found!\nPlease make sure GPU is set up and then run "
                      "\"/sbin/ldconfig\" (requires sudo) to refresh the linker cache.") == "driver_missing");
    // The linker's own words at run time name both remedies.
    Explanation linker = explain_text("/usr/bin/ld: cannot find -lcuda: No such file or directory\n", false);
    REQUIRE(linker.cause);
    CHECK(linker.cause->meaning.find("TRITON_LIBCUDA_PATH") != std::string::npos);
}

TEST_CASE("JAX's CUDA plugin naming an outdated component is read by the component it names") {
    auto jax = [](std::string_view name) {
        return "CUDA backend failed to initialize: Unable to use CUDA because of the following issues with "
               "CUDA components:\nOutdated " +
               std::string(name) +
               " installation found.\nVersion JAX was built against: 120800\nMinimum supported: 120100\n"
               "Installed version: 120000\nThe local installation version must be no lower than 120100.";
    };
    CHECK(cause_class(jax("cuDNN")) == "nccl_or_cudnn_version_mismatch");
    for (std::string_view name : {"CUDA", "cuBLAS", "cuFFT", "cuSPARSE", "cuPTI"}) {
        INFO(name);
        CHECK(cause_class(jax(name)) == "missing_or_mismatched_shared_library");
    }
    CHECK(cause_class("RuntimeError: cuDNN 9.10.0 had a binary backward-compatibility issue due to reordered "
                      "enum values affecting block-scale datatypes.") == "nccl_or_cudnn_version_mismatch");
    // Another program's "outdated installation" is not JAX's.
    CHECK(cause_class("Outdated pip installation found.") != "nccl_or_cudnn_version_mismatch");
}

TEST_CASE("a versioned symbol not defined in the copy found is the search order picking another build") {
    const char* text =
        "ImportError: /usr/local/lib/python3.10/dist-packages/torch/lib/../../nvidia/cusparse/lib/"
        "libcusparse.so.12: symbol __nvJitLinkAddData_12_1, version libnvJitLink.so.12 not defined in file "
        "libnvJitLink.so.12 with link time reference\n";
    Explanation found = explain_text(text, false);
    REQUIRE(found.cause);
    CHECK(found.cause->failure_class == "wrong_library_via_LD_LIBRARY_PATH");
    CHECK(found.cause->meaning.find("a copy of libnvJitLink.so.12 from another build") != std::string::npos);
    // A library that is not found at all is still a missing library.
    CHECK(cause_class("ImportError: libnvJitLink.so.12: cannot open shared object file: No such file or "
                      "directory\n") == "missing_or_mismatched_shared_library");
}

TEST_CASE("NCCL's bootstrap reading an address it cannot parse is ranks on different NCCLs") {
    CHECK(cause_class(
              "h100-4:739790:739878 [4] misc/socket.cc:397 NCCL WARN Net : connecting to address  with "
              "family 33621 is neither AF_INET(2) nor AF_INET6(10)\n") == "nccl_or_cudnn_version_mismatch");
    // Family 1 is AF_UNIX: an address NCCL was configured with, not garbage.
    CHECK(cause_class("misc/socket.cc:537 NCCL WARN ncclSocketInit: connecting to address  with family 1 is "
                      "neither AF_INET(2) nor AF_INET6(10)\n") != "nccl_or_cudnn_version_mismatch");
}

// The id of the finding that decides a text.
std::string deciding_signal(std::string_view text) {
    Explanation found = explain_text(text, false);
    return found.cause ? found.cause->id : "(none)";
}

TEST_CASE("NCCL's result codes are read, and the WARN line or CUDA error beside one decides") {
    // Each result string as ncclGetErrorString prints it; PyTorch's gloss of the enum beside it.
    CHECK(
        deciding_signal("RuntimeError: NCCL error in: ../torch/csrc/distributed/c10d/NCCLUtils.hpp:219, "
                        "unhandled system error (run with NCCL_DEBUG=INFO for details), NCCL version 2.18.1\n"
                        "ncclSystemError: System call (e.g. socket, malloc) or external library call failed "
                        "or device error.") == "nccl.system_error");
    CHECK(deciding_signal("torch.distributed.DistBackendError: NCCL error in: ProcessGroupNCCL.cpp:1275, "
                          "remote process exited or there was a network error, NCCL version 2.19.3") ==
          "nccl.remote_error");
    CHECK(deciding_signal("RuntimeError: NCCL Error 3: internal error - please report this issue to the NCCL "
                          "developers") == "nccl.internal_error");
    CHECK(deciding_signal("Test NCCL failure common.cu:1012 'invalid usage (run with NCCL_DEBUG=WARN for "
                          "details)'") == "nccl.invalid_usage");
    CHECK(deciding_signal("RuntimeError: NCCL error in: ProcessGroupNCCL.cpp:47, unhandled cuda error, NCCL "
                          "version 2.7.8") == "nccl.unhandled_cuda_error");
    CHECK(cause_class("RuntimeError: NCCL Error 2: unhandled system error") == "other");

    // The WARN line names what failed, and outranks the code.
    std::string shm_full =
        "gpu07:4411:4502 [3] misc/shmutils.cc:60 NCCL WARN Call to posix_fallocate failed : No space left on "
        "device\n"
        "gpu07:4411:4502 [3] misc/shmutils.cc:96 NCCL WARN Error while creating shared memory segment "
        "/dev/shm/nccl-Ab12Cd (size 9637888)\n"
        "RuntimeError: NCCL error: unhandled system error (run with NCCL_DEBUG=INFO for details)\n";
    CHECK(deciding_signal(shm_full) == "nccl.shared_memory_call");
    CHECK(explain_text(shm_full, false).cause->meaning.find("--shm-size") != std::string::npos);
    CHECK(deciding_signal("[1] misc/shmutils.cc:112 NCCL WARN Error while attaching to shared memory segment "
                          "/dev/shm/nccl-x9 (size 4194304)") == "nccl.shared_memory_segment");
    CHECK(deciding_signal("node3:71:71 [0] NCCL WARN Duplicate GPU detected : rank 1 and rank 0 both on CUDA "
                          "device 1a000\n"
                          "ncclInvalidUsage: This usually reflects invalid usage of NCCL library.") ==
          "nccl.duplicate_gpu");
    CHECK(deciding_signal("node1:99:99 [0] NCCL WARN Bootstrap : no socket interface found") ==
          "nccl.no_interface");
    CHECK(deciding_signal("node1:99:120 [0] misc/socket.cc:484 NCCL WARN socketStartConnect: Connect to "
                          "10.0.0.7<41213> failed : Software caused connection abort\n"
                          "RuntimeError: NCCL error: unhandled system error") == "nccl.connect_failed");
    // A CUDA error inside NCCL: its WARN line decides, and a specific CUDA error there decides its class.
    CHECK(deciding_signal("transport/p2p.cc:275 NCCL WARN Cuda failure 'out of memory'\n"
                          "RuntimeError: NCCL error: unhandled cuda error") == "nccl.cuda_failure");
    CHECK(cause_class("enqueue.cc:215 NCCL WARN Cuda failure 'no kernel image is available for execution on "
                      "the device'\n"
                      "RuntimeError: NCCL error: unhandled cuda error") == "no_kernel_image_for_gpu_arch");

    // Negatives: NCCL's INFO chatter, and a bare enum name (the status code says no more).
    CHECK(deciding_signal("ncclRemoteError: A call failed possibly due to a network error or a remote "
                          "process exiting prematurely.") == "ncclRemoteError");
    CHECK(cause_class("gpu1:12:12 [0] NCCL INFO Channel 00/02 :    0   1\n"
                      "gpu1:12:12 [0] NCCL INFO Connected all rings") == "(none)");
}

TEST_CASE("DataLoader workers out of shared memory are /dev/shm, not the CUDA stack") {
    CHECK(deciding_signal("ERROR: Unexpected bus error encountered in worker. This might be caused by "
                          "insufficient shared memory (shm).") == "pytorch.dataloader_shared_memory");
    CHECK(deciding_signal("RuntimeError: DataLoader worker (pid 4187) is killed by signal: Bus error. It is "
                          "possible that dataloader's workers are out of shared memory. Please try to raise "
                          "your shared memory limit.") == "pytorch.dataloader_shared_memory");
    CHECK(deciding_signal(
              "ptxas error   : Entry function 'k' uses too much shared data (0x10000 bytes, 0xc000 "
              "max); out of memory in shared memory allocation") != "pytorch.dataloader_shared_memory");
}

TEST_CASE("a debugger's frame inside a CUDA math library reads as mixed library builds, and only that") {
    std::string crash =
        "Thread 1 \"python\" received signal SIGSEGV, Segmentation fault.\n"
        "#4  0x00007f3a2c1d5e10 in cublasLtMatmul () from "
        "/usr/local/lib/python3.10/dist-packages/nvidia/cublas/lib/libcublasLt.so.12\n";
    CHECK(cause_class(crash) == "wrong_library_via_LD_LIBRARY_PATH");
    // gdb wraps "from <library>" onto its own line after a long signature.
    CHECK(cause_class("#2  0x00007f0e4b2c1a90 in cufftXtExec(cufftHandle_t*, void*, void*, int) ()\n"
                      "   from /opt/conda/lib/libcufft.so.11\n") == "wrong_library_via_LD_LIBRARY_PATH");
    // A hung NCCL or driver call shows the same kind of frame: not a crash.
    CHECK(cause_class(
              "#3  0x00007f1c2a0b1d2e in ncclGroupEnd () from /usr/lib/x86_64-linux-gnu/libnccl.so.2\n") ==
          "(none)");
    // PyTorch's own C++ frames are printed with ordinary errors.
    CHECK(cause_class("frame #3: <unknown function> + 0x1a2b (0x7f0000001a2b in "
                      "/usr/local/lib/python3.10/dist-packages/nvidia/cublas/lib/libcublas.so.12)\n") ==
          "(none)");
    // A named error in the same log decides; the frame only says where it surfaced.
    CHECK(cause_class("RuntimeError: CUDA error: an illegal memory access was encountered\n" + crash) ==
          "other");
}

TEST_CASE("a missing nvidia-smi is a missing driver on a host and an unexposed GPU in a container") {
    for (std::string_view text : {"bash: nvidia-smi: command not found", "sh: 1: nvidia-smi: not found",
                                  "which: no nvidia-smi in (/usr/local/sbin:/usr/bin)",
                                  "/usr/bin/nvidia-smi: No such file or directory"}) {
        INFO(text);
        CHECK(cause_class(text, false) == "driver_missing");
        CHECK(cause_class(text, true) == "container_device_not_exposed");
    }
    // runc's words mean a container whatever the paste says about itself.
    CHECK(cause_class("docker: Error response from daemon: failed to create shim task: OCI runtime create "
                      "failed: unable to start container process: exec: \"nvidia-smi\": executable file "
                      "not found in $PATH: unknown.") == "container_device_not_exposed");
    // nvidia-smi named next to other words is not its absence.
    CHECK(cause_class("nvidia-smi found 8 GPUs; job not found in queue") != "driver_missing");
}

TEST_CASE("a Kubernetes node that advertises no GPU is a container-layer failure") {
    CHECK(cause_class("Allocatable:\n  cpu: 96\n  nvidia.com/gpu:     0\n") ==
          "container_device_not_exposed");
    CHECK(cause_class("GPU nodes give \"nvidia.com/gpu\": \"0\" after the upgrade") ==
          "container_device_not_exposed");
    CHECK(cause_class("Capacity:\n  nvidia.com/gpu:     8\n") == "(none)");
    CHECK(cause_class("resources: limits: nvidia.com/gpu: 0.5") == "(none)");
}

TEST_CASE("a library a loader failed to dlopen is classed by who owns it") {
    CHECK(cause_class("RuntimeError: Failed to dlopen libcuda.so.1") == "driver_missing");
    CHECK(cause_class("could not dlopen library 'libcublasLt.so.12': not there") ==
          "missing_or_mismatched_shared_library");
    CHECK(cause_class("Unable to dynamically load the \"nccl\" shared library - searched for library names: "
                      "[\"libnccl.so\"]") == "missing_or_mismatched_shared_library");
    CHECK(cause_class("Unable to find cuda lib under the names [\"cuda\", \"nvcuda\"].") == "driver_missing");
    // TensorFlow's summary line names no library and is left to its own signal.
    CHECK(cause_class(
              "Cannot dlopen some GPU libraries. Please make sure the missing libraries mentioned above "
              "are installed properly") == "missing_or_mismatched_shared_library");
}

TEST_CASE("LD_LIBRARY_PATH shown beside a version mismatch of a bundled library decides the search path") {
    std::string nccl =
        "ImportError: /venv/lib/python3.11/site-packages/torch/lib/libtorch_cuda.so: undefined "
        "symbol: ncclCommShrink\n";
    CHECK(cause_class(nccl) == "nccl_or_cudnn_version_mismatch");
    // The value on the variable's line, or on the line after a bare name.
    for (auto [shown, value_line] :
         {std::pair{"export LD_LIBRARY_PATH=/opt/nccl-2.18/lib:$LD_LIBRARY_PATH\n", 2},
          std::pair{"$ echo $LD_LIBRARY_PATH\n/usr/local/cuda-12.2/lib64:/usr/lib\n", 3},
          std::pair{"LD_LIBRARY_PATH: /sw/cudnn/8.6/lib64\n", 2}}) {
        INFO(shown);
        Explanation found = explain_text(nccl + shown, false);
        REQUIRE(found.cause);
        CHECK(found.cause->failure_class == "wrong_library_via_LD_LIBRARY_PATH");
        CHECK(found.cause->id == "loader.search_path");
        CHECK(found.cause->line == static_cast<size_t>(value_line));
        CHECK(found.cause->meaning.find("/") != std::string::npos);
    }
    // The entry is reported as the log spells it.
    Explanation cased = explain_text(nccl + "LD_LIBRARY_PATH=/Apps/CUDA-12.2/lib64\n", false);
    REQUIRE(cased.cause);
    CHECK(cased.cause->matched == "/Apps/CUDA-12.2/lib64");
    // Prose about the variable, a path without CUDA, or a missing (not
    // mismatched) library is no evidence of the search order.
    CHECK(cause_class(nccl + "please check your LD_LIBRARY_PATH settings\n") ==
          "nccl_or_cudnn_version_mismatch");
    CHECK(cause_class(nccl + "LD_LIBRARY_PATH=/usr/lib/x86_64-linux-gnu\n") ==
          "nccl_or_cudnn_version_mismatch");
    // An empty value: the line after `echo` is the next command, not a path list.
    CHECK(cause_class(nccl + "$ echo $LD_LIBRARY_PATH\n\n$ /usr/local/cuda/bin/nvcc --version\n") ==
          "nccl_or_cudnn_version_mismatch");
    CHECK(
        cause_class("ImportError: libcudnn.so.9: cannot open shared object file: No such file or directory\n"
                    "LD_LIBRARY_PATH=/usr/local/cuda/lib64\n") == "missing_or_mismatched_shared_library");
    // Without a bundled copy in view (a TensorFlow built against the system
    // cuDNN), an old cuDNN is the install's version, not the search order.
    CHECK(cause_class("Loaded runtime CuDNN library: 8.1.0 but source was compiled with: 8.6.0.\n"
                      "LD_LIBRARY_PATH=/usr/local/cuda/lib64\n") == "nccl_or_cudnn_version_mismatch");
}

TEST_CASE("invalid device function reads as a binary without code for the GPU") {
    CHECK(cause_class("RuntimeError: CUDA error: invalid device function") == "no_kernel_image_for_gpu_arch");
    CHECK(cause_class("misc/strongstream.cc:395 NCCL WARN Cuda failure 'invalid device function'") ==
          "no_kernel_image_for_gpu_arch");
}

TEST_CASE("a driver entry point a program cannot find means a driver older than the program") {
    for (std::string_view text :
         {"The procedure entry point cuCtxCreate_v4 could not be located in the dynamic link library "
          "nvcuda.dll.",
          "Failed to find symbol cuGetProcAddress_v2 in libcuda.so.1", "undefined symbol: cuMemMap"}) {
        INFO(text);
        CHECK(cause_class(text) == "driver_too_old_for_runtime");
    }
    CHECK(cause_class("could not find symbol 'cudnnGetLibConfig'") == "nccl_or_cudnn_version_mismatch");
    // JAX's own words still read as JAX's; another program's "Unable to load
    // cudart library" is its loader message, not JAX's check.
    Explanation jax = explain_text("RuntimeError: Unable to load cuSOLVER. Is it installed?", false);
    REQUIRE(jax.cause);
    CHECK(jax.cause->id == "jax.unable_to_load");
    CHECK(cause_class("Unable to load cudart library libcudart.so.12: libcudart.so.12: cannot open shared "
                      "object file: No such file or directory") == "missing_or_mismatched_shared_library");
    CHECK(explain_text("unable to load cuda driver library", false).cause->id != "jax.unable_to_load");
}

TEST_CASE("a failed dlopen retold with the library after the words is still the loader's") {
    CHECK(cause_class("Error: can't open shared object file libnvidia-ml.so.1", false) == "driver_missing");
    CHECK(cause_class("Error: can't open shared object file libnvidia-ml.so.1", true) ==
          "container_device_not_exposed");
    CHECK(cause_class("cannot open shared object file libcublasLt.so.12 (no such file)") ==
          "missing_or_mismatched_shared_library");
}

TEST_CASE("PTX too new: the driver's JIT log is the driver, a toolkit's ptxas is the search path") {
    // The driver names its in-memory input "ptx input"; ptxas names the file.
    CHECK(cause_class("ptxas application ptx input, line 5; fatal   : Unsupported .version 6.0; current "
                      "version is '5.0'\nptxas fatal   : Ptx assembly aborted due to errors") ==
          "ptx_too_new_for_driver");
    CHECK(cause_class("ptxas /tmp/kernel_9f2.ptx, line 12; fatal   : Unsupported .version 8.7; current "
                      "version is '8.4'") == "wrong_library_via_LD_LIBRARY_PATH");
    // XLA's warning that the toolkit's ptxas cannot target the GPU.
    CHECK(cause_class("W external/xla/xla/stream_executor/cuda/subprocess_compilation.cc:238] Falling back "
                      "to the CUDA driver for PTX compilation; ptxas does not support CC 12.0") ==
          "no_kernel_image_for_gpu_arch");
}

TEST_CASE("the kernel module and an empty device count are read as the driver layer") {
    CHECK(cause_class("NVIDIA kernel module missing. Falling back to nouveau.") == "driver_missing");
    CHECK(cause_class("ERROR: the nvidia kernel module is not loaded") == "driver_missing");
    CHECK(cause_class("the NVIDIA kernel module is loaded; nvidia-drm has modeset=1") == "(none)");
    CHECK(cause_class("RuntimeError: No CUDA GPUs are available", false) == "driver_missing");
    CHECK(cause_class("RuntimeError: No CUDA GPUs are available", true) == "container_device_not_exposed");
}

TEST_CASE("a framework's built-against and loaded cuDNN releases differing is a cuDNN mismatch") {
    CHECK(cause_class("[08:32:10] ../src/base.cc:80: cuDNN lib mismatch: linked-against version 8907 != "
                      "compiled-against version 8101.") == "nccl_or_cudnn_version_mismatch");
    CHECK(cause_class("RuntimeError: cuDNN version mismatch: PyTorch was compiled against 7500 but linked "
                      "against 7104") == "nccl_or_cudnn_version_mismatch");
    // A shape mismatch inside a cuDNN call is not a release mismatch.
    CHECK(cause_class("cudnn convolution failed: size mismatch between input and weight") !=
          "nccl_or_cudnn_version_mismatch");
    CHECK(cause_class("numba.cuda.cudadrv.error.NvvmSupportError: libNVVM cannot be found. Do `conda install "
                      "cudatoolkit`") == "missing_or_mismatched_shared_library");
}

TEST_CASE("cuda-compat's libcuda shown beside a driver mismatch is forward compatibility misapplied") {
    std::string mismatch =
        "CUDA error 803: system has unsupported display driver / cuda driver combination\n";
    CHECK(cause_class(mismatch) == "wrong_library_via_LD_LIBRARY_PATH");
    for (auto [shown, line] :
         {std::pair{"libcuda.so.1 => /usr/local/cuda-12.4/compat/libcuda.so.1 (0x00007f)\n", 2},
          std::pair{"$ echo $LD_LIBRARY_PATH\n/usr/local/cuda-12.8/compat:/usr/lib64\n", 3}}) {
        INFO(shown);
        Explanation found = explain_text(mismatch + shown, false);
        REQUIRE(found.cause);
        CHECK(found.cause->failure_class == "forward_compat_on_unsupported_gpu");
        CHECK(found.cause->id == "context.compat_libcuda");
        CHECK(found.cause->line == static_cast<size_t>(line));
    }
    // Another decider keeps its meaning; a "compat" word that is no path is nothing.
    CHECK(cause_class("CUDA driver version is insufficient for CUDA runtime version\n"
                      "/usr/local/cuda/compat/libcuda.so.1\n") == "driver_too_old_for_runtime");
    CHECK(cause_class(mismatch + "tried the compat package, no change\n") ==
          "wrong_library_via_LD_LIBRARY_PATH");
}

TEST_CASE("a CUDA_VISIBLE_DEVICES value that selects no GPU explains a no-device error") {
    for (std::string_view text :
         {"CUDA_VISIBLE_DEVICES= python train.py\nRuntimeError: No CUDA GPUs are available",
          "os.environ[\"CUDA_VISIBLE_DEVICES\"] = \"-1\"\ncudaErrorNoDevice: no CUDA-capable device is "
          "detected",
          "CUDA_VISIBLE_DEVICES=NoDevFiles\nfailed call to cuInit: CUDA_ERROR_NO_DEVICE",
          "srun env CUDA_VISIBLE_DEVICES=$SLURM_LOCALID ./bench\nno CUDA-capable device is detected"}) {
        INFO(text);
        Explanation found = explain_text(text, false);
        REQUIRE(found.cause);
        CHECK(found.cause->failure_class == "other");
        CHECK(found.cause->id == "context.visible_devices");
    }
    // A value the shell computes (`…`) is read like a variable.
    Explanation computed = explain_text(
        "export CUDA_VISIBLE_DEVICES=`cat $PBS_GPUFILE | awk -F-gpu '{print $2}'`\nno CUDA-capable device is "
        "detected",
        false);
    REQUIRE(computed.cause);
    CHECK(computed.cause->id == "context.visible_devices");
    CHECK(computed.cause->meaning.find("computed by the shell") != std::string::npos);
    // A GPU index, a use of the variable, or another error: the words cannot settle it.
    CHECK(cause_class("CUDA_VISIBLE_DEVICES=0,1 python train.py\nno CUDA-capable device is detected") ==
          "driver_missing");
    CHECK(cause_class("export CUDA_VISIBLE_DEVICES=${CUDA_VISIBLE_DEVICES:-0}\nno CUDA-capable device is "
                      "detected") == "driver_missing");
    CHECK(
        cause_class("CUDA_VISIBLE_DEVICES=\nCUDA driver version is insufficient for CUDA runtime version") ==
        "driver_too_old_for_runtime");
}

TEST_CASE("a library named after a loader's words is judged by its owner, on Linux and Windows") {
    for (std::string_view text :
         {"Unable to load any of {libcudnn_cnn.so.9.1.0, libcudnn_cnn.so.9.1, libcudnn_cnn.so.9}",
          "Could not load library cudnn_cnn_infer64_8.dll. Error code 193",
          "OSError: [WinError 126] The specified module could not be found. Error loading \"C:\\Program "
          "Files\\Python311\\Lib\\site-packages\\torch\\lib\\cublas64_12.dll\" or one of its dependencies.",
          "Invalid handle. Cannot load symbol cublasLtGetVersion",
          "Could not locate zlibwapi.dll. Please make sure it is in your library path!"}) {
        INFO(text);
        CHECK(cause_class(text) == "missing_or_mismatched_shared_library");
    }
    CHECK(cause_class("failed to load library nvcuda.dll") == "driver_missing");
    // Python's ctypes on Windows, whatever language the rest of the line is in.
    CHECK(cause_class("FileNotFoundError: Could not find module 'C:\\Program Files\\NVIDIA GPU Computing "
                      "Toolkit\\CUDA\\v12.4\\bin\\cudart64_12.dll' (or one of its dependencies).") ==
          "missing_or_mismatched_shared_library");
    CHECK(cause_class("OSError: [WinError 126] 找不到指定的模块。 Error loading "
                      "\"C:\\venv\\Lib\\site-packages\\torch\\lib\\"
                      "cudnn_cnn_infer64_8.dll\" or one of its dependencies.") ==
          "missing_or_mismatched_shared_library");
    CHECK(cause_class("Error loading config.yaml: no such key") == "(none)");
}

TEST_CASE("the driver layer's own words: installer, DKMS, NVRM, device nodes, NVML's library") {
    for (std::string_view text :
         {"ERROR: The Nouveau kernel driver is currently in use by your system.",
          "Error! Bad return status for module build on kernel: 6.8.0-49-generic (x86_64)\n"
          "Consult /var/lib/dkms/nvidia/550.127.05/build/make.log for more information.",
          "NVRM: The NVIDIA probe routine failed for 1 device(s).",
          "NVRM: installed in this system is not supported by the\nNVRM: NVIDIA 470.256.02 driver release.",
          "NVIDIA-SMI couldn't find libnvidia-ml.so library in your system.",
          "NVIDIA: could not open the device file /dev/nvidiactl (No such file or directory).",
          "numba.cuda.cudadrv.error.CudaSupportError: Error at driver init: CUDA driver library cannot be "
          "found.",
          "RuntimeError: CUDA driver initialization failed, you might not have a CUDA gpu."}) {
        INFO(text);
        CHECK(cause_class(text) == "driver_missing");
    }
    std::string_view denied = "NVIDIA: could not open the device file /dev/nvidia0 (Permission denied).";
    CHECK(cause_class(denied, false) == "other");
    CHECK(cause_class(denied, true) == "container_device_not_exposed");
    Explanation fabric = explain_text(
        "nvidia-fabricmanager.service: Main process exited, code=exited, status=1/FAILURE", false);
    REQUIRE(fabric.cause);
    CHECK(fabric.cause->id == "fabricmanager.words");
}

TEST_CASE("a build that cannot find the stack's headers or libraries is the library layer") {
    for (std::string_view text : {"fatal error: cuda_runtime.h: No such file or directory",
                                  "src/conv.cc:3:10: fatal error: 'cudnn.h' file not found",
                                  "/usr/bin/ld: cannot find -lcuda: No such file or directory",
                                  "ld.lld: error: unable to find library -lcublasLt"}) {
        INFO(text);
        CHECK(cause_class(text) == "missing_or_mismatched_shared_library");
    }
    CHECK(explain_text("/usr/bin/ld: cannot find -lcuda", false).cause->meaning.find("stubs") !=
          std::string::npos);
    CHECK(cause_class("fatal error: zlib.h: No such file or directory") == "(none)");
    CHECK(cause_class("/usr/bin/ld: cannot find -lfoo") == "(none)");
}

TEST_CASE("a status code's printed text is found without its leading article") {
    CHECK(cause_class("CUDA error: PTX JIT compilation failed") == "ptx_too_new_for_driver");
    Explanation found = explain_text("RuntimeError: illegal memory access was encountered", false);
    REQUIRE(found.cause);
    CHECK(found.cause->id == "cudaErrorIllegalAddress");
    CHECK(cause_class("CUDA Setup failed despite GPU being available. Please run python -m bitsandbytes") ==
          "missing_or_mismatched_shared_library");
}

TEST_CASE("container images, device plugins and Apptainer say which side lacks the GPU") {
    CHECK(cause_class(
              "WARNING: The NVIDIA Driver was not detected.  GPU functionality will not be available.") ==
          "container_device_not_exposed");
    // The NGC entrypoint's verdict outranks the 803 it quotes.
    CHECK(
        cause_class("ERROR: This container was built for NVIDIA Driver Release 560.35 or later, but version "
                    "535.183.01 was detected and compatibility mode is UNAVAILABLE.\n"
                    "[[System has unsupported display driver / cuda driver combination "
                    "(CUDA_ERROR_SYSTEM_DRIVER_MISMATCH) cuInit()=803]]") == "driver_too_old_for_runtime");
    CHECK(cause_class("If this is a GPU node, did you set the docker default runtime to `nvidia`?") ==
          "container_device_not_exposed");
    CHECK(cause_class("WARNING: Could not find any nv files on this host!") == "driver_missing");
}

TEST_CASE("nvidia-smi's own reports of a failing GPU are hardware") {
    CHECK(cause_class("    Remapped Rows Pending: Yes") == "hardware_or_xid_fault");
    CHECK(cause_class("        Remapping Failure Occurred        : Yes") == "hardware_or_xid_fault");
    CHECK(cause_class("        Pending                           : No") == "(none)");
    CHECK(cause_class(
              "|   3  NVIDIA H100 80GB HBM3          On  | 00000000:9B:00.0 Off |                 ERR! |") ==
          "hardware_or_xid_fault");
    CHECK(cause_class("npm ERR! code ERESOLVE") == "(none)");
}

TEST_CASE("a library that refuses the GPU's architecture has no kernels for it") {
    for (std::string_view text :
         {"RuntimeError: FlashAttention only supports Ampere GPUs or newer.",
          "ValueError: Bfloat16 is only supported on GPUs with compute capability of at least 8.0. Your "
          "Tesla V100 GPU has compute capability 7.0.",
          "`flshattF` is not supported because: requires device with capability > (8, 0) but your GPU has "
          "capability (7, 5) (too old)"}) {
        INFO(text);
        CHECK(cause_class(text) == "no_kernel_image_for_gpu_arch");
    }
    CHECK(cause_class("This package requires Python 3.9 or newer") == "(none)");
    CHECK(cause_class("Device 0: NVIDIA A10, compute capability 8.6") == "(none)");
}

TEST_CASE("libraries loaded by name, in CTranslate2's and NVRTC's words") {
    for (std::string_view text : {"RuntimeError: Library libcublas.so.12 is not found or cannot be loaded",
                                  "RuntimeError: Library cudnn is not initialized",
                                  "nvrtc: error: failed to open libnvrtc-builtins.so.13.0."}) {
        INFO(text);
        CHECK(cause_class(text) == "missing_or_mismatched_shared_library");
    }
    CHECK(cause_class("failed to open config.json for reading") == "(none)");
}

TEST_CASE("the stub libcuda, a host's broken driver files and sibling-library links are read as such") {
    // The toolkit's link-only stub, wherever the log shows it loaded.
    for (std::string_view text :
         {"\tlibcuda.so.1 => /opt/cuda-12.4/lib64/stubs/libcuda.so.1 (0x00007f3a1c000000)",
          "      calling init: /usr/local/cuda/targets/x86_64-linux/lib/stubs/libcuda.so",
          "numba.cuda.cudadrv.driver.CudaAPIError: [34] Call to cuInit results in CUDA_ERROR_STUB_LIBRARY"}) {
        INFO(text);
        CHECK(cause_class(text) == "wrong_library_via_LD_LIBRARY_PATH");
    }
    // A numbered CUDA error in brackets is read as its code.
    Explanation bracketed = explain_text("CudaAPIError: [100] Call to cuInit results in CUDA error", false);
    REQUIRE(bracketed.cause);
    CHECK(bracketed.cause->failure_class == "driver_missing");
    // nvidia-container-cli failing on the host's own driver files is the host's driver.
    CHECK(cause_class("nvidia-container-cli: detection error: open failed: "
                      "/usr/lib64/libnvidia-fatbinaryloader.so.440.33.01: no such file or directory",
                      true) == "driver_missing");
    CHECK(cause_class(
              "nvidia-container-cli: mount error: file creation failed: /merged/usr/bin/nvidia-smi: file "
              "exists",
              true) == "container_device_not_exposed");
    // The static linker: a versioned reference to a CUDA sibling library.
    CHECK(cause_class("/usr/bin/ld: /opt/cuda/lib64/libcusparse.so: undefined reference to "
                      "`__nvJitLinkAddData_12_4@libnvJitLink.so.12'") ==
          "missing_or_mismatched_shared_library");
    CHECK(cause_class("main.o: undefined reference to `foo@GLIBC_2.34'") == "(none)");
    // TensorFlow 1.x's loader words.
    CHECK(cause_class(
              "I tensorflow/stream_executor/dso_loader.cc:126] Couldn't open CUDA library libcufft.so.9.0. "
              "LD_LIBRARY_PATH: /usr/local/cuda/lib64") == "missing_or_mismatched_shared_library");
}

TEST_CASE("extensions and engines built for another PyTorch, CUDA, TensorRT or GPU say so") {
    for (std::string_view text :
         {"ImportError: /site-packages/mmcv/_ext.cpython-38-x86_64-linux-gnu.so: undefined symbol: "
          "_ZN3c105ErrorC2ENS_14SourceLocationESs",
          "OSError: /site-packages/torchaudio/lib/libtorchaudio.so: undefined symbol: "
          "_ZNK5torch8autograd4Node4nameEv",
          "RuntimeError: The detected CUDA version (12.4) mismatches the version that was used to compile "
          "PyTorch (12.1). Please make sure to use the same CUDA versions.",
          "Installed CUDA version 12.6 does not match the version torch was compiled with 12.4, unable to "
          "compile cuda/cpp extensions",
          "WARNING[XFORMERS]: xFormers can't load C++/CUDA extensions. xFormers was built for: PyTorch "
          "2.4.0+cu121",
          "RuntimeError: Detected that PyTorch and torchvision were compiled with different CUDA major "
          "versions.",
          "RuntimeError: Couldn't load custom C++ ops. This can happen if your PyTorch and torchvision "
          "versions "
          "are incompatible",
          "[TRT] [E] 6: The engine plan file is not compatible with this version of TensorRT, expecting "
          "library "
          "version 10.3.0.26 got 10.0.1.6, please rebuild.",
          "Failed to create CUDAExecutionProvider. Require cuDNN 9.* and CUDA 12.*. Please install all "
          "dependencies"}) {
        INFO(text);
        CHECK(cause_class(text) == "missing_or_mismatched_shared_library");
    }
    for (std::string_view text :
         {"[TRT] [E] 1: [stdArchiveReader.cpp] The engine plan file is generated on an incompatible device, "
          "expecting compute 8.9 got compute 8.6, please rebuild.",
          "RuntimeError: Found Tesla P100-PCIE-16GB which is too old to be supported by the triton GPU "
          "compiler",
          "Triton only supports devices of CUDA Capability >= 7.0, but your device is of CUDA capability 6.0",
          "CUDA device supported only with compute capability 3.0 or up, found 2.1.",
          "CUDA binary kernel for this graphics card compute capability (12.0) not found.",
          "'sm_100a' is not a recognized processor for this target (ignoring processor)"}) {
        INFO(text);
        CHECK(cause_class(text) == "no_kernel_image_for_gpu_arch");
    }
    // An unmangled C function of the same shape is not PyTorch's C++ API.
    CHECK(explain_text("undefined symbol: c10_helper", false).cause->id != "loader.torch_abi_symbol");
    // Its vtables, thunks and stable C shim are (framework_abi.h, shared with `strata frameworks`).
    for (std::string_view symbol :
         {"_ZTVN3c1010TensorImplE", "_ZThn16_N5torch8autograd12CppNode_baseD1Ev", "aoti_torch_aten_narrow"}) {
        INFO(symbol);
        Explanation explained =
            explain_text("ImportError: /opt/venv/lib/python3.12/site-packages/ext/_C.so: undefined symbol: " +
                             std::string(symbol),
                         false);
        REQUIRE(explained.cause);
        CHECK(explained.cause->id == "loader.torch_abi_symbol");
        CHECK(explained.cause->meaning.find("`strata frameworks` names every symbol") != std::string::npos);
    }
}

TEST_CASE("CPU-only builds, absent toolkits and a kubelet that lost its GPUs are named") {
    CHECK(cause_class(
              "An NVIDIA GPU may be present on this machine, but a CUDA-enabled jaxlib is not installed.") ==
          "other");
    CHECK(cause_class("The installed version of bitsandbytes was compiled without GPU support.") == "other");
    CHECK(cause_class(
              "jaxlib.xla_extension.XlaRuntimeError: INTERNAL: no supported devices found for platform CUDA",
              true) == "container_device_not_exposed");
    CHECK(cause_class(
              "UserWarning: CUDA path could not be detected. Set CUDA_PATH environment variable if CuPy "
              "fails to load.") == "missing_or_mismatched_shared_library");
    CHECK(cause_class("Allocate failed due to requested number of devices unavailable for nvidia.com/gpu. "
                      "Requested: 1, Available: 0, which is unexpected") == "container_device_not_exposed");
}

TEST_CASE("the loader's and the shell's words are read in the locales users paste them in") {
    for (std::string_view text :
         {"ImportError: libcudart.so.11.0: 无法打开共享对象文件: 没有那个文件或目录",
          "libcublas.so.12: Kann die Shared-Object-Datei nicht öffnen: Datei oder Verzeichnis nicht gefunden",
          "libcudnn.so.9: Ne peut ouvrir le fichier d'objet partagé: Aucun fichier ou dossier de ce type",
          "libnccl.so.2: no se puede abrir el archivo del objeto compartido: No existe el archivo o el "
          "directorio",
          "OSError: libcufft.so.11: 공유 객체 파일을 열 수 없습니다: 파일 또는 디렉터리가 없습니다"}) {
        INFO(text);
        CHECK(cause_class(text) == "missing_or_mismatched_shared_library");
    }
    // Full-width colons around the name, as CJK pastes often have them.
    CHECK(cause_class("ImportError: libcuda.so.1：无法打开共享对象文件：没有那个文件或目录") ==
          "driver_missing");
    CHECK(cause_class("libcuda.so.1: 共有オブジェクトファイルを開けません: "
                      "そのようなファイルやディレクトリはありません") == "driver_missing");
    for (std::string_view text :
         {"bash: nvidia-smi: Befehl nicht gefunden", "bash: nvidia-smi : commande introuvable",
          "bash: nvidia-smi: no se encontró la orden", "bash: nvidia-smi: 未找到命令",
          "bash: nvidia-smi: コマンドが見つかりません"}) {
        INFO(text);
        CHECK(cause_class(text, false) == "driver_missing");
        CHECK(cause_class(text, true) == "container_device_not_exposed");
    }
}

TEST_CASE("every status code of the generated tables explains to its own class and layer") {
    REQUIRE(status_codes().size() > 400);
    int walked = 0;
    for (const StatusCode& code : status_codes()) {
        if (code.failure_class == "success") continue;
        INFO(code.name);
        REQUIRE(find_failure_class(code.failure_class) != nullptr);
        Explanation found = explain_text(std::string("failed with ") + std::string(code.name), false);
        REQUIRE(found.cause);
        CHECK(found.codes.size() == 1);
        CHECK(found.codes.front() == &code);
        // A specific message elsewhere in the catalog may outrank a generic
        // code, but never with another class.
        CHECK(found.cause->failure_class == code.failure_class);
        ++walked;
    }
    CHECK(walked > 380);
}

TEST_CASE("the texts the libraries print are recognised as their codes") {
    CHECK(cause_class("RuntimeError: CUDA error: no kernel image is available for execution on the device") ==
          "no_kernel_image_for_gpu_arch");
    CHECK(
        cause_class(
            "cudaGetDevice() failed. Status: CUDA driver version is insufficient for CUDA runtime version") ==
        "driver_too_old_for_runtime");
    CHECK(cause_class("CUDA error: the provided PTX was compiled with an unsupported toolchain.") ==
          "ptx_too_new_for_driver");
    // NCCL's own string for ncclUnhandledCudaError, then the CUDA failure it wraps.
    Explanation nccl = explain_text(
        "ncclUnhandledCudaError: Call to CUDA function failed.\nLast error:\n"
        "Cuda failure 'forward compatibility was attempted on non supported HW'",
        false);
    REQUIRE(nccl.cause);
    CHECK(nccl.cause->failure_class == "forward_compat_on_unsupported_gpu");
    CHECK(nccl.cause->line == 3);
}

TEST_CASE("bare code numbers are read where the words say they are CUDA errors") {
    CHECK(explain_text("CUDA error 999", false).cause->id == "cudaErrorUnknown");
    CHECK(explain_text("failed: error 804", false).cause->failure_class ==
          "forward_compat_on_unsupported_gpu");
    CHECK(explain_text("code=222(cudaErrorUnsupportedPtxVersion)", false).cause->failure_class ==
          "ptx_too_new_for_driver");
    // Small numbers collide with everything: not without CUDA on the line.
    CHECK_FALSE(explain_text("HTTP error 2 while fetching", false).cause);
    CHECK_FALSE(explain_text("version 12.999 error", false).cause);
}

TEST_CASE("Xid events are read with their GPU, meaning and origin") {
    auto event = parse_xid(
        "[ 1843.3] NVRM: Xid (PCI:0000:3b:00): 79, pid=1234, name=python, GPU has fallen off the bus.");
    REQUIRE(event);
    CHECK(event->number == 79);
    CHECK(event->pci == "0000:3b:00");
    REQUIRE(event->info);
    CHECK(event->info->points_at == XidOrigin::hardware);
    CHECK(parse_xid("XID 94 detected")->number == 94);
    CHECK(parse_xid("healthCheck: XidCriticalError: Xid=48 on Device=GPU-1")->number == 48);
    CHECK(parse_xid("Xid (PCI:0000:01:00): 13, Graphics Exception")->info->points_at ==
          XidOrigin::application);
    CHECK_FALSE(parse_xid("oxidation of the heatsink"));
    CHECK_FALSE(parse_xid("Xid: none"));
    // A number strata does not know is still a hardware_or_xid_fault, said so.
    Explanation unknown = explain_text("NVRM: Xid (PCI:0000:3b:00): 177, something new", false);
    REQUIRE(unknown.cause);
    CHECK(unknown.cause->failure_class == "hardware_or_xid_fault");
    CHECK(unknown.cause->meaning.find("does not describe") != std::string::npos);
}

TEST_CASE("in a log, the most specific line decides, not the first that matches") {
    Explanation found = explain_text(
        "RuntimeError: CUDA error: unknown error\n"
        "CUDA kernel errors might be asynchronously reported at some other API call\n"
        "\n"
        "[  409.7] NVRM: Xid (PCI:0000:3b:00): 79, pid=1234, GPU has fallen off the bus.\n",
        false);
    REQUIRE(found.cause);
    CHECK(found.cause->failure_class == "hardware_or_xid_fault");
    CHECK(found.cause->line == 4);
    CHECK(found.xids.size() == 1);
    // The generic line is still reported, below the cause.
    CHECK(std::any_of(found.findings.begin(), found.findings.end(),
                      [](const Finding& f) { return f.id == "cudaErrorUnknown" && f.line == 1; }));
}

TEST_CASE("the loader's messages are judged by the library they name") {
    CHECK(
        cause_class("ImportError: libcuda.so.1: cannot open shared object file: No such file or directory") ==
        "driver_missing");
    CHECK(cause_class("ImportError: libcuda.so.1: cannot open shared object file: No such file or directory",
                      true) == "container_device_not_exposed");
    CHECK(cause_class(
              "OSError: libcublasLt.so.12: cannot open shared object file: No such file or directory") ==
          "missing_or_mismatched_shared_library");
    CHECK(cause_class("libfoo.so.3: cannot open shared object file") == "other");
    CHECK(cause_class("ImportError: .../libtorch_cuda.so: undefined symbol: ncclCommWindowRegister") ==
          "nccl_or_cudnn_version_mismatch");
    CHECK(cause_class("undefined symbol: cuGetProcAddress_v2") == "driver_too_old_for_runtime");
    CHECK(cause_class("version `GLIBCXX_3.4.30' not found (required by /opt/conda/lib/libtorch.so)") ==
          "other");
}

TEST_CASE("the same words mean a different layer inside a container") {
    CHECK(cause_class("RuntimeError: Found no NVIDIA driver on your system.") == "driver_missing");
    CHECK(cause_class("RuntimeError: Found no NVIDIA driver on your system.", true) ==
          "container_device_not_exposed");
    CHECK(cause_class("Failed to initialize NVML: Unknown Error", true) == "container_device_not_exposed");
    // A mismatch seen inside a running container is the image's own driver
    // libraries (W01, DD17); the meaning still names the host's update for
    // the case where the host's nvidia-smi shows it too.
    Explanation mismatch = explain_text("Failed to initialize NVML: Driver/library version mismatch", true);
    REQUIRE(mismatch.cause);
    CHECK(mismatch.cause->failure_class == "container_device_not_exposed");
    CHECK(mismatch.cause->meaning.find("installed in the image") != std::string::npos);
    CHECK(mismatch.cause->meaning.find("reboot") != std::string::npos);
    CHECK(mismatch.cause->meaning.find("was not handed to it") == std::string::npos);
}

TEST_CASE("text outside the CUDA stack gets no answer, and the catalog's classes all exist") {
    CHECK_FALSE(explain_text("hello world", false).cause);
    CHECK_FALSE(explain_text("", false).cause);
    CHECK_FALSE(explain_text("CUDA Version: 12.4", false).cause);  // nvidia-smi's header is not a failure
    for (const Signal& signal : all_signals()) {
        INFO(signal.id);
        CHECK(find_failure_class(signal.failure_class) != nullptr);
        CHECK(signal.anchor == nlohmann::json(std::string(signal.anchor)).get<std::string>());
        for (char c : signal.anchor) CHECK_FALSE((c >= 'A' && c <= 'Z'));  // anchors are matched lower-case
    }
}

TEST_CASE("long lines, huge input and control characters are handled in bounded time") {
    // A known message far past column 4096 of one line is still found.
    std::string long_line(100000, 'x');
    long_line += " no kernel image is available for execution on the device";
    CHECK(cause_class(long_line) == "no_kernel_image_for_gpu_arch");
    // 8 MiB of crafted lines full of anchors.
    std::string crafted;
    while (crafted.size() < (8u << 20)) crafted += "cuda nvml nccl ptxas undefined symbol: x error 9 Xid (\n";
    auto start = std::chrono::steady_clock::now();
    Explanation found = explain_text(crafted, false);
    double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    CHECK(found.lines > 100000);
    CHECK(seconds < 60);  // a hang guard, not a benchmark: bench/explain.sh measures
    Explanation escaped = explain_text("\x1b]0;pwned\x07 CUDA error: unknown error", false);
    REQUIRE(escaped.cause);
    CHECK(escaped.cause->line_text.find('\x1b') == std::string::npos);
    CHECK(escaped.cause->line_text.find("\\x1b") != std::string::npos);
}

TEST_CASE("causes hold, are ruled out, or stay unknown by the machine's checks") {
    Report machine;
    machine.add_check(
        make_check("driver.kernel_module", Layer::driver, Status::fail, "no NVIDIA kernel module loaded"));
    machine.add_check(make_check("driver.libcuda", Layer::driver, Status::pass, "libcuda.so.1 found"));
    const FailureClass* missing = find_failure_class("driver_missing");
    REQUIRE(missing);
    auto verdicts = evaluate_causes(*missing, machine);
    REQUIRE(verdicts.size() >= 3);
    CHECK(verdicts[0].cause->check_id == "driver.kernel_module");
    CHECK(verdicts[0].state == CauseState::holds);
    CHECK(verdicts[1].cause->check_id == "driver.libcuda");
    CHECK(verdicts[1].state == CauseState::ruled_out);
    CHECK(verdicts[2].state == CauseState::unknown);
    CHECK(verdicts[2].evidence.find("check ran on this machine") != std::string::npos);
}

TEST_CASE("GPUs busy or unavailable are the compute mode or a holder, in either wording") {
    for (std::string_view text :
         {"Check failed: error == cudaSuccess (46 vs. 0)  all CUDA-capable devices are busy or unavailable",
          "THCudaCheck FAIL file=THCGeneral.cpp line=66 error=46 : all CUDA-capable devices are busy or "
          "unavailable",
          "CUDA error: CUDA-capable device(s) is/are busy or unavailable"}) {
        INFO(text);
        Explanation found = explain_text(text, false);
        REQUIRE(found.cause);
        CHECK(found.cause->failure_class == "other");
        CHECK(found.cause->meaning.find("compute mode") != std::string::npos);
    }
    CHECK(cause_class("the build server is busy or unavailable, retrying") != "other");
}

TEST_CASE("an operation a vGPU profile or an older GPU does not offer is named, not just 'not supported'") {
    for (std::string_view text :
         {"RuntimeError: CUDA error: operation not supported when calling cudaMallocAsync(&ptr, size, "
          "stream)",
          "cudaMallocAsync failed: 801", "CUDA_ERROR_NOT_SUPPORTED from cuMemAllocAsync on device 0"}) {
        INFO(text);
        Explanation found = explain_text(text, false);
        REQUIRE(found.cause);
        CHECK(found.cause->id == "cuda.memory_pools_unsupported");
        CHECK(found.cause->failure_class == "other");
    }
    Explanation vgpu = explain_text(
        "[critical]: failed to get primary CUDA context: operation not supported (801) on vGPU H100-20C",
        false);
    REQUIRE(vgpu.cause);
    CHECK(vgpu.cause->id == "cuda.vgpu_unsupported");
    // "not supported" elsewhere keeps its own reading.
    Explanation other = explain_text("cudaMallocAsync: out of memory", false);
    REQUIRE(other.cause);
    CHECK(other.cause->id != "cuda.memory_pools_unsupported");
}

TEST_CASE("a long line's excerpt is cut between words, says so, and keeps what matched whole") {
    // Issue #38 item 11: "decided by" began mid-word ("efore calling ...").
    std::string filler;
    for (int i = 0; i < 40; ++i) filler += "before calling ";
    std::string line =
        filler + "CUDA error: no kernel image is available for execution on the device " + filler;
    std::string excerpt = strata::printable_excerpt(line, "no kernel image is available");
    CHECK(excerpt.rfind("... before calling ", 0) == 0);
    CHECK(excerpt.size() >= 4);
    CHECK(excerpt.substr(excerpt.size() - 4) == " ...");
    CHECK(excerpt.find("no kernel image is available for execution") != std::string::npos);
    CHECK(excerpt.size() <= 240 + 8);
    // Word boundaries on both sides: every word of the excerpt is whole.
    std::string inner = excerpt.substr(4, excerpt.size() - 8);
    const std::set<std::string> words = {"before",    "calling", "CUDA", "error:",    "no",
                                         "kernel",    "image",   "is",   "available", "for",
                                         "execution", "on",      "the",  "device"};
    std::istringstream split(inner);
    for (std::string word; split >> word;) CHECK(words.count(word) == 1);
    // A short line is left as it is.
    CHECK(strata::printable_excerpt("CUDA error: out of memory", "out of memory") ==
          "CUDA error: out of memory");
}

// --- How sure explain is (#36): confidence, candidates, similar reports ---

namespace {

struct Judged {
    int total = 0, right = 0, candidates = 0, wrong = 0;
};

// Scores a set as `strata explain --evaluate` does: the record's container
// flag as context, the record itself never among its similar reports.
Judged judge_file(const char* path) {
    std::ifstream in(path);
    REQUIRE(in);
    Judged out;
    std::string line;
    while (std::getline(in, line)) {
        auto record = nlohmann::json::parse(line);
        std::string text = record["error_text"];
        Explanation found = explain_text(text, record.value("container", false));
        AssessmentContext context;
        context.in_container = record.value("container", false);
        context.excluded_source = record["source"];
        Assessment assessment = assess(found, text, context);
        ++out.total;
        if (!assessment.answered())
            ++out.candidates;
        else if (assessment.candidates.front().failure_class == record["root_layer"])
            ++out.right;
        else
            ++out.wrong;
    }
    return out;
}

Assessment assess_text(std::string_view text, std::optional<bool> in_container = false) {
    Explanation found = explain_text(text, in_container.value_or(false));
    AssessmentContext context;
    context.in_container = in_container;
    return assess(found, text, context);
}

}  // namespace

// Floors, measured (tests/explain/README.md): the fourteenth set was scored
// before any of this existed (23 right, 2 unanswered, 7 confidently wrong).
TEST_CASE("a confident wrong answer is rarer than no answer") {
    Judged fourteenth = judge_file(STRATA_TEST_PUBLIC_REPORTS_14);
    CHECK(fourteenth.total == 32);
    CHECK(fourteenth.right >= 26);
    CHECK(fourteenth.wrong == 0);
    Judged first = judge_file(STRATA_TEST_PUBLIC_REPORTS);
    CHECK(first.right >= 44);
    CHECK(first.wrong == 0);
    // The fifteenth, scored once with the engine frozen (18 / 10 / 2), then
    // its general rules (tests/explain/README.md).
    Judged fifteenth = judge_file(STRATA_TEST_PUBLIC_REPORTS_15);
    CHECK(fifteenth.total == 30);
    CHECK(fifteenth.right >= 21);
    CHECK(fifteenth.wrong == 0);
}

TEST_CASE("words several causes print get ranked candidates, each with what tells it apart") {
    Assessment a = assess_text("RuntimeError: CUDA error: no CUDA-capable device is detected", std::nullopt);
    CHECK_FALSE(a.answered());
    CHECK(a.confidence == Confidence::low);
    std::set<std::string> classes;
    for (const Candidate& c : a.candidates) {
        classes.insert(c.failure_class);
        CHECK_FALSE(c.tell_apart.empty());
    }
    CHECK(classes.count("driver_missing"));
    CHECK(classes.count("container_device_not_exposed"));
    CHECK(classes.count("other"));  // CUDA_VISIBLE_DEVICES
}

TEST_CASE("a message that names one cause is answered, with its confidence") {
    Assessment a = assess_text(
        "RuntimeError: The NVIDIA driver on your system is too old (found version 11040). Please update your "
        "GPU "
        "driver");
    REQUIRE(a.answered());
    CHECK(a.candidates.front().failure_class == "driver_too_old_for_runtime");
    CHECK(a.confidence != Confidence::low);
}

TEST_CASE("out of memory and a kernel's own fault are the program's, not the stack's") {
    Assessment oom = assess_text(
        "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB (GPU 0; 23.65 GiB total "
        "capacity)");
    REQUIRE(oom.answered());
    CHECK(oom.candidates.front().failure_class == "other");
    CHECK(oom.program_error);
    Assessment fault = assess_text("CUDA error: an illegal memory access was encountered");
    REQUIRE(fault.answered());
    CHECK(fault.program_error);
    bool hardware_listed =
        std::any_of(fault.candidates.begin(), fault.candidates.end(),
                    [](const Candidate& c) { return c.failure_class == "hardware_or_xid_fault"; });
    CHECK(hardware_listed);
}

TEST_CASE("similar reports are real shipped reports, found by their rare words") {
    const auto& shipped = shipped_reports();
    REQUIRE(shipped.size() >= 400);
    const ShippedReport& some = shipped[shipped.size() / 2];
    auto found = similar_reports(some.error_text, 3);
    REQUIRE_FALSE(found.empty());
    CHECK(found.front().report->source == some.source);
    for (const SimilarReport& s : similar_reports(some.error_text, 3, some.source))
        CHECK(s.report->source != some.source);
    CHECK(similar_reports("all is well", 3).empty());
}

TEST_CASE("retrieval folds versions and numbers so two machines' pastes meet") {
    CHECK(retrieval_tokens("libcublasLt.so.11") == retrieval_tokens("libcublasLt.so.12.4.5"));
    CHECK(retrieval_tokens("cudnn64_7.dll") == retrieval_tokens("cudnn64_8.dll"));
    CHECK(retrieval_tokens("sm_120") != retrieval_tokens("sm_90"));
    CHECK(retrieval_tokens("0x7f54506e7799 12.4 580.65.06").empty());
}

TEST_CASE("the log, not the machine explain runs on, says whether it came from a container") {
    CHECK(log_says_container("docker: Error response from daemon: could not select device driver") == true);
    CHECK(log_says_container("Error: crun: executable file `nvidia-smi` not found in $PATH") == true);
    CHECK_FALSE(log_says_container("RuntimeError: CUDA error: no kernel image is available").has_value());
    CHECK_THROWS_AS(machine_from_document(nlohmann::json::object(), "x.json"), UsageError);
    Report machine = machine_from_document(
        nlohmann::json::parse(R"({"checks":[{"id":"driver.kernel_module","status":"fail","summary":"none"}],
                                  "environment":{"container.detected":{"value":true}}})"),
        "r.json");
    REQUIRE(machine.checks().size() == 1);
    CHECK(machine.checks()[0].status == Status::fail);
    REQUIRE(machine.find_fact("container.detected"));
}

TEST_CASE("every pattern explain looks for compiles in RE2 (a refused one could never fire)") {
    std::vector<std::string> errors = explain_pattern_errors();
    INFO((errors.empty() ? std::string() : errors.front()));
    CHECK(errors.empty());
}

namespace {

// What explain_text found, as comparable text: every finding's id, line,
// class, specificity and matched words, and the Xid events.
std::string findings_text(const Explanation& found) {
    std::string out = std::to_string(found.lines) + " lines\n";
    for (const Finding& f : found.findings)
        out += f.id + " @" + std::to_string(f.line) + " " + f.failure_class + " " +
               std::to_string(f.specificity) + " [" + f.matched + "] " + f.line_text + "\n";
    for (const XidEvent& xid : found.xids) out += "xid " + std::to_string(xid.number) + "\n";
    return out;
}

void check_skipping_changes_nothing(std::string_view text, const std::string& what) {
    for (bool in_container : {false, true}) {
        INFO(what << (in_container ? " (in a container)" : ""));
        CHECK(findings_text(explain_text(text, in_container, LineSelection::with_literals)) ==
              findings_text(explain_text(text, in_container, LineSelection::every_line)));
    }
}

}  // namespace

TEST_CASE("skipping lines and finders without their words never changes what explain finds") {
    // Every real report strata ships, one by one and all in one log (the
    // order of findings across lines, the search path read on the next line).
    std::string all;
    for (const ShippedReport& report : shipped_reports()) {
        check_skipping_changes_nothing(report.error_text, report.id);
        all += report.error_text + "\n";
    }
    check_skipping_changes_nothing(all, "every shipped report in one log");
    // And every seed of the explain fuzz targets: locales, lone carriage
    // returns, a value on the line after its variable.
    namespace fs = std::filesystem;
    size_t seeds = 0;
    for (const char* target : {"explain", "explain_skipping"}) {
        for (const auto& entry : fs::directory_iterator(fs::path(STRATA_TEST_FUZZ_CORPUS) / target)) {
            std::ifstream in(entry.path(), std::ios::binary);
            std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
            check_skipping_changes_nothing(text, entry.path().string());
            ++seeds;
        }
    }
    CHECK(seeds >= 20);
}

TEST_CASE("explain reads the line after a bare LD_LIBRARY_PATH even when it holds no word it looks for") {
    // The value line (an NVIDIA HPC SDK directory) holds none of the
    // finders' words, so only the search-path reader's request has it read.
    std::string log =
        "$ echo $LD_LIBRARY_PATH\n/opt/nvhpc/Linux_x86_64/23.5/comm_libs/lib\n"
        "  File \"/venv/lib/python3.10/site-packages/torch/__init__.py\", line 1\n"
        "ImportError: /venv/lib/python3.10/site-packages/torch/lib/libtorch_cuda.so: undefined symbol: "
        "cudnnGetLibConfig, version libcudnn.so.8\n";
    Explanation found = explain_text(log, false);
    REQUIRE(found.cause);
    CHECK(found.cause->id == "loader.search_path");
    CHECK(found.cause->matched == "/opt/nvhpc/Linux_x86_64/23.5/comm_libs/lib");
}

TEST_CASE("Kokkos' start-up architecture check is a build without kernels for the GPU") {
    CHECK(cause_id(
              "Kokkos::Cuda::initialize ERROR: running kernels compiled for compute capability 7.0 "
              "(< 8.0) on device with compute capability 8.0 (>=8.0), this would give incorrect results!") ==
          "kokkos.architecture_mismatch");
    CHECK(cause_class("lmp -k on g 1 -sf kk -in in.lj\nKokkos::Cuda::initialize ERROR: likely mismatch of "
                      "architecture\n[node7:2211] *** Process received signal ***") ==
          "no_kernel_image_for_gpu_arch");
    // Kokkos' other start-up errors are not an architecture mismatch.
    CHECK(cause_id("Kokkos::Cuda::initialize ERROR: Cuda device id 4 is out of range") !=
          "kokkos.architecture_mismatch");
}

TEST_CASE("a CDI device name read as a file by an engine without CDI gave the container no GPU") {
    CHECK(cause_id("docker: Error response from daemon: error gathering device information while adding "
                   "custom device \"nvidia.com/gpu=all\": no such file or directory.") ==
          "cdi.name_taken_for_path");
    CHECK(cause_class("Error: stat nvidia.com/gpu=GPU-8f3c: no such file or directory", true) ==
          "container_device_not_exposed");
    // The CDI name in a working run says nothing.
    CHECK(cause_id("podman run --device nvidia.com/gpu=all ubuntu nvidia-smi -L\nGPU 0: NVIDIA L4") !=
          "cdi.name_taken_for_path");
}

TEST_CASE(
    "cuInit's forward-compatibility words beside NVML's version mismatch are a driver updated without a "
    "reboot") {
    const std::string log =
        "RuntimeError: Unexpected error from cudaGetDeviceCount(). Did you run some cuda functions before "
        "calling NumCudaDevices() that might have already set an error? Error 804: forward compatibility was "
        "attempted on non supported HW\n"
        "$ nvidia-smi\n"
        "Failed to initialize NVML: Driver/library version mismatch\n";
    Assessment mismatch = assess_text(log);
    REQUIRE(mismatch.answered());
    CHECK(mismatch.candidates.front().failure_class == "driver_missing");
    // 804 alone keeps its usual reading, with the update-without-reboot beside it.
    Assessment alone = assess_text("cuInit(): forward compatibility was attempted on non supported HW");
    REQUIRE(alone.answered());
    CHECK(alone.candidates.front().failure_class == "forward_compat_on_unsupported_gpu");
    CHECK(alone.confidence == Confidence::medium);
    CHECK(std::any_of(alone.candidates.begin(), alone.candidates.end(),
                      [](const Candidate& c) { return c.failure_class == "driver_missing"; }));
}

TEST_CASE(
    "an empty CUDA library where JetPack's runtime mounts it is a placeholder the container never got "
    "over it") {
    const std::string jetson =
        "python3: error while loading shared libraries: /usr/lib/aarch64-linux-gnu/libcudnn.so.8: file too "
        "short";
    CHECK(cause_class(jetson, true) == "container_device_not_exposed");
    // On the device itself, or on an x86 image, an empty library is a broken install.
    CHECK(cause_class(jetson, false) == "missing_or_mismatched_shared_library");
    CHECK(cause_class(
              "error while loading shared libraries: /usr/lib/x86_64-linux-gnu/libcudnn.so.8: file too short",
              true) == "missing_or_mismatched_shared_library");
}

TEST_CASE("'driver version is insufficient' in a container that shows no driver is one of two causes") {
    const std::string words = "RuntimeError: CUDA driver version is insufficient for CUDA runtime version";
    // In a container with nothing showing the driver: no libcuda at all is as likely.
    Assessment unsure = assess_text(words, true);
    CHECK_FALSE(unsure.answered());
    std::set<std::string> classes;
    for (const Candidate& c : unsure.candidates) classes.insert(c.failure_class);
    CHECK(classes.count("driver_too_old_for_runtime") == 1);
    CHECK(classes.count("container_device_not_exposed") == 1);
    // The container's nvidia-smi shows the driver: it is there, and too old.
    Assessment shown = assess_text(
        "| NVIDIA-SMI 418.87.00    Driver Version: 418.87.00    CUDA Version: 10.1 |\n" + words, true);
    REQUIRE(shown.answered());
    CHECK(shown.candidates.front().failure_class == "driver_too_old_for_runtime");
    // On a host the words keep their usual reading.
    Assessment host = assess_text(words, false);
    REQUIRE(host.answered());
    CHECK(host.candidates.front().failure_class == "driver_too_old_for_runtime");
}

TEST_CASE("a finding id is in one ambiguity entry at most") {
    std::set<std::string_view> seen;
    for (const AmbiguousEvidence& entry : all_ambiguous_evidence())
        for (std::string_view id : entry.ids) {
            INFO(id);
            CHECK(seen.insert(id).second);
        }
}

TEST_CASE("crun's words for an image without nvidia-smi are a container started without the GPU") {
    // crun names the file after the words, runc before them; both are the
    // OCI runtime's, so a container, whatever the caller says.
    CHECK(cause_id(
              "Error: crun: executable file `nvidia-smi` not found in $PATH: No such file or directory: OCI "
              "runtime attempted to invoke a command that was not found") == "runc.nvidia_smi_not_in_image");
    CHECK(cause_class("exec: \"nvidia-smi\": executable file not found in $PATH: unknown") ==
          "container_device_not_exposed");
    CHECK(cause_id("crun: executable file `python3` not found in $PATH") != "runc.nvidia_smi_not_in_image");
}
