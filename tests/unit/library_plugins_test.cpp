// The cuBLAS, cuDNN and NCCL plugins on this GPU-less host: the versions
// they report against the versions the toolkit's headers declare, every file
// they loaded, and a second NCCL build from PyPI put first on the path.
#include <cublas_api.h>
#include <cuda_runtime_api.h>
#include <cudnn_version.h>
#include <nccl.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "support/run_process.h"

using strata::test::run_process;
using strata::test::strata_binary;

namespace {

nlohmann::json doctor_json(const std::vector<std::string>& environment = {}) {
    auto result = run_process({strata_binary(), "doctor", "--json", "--no-selftest"}, environment);
    INFO(result.err);
    return nlohmann::json::parse(result.out);
}

const nlohmann::json& check(const nlohmann::json& report, const std::string& id) {
    for (const auto& c : report["checks"])
        if (c["id"] == id) return c;
    FAIL("no check " << id);
    static const nlohmann::json none;
    return none;
}

const nlohmann::json& fact(const nlohmann::json& report, const std::string& key) {
    INFO("fact " << key);
    REQUIRE(report["environment"].contains(key));
    return report["environment"][key]["value"];
}

std::vector<std::string> loaded(const nlohmann::json& report, const std::string& plugin) {
    std::vector<std::string> files;
    for (const auto& [key, value] : report["environment"].items())
        if (key.rfind("library." + plugin + ".loaded.", 0) == 0)
            files.push_back(std::filesystem::path(value["value"].get<std::string>()).filename().string());
    return files;
}

bool has(const nlohmann::json& value, const std::string& part) {
    return value.get<std::string>().find(part) != std::string::npos;
}

}  // namespace

TEST_CASE("library versions match the toolkit headers, with every file loaded") {
    auto report = doctor_json();
    CHECK(fact(report, "library.cublas.version") ==
          CUBLAS_VER_MAJOR * 10000 + CUBLAS_VER_MINOR * 100 + CUBLAS_VER_PATCH);
    CHECK(fact(report, "library.cublaslt.version") == fact(report, "library.cublas.version"));
    CHECK(fact(report, "library.cudnn.version") == CUDNN_VERSION);
    CHECK(fact(report, "library.nccl.version") == NCCL_VERSION_CODE);
    // The CUDA each was built against shares the toolkit's major.
    CHECK(fact(report, "library.cublaslt.cudart_version").get<int>() / 1000 == CUDART_VERSION / 1000);
    CHECK(fact(report, "library.cudnn.cudart_version").get<int>() / 1000 == CUDART_VERSION / 1000);
    CHECK(has(fact(report, "library.cublas.path"), "libcublas.so." + std::to_string(CUBLAS_VER_MAJOR)));
    CHECK(has(fact(report, "library.cublaslt.path"), "libcublasLt.so."));
    CHECK(has(fact(report, "library.nccl.path"), "libnccl.so.2"));

    auto cudnn_files = loaded(report, "cudnn");
    for (const char* name : {"libcudnn.so.9", "libcudnn_graph.so.9", "libcudnn_ops.so.9", "libcudnn_cnn.so.9",
                             "libcudnn_adv.so.9", "libcudnn_heuristic.so.9",
                             "libcudnn_engines_precompiled.so.9", "libcudnn_engines_runtime_compiled.so.9"}) {
        INFO(name);
        CHECK(std::find(cudnn_files.begin(), cudnn_files.end(), name) != cudnn_files.end());
    }
    for (const char* sub : {"graph", "ops", "cnn", "adv"})
        CHECK(fact(report, std::string("library.cudnn.sublibrary.") + sub + ".version_check") == 0);
    CHECK(fact(report, "library.cudnn.sublibrary.graph.version") == CUDNN_VERSION);
    CHECK(check(report, "library.cudnn.sublibraries")["status"] == "pass");
    CHECK(loaded(report, "cublas").size() == 2);

    for (const char* id : {"library.cublas.load", "library.cudnn.load", "library.nccl.load"})
        CHECK(check(report, id)["status"] == "pass");
    const auto& copies = check(report, "library.nccl.copies");
    CHECK(has(copies["evidence"], "libnccl.so.2: loaded "));
    CHECK(has(copies["evidence"], "first on the search path"));
    CHECK(check(report, "library.cudnn.cuda_compatibility")["status"] == "pass");
    // Self-tests need a GPU: with --no-selftest there are none; with them they are gated.
    auto full = run_process({strata_binary(), "doctor", "--json"});
    auto with_selftests = nlohmann::json::parse(full.out);
    for (const char* id : {"library.cublas.selftest", "library.cudnn.selftest", "library.nccl.selftest"}) {
        CHECK(check(with_selftests, id)["status"] == "skip");
        CHECK(has(check(with_selftests, id)["summary"], "skipped: driver layer failed"));
    }
}

TEST_CASE(
    "a second NCCL build from PyPI first on the path: its version and path, and the duplicate flagged") {
    std::string wheel_lib = STRATA_TEST_WHEELS_DIR "/nccl/nvidia/nccl/lib";
    INFO("the PyPI build is installed by scripts/setup --test into " << wheel_lib);
    REQUIRE(std::filesystem::exists(wheel_lib + "/libnccl.so.2"));
    auto report = doctor_json({"LD_LIBRARY_PATH=" + wheel_lib});
    CHECK(fact(report, "library.nccl.version") == 22707);  // nvidia-nccl-cu13==2.27.7
    CHECK(has(fact(report, "library.nccl.path"), "/.cache/wheels/nccl/nvidia/nccl/lib/libnccl.so.2"));
    const auto& load = check(report, "library.nccl.load");
    CHECK(has(load["summary"], "NCCL 2.27.7 from "));
    const auto& copies = check(report, "library.nccl.copies");
    CHECK(copies["status"] == "warn");
    CHECK(has(copies["evidence"], "(first on the search path: LD_LIBRARY_PATH entry 1)"));
    CHECK(has(copies["evidence"], "; also "));
    CHECK(has(copies["evidence"], "libnccl.so.2 (ld.so.cache)"));
    CHECK(check(report, "host.search_path.duplicates")["status"] == "warn");
    CHECK(has(check(report, "host.search_path.duplicates")["evidence"], "libnccl.so.2: "));
    // The toolkit's build is still what a plain run reports.
    CHECK(fact(doctor_json(), "library.nccl.version") == NCCL_VERSION_CODE);
}
