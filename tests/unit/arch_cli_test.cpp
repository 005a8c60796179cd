// `strata arch` end to end on the nvcc-built fixtures (needs nvcc at build time).
#include <sys/stat.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "doctor/kernel_images.h"
#include "support/run_process.h"

using strata::test::line_count;
using strata::test::run_process;
using strata::test::strata_binary;

TEST_CASE("strata arch: files and trees, verdicts, JSON, and bad input") {
    std::string dir = STRATA_TEST_ARCH_FIXTURES;
    SECTION("a directory tree: binaries listed, other files skipped and counted") {
        std::string tree = strata::test::scratch_path("arch-tree");
        std::filesystem::remove_all(tree);
        std::filesystem::create_directories(tree + "/nested");
        std::filesystem::copy_file(dir + "/sm80.o", tree + "/nested/sm80.o");
        std::ofstream(tree + "/README.txt") << "not a binary\n";
        auto result = run_process({strata_binary(), "arch", tree});
        CHECK(result.exit_code == 0);
        CHECK(result.out.find("nested/sm80.o  (elf, 1 container(s), 1 image(s))") != std::string::npos);
        CHECK(result.out.find("runs natively on CC: 8.0 8.6 8.8 8.9") != std::string::npos);
        CHECK(result.out.find("1 non-binary file(s) skipped") != std::string::npos);
        std::filesystem::remove_all(tree);
    }
    SECTION("a named file that is not a binary, or whose fat binaries are corrupt, is no silent 0") {
        // Issue #37: each said "0 file(s) with device code" and exited 0 with --sm.
        std::string text = strata::test::scratch_path("arch-text.txt");
        std::ofstream(text) << "not a binary\n";
        auto named = run_process({strata_binary(), "arch", "--sm", "90", text});
        CHECK(named.exit_code == 2);
        CHECK(named.err.find("strata: error: " + text +
                             ": not an ELF file, static archive, cubin or fat binary") != std::string::npos);
        // Every container of the library corrupt: unreadable, not "no device code".
        std::ifstream in(dir + "/libtwo_units.so", std::ios::binary);
        std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        const std::string magic("\x50\xed\x55\xba", 4);
        std::string all_bad = bytes, one_bad = bytes;
        size_t first = bytes.find(magic);
        REQUIRE(first != std::string::npos);
        one_bad[first + 4] = 7;  // container version 7
        for (size_t at = all_bad.find(magic); at != std::string::npos; at = all_bad.find(magic, at + 4))
            all_bad[at + 4] = 7;
        std::string all_path = strata::test::scratch_path("arch-all-bad.so"),
                    one_path = strata::test::scratch_path("arch-one-bad.so");
        std::ofstream(all_path, std::ios::binary) << all_bad;
        std::ofstream(one_path, std::ios::binary) << one_bad;
        auto all = run_process({strata_binary(), "arch", "--sm", "90", all_path});
        CHECK(all.exit_code == 2);
        CHECK(all.err.find("strata: error: " + all_path +
                           ": no fat binary of it can be read: .nv_fatbin: container at") !=
              std::string::npos);
        // One of them corrupt: listed with the warning; a verdict on the rest is incomplete.
        CHECK(run_process({strata_binary(), "arch", one_path}).exit_code == 0);
        CHECK(run_process({strata_binary(), "arch", "--sm", "90", one_path}).exit_code == 2);
        for (const std::string& path : {text, all_path, one_path}) std::filesystem::remove(path);
    }
    SECTION("a FIFO named as a binary is a one-line error, not a hang") {
        std::string fifo = strata::test::scratch_path("arch-fifo");
        std::filesystem::remove(fifo);
        REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
        auto result = run_process({strata_binary(), "arch", fifo});
        CHECK(result.exit_code == 2);
        CHECK(result.err.find("strata: error: " + fifo + ": not a regular file") != std::string::npos);
        std::filesystem::remove(fifo);
    }
    SECTION("a target the file cannot run on exits 1 and says why") {
        auto result = run_process({strata_binary(), "arch", dir + "/sm80.o", "--sm", "9.0"});
        CHECK(result.exit_code == 1);
        CHECK(result.out.find("CC 9.0: none — no image for CC 9.0 (has: sm_80)") != std::string::npos);
        auto ok = run_process({strata_binary(), "arch", dir + "/sm80.o", "--sm", "sm_86"});
        CHECK(ok.exit_code == 0);
        CHECK(ok.out.find("CC 8.6: native") != std::string::npos);
    }
    SECTION("a refused fat binary in a library that runs native: exit 0, counted and named") {
        auto result = run_process({strata_binary(), "arch", "--json", dir + "/libmostly_native.so", "--sm",
                                   "9.0", "--driver", "570.86.15"});
        CHECK(result.exit_code == 0);
        auto json = nlohmann::json::parse(result.out);
        const auto& verdict = json["files"][0]["verdicts"][0];
        CHECK(verdict["verdict"] == "native");
        CHECK(verdict["registered"]["driver_refused"] == 1);
        CHECK(verdict["registered"]["none"] == 1);
        CHECK(verdict["reason"].get<std::string>().find(
                  "refused: no image CC 9.0 can use with driver 570.86.15") != std::string::npos);
    }
    SECTION("cuSOLVER of CUDA 13.2 (the wheel torch 2.15 installs) under minor-version compatibility") {
        std::string cusolver = STRATA_TEST_WHEELS_DIR "/cusolver/nvidia/cu13/lib/libcusolver.so.12";
        REQUIRE(std::filesystem::exists(cusolver));  // scripts/setup installs it
        auto judge = [&](const char* sm, const char* driver) {
            auto result =
                run_process({strata_binary(), "arch", "--json", cusolver, "--sm", sm, "--driver", driver});
            auto json = nlohmann::json::parse(result.out);
            return std::make_pair(result.exit_code, json["files"][0]["verdicts"][0]);
        };
        // B200 on driver 580 (CUDA 13.0): one PTX-only fat binary refused, the library runs.
        auto [b200_code, b200] = judge("10.0", "580.95.05");
        CHECK(b200_code == 0);
        CHECK(b200["verdict"] == "native");
        CHECK(b200["registered"]["driver_refused"] == 1);
        CHECK(b200["reason"].get<std::string>().find("PTX ISA 9.2, which needs a CUDA 13.2 driver") !=
              std::string::npos);
        // A driver for CUDA 13.2 compiles it: nothing refused.
        auto [current_code, current] = judge("10.0", "595.45.04");
        CHECK(current_code == 0);
        CHECK(current["registered"]["driver_refused"] == 0);
        // Driver 535 cannot read ZSTD: most fat binaries are refused, so the library cannot run.
        auto [old_code, old] = judge("10.0", "535.104.05");
        CHECK(old_code == 1);
        CHECK(old["verdict"] == "none");
        CHECK(old["reason"].get<std::string>().find("ZSTD-compressed") != std::string::npos);
    }
    SECTION("--json carries every image and the verdicts") {
        auto result = run_process({strata_binary(), "arch", "--json", "--details", dir + "/ptx_only.o",
                                   "--sm", "121", "--driver", "575.51.03"});
        CHECK(result.exit_code == 1);
        auto json = nlohmann::json::parse(result.out);
        const auto& file = json["files"][0];
        CHECK(file["images"][0]["target"] == "compute_120");
        CHECK(file["images"][0]["ptx_target"] == "sm_120");
        CHECK(file["verdicts"][0]["verdict"] == "none");
        CHECK(file["verdicts"][0]["reason"].get<std::string>().find("needs a CUDA 13.0 driver") !=
              std::string::npos);
        CHECK(json["driver"] == "575.51.03");
    }
    SECTION("corrupt files get a per-file error and exit 2; bad flags exit 2") {
        std::string corrupt = strata::test::scratch_path("corrupt.so");
        std::ofstream(corrupt) << std::string(
                                      "\x7f"
                                      "ELF\x02\x01\x01",
                                      7)
                               << std::string(100, '\xff');
        auto result = run_process({strata_binary(), "arch", corrupt, dir + "/sm80.o"});
        CHECK(result.exit_code == 2);
        CHECK(result.err.find("strata: error: " + corrupt + ": ") != std::string::npos);
        CHECK(result.out.find("sm80.o  (elf") != std::string::npos);  // the good file is still listed
        std::remove(corrupt.c_str());
        // A missing path is reported in its place; what could be read is still listed, and
        // --json still prints one document (exit 2 either way).
        auto missing = run_process({strata_binary(), "arch", "/nonexistent.so", dir + "/sm80.o"});
        CHECK(missing.exit_code == 2);
        CHECK(missing.err.find("strata: error: /nonexistent.so: No such file or directory") !=
              std::string::npos);
        CHECK(missing.out.find("sm80.o  (elf") != std::string::npos);
        auto missing_json =
            run_process({strata_binary(), "arch", "--json", dir + "/sm80.o", "/nonexistent.so"});
        CHECK(missing_json.exit_code == 2);
        auto document = nlohmann::json::parse(missing_json.out);
        REQUIRE(document["files"].size() == 2);
        CHECK(document["files"][0]["images"].size() == 1);
        CHECK(document["files"][1]["error"] == "No such file or directory");
        CHECK(document["exit_code"] == 2);
        for (std::vector<std::string> args : {std::vector<std::string>{"arch", dir, "--sm", "banana"},
                                              {"arch", dir, "--driver", "13.0"},
                                              {"arch"}}) {
            args.insert(args.begin(), strata_binary());
            auto bad = run_process(args);
            INFO(args.back());
            CHECK(bad.exit_code == 2);
            CHECK(line_count(bad.err) == 1);
        }
    }
    SECTION("--gpu on a host without GPUs says so and lists without a target") {
        auto result = run_process({strata_binary(), "arch", dir + "/sm80.o", "--gpu"});
        if (result.err.find("no GPU found") != std::string::npos) {
            CHECK(result.exit_code == 0);
            CHECK(result.out.find("runs natively on CC") != std::string::npos);
        } else {
            CHECK(result.out.find("GPU 0 (") != std::string::npos);  // a GPU machine: a verdict per GPU
        }
    }
}

