// The strata binary end to end: exit statuses, one-line errors, formats.
#include <catch2/catch.hpp>
#include <fstream>
#include <nlohmann/json.hpp>

#include "model/layer.h"
#include "support/run_process.h"

using strata::test::line_count;
using strata::test::run_process;
using strata::test::strata_binary;

TEST_CASE("strata --version names the build, toolkit and kernel architectures") {
    auto result = run_process({strata_binary(), "--version"});
    CHECK(result.exit_code == 0);
    CHECK(result.out.rfind("strata ", 0) == 0);
    CHECK(result.out.find("revision: ") != std::string::npos);
    CHECK(result.out.find("build type: ") != std::string::npos);
    CHECK(result.out.find("CUDA toolkit: ") != std::string::npos);
    CHECK(result.out.find("kernel architectures: ") != std::string::npos);
}

TEST_CASE("bad usage is one line on stderr and exit 2") {
    for (std::vector<std::string> args : {std::vector<std::string>{"frobnicate"},
                                          {"doctor", "--no-such-flag"},
                                          {"doctor", "--plugin-path", "/nonexistent/plugins"},
                                          {"doctor", "--timeout", "-3"}}) {
        args.insert(args.begin(), strata_binary());
        auto result = run_process(args, {"STRATA_PLUGIN_PATH"});
        INFO(args[1] << ": " << result.err);
        CHECK(result.exit_code == 2);
        CHECK(line_count(result.err) == 1);
        CHECK(result.err.rfind("strata: error: ", 0) == 0);
    }
    auto unknown = run_process({strata_binary(), "frobnicate"});
    CHECK(unknown.err == "strata: error: unknown command 'frobnicate' (see strata --help)\n");
    auto unreadable = run_process({strata_binary(), "doctor", "--plugin-path", "/nonexistent/plugins"});
    CHECK(unreadable.err == "strata: error: plugin path '/nonexistent/plugins': No such file or directory\n");
    auto env_path = run_process({strata_binary(), "plugins"}, {"STRATA_PLUGIN_PATH=/nonexistent/env"});
    CHECK(env_path.exit_code == 2);
}

TEST_CASE("help reads cleanly: the command's name, placeholders, no parser notes") {
    const std::vector<std::string> commands = {"doctor",     "env",     "plugins", "arch",
                                               "frameworks", "explain", "compare", "bench",
                                               "record",     "rollout", "fleet"};
    for (const std::string& command : commands) {
        auto help = run_process({strata_binary(), command, "--help"});
        INFO(command << ":\n" << help.out);
        CHECK(help.exit_code == 0);
        CHECK(help.out.find("Usage: strata " + command + " ") != std::string::npos);
        for (const char* noise : {"Excludes:", "Needs:", "x)", " x 2", "TEXT:", "INT:", "FLOAT:", " in ["})
            CHECK(help.out.find(noise) == std::string::npos);
        // `strata help COMMAND` is the same text.
        auto same = run_process({strata_binary(), "help", command});
        CHECK(same.exit_code == 0);
        CHECK(same.out == help.out);
    }
    auto top = run_process({strata_binary(), "help"});
    CHECK(top.exit_code == 0);
    CHECK(top.out.find("Usage: strata [OPTIONS] [SUBCOMMAND]") != std::string::npos);
    auto unknown = run_process({strata_binary(), "help", "frobnicate"});
    CHECK(unknown.exit_code == 2);
    CHECK(unknown.err == "strata: error: unknown command 'frobnicate' (see strata help)\n");
    auto rollout = run_process({strata_binary(), "rollout", "--help"});
    CHECK(rollout.out.find("Usage: strata rollout [OPTIONS] [BASE CAND]") != std::string::npos);
    auto bench = run_process({strata_binary(), "bench", "--help"});
    CHECK(bench.out.find("--side-by-side NAME=LIBDIR ...") != std::string::npos);
}

TEST_CASE("a usage error points at the help of the command it is about") {
    auto missing = run_process({strata_binary(), "compare", "only-one.json"});
    CHECK(missing.exit_code == 2);
    CHECK(missing.err == "strata: error: new is required (see strata compare --help)\n");
    auto flag = run_process({strata_binary(), "fleet", "--no-such-flag", "x"});
    CHECK(flag.exit_code == 2);
    CHECK(flag.err.find("(see strata fleet --help)\n") != std::string::npos);
}

TEST_CASE("options before any command are doctor's, as bare strata is doctor") {
    auto json = run_process({strata_binary(), "--json", "--no-builtin-plugins"}, {"STRATA_PLUGIN_PATH"});
    auto report = nlohmann::json::parse(json.out);
    CHECK(report["command"] == "doctor");
    CHECK(report["exit_code"] == json.exit_code);
    auto unknown = run_process({strata_binary(), "--no-such-flag"});
    CHECK(unknown.exit_code == 2);
    CHECK(unknown.err.find("(see strata doctor --help)\n") != std::string::npos);
    auto version = run_process({strata_binary(), "--version"});
    CHECK(version.exit_code == 0);
}

