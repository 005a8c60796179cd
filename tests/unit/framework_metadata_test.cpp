// The readers of the files Python packages install about themselves, on the
// forms real frameworks write (texts copied from torch, TensorFlow, ONNX
// Runtime, CuPy and JAX wheels), and on broken ones.
#include <catch2/catch.hpp>

#include "diagnosis/framework_rules.h"
#include "frameworks/nvidia_wheels.h"
#include "frameworks/python_metadata.h"

using namespace strata;

TEST_CASE("METADATA: name, version and Requires-Dist with markers and extras") {
    auto metadata = parse_package_metadata(
        "Metadata-Version: 2.4\n"
        "Name: jax-cuda13-plugin\n"
        "Version: 0.10.2\n"
        "Requires-Dist: jax-cuda13-pjrt==0.10.2\n"
        "Provides-Extra: with-cuda\n"
        "Requires-Dist: nvidia-cudnn-cu13<10.0,>=9.12.0.46; sys_platform == \"linux\" and extra == "
        "\"with-cuda\"\n"
        "Requires-Dist: nvidia-cuda-runtime-cu12 (==12.4.127) ; platform_system == 'Linux'\n"
        "Requires-Dist: cuda-toolkit[cublas,cudart]==13.*; extra == \"ctk\"\n"
        "\n"
        "Requires-Dist: not-a-header: the description starts after the blank line\n");
    REQUIRE(metadata);
    CHECK(metadata->name == "jax-cuda13-plugin");
    CHECK(metadata->version == "0.10.2");
    REQUIRE(metadata->requires_dist.size() == 4);
    CHECK(metadata->requires_dist[0].name == "jax-cuda13-pjrt");
    CHECK(metadata->requires_dist[0].extra.empty());
    CHECK(metadata->requires_dist[1].name == "nvidia-cudnn-cu13");
    CHECK(metadata->requires_dist[1].specifier == "<10.0,>=9.12.0.46");
    CHECK(metadata->requires_dist[1].extra == "with-cuda");
    CHECK(metadata->requires_dist[2].specifier == "==12.4.127");
    CHECK(metadata->requires_dist[2].extra.empty());
    CHECK(metadata->requires_dist[3].name == "cuda-toolkit");
    CHECK(metadata->requires_dist[3].specifier == "==13.*");
    CHECK(metadata->requires_dist[3].extra == "ctk");
    CHECK(metadata->requires_dist[3].extras == std::vector<std::string>{"cublas", "cudart"});
    CHECK(metadata->requires_dist[1].extras.empty());

    CHECK_FALSE(parse_package_metadata(""));
    CHECK_FALSE(parse_package_metadata("Name: torch\n"));  // no version: not a distribution
    CHECK_FALSE(parse_package_metadata(std::string("\0\xff\xfe", 3)));
}

TEST_CASE("requested extras: normalised, blanks and an unclosed list ignored") {
    CHECK(parse_requirement("cuda-toolkit[ cuBLAS , cuda_rt,,]==13.0.3").extras ==
          std::vector<std::string>{"cublas", "cuda-rt"});
    CHECK(parse_requirement("cuda-toolkit[cublas").extras.empty());
    CHECK(parse_requirement("cuda-toolkit[]==13").extras.empty());
    // Separators alone normalise to nothing and are dropped too (found by fuzz_python_metadata).
    CHECK(parse_requirement("cuda-toolkit[_, -., cufft]").extras == std::vector<std::string>{"cufft"});
}

TEST_CASE("exact pins: numeric equality, PEP 440 prefix matching, no pin") {
    CHECK(meets_pin("13.0.3.0", "==13.0.3"));  // zero padding
    CHECK_FALSE(meets_pin("13.0.4", "==13.0.3"));
    CHECK(meets_pin("13.1.1.3", "==13.1.1.3.*"));  // cuda-toolkit's pins of its wheels
    CHECK(meets_pin("13.0.96", "==13.*"));
    CHECK(meets_pin("13", "==13.*"));
    CHECK_FALSE(meets_pin("12.9.1", "==13.*"));
    CHECK_FALSE(meets_pin("13.10.0", "==13.1.*"));  // components, not characters
    CHECK(meets_pin("2.32.6", ">=2.27,<3"));        // a range pins nothing
    CHECK(meets_pin("2.32.6", ""));
    CHECK(meets_pin("1.0", "===1.0+local"));  // arbitrary equality is not judged
    // A pin without a local label is met by any local build (torchvision's torch==2.10.0).
    CHECK(meets_pin("2.10.0+cu128", "==2.10.0"));
    CHECK_FALSE(meets_pin("2.15.0+cu132", "==2.10.0"));
    CHECK_FALSE(meets_pin("2.10.0+cu128", "==2.10.0+cu126"));
}

