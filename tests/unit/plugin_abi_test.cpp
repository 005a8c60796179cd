// The loader and host callback table, in process: descriptors and calls a
// plugin could make, good and bad.
#include <catch2/catch.hpp>
#include <cmath>
#include <cstring>

#include "model/ids.h"
#include "plugins/host_api.h"
#include "plugins/plugin_loader.h"

using namespace strata;

namespace {

struct Collector final : HostSink {
    std::vector<Fact> facts;
    std::vector<Check> checks;
    std::vector<Measurement> measurements;
    std::vector<std::string> logs, invalid;
    void on_fact(Fact f) override { facts.push_back(std::move(f)); }
    void on_check(Check c) override { checks.push_back(std::move(c)); }
    void on_measurement(Measurement m) override { measurements.push_back(std::move(m)); }
    void on_log(strata_log_level, std::string m) override { logs.push_back(std::move(m)); }
    void on_invalid(std::string w) override { invalid.push_back(std::move(w)); }
};

strata_task_result good_probe(const strata_host_api* host) {
    strata_fact fact{};
    fact.struct_size = sizeof fact;
    fact.abi_major = STRATA_PLUGIN_ABI_MAJOR;
    fact.key = STRATA_STR("runtime.inproc.value");
    fact.type = STRATA_VALUE_DOUBLE;
    fact.double_value = 2.5;
    host->emit_fact(host->context, &fact);
    return STRATA_TASK_OK;
}

strata_plugin_descriptor good_descriptor() {
    strata_plugin_descriptor d{};
    d.struct_size = sizeof d;
    d.abi_major = STRATA_PLUGIN_ABI_MAJOR;
    d.abi_minor = STRATA_PLUGIN_ABI_MINOR;
    d.name = STRATA_STR("inproc");
    d.version = STRATA_STR("0.1");
    d.description = STRATA_STR("in-process test");
    d.layer = STRATA_LAYER_RUNTIME;
    d.probe = good_probe;
    return d;
}

}  // namespace

TEST_CASE("a valid descriptor loads in process and its probe reports through the host table") {
    strata_plugin_descriptor d = good_descriptor();
    LoadResult result = read_descriptor(&d, "inproc.so");
    REQUIRE(std::holds_alternative<LoadedPlugin>(result));
    const LoadedPlugin& plugin = std::get<LoadedPlugin>(result);
    CHECK(plugin.record.name == "inproc");
    CHECK(plugin.record.layer == Layer::runtime);
    Collector sink;
    strata_host_api host = make_host_api(sink);
    CHECK(plugin.descriptor->probe(&host) == STRATA_TASK_OK);
    REQUIRE(sink.facts.size() == 1);
    CHECK(sink.facts[0].value == 2.5);
}

TEST_CASE("a descriptor with a newer minor and extra trailing bytes is accepted") {
    struct Extended {
        strata_plugin_descriptor base;
        uint64_t future_field;
    } extended{good_descriptor(), 7};
    extended.base.struct_size = sizeof extended;
    extended.base.abi_minor = STRATA_PLUGIN_ABI_MINOR + 3;
    CHECK(std::holds_alternative<LoadedPlugin>(read_descriptor(&extended.base, "x.so")));
}

TEST_CASE("bad descriptors are refused with a reason") {
    auto failure = [](const strata_plugin_descriptor& d) {
        LoadResult result = read_descriptor(&d, "x.so");
        REQUIRE(std::holds_alternative<LoadFailure>(result));
        return std::get<LoadFailure>(result);
    };
    strata_plugin_descriptor d = good_descriptor();
    d.abi_major = 2;
    LoadFailure abi = failure(d);
    CHECK(abi.kind == "abi_mismatch");
    std::string minor = std::to_string(STRATA_PLUGIN_ABI_MINOR);
    CHECK(abi.message.find("plugin ABI 2." + minor) != std::string::npos);
    CHECK(abi.message.find("strata's ABI 1." + minor) != std::string::npos);

    d = good_descriptor();
    d.struct_size = 8;
    CHECK(failure(d).kind == "bad_descriptor");
    d = good_descriptor();
    d.probe = nullptr;
    CHECK(failure(d).message == "descriptor has no probe function");
    d = good_descriptor();
    d.layer = 99;
    CHECK(failure(d).message == "descriptor has unknown layer 99");
    d = good_descriptor();
    d.name = strata_str{nullptr, 5};
    CHECK(failure(d).message == "descriptor has no name");
    d = good_descriptor();
    d.benchmark_count = 2;
    CHECK(failure(d).message == "descriptor counts benchmarks but gives no array");
    CHECK(std::get<LoadFailure>(read_descriptor(nullptr, "x.so")).message ==
          "strata_plugin_entry returned NULL");
}