TEST_CASE("every output path is proved writable before any work, and its directories made") {
    // Issue #38 item 7: `record --out base/node.json` without base/ ran every
    // benchmark, then failed to write.
    std::string nested = strata::test::scratch_path("outputs") + "/base/day1/node.json";
    auto made =
        run_process({strata_binary(), "record", "--no-benchmarks", "--no-builtin-plugins", "--out", nested},
                    {"STRATA_PLUGIN_PATH"});
    CHECK(made.out.rfind("record: " + nested, 0) == 0);
    CHECK(std::ifstream(nested).good());

    // A file where a directory must be: refused first, with the OS's reason;
    // the record that could have been written is not.
    std::string record = strata::test::scratch_path("outputs") + "/kept.json";
    auto refused = run_process({strata_binary(), "record", "--no-benchmarks", "--no-builtin-plugins", "--out",
                                record, "--prometheus", nested + "/node.prom"},
                               {"STRATA_PLUGIN_PATH"});
    CHECK(refused.exit_code == 2);
    CHECK(refused.out.empty());
    CHECK(refused.err == "strata: error: cannot write '" + nested + "/node.prom': Not a directory\n");
    CHECK_FALSE(std::ifstream(record).good());
    for (const char* option : {"--junit", "--prometheus"}) {
        auto doctor =
            run_process({strata_binary(), "doctor", "--no-builtin-plugins", option, nested + "/x/y"},
                        {"STRATA_PLUGIN_PATH"});
        INFO(option << ": " << doctor.err);
        CHECK(doctor.exit_code == 2);
        CHECK(doctor.out.empty());
        CHECK(doctor.err.find("Not a directory") != std::string::npos);
    }
}

TEST_CASE("record names the node: --node, else slurmd's name inside a job or not") {
    // Issue #38 item 11: SLURMD_NODENAME counted only with SLURM_JOB_ID, and
    // there was no --node.
    std::string out = strata::test::scratch_path("node-name.json");
    auto node_of = [&](std::vector<std::string> extra, std::vector<std::string> env) {
        std::vector<std::string> argv = {strata_binary(),        "record", "--no-benchmarks",
                                         "--no-builtin-plugins", "--out",  out};
        argv.insert(argv.end(), extra.begin(), extra.end());
        env.push_back("STRATA_PLUGIN_PATH");
        env.push_back("SLURM_JOB_ID");
        env.push_back("NODE_NAME");
        auto result = run_process(argv, env);
        INFO(result.err);
        std::ifstream in(out);
        return nlohmann::json::parse(in)["strata_record"]["node"].get<std::string>();
    };
    CHECK(node_of({}, {"SLURMD_NODENAME=gpu007"}) == "gpu007");
    CHECK(node_of({"--node", "gpu042"}, {"SLURMD_NODENAME=gpu007"}) == "gpu042");
    auto spaced = run_process({strata_binary(), "record", "--no-benchmarks", "--out", out, "--node", "a b"});
    CHECK(spaced.exit_code == 2);
    CHECK(spaced.err.find("--node 'a b'") != std::string::npos);
}

TEST_CASE("every JSON document strata prints names its command and its exit status") {
    // Issue #38 item 11: some carried command and exit_code, some neither.
    const std::string results = STRATA_TEST_BENCH_FIXTURES "/google_benchmark_base.json";
    const std::vector<std::vector<std::string>> runs = {
        {"doctor", "--json", "--no-builtin-plugins"},
        {"env", "--no-builtin-plugins"},
        {"plugins", "--json", "--no-builtin-plugins"},
        {"arch", "--json", STRATA_TEST_BENCH_FIXTURES},
        {"frameworks", "--json", "--site-packages", STRATA_TEST_BENCH_FIXTURES},
        {"explain", "--json", "--no-probe",
         "CUDA error: no kernel image is available for execution on the device"},
        {"compare", "--json", results, results},
        {"rollout", "--json", results, results},
        {"fleet", "--json", results}};
    for (std::vector<std::string> args : runs) {
        std::string command = args.front();
        args.insert(args.begin(), strata_binary());
        auto result = run_process(args, {"STRATA_PLUGIN_PATH"});
        INFO(command << ": " << result.err);
        auto document = nlohmann::json::parse(result.out);
        CHECK(document["command"] == command);
        CHECK(document["exit_code"] == result.exit_code);
    }
}

