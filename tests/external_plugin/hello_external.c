/* The smallest useful strata plugin: one probe that reports one check. */
#include "strata/plugin.h"

static strata_task_result probe(const strata_host_api* host) {
    strata_check check = {STRATA_STRUCT_HEADER(strata_check),
                          .id = STRATA_STR("host.hello_external.greeting"), .layer = STRATA_LAYER_HOST,
                          .status = STRATA_STATUS_PASS,
                          .summary = STRATA_STR("hello from a plugin built out of tree")};
    host->emit_check(host->context, &check);
    return STRATA_TASK_OK;
}

static const strata_plugin_descriptor descriptor = {
    STRATA_STRUCT_HEADER(strata_plugin_descriptor),
    .name = STRATA_STR("hello_external"),
    .version = STRATA_STR("1.0"),
    .description = STRATA_STR("example out-of-tree plugin"),
    .layer = STRATA_LAYER_HOST,
    .probe = probe,
};

STRATA_PLUGIN_EXPORT const strata_plugin_descriptor* strata_plugin_entry(void) {
    return &descriptor;
}
