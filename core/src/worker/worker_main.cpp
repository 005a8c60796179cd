#include "worker/worker_main.h"

#include <unistd.h>

#include <cerrno>
#include <cstdlib>

#include "plugins/host_api.h"
#include "plugins/plugin_loader.h"
#include "worker/protocol.h"

namespace strata {

namespace {

class ProtocolWriter final : public HostSink {
public:
    explicit ProtocolWriter(int fd) : fd_(fd) {}

    void send(const std::string& line) {
        std::string framed = line + "\n";
        const char* data = framed.data();
        size_t left = framed.size();
        while (left > 0) {
            ssize_t written = ::write(fd_, data, left);
            if (written < 0 && errno == EINTR) continue;
            if (written <= 0) std::_Exit(3);  // the parent is gone; nothing to report to
            data += written;
            left -= static_cast<size_t>(written);
        }
    }

    void on_fact(Fact fact) override { send(protocol::encode(fact)); }
    void on_check(Check check) override { send(protocol::encode(check)); }
    void on_measurement(Measurement m) override { send(protocol::encode(m)); }
    void on_log(strata_log_level level, std::string message) override {
        send(protocol::encode(protocol::LogLine{std::string(log_level_name(level)), std::move(message)}));
    }
    void on_invalid(std::string what) override {
        // Reported as an error check so it shows in the report, not just a log.
        Check check;
        check.id = "plugin.abi_violation";
        check.status = Status::error;
        check.summary = "plugin broke the ABI: " + what;
        send(protocol::encode(check));
    }

private:
    int fd_;
};

int protocol_fd() {
    if (const char* value = std::getenv("STRATA_WORKER_FD")) {
        char* end = nullptr;
        long fd = std::strtol(value, &end, 10);
        if (end && *end == '\0' && fd >= 0 && fd < 1024) return static_cast<int>(fd);
    }
    return STDOUT_FILENO;
}

}  // namespace

std::optional<WorkerTask> parse_worker_task(std::string_view name) {
    if (name == "describe") return WorkerTask::describe;
    if (name == "probe") return WorkerTask::probe;
    if (name == "selftest") return WorkerTask::selftest;
    if (name == "bench") return WorkerTask::bench;
    return std::nullopt;
}

int run_worker(const std::string& plugin_path, WorkerTask task, const BenchTask& bench) {
    ProtocolWriter writer(protocol_fd());
    auto send_failure = [&](const LoadFailure& failure) {
        writer.send(protocol::encode(protocol::LoadError{failure.kind, failure.message, failure.library}));
        return 0;
    };
    LoadResult loaded = load_plugin(plugin_path);
    if (auto* failure = std::get_if<LoadFailure>(&loaded)) return send_failure(*failure);
    auto& plugin = std::get<LoadedPlugin>(loaded);
    if (auto missing = check_required_libraries(plugin.record)) return send_failure(*missing);
    writer.send(protocol::encode(protocol::Hello{plugin.record}));

    strata_host_api host = make_host_api(writer);
    strata_task_result result = STRATA_TASK_OK;
    if (task == WorkerTask::probe) result = plugin.descriptor->probe(&host);
    if (task == WorkerTask::selftest && plugin.descriptor->selftest)
        result = plugin.descriptor->selftest(&host);
    if (task == WorkerTask::bench) {
        if (bench) {
            result = bench(*plugin.descriptor, host);
        } else {
            writer.on_log(STRATA_LOG_ERROR, "this worker cannot run benchmarks: use the benchmark runner");
            result = STRATA_TASK_FAILED;
        }
    }
    writer.send(protocol::encode(protocol::Done{static_cast<int>(result)}));
    return 0;
}

}  // namespace strata