TEST_CASE("doctor on this host: JSON report with every layer, exit status from the checks") {
    auto result =
        run_process({strata_binary(), "doctor", "--json", "--no-builtin-plugins"}, {"STRATA_PLUGIN_PATH"});
    auto report = nlohmann::json::parse(result.out);
    CHECK(report["schema_version"] == "1.4.0");
    CHECK(report["layers"].size() == strata::all_layers.size());
    CHECK(report["exit_code"] == result.exit_code);
    bool driver_failed = false;
    for (const auto& check : report["checks"])
        if (check["layer"] == "driver" && check["status"] == "fail") driver_failed = true;
    CHECK(result.exit_code == (driver_failed ? 1 : result.exit_code));
    if (driver_failed) {
        CHECK(result.exit_code == 1);
        for (const auto& layer : report["layers"]) {
            if (layer["name"] == "runtime" || layer["name"] == "library" || layer["name"] == "kernel") {
                CHECK(layer["status"] == "skip");
                CHECK(layer["summary"].get<std::string>().find("driver layer failed") != std::string::npos);
            }
        }
    }
    CHECK(report["environment"]["strata.version"]["source"] == "build");
}

TEST_CASE("text output has no colour when piped, Markdown and JUnit render the same checks") {
    auto text = run_process({strata_binary(), "doctor", "--no-builtin-plugins"}, {"STRATA_PLUGIN_PATH"});
    CHECK(text.out.find('\033') == std::string::npos);
    CHECK(text.out.find("driver") != std::string::npos);
    auto colored = run_process({strata_binary(), "doctor", "--no-builtin-plugins", "--color", "always"});
    CHECK(colored.out.find('\033') != std::string::npos);

    auto markdown = run_process({strata_binary(), "doctor", "--markdown", "--no-builtin-plugins"});
    CHECK(markdown.out.find("| layer | status | summary |") != std::string::npos);
    CHECK(markdown.out.find("`driver.kernel_module`") != std::string::npos);

    std::string junit_path = strata::test::scratch_path("junit.xml");
    auto junit = run_process({strata_binary(), "doctor", "--no-builtin-plugins", "--junit", junit_path});
    std::ifstream in(junit_path);
    std::string xml((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    CHECK(xml.rfind("<?xml", 0) == 0);
    CHECK(xml.find("name=\"driver.kernel_module\"") != std::string::npos);
    CHECK(junit.exit_code == text.exit_code);
    std::remove(junit_path.c_str());
}

TEST_CASE("env prints the environment record as JSON") {
    auto result = run_process({strata_binary(), "env", "--no-builtin-plugins"}, {"STRATA_PLUGIN_PATH"});
    CHECK(result.exit_code == 0);
    auto record = nlohmann::json::parse(result.out);
    CHECK(record["environment"].contains("host.kernel.release"));
    CHECK(record["environment"].contains("strata.git_revision"));
}

TEST_CASE("plugins prints the load report and exits 1 when a plugin did not load") {
    const std::string abi =
        std::to_string(STRATA_PLUGIN_ABI_MAJOR) + "." + std::to_string(STRATA_PLUGIN_ABI_MINOR);
    auto good = run_process({strata_binary(), "plugins", "--no-builtin-plugins", "--plugin-path",
                             strata::test::test_plugin("ok")});
    CHECK(good.exit_code == 0);
    CHECK(good.out.find("test_ok  loaded              runtime layer, version 1.0, ABI " + abi +
                        ", self-test") != std::string::npos);
    auto bad = run_process({strata_binary(), "plugins", "--no-builtin-plugins", "--plugin-path",
                            strata::test::test_plugin("missing_dependency"), "--plugin-path",
                            strata::test::test_plugin("wrong_abi")});
    CHECK(bad.exit_code == 1);
    CHECK(bad.out.find("test_missing_dependency  missing_dependency  libstrata_test_ghost.so not found") !=
          std::string::npos);
    CHECK(bad.out.find("test_wrong_abi           error               plugin ABI 2." +
                       std::to_string(STRATA_PLUGIN_ABI_MINOR)) != std::string::npos);
}

TEST_CASE("an answer that cannot be written is strata failing, not a silent 0") {
    // --version and --help too (issue #37: `--version > /dev/full` exited 0).
    for (const char* command : {" explain --no-probe 'CUDA error 999'", " --version", " --help"})
        for (const char* redirect : {" > /dev/full", " >&-"}) {
            auto result = run_process({"/bin/sh", "-c", strata_binary() + command + std::string(redirect)});
            INFO(command << redirect);
            CHECK(result.exit_code == 3);
            CHECK(line_count(result.err) == 1);
            CHECK(result.err.rfind("strata: error: cannot write to standard output: ", 0) == 0);
        }
}
