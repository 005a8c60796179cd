#include "probes/probes.h"

namespace strata {

void add_fact(Report& report, Layer layer, std::string key, Json value, std::string source) {
    report.add_fact({std::move(key), std::move(value), std::move(source), layer});
}

Check make_check(std::string id, Layer layer, Status status, std::string summary, std::string evidence,
                 std::string remedy, std::vector<std::string> facts) {
    Check check;
    check.id = std::move(id);
    check.layer = layer;
    check.status = status;
    check.summary = std::move(summary);
    check.evidence = std::move(evidence);
    check.remedy = std::move(remedy);
    check.facts = std::move(facts);
    return check;
}

void run_core_probes(const ProbeContext& context, Report& report) {
    probe_host(context, report);
    probe_container(context, report);
    probe_driver(context, report);
    probe_search_path(context, report);
    probe_devices(context, report);
}

}  // namespace strata
