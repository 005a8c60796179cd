// NCCL's algorithm choice, read once from its tuning log (issue #16: the log
// was re-read on every timed call, stayed on inside the timed enqueues, and
// lived at a predictable /tmp path).
#include <sys/stat.h>

#include <catch2/catch.hpp>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "tuning_log.h"

using strata::nccl::parse_tuning_log;
using strata::nccl::TuningLog;

namespace {

int resets = 0;
void counting_reset() {
    ++resets;
}

bool is_set(const char* name) {
    return std::getenv(name) != nullptr;
}

}  // namespace

TEST_CASE("tuning lines of every NCCL format give the choice per size, the last one winning") {
    std::istringstream log(
        "node1:4242:4242 [0] NCCL INFO AllReduce: 1048576 Bytes -> Algo RING proto SIMPLE "
        "channel{Lo..Hi}={0..0}\n"
        "NCCL INFO AllReduce: 8388608 Bytes -> Algo Ring proto LL128 channel{Lo..Hi}={0..15}\n"
        "node1:4242:4242 [0] NCCL INFO 16777216 Bytes -> Algo 1 proto 2 time 2860.208008\n"  // NCCL < 2.19
        "node1:4242:4242 [0] NCCL INFO 134217728 Bytes -> Algo 4 proto 9 time 1.0\n"  // unknown proto number
        "NCCL INFO AllReduce: 536870912 Bytes -> Algo Tree proto LL channel{Lo..Hi}={0..1}\n"
        "NCCL INFO AllReduce: 536870912 Bytes -> Algo NVLS proto Simple channel{Lo..Hi}={0..15}\n"
        "NCCL INFO Channel 00/0 : 0[0] -> 1[1] via P2P/IPC\n"
        " Bytes -> Algo Ring\n"                                  // no size
        "99999999999999999999999 Bytes -> Algo Ring proto LL\n"  // beyond 64 bits
        "4096 Bytes -> Algo\n");                                 // no algorithm
    auto choices = parse_tuning_log(log);
    REQUIRE(choices.size() == 5);
    CHECK(choices.at(1048576).algorithm == "RING");
    CHECK(choices.at(1048576).protocol == "SIMPLE");
    CHECK(choices.at(8388608).protocol == "LL128");
    CHECK(choices.at(16777216).algorithm == "Ring");  // numbers named as NCCL's tables do
    CHECK(choices.at(16777216).protocol == "Simple");
    CHECK(choices.at(134217728).algorithm == "NVLS");
    CHECK(choices.at(134217728).protocol == "9");
    CHECK(choices.at(536870912).algorithm == "NVLS");
}

TEST_CASE("the tuning log is private, on only until it is read, and gone afterwards") {
    REQUIRE_FALSE(is_set("NCCL_DEBUG"));
    resets = 0;
    std::filesystem::path file;
    {
        TuningLog log(counting_reset);
        REQUIRE(log.active());
        CHECK(resets == 1);
        file = log.file();
        CHECK(std::string(std::getenv("NCCL_DEBUG")) == "INFO");
        CHECK(std::string(std::getenv("NCCL_DEBUG_SUBSYS")) == "TUNING");
        CHECK(std::getenv("NCCL_DEBUG_FILE") == file.string());
        // In a directory of its own that only this user can enter, not at a
        // name another user could create in /tmp first.
        struct stat info {};
        REQUIRE(stat(file.parent_path().c_str(), &info) == 0);
        CHECK((info.st_mode & 0777) == 0700);
        CHECK(file.parent_path().filename().string().rfind("strata-nccl-", 0) == 0);
        CHECK(file.parent_path().filename().string() != "strata-nccl-XXXXXX");
        std::ofstream(file)
            << "NCCL INFO AllReduce: 1048576 Bytes -> Algo Ring proto LL channel{Lo..Hi}={0..1}\n";
        auto choices = log.finish();
        CHECK(choices.at(1048576).algorithm == "Ring");
        // Off before any timing: the variables are gone and NCCL was told to read them again.
        CHECK(resets == 2);
        CHECK_FALSE(is_set("NCCL_DEBUG"));
        CHECK_FALSE(is_set("NCCL_DEBUG_SUBSYS"));
        CHECK_FALSE(is_set("NCCL_DEBUG_FILE"));
        CHECK_FALSE(std::filesystem::exists(file.parent_path()));
        CHECK(log.finish().empty());  // read once
    }
    CHECK(resets == 2);  // the destructor has nothing left to turn off
}

TEST_CASE("the tuning log stays off where NCCL could not turn it off again, or the user set NCCL_DEBUG") {
    REQUIRE_FALSE(is_set("NCCL_DEBUG"));
    resets = 0;
    SECTION("no ncclResetDebugInit") {
        TuningLog log(nullptr);
        CHECK_FALSE(log.active());
        CHECK(log.why().find("ncclResetDebugInit") != std::string::npos);
        CHECK_FALSE(is_set("NCCL_DEBUG"));
        CHECK_FALSE(is_set("NCCL_DEBUG_FILE"));
    }
    SECTION("the user's NCCL_DEBUG") {
        setenv("NCCL_DEBUG", "WARN", 1);
        {
            TuningLog log(counting_reset);
            CHECK_FALSE(log.active());
            CHECK(log.why().find("NCCL_DEBUG is set") != std::string::npos);
            CHECK(log.finish().empty());
        }
        CHECK(std::string(std::getenv("NCCL_DEBUG")) == "WARN");
        CHECK_FALSE(is_set("NCCL_DEBUG_FILE"));
        CHECK(resets == 0);
        unsetenv("NCCL_DEBUG");
    }
}
