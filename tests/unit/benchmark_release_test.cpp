// Every bundled plugin with benchmarks frees what they keep through the
// descriptor's release_benchmarks, which the harness calls while its stream
// and CUDA context exist (issue #16: cuBLAS, cuDNN and NCCL handles lived in
// statics and were destroyed after main returned).
#include <dlfcn.h>

#include <catch2/catch.hpp>
#include <cstddef>
#include <string>
#include <vector>

#include "strata/plugin.h"

namespace {

std::vector<std::string> split(const std::string& list) {
    std::vector<std::string> out;
    for (size_t start = 0; start <= list.size();) {
        size_t end = list.find('|', start);
        if (end == std::string::npos) end = list.size();
        if (end > start) out.push_back(list.substr(start, end - start));
        start = end + 1;
    }
    return out;
}

}  // namespace

TEST_CASE("bundled benchmark plugins declare release_benchmarks, safe before any benchmark ran") {
    auto plugins = split(STRATA_TEST_BENCHMARK_PLUGINS);
    REQUIRE(plugins.size() >= 2);
    for (const std::string& path : plugins) {
        INFO(path);
        void* library = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
        INFO((library ? "" : dlerror()));
        REQUIRE(library);
        auto entry = reinterpret_cast<strata_plugin_entry_fn>(dlsym(library, STRATA_PLUGIN_ENTRY_SYMBOL));
        REQUIRE(entry);
        const strata_plugin_descriptor* d = entry();
        REQUIRE(d);
        CHECK(d->benchmark_count > 0);
        CHECK(d->abi_minor >= 3);
        REQUIRE(d->struct_size >=
                offsetof(strata_plugin_descriptor, release_benchmarks) + sizeof(strata_task_fn));
        REQUIRE(d->release_benchmarks);
        strata_host_api host{};
        host.struct_size = sizeof host;
        host.abi_major = STRATA_PLUGIN_ABI_MAJOR;
        host.abi_minor = STRATA_PLUGIN_ABI_MINOR;
        CHECK(d->release_benchmarks(&host) == STRATA_TASK_OK);
        CHECK(d->release_benchmarks(&host) == STRATA_TASK_OK);  // twice is harmless
        // Plugins stay loaded, as in a worker: NCCL and cuDNN do not expect dlclose.
    }
}