TEST_CASE("the kernel-layer check names the image each GPU would load from strata's own kernels") {
    std::string kernels = STRATA_TEST_KERNELS_LIBRARY;
    auto h200 = strata::kernel_image_check({{0, "NVIDIA H200", 90}}, {kernels}, "580.65.06");
    CHECK(h200.status == strata::Status::pass);
    CHECK(h200.evidence == "GPU 0 (NVIDIA H200, CC 9.0): libstrata_kernels.so -> sm_90 (native)");
    auto spark = strata::kernel_image_check({{0, "NVIDIA GB10", 121}}, {kernels}, "580.95.05");
    CHECK(spark.status == strata::Status::pass);
    CHECK(spark.evidence.find("-> sm_120 (native)") != std::string::npos);
    auto thor = strata::kernel_image_check({{1, "NVIDIA Thor", 110}}, {kernels}, "580.65.06");
    CHECK(thor.status == strata::Status::fail);
    CHECK(thor.summary.find("GPU 1 (NVIDIA Thor, CC 11.0): libstrata_kernels.so: no image for CC 11.0") == 0);
    CHECK_FALSE(thor.remedy.empty());
    auto none = strata::kernel_image_check({{0, "x", 90}}, {}, "");
    CHECK(none.status == strata::Status::skip);
}