TEST_CASE("package names normalise as pip compares them") {
    CHECK(normalize_package_name("Nvidia_CUDNN.cu12") == "nvidia-cudnn-cu12");
    CHECK(normalize_package_name("jax__cuda13--plugin") == "jax-cuda13-plugin");
    CHECK(normalize_package_name("") == "");
}

TEST_CASE("RECORD: plain and quoted paths, junk skipped") {
    auto files = parse_record(
        "torch/lib/libtorch_cuda.so,sha256=abc,123\r\n"
        "\"odd,name/with \"\"quotes\"\".so\",sha256=def,4\n"
        "\"unterminated,5\n"
        "\n"
        "torch-2.7.0.dist-info/RECORD,,\n");
    REQUIRE(files.size() == 3);
    CHECK(files[0] == "torch/lib/libtorch_cuda.so");
    CHECK(files[1] == "odd,name/with \"quotes\".so");
    CHECK(files[2] == "torch-2.7.0.dist-info/RECORD");
}

TEST_CASE("build records: the string a key is given, in every form frameworks write") {
    // torch/version.py
    std::string torch =
        "from typing import Optional\n__all__ = ['__version__', 'debug', 'cuda', 'git_version', 'hip']\n"
        "__version__ = '2.7.0+cu128'\ndebug = False\ncuda: Optional[str] = '12.8'\n"
        "git_version = '134179474539648ba7dee1317959529fbd0e7f89'\nhip: Optional[str] = None\n";
    CHECK(python_string_value(torch, "cuda") == "12.8");
    CHECK(python_string_value(torch, "__version__") == "2.7.0+cu128");
    CHECK_FALSE(python_string_value(torch, "hip"));    // None
    CHECK_FALSE(python_string_value(torch, "debug"));  // not a string
    CHECK_FALSE(python_string_value(torch, "xpu"));    // absent
    // TensorFlow's build_info.py, dict and tuple-list forms
    CHECK(python_string_value("build_info = {'cpu_compiler': '/usr/bin/clang', 'cuda_version': '12.3', "
                              "'cudnn_version': '8', 'is_cuda_build': True}",
                              "cuda_version") == "12.3");
    CHECK(python_string_value("build_info = collections.OrderedDict([('cuda_version', '11.2'), "
                              "('cudnn_version', '8')])",
                              "cudnn_version") == "8");
    // ONNX Runtime's build_and_package_info.py
    CHECK(python_string_value("package_name = 'onnxruntime-gpu'\n__version__ = '1.20.1'\n"
                              "cuda_version = '12.2'\ncudnn_version = '9.1'\n",
                              "cuda_version") == "12.2");
    // A comparison, a longer identifier and an unterminated string are not values.
    CHECK_FALSE(python_string_value("if cuda == '12.4': pass\n", "cuda"));
    CHECK_FALSE(python_string_value("cuda_arch = '90'\n", "cuda"));
    CHECK_FALSE(python_string_value("cuda = '12.4\n'", "cuda"));
    CHECK_FALSE(python_string_value("cuda", "cuda"));
}

TEST_CASE("versions: floors of specifiers, numeric comparison, components both have") {
    CHECK(specifier_floor("==9.1.0.70") == "9.1.0.70");
    CHECK(specifier_floor("<10.0,>=9.12.0.46") == "9.12.0.46");
    CHECK(specifier_floor("==13.*") == "13");
    CHECK(specifier_floor("<3") == "");
    CHECK(specifier_floor("") == "");
    CHECK(compare_versions("9.10", "9.9") > 0);
    CHECK(compare_versions("2.7.0+cu128", "2.7.0") == 0);
    CHECK(compare_versions("12.x", "12") == 0);
    CHECK(version_older("9.0.0", "9.1.0.70"));
    CHECK_FALSE(version_older("9.1.0", "9.1.0.70"));  // the file name cannot say more
    CHECK_FALSE(version_older("9.19.0", "9.12.0.46"));
    CHECK(version_older("2.21.5", "2.27.7"));
}

TEST_CASE("NVIDIA's wheels map to the sonames a framework looks for") {
    CHECK(wheel_sonames("nvidia-cudnn-cu13", "9.12.0.46") == std::vector<std::string>{"libcudnn.so.9"});
    CHECK(wheel_sonames("nvidia-cublas", "13.0.0.19") ==
          std::vector<std::string>{"libcublas.so.13", "libcublasLt.so.13"});
    CHECK(wheel_sonames("nvidia-nccl-cu12", "2.21.5") == std::vector<std::string>{"libnccl.so.2"});
    CHECK(wheel_sonames("nvidia-cuda-nvcc", "13.0.48").empty());
    CHECK(wheel_sonames("nvidia-cudnn-cu12", "").empty());  // no version, no soname
}
