#include "explain/status_codes.h"

#include <unordered_map>

namespace strata {

namespace {

const std::vector<StatusCode> kGenerated = {
#include "explain/status_codes_generated.inc"
};

}  // namespace

const std::vector<StatusCode>& status_codes() {
    static const std::vector<StatusCode> all = [] {
        std::vector<StatusCode> out = kGenerated;
        out.insert(out.end(), nvml_return_codes().begin(), nvml_return_codes().end());
        return out;
    }();
    return all;
}

const StatusCode* find_status_code(std::string_view name) {
    static const auto index = [] {
        std::unordered_map<std::string_view, const StatusCode*> out;
        for (const StatusCode& code : status_codes()) out.emplace(code.name, &code);
        return out;
    }();
    auto it = index.find(name);
    return it == index.end() ? nullptr : it->second;
}

const StatusCode* find_cuda_runtime_code(int64_t number) {
    static const auto index = [] {
        std::unordered_map<int64_t, const StatusCode*> out;
        for (const StatusCode& code : status_codes())
            if (code.family == StatusFamily::cuda_runtime) out.emplace(code.number, &code);
        return out;
    }();
    auto it = index.find(number);
    return it == index.end() ? nullptr : it->second;
}

}  // namespace strata