TEST_CASE("the host table rejects what the ABI does not allow") {
    Collector sink;
    strata_host_api host = make_host_api(sink);

    strata_fact nan_fact{};
    nan_fact.struct_size = sizeof nan_fact;
    nan_fact.abi_major = STRATA_PLUGIN_ABI_MAJOR;
    nan_fact.key = STRATA_STR("x.nan");
    nan_fact.type = STRATA_VALUE_DOUBLE;
    nan_fact.double_value = std::nan("");
    host.emit_fact(host.context, &nan_fact);

    strata_fact short_fact = nan_fact;
    short_fact.struct_size = 4;
    host.emit_fact(host.context, &short_fact);

    strata_check bad_status{};
    bad_status.struct_size = sizeof bad_status;
    bad_status.abi_major = STRATA_PLUGIN_ABI_MAJOR;
    bad_status.id = STRATA_STR("x.check");
    bad_status.summary = STRATA_STR("a summary");
    bad_status.layer = STRATA_LAYER_HOST;
    bad_status.status = 42;
    host.emit_check(host.context, &bad_status);

    strata_check null_keys = bad_status;
    null_keys.status = STRATA_STATUS_PASS;
    null_keys.fact_key_count = 3;
    host.emit_check(host.context, &null_keys);

    host.emit_fact(host.context, nullptr);
    host.log(host.context, STRATA_LOG_INFO, strata_str{nullptr, 10});

    strata_check bad_id = null_keys;
    bad_id.fact_key_count = 0;
    bad_id.id = STRATA_STR("not dotted");
    host.emit_check(host.context, &bad_id);
    strata_check no_summary = bad_id;
    no_summary.id = STRATA_STR("x.check");
    no_summary.summary = strata_str{nullptr, 0};
    host.emit_check(host.context, &no_summary);

    CHECK(sink.facts.empty());
    CHECK(sink.checks.empty());
    REQUIRE(sink.invalid.size() == 8);
    CHECK(sink.invalid[0] == "fact 'x.nan' has a value that is not finite");
    CHECK(sink.invalid[1].find("struct_size 4") != std::string::npos);
    CHECK(sink.invalid[2] == "check 'x.check' has unknown status 42");
    CHECK(sink.invalid[3] == "check 'x.check' has fact_key_count but no fact_keys");
    CHECK(sink.invalid[4] == "fact pointer is NULL");
    CHECK(sink.invalid[6] == "check id 'not dotted' is not a dotted id like 'runtime.x.ready'");
    CHECK(sink.invalid[7] == "check 'x.check' has no summary");
}

TEST_CASE("dlerror texts are classified") {
    auto missing = classify_dlerror(
        "/p/plugin.so", "libcudnn.so.9: cannot open shared object file: No such file or directory");
    CHECK(missing.kind == "missing_dependency");
    CHECK(missing.library == "libcudnn.so.9");
    auto self =
        classify_dlerror("/p/plugin.so", "/p/plugin.so: cannot open shared object file: No such file");
    CHECK(self.kind == "dlopen");
    auto symbol = classify_dlerror("/p/plugin.so", "/p/plugin.so: undefined symbol: cuCtxCreate_v3");
    CHECK(symbol.kind == "undefined_symbol");
    CHECK(symbol.library == "cuCtxCreate_v3");
    // A dependency that is not a usable library is the dependency's fault.
    auto foreign = classify_dlerror("/p/plugin.so", "/tmp/x/libcudart.so.13: invalid ELF header");
    CHECK(foreign.kind == "broken_dependency");
    CHECK(foreign.library == "/tmp/x/libcudart.so.13");
    auto wrong_class =
        classify_dlerror("/p/plugin.so", "/tmp/x/libcudart.so.13: wrong ELF class: ELFCLASS32");
    CHECK(wrong_class.kind == "broken_dependency");
    auto own = classify_dlerror("/p/plugin.so", "/p/plugin.so: invalid ELF header");
    CHECK(own.kind == "dlopen");
}

TEST_CASE("dotted ids") {
    CHECK(is_dotted_id("driver.libcuda"));
    CHECK(is_dotted_id("host.search_path.copies.libcudart.so.13"));
    CHECK(is_dotted_id("env.NVIDIA_VISIBLE_DEVICES"));
    CHECK(is_dotted_id("library.cudnn.libcudnn_adv-9"));
    CHECK_FALSE(is_dotted_id("driver"));
    CHECK_FALSE(is_dotted_id(""));
    CHECK_FALSE(is_dotted_id(".x"));
    CHECK_FALSE(is_dotted_id("x."));
    CHECK_FALSE(is_dotted_id("a..b"));
    CHECK_FALSE(is_dotted_id("a b.c"));
    CHECK_FALSE(is_dotted_id("a-b.c"));
}
