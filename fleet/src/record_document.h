// Writing a run record (the format is described in record.h).
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "model/fact.h"

namespace strata::fleet {

struct RecordParts {
    std::string created_at;  // ISO 8601 UTC
    std::string level;       // quick, standard, long
    Json doctor;             // doctor's JSON report (report_to_json)
    Json scheduler = Json::object();
    // The merged Google Benchmark document of the run, when anything was measured.
    std::optional<Json> benchmarks;
    std::vector<std::string> skipped;  // plugins or GPUs that measured nothing, and why
    std::string not_measured;          // why nothing was measured (no GPU, no runner)
    std::string node;                  // `record --node NAME`: wins over every other source; "" none
};

// The scheduler the process runs under, from its environment: Slurm's job,
// step and node, or Kubernetes' node, pod and namespace (the downward API
// variables the shipped manifests set); {} outside both. slurmd sets
// SLURMD_NODENAME for programs it runs outside any job too (the
// HealthCheckProgram, prolog and epilog): that node name counts alone.
Json scheduler_context(const std::function<const char*(const char*)>& getenv);

// The node's name: Slurm's node name, then Kubernetes', then the host name
// (a fleet is listed by the scheduler's names).
std::string node_name(const Json& facts, const Json& scheduler);

Json make_record(const RecordParts& parts);

}  // namespace strata::fleet
