/* One source, many fault-injection plugins: TEST_PLUGIN_MODE picks how the
 * plugin behaves, so each failure the core must survive has its own .so.
 * Written in C to prove the ABI needs nothing from C++. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "strata/plugin.h"

#define MODE_OK 0
#define MODE_SEGFAULT 1
#define MODE_ABORT 2
#define MODE_HANG 3
#define MODE_EXIT_NONZERO 4
#define MODE_GARBAGE 5
#define MODE_WRONG_ABI 6
#define MODE_MISSING_DEPENDENCY 7
#define MODE_REQUIRED_MISSING 8
#define MODE_SELFTEST_LIBRARY 9
#define MODE_UNDEFINED_SYMBOL 10
#define MODE_LINGERING_CHILD 11
/* Hostile plugins, built into their own directory (tests/plugins/hostile). */
#define MODE_KILL_PARENT 12
#define MODE_FLOOD 13
#define MODE_DECLARED_HANG 14
#define MODE_DAEMON 15

#ifndef TEST_PLUGIN_MODE
#error "define TEST_PLUGIN_MODE"
#endif
#ifndef TEST_PLUGIN_NAME
#error "define TEST_PLUGIN_NAME"
#endif

#if TEST_PLUGIN_MODE == MODE_MISSING_DEPENDENCY
/* Defined in libstrata_test_ghost.so, which is not on any search path at run time. */
int strata_test_ghost_answer(void);
#elif TEST_PLUGIN_MODE == MODE_UNDEFINED_SYMBOL
/* Defined nowhere: a shared library may link with it, RTLD_NOW refuses to load it. */
int strata_test_symbol_nobody_defines(void);
#endif

static strata_str text(const char* value) {
    strata_str out = {value, strlen(value)};
    return out;
}

static void emit_pass(const strata_host_api* host, const char* id, strata_layer layer, const char* summary) {
    strata_check check = {STRATA_STRUCT_HEADER(strata_check)};
    check.id = text(id);
    check.layer = layer;
    check.status = STRATA_STATUS_PASS;
    check.summary = text(summary);
    host->emit_check(host->context, &check);
}

static void emit_string_fact(const strata_host_api* host, const char* key, const char* value) {
    strata_fact fact = {STRATA_STRUCT_HEADER(strata_fact)};
    fact.key = text(key);
    fact.type = STRATA_VALUE_STRING;
    fact.string_value = text(value);
    fact.source = text("test plugin");
    host->emit_fact(host->context, &fact);
}

