#define _GNU_SOURCE
#include "fake_config.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int parse_int(const char* text, int fallback) {
    char* end = NULL;
    long value = strtol(text, &end, 10);
    return (end != text && *end == '\0') ? (int)value : fallback;
}

static void copy_text(char* out, size_t size, const char* text) {
    strncpy(out, text, size - 1);
    out[size - 1] = '\0';
}

/* Keys without a field: the per-GPU health keys, kept as text. */
static struct {
    char key[64];
    char value[256];
} extra_keys[64];
static int extra_count = 0;

static void keep_extra(const char* key, const char* value) {
    for (int i = 0; i < extra_count; ++i)
        if (strcmp(extra_keys[i].key, key) == 0) {
            copy_text(extra_keys[i].value, sizeof extra_keys[i].value, value);
            return;
        }
    if (extra_count == (int)(sizeof extra_keys / sizeof extra_keys[0]) ||
        strlen(key) >= sizeof extra_keys[0].key)
        return;
    copy_text(extra_keys[extra_count].key, sizeof extra_keys[0].key, key);
    copy_text(extra_keys[extra_count].value, sizeof extra_keys[0].value, value);
    ++extra_count;
}

long long fake_config_per_gpu(const char* key, unsigned gpu, long long fallback) {
    (void)fake_config_get();
    for (int i = 0; i < extra_count; ++i) {
        if (strcmp(extra_keys[i].key, key) != 0) continue;
        const char* item = extra_keys[i].value;
        for (unsigned n = 0; n < gpu; ++n) {
            const char* comma = strchr(item, ',');
            if (!comma) break; /* the last value repeats */
            item = comma + 1;
        }
        char* end = NULL;
        long long value = strtoll(item, &end, 0);
        return end != item && (*end == '\0' || *end == ',') ? value : fallback;
    }
    return fallback;
}

double fake_config_number(const char* key, double fallback) {
    (void)fake_config_get();
    for (int i = 0; i < extra_count; ++i) {
        if (strcmp(extra_keys[i].key, key) != 0) continue;
        char* end = NULL;
        double value = strtod(extra_keys[i].value, &end);
        return end != extra_keys[i].value && *end == '\0' && value >= 0 ? value : fallback;
    }
    return fallback;
}

static void apply(fake_config* config, const char* key, const char* value) {
    if (strcmp(key, "init") == 0)
        config->init = parse_int(value, config->init);
    else if (strcmp(key, "version") == 0)
        config->version = parse_int(value, config->version);
    else if (strcmp(key, "devices") == 0)
        config->devices = parse_int(value, config->devices);
    else if (strcmp(key, "cc") == 0) {
        int major = 0, minor = 0;
        char extra = 0;
        if (sscanf(value, "%d.%d%c", &major, &minor, &extra) == 2) {
            config->cc_major = major;
            config->cc_minor = minor;
        }
    } else if (strcmp(key, "name") == 0)
        copy_text(config->name, sizeof config->name, value);
    else if (strcmp(key, "mem_mb") == 0)
        config->mem_mb = parse_int(value, (int)config->mem_mb);
    else if (strcmp(key, "module_load") == 0)
        config->module_load = parse_int(value, config->module_load);
    else if (strcmp(key, "nvml_driver") == 0)
        copy_text(config->nvml_driver, sizeof config->nvml_driver, value);
    else if (strcmp(key, "nvml_init") == 0)
        config->nvml_init = parse_int(value, config->nvml_init);
    else if (strcmp(key, "mig") == 0)
        config->mig = parse_int(value, config->mig);
    else if (strcmp(key, "compute_mode") == 0)
        config->compute_mode = parse_int(value, config->compute_mode);
    else if (strcmp(key, "ctx_set_current") == 0)
        config->ctx_set_current = parse_int(value, config->ctx_set_current);
    else if (strcmp(key, "strict_contexts") == 0)
        config->strict_contexts = parse_int(value, config->strict_contexts);
    else if (strcmp(key, "load_dump") == 0)
        copy_text(config->load_dump, sizeof config->load_dump, value);
    else if (strcmp(key, "fatbin_refuse") == 0)
        copy_text(config->fatbin_refuse, sizeof config->fatbin_refuse, value);
    else if (strcmp(key, "jit_ms") == 0)
        config->jit_ms = parse_int(value, config->jit_ms);
    else if (strcmp(key, "ptx_load") == 0)
        config->ptx_load = parse_int(value, config->ptx_load);
    else if (strcmp(key, "kernels_run") == 0)
        config->kernels_run = parse_int(value, config->kernels_run);
    else
        keep_extra(key, value);
}

static void apply_pairs(fake_config* config, const char* text) {
    char buffer[4096];
    copy_text(buffer, sizeof buffer, text);
    for (char *save = NULL, *pair = strtok_r(buffer, ";\n", &save); pair;
         pair = strtok_r(NULL, ";\n", &save)) {
        char* equals = strchr(pair, '=');
        if (!equals) continue;
        *equals = '\0';
        apply(config, pair, equals + 1);
    }
}

/* The file strata-fake-cuda.conf beside this library, if any: two copies of
 * the fake in two directories then stand for two driver versions (a
 * cuda-compat directory against the installed driver). */
static void apply_file_beside_library(fake_config* config) {
    Dl_info info;
    if (!dladdr((void*)&fake_config_get, &info) || !info.dli_fname) return;
    char path[4096];
    copy_text(path, sizeof path, info.dli_fname);
    char* slash = strrchr(path, '/');
    if (!slash) return;
    slash[1] = '\0';
    if (strlen(path) + sizeof "strata-fake-cuda.conf" > sizeof path) return;
    strcat(path, "strata-fake-cuda.conf");
    FILE* file = fopen(path, "r");
    if (!file) return;
    char text[4096];
    size_t n = fread(text, 1, sizeof text - 1, file);
    fclose(file);
    text[n] = '\0';
    apply_pairs(config, text);
}

const fake_config* fake_config_get(void) {
    static fake_config config;
    static int parsed = 0;
    if (parsed) return &config;
    parsed = 1;
    config.version = 13000;
    config.devices = 1;
    config.cc_major = 9;
    config.cc_minor = 0;
    copy_text(config.name, sizeof config.name, "Fake GPU");
    config.mem_mb = 81920;
    copy_text(config.nvml_driver, sizeof config.nvml_driver, "580.65.06");
    const char* text = getenv("STRATA_FAKE_CUDA");
    if (text) apply_pairs(&config, text);
    apply_file_beside_library(&config);
    return &config;
}
