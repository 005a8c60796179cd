// What strata learns about one installed GPU framework from its files alone:
// versions, the CUDA it was built for, its nvidia-* dependencies, its device
// code and the CUDA libraries the loader will give it. The framework is never
// imported: an import can hang, crash or take a minute, and proves nothing
// about kernels.
#pragma once

#include <string>
#include <vector>

#include "probes/library_search.h"

namespace strata {

// A dependency on an nvidia-* (or cuda-*) wheel from the framework's metadata.
struct WheelDependency {
    std::string name;       // "nvidia-cudnn-cu12"
    std::string specifier;  // "==9.1.0.70"
    std::string extra;      // "" for a plain dependency, else the extra ("with-cuda")
    std::string installed;  // the installed version, "" when not installed
    std::string via;        // asked for through a metapackage's extra: "cuda-toolkit[cublas]"; "" direct
};

// A CUDA library the framework loads, and every copy the loader could pick.
struct LibraryNeed {
    std::string soname;         // "libcudnn.so.9"
    std::string needed_by;      // the framework file whose search path applies
    bool linked = false;        // DT_NEEDED (else loaded with dlopen by name)
    std::string wheel;          // the installed dependency wheel that ships it: "nvidia-cudnn-cu12"
    std::string wheel_copy;     // that wheel's copy
    std::string missing_wheel;  // the dependency that would ship it, not installed: "nvidia-cudnn-cu13"
    bool optional = false;      // only an extra's dependency wants it
    // The framework's extra whose dependencies would install it ("ctk" of
    // cupy-cuda13x), when one would: the fix names it.
    std::string extra;
    // The framework's install guide requires it, though importing the
    // framework does not load it (CuPy's CUDA Toolkit libraries): missing,
    // it fails every call that needs it, not the import.
    bool required_by_guide = false;
    std::string expected;                     // the version the framework was built for or pins; "" unknown
    std::vector<LibraryLocation> candidates;  // loader order: the first wins
    std::vector<std::string> versions;        // per candidate, "" when unknown
    // The CUDA major the picked copy was built for and how that is known
    // ("13", "it links libnvJitLink.so.13"); "" when the copy does not say.
    std::string built_for_cuda, built_for_evidence;
};

// Something a package's shared object needs and nothing installed provides.
struct MissingImport {
    std::string file;  // the package's file that needs it
    std::string name;  // the symbol (mangled) or the soname
};

// A package built against the framework (torchvision, vllm, flash-attn):
// it requires the framework's distribution and ships its own device code.
struct FrameworkExtension {
    std::string name;     // "torchvision"
    std::string version;  // "0.29.2+cu132"
    // Its requirement on the framework, as written: "torch" and "==2.10.0".
    std::string requires_name, requires_specifier;
    std::vector<std::string> device_code_files;  // its own shared objects with SASS or PTX
    // The CUDA major it was built for, from the runtime it links or vendors
    // ("13"), and how that is known ("_C_stable.so links libcudart.so.13"); "" unknown.
    std::string cuda_major, cuda_evidence;
    // Its imports from the framework (frameworks/framework_abi.h), checked
    // against what the framework's libraries (and the other packages built
    // on it) export. Each missing one fails Python's import of the file.
    size_t framework_imports = 0;                  // distinct symbols of the framework's interface it imports
    std::vector<MissingImport> missing_symbols;    // mangled, as the loader would print them
    std::vector<MissingImport> missing_libraries;  // framework sonames it needs that are not installed
    std::vector<std::string> problems;             // files that could not be read
    // A package that ships one build of a library per CUDA release
    // (bitsandbytes: libbitsandbytes_cuda118.so … _cuda132.so) and loads the
    // one for the framework's CUDA: which it loads, or, where it has none for
    // it, the file it looks for and the releases it has.
    std::string cuda_variant_loaded;    // "libbitsandbytes_cuda132.so (of 7 CUDA builds)"
    std::string cuda_variant_missing;   // "libbitsandbytes_cuda131.so"
    std::string cuda_variants_shipped;  // "11.8, 12.1, 12.4, 12.6, 12.8, 13.0, 13.2"
};

struct FrameworkInstall {
    std::string id;    // "torch", "jax", ...; "torch-2" for a second install
    std::string name;  // "PyTorch"
    std::string version;
    std::string distribution;  // the distribution `version` is of: "torch", "jaxlib"
    std::string environment;   // the environment's label
    std::string site_dir;
    std::vector<std::string> distributions;  // "torch 2.5.1+cu124"
    bool cuda_build = false;
    std::string build_kind;    // why not CUDA: "a CPU-only build", "a ROCm build (HIP 6.2)"
    std::string cuda_version;  // "12.4", "13.x" (any 13 minor), "13" (major only)
    std::string cuda_source;   // where it was read: "torch/version.py"
    std::string cudnn_version, nccl_version;
    // True when cudnn_version/nccl_version are the floors of `>=`
    // requirements (JAX's plugin), not the versions it was built with.
    bool library_versions_are_floors = false;
    std::vector<WheelDependency> dependencies;
    // What its Python code loads CUDA libraries with before its extension
    // modules, when that searches NVIDIA's wheels first ("cuda-pathfinder",
    // CuPy 14): the wheels' copies win over the system's. "" otherwise.
    std::string wheel_preloader;
    // A call the user may make to load the wheels' copies first when the
    // framework leaves it to them ("onnxruntime.preload_dlls()", ONNX Runtime
    // 1.21 and later): named in the fix when another copy wins. "" when none.
    std::string opt_in_preloader;
    std::vector<std::string> device_code_files;  // its own shared libraries that carry SASS or PTX
    // NVIDIA libraries vendored into its wheel (auditwheel's hashed names,
    // "libcusparseLt-f80c68d1.so.0") that carry device code: judged with the
    // libraries, not as the framework's own kernels.
    std::vector<std::string> vendored_files;
    std::vector<std::string> sass, ptx;  // distinct targets across them, by SM: "sm_80", "compute_90"
    std::string newest_ptx_isa;          // "8.8"; "" without PTX
    size_t elf_files = 0;
    std::vector<LibraryNeed> libraries;
    std::vector<FrameworkExtension> extensions;  // packages built against it that carry device code
    std::vector<std::string> mismatches;         // parts from different releases (jaxlib vs its CUDA plugin)
    std::vector<std::string> problems;           // files that could not be read, one line each
};

}  // namespace strata