static strata_task_result probe(const strata_host_api* host) {
#if TEST_PLUGIN_MODE == MODE_SEGFAULT
    fprintf(stderr, "test plugin: about to dereference NULL\n");
    fflush(stderr);
    *(volatile int*)0 = 1;
#elif TEST_PLUGIN_MODE == MODE_ABORT
    fprintf(stderr, "test plugin: about to abort\n");
    fflush(stderr);
    abort();
#elif TEST_PLUGIN_MODE == MODE_HANG
    signal(SIGTERM, SIG_IGN); /* forces the supervisor to escalate to SIGKILL */
    for (;;) pause();
#elif TEST_PLUGIN_MODE == MODE_EXIT_NONZERO
    fprintf(stderr, "test plugin: exiting with status 7\n");
    exit(7);
#elif TEST_PLUGIN_MODE == MODE_GARBAGE
    /* Simulates a corrupted protocol stream, as memory corruption would. */
    const char* fd_text = getenv("STRATA_WORKER_FD");
    int fd = fd_text ? atoi(fd_text) : 1;
    const char garbage[] = "this is not JSON {{{\n";
    if (write(fd, garbage, sizeof garbage - 1) < 0) return STRATA_TASK_FAILED;
#elif TEST_PLUGIN_MODE == MODE_MISSING_DEPENDENCY
    if (strata_test_ghost_answer() != 42) return STRATA_TASK_FAILED;
#elif TEST_PLUGIN_MODE == MODE_UNDEFINED_SYMBOL
    if (strata_test_symbol_nobody_defines() != 42) return STRATA_TASK_FAILED;
#elif TEST_PLUGIN_MODE == MODE_KILL_PARENT
    /* As root nothing in the permission model stops this; strata must survive it. */
    if (kill(getppid(), SIGKILL) == 0)
        emit_string_fact(host, "runtime." TEST_PLUGIN_NAME ".parent", "killed");
    if (kill(-getpgid(getppid()), SIGKILL) == 0)
        emit_string_fact(host, "runtime." TEST_PLUGIN_NAME ".parent_group", "killed");
#elif TEST_PLUGIN_MODE == MODE_FLOOD
    /* Facts without end: the supervisor must stop reading, not buffer them all. */
    for (;;)
        emit_string_fact(host, "runtime." TEST_PLUGIN_NAME ".flood",
                         "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx");
#elif TEST_PLUGIN_MODE == MODE_DECLARED_HANG
    signal(SIGTERM, SIG_IGN);
    for (;;) pause();
#elif TEST_PLUGIN_MODE == MODE_DAEMON
    /* A daemon, as a helper service would start one: double fork, a session
     * of its own (out of the worker's process group), no open descriptors,
     * so no process group, pipe or deadline of strata's reaches it. */
    pid_t first = fork();
    if (first == 0) {
        if (fork() == 0) {
            setsid();
            for (int fd = 0; fd < 1024; ++fd) close(fd);
            sleep(120);
            _exit(0);
        }
        _exit(0);
    }
    if (first > 0) waitpid(first, NULL, 0);
#elif TEST_PLUGIN_MODE == MODE_LINGERING_CHILD
    /* A helper process that outlives the task and keeps the worker's pipes open. */
    if (fork() == 0) {
        sleep(5);
        _exit(0);
    }
#endif
    {
        strata_fact fact = {STRATA_STRUCT_HEADER(strata_fact)};
        fact.key = text("runtime." TEST_PLUGIN_NAME ".answer");
        fact.type = STRATA_VALUE_INT;
        fact.int_value = 42;
        host->emit_fact(host->context, &fact);
    }
    emit_string_fact(host, "runtime." TEST_PLUGIN_NAME ".greeting", "hello from " TEST_PLUGIN_NAME);
    {
        strata_measurement m = {STRATA_STRUCT_HEADER(strata_measurement)};
        m.name = text("probe_time");
        m.value = 1.5;
        m.unit = text("ms");
        host->emit_measurement(host->context, &m);
    }
    {
        strata_str message = STRATA_STR("probe finished");
        host->log(host->context, STRATA_LOG_INFO, message);
    }
    emit_pass(host, "runtime." TEST_PLUGIN_NAME ".probe_ok", STRATA_LAYER_RUNTIME,
              TEST_PLUGIN_NAME " probe passed");
    return STRATA_TASK_OK;
}

#if TEST_PLUGIN_MODE == MODE_OK || TEST_PLUGIN_MODE == MODE_SELFTEST_LIBRARY
static strata_task_result selftest(const strata_host_api* host) {
    emit_pass(host, "library." TEST_PLUGIN_NAME ".selftest_ok", STRATA_LAYER_LIBRARY,
              TEST_PLUGIN_NAME " self-test passed");
    return STRATA_TASK_OK;
}
#endif

#if TEST_PLUGIN_MODE == MODE_REQUIRED_MISSING
static const strata_str required[] = {STRATA_STR("libstrata-absent.so.7")};
#define REQUIRED required
#define REQUIRED_COUNT 1
#else
#define REQUIRED NULL
#define REQUIRED_COUNT 0
#endif

static const strata_plugin_descriptor descriptor = {
    sizeof(strata_plugin_descriptor),
#if TEST_PLUGIN_MODE == MODE_WRONG_ABI
    STRATA_PLUGIN_ABI_MAJOR + 1,
#else
    STRATA_PLUGIN_ABI_MAJOR,
#endif
    STRATA_PLUGIN_ABI_MINOR,
    STRATA_STR(TEST_PLUGIN_NAME),
    STRATA_STR("1.0"),
    STRATA_STR("fault-injection test plugin"),
#if TEST_PLUGIN_MODE == MODE_SELFTEST_LIBRARY
    STRATA_LAYER_LIBRARY,
#else
    STRATA_LAYER_RUNTIME,
#endif
    REQUIRED,
    REQUIRED_COUNT,
    probe,
#if TEST_PLUGIN_MODE == MODE_OK || TEST_PLUGIN_MODE == MODE_SELFTEST_LIBRARY
    selftest,
#else
    NULL,
#endif
    NULL,
    0,
#if TEST_PLUGIN_MODE == MODE_HANG
    1, /* the hang plugin's own deadline, so the default path is exercised */
#elif TEST_PLUGIN_MODE == MODE_DECLARED_HANG
    4000000000u, /* 126 years: strata must cap what a plugin may ask for */
#else
    0,
#endif
    0,
    NULL, /* release_benchmarks */
    0,    /* benchmark_flags */
    NULL, /* benchmark_gpus */
};

STRATA_PLUGIN_EXPORT const strata_plugin_descriptor* strata_plugin_entry(void) {
    return &descriptor;
}
