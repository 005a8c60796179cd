// Strict JSON whatever the input: text read from files and plugins can hold
// quotes, control characters and invalid UTF-8.
#include <catch2/catch.hpp>

#include "probes/probes.h"
#include "report/json_stream.h"
#include "report/writers.h"
#include "support/fixture_tree.h"

using namespace strata;

TEST_CASE("the JSON stream escapes and replaces invalid UTF-8") {
    std::string out;
    append_json_string(out, "a\"b\\c\n\x01 é \xff \xe2\x82 end");
    CHECK(out == "\"a\\\"b\\\\c\\u000a\\u0001 é \\ufffd \\ufffd\\ufffd end\"");
    CHECK(nlohmann::json::parse(out).get<std::string>().find("\xef\xbf\xbd") != std::string::npos);

    JsonStream json;
    json.begin_object().field("name", "x").key("list").begin_array().value(uint64_t{1}).value("two").null();
    json.begin_object().end_object().end_array().field("n", uint64_t{3}).end_object();
    CHECK(json.text() == R"({"name":"x","list":[1,"two",null,{}],"n":3})");
}

TEST_CASE("a report built from files with invalid UTF-8 still serialises as strict JSON") {
    test::FixtureTree tree;
    tree.write("/etc/os-release", "PRETTY_NAME=\"Broken \xff\xfe OS\"\n");
    ProbeContext context(tree.root(), {{"NVIDIA_VISIBLE_DEVICES", "\xc3\x28"}});
    Report report;
    run_core_probes(context, report);
    std::string text = to_json_text(report_to_json(report, {"doctor", "2026-01-01T00:00:00Z", {}}), 2);
    auto parsed = nlohmann::json::parse(text);
    CHECK(parsed["environment"]["host.os.name"]["value"] == "Broken \xef\xbf\xbd\xef\xbf\xbd OS");
}
