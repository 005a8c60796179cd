#include "doctor/build_info.h"

#include "strata_build_config.h"
#include "strata_git_revision.h"

namespace strata {

namespace {

// STRATA_CUDA_ARCHITECTURES in CMake form: "75-real;80-real;120" means SASS
// for 75 and 80, SASS and PTX for 120.
std::vector<std::string> parse_architectures(std::string_view list) {
    std::vector<std::string> out;
    size_t pos = 0;
    while (pos < list.size()) {
        size_t end = list.find(';', pos);
        if (end == std::string_view::npos) end = list.size();
        std::string_view item = list.substr(pos, end - pos);
        pos = end + 1;
        if (item.empty()) continue;
        size_t dash = item.find('-');
        std::string number(item.substr(0, dash));
        std::string_view kind = dash == std::string_view::npos ? "" : item.substr(dash + 1);
        if (kind != "virtual") out.push_back("sm_" + number);
        if (kind != "real") out.push_back("compute_" + number);
    }
    return out;
}

}  // namespace

const BuildInfo& build_info() {
    static const BuildInfo info{STRATA_VERSION, STRATA_GIT_REVISION, STRATA_BUILD_TYPE,
                                STRATA_CUDA_TOOLKIT_VERSION,
                                parse_architectures(STRATA_KERNEL_ARCHITECTURES)};
    return info;
}

}  // namespace strata
