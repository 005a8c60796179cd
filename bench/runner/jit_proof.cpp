#include "jit_proof.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <cstring>
#include <fstream>
#include <optional>
#include <string>
#include <vector>

#include "driver_session.h"
#include "levels.h"
#include "runner_checks.h"
#include "model/untrusted_input.h"
#include "strata/arch/fatbin.h"

namespace strata::bench {

namespace {

// A registered fat binary is one translation unit's device code: tens of
// MiB at most in the largest frameworks. More is not a fat binary.
constexpr uint64_t kMaxFatBinaryBytes = 1ull << 30;
constexpr size_t kMaxListBytes = 64u << 20;
constexpr size_t kMaxErrorChars = 2000;

struct Item {
    std::string name, file, image;
    uint64_t offset = 0, bytes = 0;
};

void report(const strata_host_api& host, strata_status status, const std::string& summary) {
    report_check(host, "bench.jit_installed", STRATA_LAYER_DRIVER, status, summary);
}

std::vector<Item> read_list(const std::string& path) {
    Json list = parse_json_input(read_input_file(path, kMaxListBytes), path);
    std::vector<Item> out;
    const Json& items = list.at("fat_binaries");
    for (const Json& entry : items)
        out.push_back({entry.at("name").get<std::string>(), entry.at("file").get<std::string>(),
                       entry.value("image", std::string()), entry.at("offset").get<uint64_t>(),
                       entry.at("bytes").get<uint64_t>()});
    return out;
}

// The container's bytes, read now: the file may have changed since it was
// judged, so what is handed over is checked to be that fat binary still.
std::optional<std::string> read_fat_binary(const Item& item, std::string& why) {
    if (item.bytes < 16 || item.bytes > kMaxFatBinaryBytes) {
        why = "not loaded: " + std::to_string(item.bytes) + " bytes is no fat binary";
        return std::nullopt;
    }
    int fd = ::open(item.file.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    struct stat status {};
    if (fd < 0 || ::fstat(fd, &status) != 0 || !S_ISREG(status.st_mode)) {
        why =
            "not loaded: cannot read " + item.file + (fd < 0 ? ": " + std::string(std::strerror(errno)) : "");
        if (fd >= 0) ::close(fd);
        return std::nullopt;
    }
    std::string data(item.bytes, '\0');
    ssize_t got = ::pread(fd, data.data(), data.size(), static_cast<off_t>(item.offset));
    ::close(fd);
    auto size = got == static_cast<ssize_t>(data.size())
                    ? arch::container_size(arch::Bytes(data.data(), data.size()), 0)
                    : arch::Expected<uint64_t>(arch::Error{"the file is shorter than when it was read"});
    if (!size || *size != item.bytes) {
        why = "not loaded: " + item.file + " changed since it was judged (" +
              (size ? "a fat binary of " + std::to_string(*size) + " bytes is there now" : size.error()) +
              ")";
        return std::nullopt;
    }
    return data;
}

struct Outcome {
    std::vector<double> host_ms, cpu_ms, jit_ms;  // one per pass that loaded it
    std::string error;                            // the first refusal
};

Json entry(const std::string& name, int family, int repetitions, int index, double ms, double cpu_ms) {
    return {{"name", name},
            {"family_index", family},
            {"per_family_instance_index", 0},
            {"run_name", name},
            {"run_type", "iteration"},
            {"repetitions", repetitions},
            {"repetition_index", index},
            {"threads", 1},
            {"iterations", 1},
            {"real_time", ms},
            {"cpu_time", cpu_ms},
            {"time_unit", "ms"}};
}

}  // namespace

strata_task_result run_jit_proof(const strata_host_api& host, const BenchSettings& settings) {
    std::vector<Item> items;
    try {
        items = read_list(settings.jit_list);
    } catch (const std::exception& error) {
        report(host, STRATA_STATUS_ERROR, std::string("the JIT proof's list: ") + error.what());
        return STRATA_TASK_FAILED;
    }
    DriverSession session(settings.device);
    if (!session.unavailable().empty()) {
        report(host, STRATA_STATUS_SKIP, "JIT proof skipped: no usable GPU (" + session.unavailable() + ")");
        return STRATA_TASK_OK;
    }
    if (settings.out_path.empty()) {
        report(host, STRATA_STATUS_ERROR, "STRATA_BENCH_OUT is not set");
        return STRATA_TASK_FAILED;
    }
    using Clock = std::chrono::steady_clock;
    const auto stop_at = settings.budget_s > 0
                             ? Clock::now() + std::chrono::duration_cast<Clock::duration>(
                                                  std::chrono::duration<double>(settings.budget_s))
                             : Clock::time_point::max();
    std::vector<Outcome> outcomes(items.size());
    std::vector<std::string> contents_error(items.size());
    std::vector<double> totals, total_cpu, total_jit;
    int planned = settings.repetitions > 0 ? settings.repetitions : level_jit_passes(settings.level);
    bool out_of_time = false;
    for (int pass = 0; pass < planned && !out_of_time; ++pass) {
        double total = 0, cpu = 0, jit = 0;
        for (size_t i = 0; i < items.size(); ++i) {
            if (Clock::now() >= stop_at) {
                out_of_time = true;
                break;
            }
            Outcome& outcome = outcomes[i];
            if (!outcome.error.empty()) continue;  // refused once: refused
            std::optional<std::string> data = read_fat_binary(items[i], outcome.error);
            if (!data) continue;
            DriverSession::ModuleLoad load = session.load_module(data->data());
            if (!load.loaded) {
                outcome.error = load.error.substr(0, kMaxErrorChars);
                continue;
            }
            outcome.host_ms.push_back(load.host_ms);
            outcome.cpu_ms.push_back(load.cpu_ms);
            outcome.jit_ms.push_back(load.jit_wall_ms);
            total += load.host_ms;
            cpu += load.cpu_ms;
            jit += load.jit_wall_ms;
        }
        if (!out_of_time) {
            totals.push_back(total);
            total_cpu.push_back(cpu);
            total_jit.push_back(jit);
        }
    }
    const std::string device = "/device:" + std::to_string(settings.device);
    Json benchmarks = Json::array();
    int family = 0;
    size_t refused = 0;
    std::string first_refusal;
    for (size_t i = 0; i < items.size(); ++i, ++family) {
        const Outcome& outcome = outcomes[i];
        std::string name = "driver/jit_installed/" + items[i].name + device;
        if (!outcome.error.empty()) {
            Json failed = entry(name, family, 1, 0, 0, 0);
            failed.erase("real_time");
            failed.erase("cpu_time");
            failed["error_occurred"] = true;
            failed["error_message"] = outcome.error;
            benchmarks.push_back(std::move(failed));
            if (refused++ == 0) first_refusal = items[i].name + ": " + outcome.error;
            continue;
        }
        int repetitions = static_cast<int>(outcome.host_ms.size());
        for (int r = 0; r < repetitions; ++r) {
            auto at = static_cast<size_t>(r);
            Json run = entry(name, family, repetitions, r, outcome.host_ms[at], outcome.cpu_ms[at]);
            run["jit_wall_ms"] = outcome.jit_ms[at];
            run["fatbin_bytes"] = items[i].bytes;
            run["label"] = items[i].image;
            benchmarks.push_back(std::move(run));
        }
    }
    std::string total_name = "driver/jit_installed/total" + device;
    for (size_t r = 0; r < totals.size(); ++r) {
        Json run = entry(total_name, family, static_cast<int>(totals.size()), static_cast<int>(r), totals[r],
                         total_cpu[r]);
        run["jit_wall_ms"] = total_jit[r];
        run["fat_binaries"] = items.size();
        run["refused"] = refused;
        benchmarks.push_back(std::move(run));
    }
    Json document = {{"context",
                      {{"strata_plugin", "driver"},
                       {"strata_gpu", session.device_name()},
                       {"strata_level", settings.level},
                       {"strata_jit_cache", "disabled (CUDA_CACHE_DISABLE=1)"}}},
                     {"benchmarks", std::move(benchmarks)}};
    std::ofstream out(settings.out_path, std::ios::trunc);
    out << document.dump(2, ' ', false, Json::error_handler_t::replace) << "\n";
    if (!out) {
        report(host, STRATA_STATUS_ERROR, "cannot write " + settings.out_path);
        return STRATA_TASK_FAILED;
    }
    std::string where = " on GPU " + std::to_string(settings.device) + " (" + session.device_name() + ")";
    std::string passes =
        std::to_string(totals.size()) + " pass(es)" + (out_of_time ? ", cut short by the time budget" : "");
    if (refused > 0)
        report(host, STRATA_STATUS_FAIL,
               std::to_string(refused) + " of " + std::to_string(items.size()) +
                   " installed fat binaries refused by the driver's JIT" + where +
                   "; first: " + first_refusal);
    else
        report(host, STRATA_STATUS_PASS,
               std::to_string(items.size()) + " installed fat binaries JIT-compiled and loaded" + where +
                   ", " + passes);
    return STRATA_TASK_OK;
}

}  // namespace strata::bench
