#include "record_document.h"

#include "environment_summary.h"
#include "record.h"
#include "report/writers.h"

namespace strata::fleet {

Json scheduler_context(const std::function<const char*(const char*)>& getenv) {
    Json out = Json::object();
    auto collect = [&](const std::vector<std::pair<const char*, const char*>>& names) {
        Json part = Json::object();
        for (const auto& [key, variable] : names)
            if (const char* value = getenv(variable); value && *value) part[key] = value;
        return part;
    };
    if (const char* job = getenv("SLURM_JOB_ID"); job && *job)
        out["slurm"] = collect({{"job_id", "SLURM_JOB_ID"},
                                {"job_name", "SLURM_JOB_NAME"},
                                {"step_id", "SLURM_STEP_ID"},
                                {"node", "SLURMD_NODENAME"},
                                {"job_nodelist", "SLURM_JOB_NODELIST"},
                                {"partition", "SLURM_JOB_PARTITION"},
                                {"cluster", "SLURM_CLUSTER_NAME"}});
    else if (const char* node = getenv("SLURMD_NODENAME"); node && *node)
        out["slurm"] = {{"node", node}};
    if (const char* service = getenv("KUBERNETES_SERVICE_HOST"); service && *service)
        out["kubernetes"] =
            collect({{"node", "NODE_NAME"}, {"pod", "POD_NAME"}, {"namespace", "POD_NAMESPACE"}});
    return out;
}

std::string node_name(const Json& facts, const Json& scheduler) {
    for (const char* kind : {"slurm", "kubernetes"})
        if (scheduler.contains(kind) && scheduler[kind].contains("node") &&
            scheduler[kind]["node"].is_string())
            return scheduler[kind]["node"].get<std::string>();
    const Json& host = environment_value(facts, "host.name");
    return host.is_string() ? host.get<std::string>() : "unknown";
}

Json make_record(const RecordParts& parts) {
    Json facts = parts.doctor.value("environment", Json::object());
    std::string node = parts.node.empty() ? node_name(facts, parts.scheduler) : parts.node;
    Json document;
    if (parts.benchmarks) {
        document = *parts.benchmarks;
    } else {
        // Google Benchmark's context names the host and the date; the rest
        // of it describes a benchmark run that did not happen.
        document = {{"context", {{"date", parts.created_at}, {"host_name", node}}},
                    {"benchmarks", Json::array()}};
    }
    Json& context = document["context"];
    if (!context.contains("strata") || !context["strata"].is_object()) context["strata"] = Json::object();
    context["strata"]["level"] = parts.level;
    context["strata"]["environment"] = facts;
    Json clock_policy = context["strata"].value("clock_policy", Json());
    Json doctor = parts.doctor;
    doctor.erase("environment");  // it is context.strata.environment
    Json measurement = {{"measured", parts.benchmarks.has_value()}};
    if (!parts.benchmarks) measurement["reason"] = parts.not_measured;
    if (!parts.skipped.empty()) measurement["skipped"] = parts.skipped;
    document["strata_record"] = {{"schema_version", record_schema_version},
                                 {"created_at", parts.created_at},
                                 {"node", node},
                                 {"level", parts.level},
                                 {"scheduler", parts.scheduler},
                                 {"environment", summarize_environment(facts, clock_policy)},
                                 {"doctor", doctor},
                                 {"measurement", measurement}};
    return document;
}

}  // namespace strata::fleet