TEST_CASE("link stubs without a kernel are listed, never judged: the toolkit's own libraries pass") {
    // Issue #38 item 9: libcufftw.so's only image is nvcc's sm_75 link stub
    // for a shared library (no .text.<kernel>), and `strata arch
    // /usr/local/cuda/lib64 --sm 10.0` exited 1 on it.
    namespace fs = std::filesystem;
    std::string toolkit = STRATA_TEST_CUDA_LIBRARY_DIR;
    std::string stub_only;
    for (const auto& entry : fs::directory_iterator(toolkit))
        if (entry.path().filename().string().rfind("libcufftw.so.", 0) == 0 && !entry.is_symlink())
            stub_only = entry.path().string();
    if (stub_only.empty()) {
        WARN("skipped: this toolkit ships no libcufftw.so.N");
        return;
    }
    auto listed = run_process({strata_binary(), "arch", "--sm", "10.0", stub_only});
    CHECK(listed.exit_code == 0);
    CHECK(listed.out.find("no kernel: its device code is link stubs that define none") != std::string::npos);
    CHECK(listed.out.find("CC 10.0:") == std::string::npos);
    CHECK(listed.out.find("1 file(s) with device code (1 with link stubs alone)") != std::string::npos);
    auto json = run_process({strata_binary(), "arch", "--sm", "10.0", "--json", stub_only});
    auto document = nlohmann::json::parse(json.out);
    CHECK(document["files"][0]["kernel_less"] == true);
    CHECK_FALSE(document["files"][0].contains("verdicts"));
    // Device code without SASS or PTX (LTO-IR alone) is no link stub: it is
    // judged, and has no image for the GPU.
    auto lto = run_process({strata_binary(), "arch", "--sm", "9.0",
                            std::string(STRATA_TEST_ARCH_FIXTURES) + "/../lto/lto_only.o"});
    CHECK(lto.exit_code == 1);
    CHECK(lto.out.find("link stubs") == std::string::npos);
    CHECK(lto.out.find("CC 9.0: none") != std::string::npos);
    // The whole toolkit: every library with kernels runs on CC 10.0.
    auto all = run_process({strata_binary(), "arch", "--sm", "10.0", toolkit});
    INFO(all.out);
    CHECK(all.exit_code == 0);
}
