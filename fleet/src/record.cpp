#include "record.h"

#include <algorithm>
#include <atomic>
#include <exception>
#include <filesystem>
#include <optional>
#include <thread>

#include "environment_summary.h"
#include "model/untrusted_input.h"
#include "model/usage_error.h"
#include "report/terminal_safe_output.h"

namespace strata::fleet {

namespace fs = std::filesystem;

namespace {

std::string string_member(const Json& object, const char* key) {
    auto it = object.find(key);
    return it != object.end() && it->is_string() ? it->get<std::string>() : std::string();
}

void read_checks(const Json& doctor, const std::string& path, NodeRecord& out) {
    auto checks = doctor.find("checks");
    if (checks == doctor.end()) return;
    if (!checks->is_array()) throw UsageError(path + ": strata_record.doctor.checks is not an array");
    for (const Json& check : *checks) {
        if (!check.is_object()) throw UsageError(path + ": a check is not an object");
        CheckState state;
        // Printed in a row of their own by fleet and rollout: one line each.
        state.id = one_line(string_member(check, "id"));
        auto status = parse_status(string_member(check, "status"));
        if (state.id.empty() || !status)
            throw UsageError(path + ": a check without an id or with an unknown status");
        state.status = *status;
        state.summary = one_line(string_member(check, "summary"));
        state.ignored = check.value("ignored", false) == true;
        auto device = check.find("device");
        if (device != check.end() && device->is_number_integer()) state.device = device->get<int>();
        out.checks.push_back(std::move(state));
    }
}

}  // namespace

NodeRecord parse_node_record(const std::string& text, const std::string& path, bench::TimeMetric metric) {
    Json document = parse_json_input(text, path);
    NodeRecord out;
    out.path = path;
    out.results = bench::results_from_document(document, path, metric);
    const Json& context = out.results.context;
    const Json* strata_context =
        context.contains("strata") && context["strata"].is_object() ? &context["strata"] : nullptr;
    auto record = document.find("strata_record");
    if (record != document.end()) {
        if (!record->is_object()) throw UsageError(path + ": strata_record is not an object");
        std::string version = string_member(*record, "schema_version");
        if (version.empty() || version.substr(0, version.find('.')) != "1")
            throw UsageError(path + ": a record of schema " + (version.empty() ? "(none)" : version) +
                             ", this strata reads 1.x");
        out.strata = true;
        out.node = string_member(*record, "node");
        if (record->contains("environment") && (*record)["environment"].is_object())
            out.environment = (*record)["environment"];
        if (record->contains("doctor") && (*record)["doctor"].is_object())
            read_checks((*record)["doctor"], path, out);
        const Json measurement = record->value("measurement", Json::object());
        out.measured = measurement.is_object() && measurement.value("measured", false);
        if (!out.measured)
            out.not_measured = measurement.is_object() ? measurement.value("reason", std::string()) : "";
    } else {
        out.measured = !out.results.series.empty();
        if (!out.measured) out.not_measured = "the file holds no benchmark";
    }
    if (out.node.empty()) out.node = string_member(context, "host_name");
    // A strata bench file carries the environment record in its context.
    if (out.environment.empty() && strata_context && strata_context->contains("environment"))
        out.environment = summarize_environment((*strata_context)["environment"],
                                                strata_context->value("clock_policy", Json()));
    if (out.environment.is_null()) out.environment = Json::object();
    if (out.node.empty())
        throw UsageError(path + ": names no node (neither strata_record.node nor context.host_name)");
    // A node name is printed in reports, used as a label and handed to
    // scontrol: a host name never holds a control character or runs past 255.
    if (out.node.size() > 255 || std::any_of(out.node.begin(), out.node.end(), [](char c) {
            return static_cast<unsigned char>(c) < 0x20 || c == 0x7f;
        }))
        throw UsageError(path +
                         ": the node name is not a host name (a control character, or over 255 bytes)");
    return out;
}

NodeRecord read_node_record(const std::string& path, bench::TimeMetric metric) {
    return parse_node_record(read_input_file(path, kMaxRecordBytes), path, metric);
}

RecordSet read_record_set(const std::vector<std::string>& paths, bench::TimeMetric metric) {
    std::vector<std::string> files;
    for (const std::string& path : paths) {
        std::error_code ec;
        fs::file_status status = fs::status(path, ec);
        if (ec || !fs::exists(status)) throw UsageError(path + ": no such file or directory");
        if (!fs::is_directory(status)) {
            files.push_back(path);
            continue;
        }
        std::vector<std::string> found;
        fs::directory_iterator it(path, ec), end;
        if (ec) throw UsageError(path + ": " + ec.message());
        for (; it != end; it.increment(ec)) {
            if (ec) throw UsageError(path + ": " + ec.message());
            if (it->path().extension() == ".json") found.push_back(it->path().string());
            if (found.size() > kMaxRecordsPerSide)
                throw UsageError(path + ": more than " + std::to_string(kMaxRecordsPerSide) + " records");
        }
        if (found.empty()) throw UsageError(path + ": a directory without records (*.json)");
        std::sort(found.begin(), found.end());
        files.insert(files.end(), found.begin(), found.end());
    }
    if (files.size() > kMaxRecordsPerSide)
        throw UsageError("more than " + std::to_string(kMaxRecordsPerSide) + " records on one side");
    // Parsing JSON is the whole cost of a fleet's worth of records, and each
    // file is independent: they are read on every core, in file order.
    std::vector<std::optional<NodeRecord>> parsed(files.size());
    std::vector<std::exception_ptr> errors(files.size());
    std::atomic<size_t> next{0};
    auto work = [&] {
        for (size_t i = next++; i < files.size(); i = next++) {
            try {
                parsed[i] = read_node_record(files[i], metric);
            } catch (...) {
                errors[i] = std::current_exception();
            }
        }
    };
    size_t threads = std::min<size_t>(std::max(1u, std::thread::hardware_concurrency()), files.size());
    std::vector<std::thread> pool;
    for (size_t t = 1; t < threads; ++t) pool.emplace_back(work);
    work();
    for (std::thread& thread : pool) thread.join();

    RecordSet out;
    std::exception_ptr first_error;
    for (size_t i = 0; i < files.size(); ++i) {
        if (parsed[i]) {
            out.records.push_back(std::move(*parsed[i]));
            continue;
        }
        // Only a bad input is set aside; anything else (memory) is strata's own failure.
        try {
            std::rethrow_exception(errors[i]);
        } catch (const UsageError& error) {
            out.unreadable.push_back({files[i], error.what()});
            if (!first_error) first_error = errors[i];
        }
    }
    if (out.records.empty() && first_error) std::rethrow_exception(first_error);
    return out;
}

std::vector<NodeRecord> read_records(const std::vector<std::string>& paths, bench::TimeMetric metric) {
    RecordSet set = read_record_set(paths, metric);
    if (!set.unreadable.empty()) throw UsageError(set.unreadable.front().reason);
    return std::move(set.records);
}

}  // namespace strata::fleet
