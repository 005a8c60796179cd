#include "worker/protocol.h"

#include <catch2/catch.hpp>

using namespace strata;

TEST_CASE("every message type survives encode and decode") {
    std::string error;
    Check check;
    check.id = "runtime.cudart.device_count";
    check.layer = Layer::runtime;
    check.status = Status::warn;
    check.summary = "no device";
    check.remedy = "install a GPU";
    check.facts = {"runtime.cudart.version"};
    auto decoded = protocol::decode(protocol::encode(check), error);
    REQUIRE(decoded);
    const Check& back = std::get<Check>(*decoded);
    CHECK(back.id == check.id);
    CHECK(back.layer == Layer::runtime);
    CHECK(back.status == Status::warn);
    CHECK(back.facts == check.facts);

    Fact fact{"driver.version", "580.65.06", "cuDriverGetVersion", Layer::driver};
    auto fact_back = protocol::decode(protocol::encode(fact), error);
    REQUIRE(fact_back);
    CHECK(std::get<Fact>(*fact_back).value == "580.65.06");

    PluginRecord plugin;
    plugin.name = "cudart";
    plugin.layer = Layer::runtime;
    plugin.abi_major = 1;
    plugin.probe_timeout_s = 5;
    plugin.required_libraries = {"libcudart.so.13"};
    plugin.benchmarks.push_back({"stream/triad", "n=1", 12, 2});
    plugin.benchmarks.push_back({"copy/peer_read", "peer=next", 64, 0, 2});
    auto hello = protocol::decode(protocol::encode(protocol::Hello{plugin}), error);
    REQUIRE(hello);
    const PluginRecord& p = std::get<protocol::Hello>(*hello).plugin;
    CHECK(p.name == "cudart");
    CHECK(p.probe_timeout_s == 5);
    CHECK(p.benchmarks.at(0).bytes_per_iteration == 12);
    CHECK(p.benchmarks.at(0).gpus == 1);
    CHECK(p.benchmarks.at(1).gpus == 2);  // ABI 1.5 benchmark_gpus
    // A worker's hello that asks for no GPU, or for absurdly many, is refused.
    std::string hostile = protocol::encode(protocol::Hello{plugin});
    hostile.replace(hostile.find("\"gpus\":2"), 8, "\"gpus\":0");
    CHECK_FALSE(protocol::decode(hostile, error));

    auto done = protocol::decode(protocol::encode(protocol::Done{1}), error);
    REQUIRE(done);
    CHECK(std::get<protocol::Done>(*done).result == 1);
}

TEST_CASE("lines that are not the protocol are refused with a reason") {
    std::string error;
    CHECK_FALSE(protocol::decode("this is not JSON {{{", error));
    CHECK(error == "not JSON");
    CHECK_FALSE(protocol::decode("[1,2]", error));
    CHECK(error == "not a JSON object");
    CHECK_FALSE(protocol::decode(R"({"type":"fact","value":1})", error));
    CHECK(error == "missing field 'key'");
    CHECK_FALSE(protocol::decode(
        R"({"type":"check","id":"a.b","layer":"moon","status":"pass","summary":"s"})", error));
    CHECK(error == "unknown layer 'moon'");
    CHECK_FALSE(protocol::decode(
        R"({"type":"check","id":"a.b","layer":"host","status":"great","summary":"s"})", error));
    CHECK(error == "unknown status 'great'");
    CHECK_FALSE(protocol::decode(
        R"({"type":"check","id":"nodots","layer":"host","status":"pass","summary":"s"})", error));
    CHECK(error == "check id 'nodots' is not a dotted id");
    CHECK_FALSE(protocol::decode(R"({"type":"check","id":"a.b","layer":"host","status":"pass","summary":""})",
                                 error));
    CHECK(error == "check 'a.b' has no summary");
    CHECK_FALSE(protocol::decode(R"({"type":"fact","key":"a..b","value":1})", error));
    CHECK(error == "fact key 'a..b' is not a dotted id");
    CHECK_FALSE(protocol::decode(R"({"type":"teleport"})", error));
    CHECK(error == "unknown message type 'teleport'");
    CHECK_FALSE(protocol::decode(R"({"type":"hello","protocol":99,"plugin":{}})", error));
    CHECK(error.find("protocol 99") != std::string::npos);
    CHECK_FALSE(protocol::decode(R"({"type":"done","result":"yes"})", error));
    CHECK_FALSE(protocol::decode(R"({"type":"measurement","name":"x","value":"NaN"})", error));
    // Found by a 10M-execution fuzz_protocol campaign under UBSan: a float
    // where a deadline belongs was converted to uint32_t (undefined).
    CHECK_FALSE(protocol::decode(
        R"({"type":"hello","protocol":1,"plugin":{"name":"","layer":"runtime","abi":[1,0],"has_selftest":true,)"
        R"("timeouts_s":{"probe":6666666666666666666666666666666666666666666666666666666666666666666666666666661,)"
        R"("selftest":0},"required_libraries":["liba.so.1"],"benchmarks":[{"name":"b"}],"path":"/p"}})",
        error));
    CHECK(error == "field 'timeouts_s.probe' is not an integer");
    CHECK_FALSE(protocol::decode(
        R"({"type":"hello","protocol":1,"plugin":{"name":"x","layer":"runtime","abi":[1,0],"has_selftest":true,)"
        R"("timeouts_s":{"probe":4294967296,"selftest":0},"required_libraries":[],"benchmarks":[]}})",
        error));
    CHECK(error == "field 'timeouts_s.probe' is out of range");
    CHECK_FALSE(protocol::decode(R"({"type":"done","result":99999999999})", error));
    CHECK(error == "field 'result' is out of range");
    CHECK_FALSE(protocol::decode(R"({"type":"hello","protocol":4294967297,"plugin":{}})", error));
}
