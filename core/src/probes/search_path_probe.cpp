// Copies of CUDA libraries on the loader's search path: a second copy of
// libcudart or libcudnn that silently wins is behind many version-mismatch
// failures users report.
#include <regex>
#include <set>
#include <system_error>

#include "probes/library_search.h"
#include "probes/probes.h"

namespace strata {

namespace {

// Sonames worth watching: the driver, the runtime and the NVIDIA libraries.
const std::regex cuda_soname(
    "lib(cuda|nvidia-ml|cudart|cublas|cublasLt|cudnn[a-z_]*|nccl|nvrtc|nvJitLink|cufft|curand|"
    "cusparse|cusolver|cupti)\\.so\\.[0-9]+");

}  // namespace

void probe_search_path(const ProbeContext& context, Report& report) {
    const LibrarySearch& search = context.library_search();
    if (search.searches_working_directory()) {
        std::error_code ec;
        std::string here = context.is_live() ? std::filesystem::current_path(ec).string() : ".";
        report.add_check(make_check(
            "host.search_path.working_directory", Layer::host, Status::warn,
            "LD_LIBRARY_PATH has an empty entry, so the loader searches the working directory (" + here +
                ") for every library",
            "LD_LIBRARY_PATH=" + context.env("LD_LIBRARY_PATH").value_or(""),
            "remove the stray colon (a leading, trailing or doubled ':'): a library left in whatever "
            "directory a program starts from would be loaded first"));
    }
    // Candidates: every CUDA soname in an LD_LIBRARY_PATH directory or in
    // ld.so.cache; find_all() then says which copies the loader would see.
    std::set<std::string> sonames;
    for (const std::string& directory : search.ld_library_path()) {
        std::error_code ec;
        for (const auto& entry : std::filesystem::directory_iterator(context.at(directory), ec)) {
            std::string name = entry.path().filename().string();
            if (std::regex_match(name, cuda_soname)) sonames.insert(name);
        }
    }
    for (const LdCacheEntry& entry : search.cache().entries)
        if (std::regex_match(entry.soname, cuda_soname)) sonames.insert(entry.soname);
    std::vector<std::string> duplicates;
    for (const std::string& soname : sonames) {
        auto copies = search.find_all(soname);
        if (copies.size() < 2) continue;
        std::string line =
            soname + ": " + copies.front().real_path + " (" + copies.front().via + ") wins over";
        Json paths = Json::array();
        for (size_t i = 0; i < copies.size(); ++i) {
            paths.push_back(copies[i].real_path);
            if (i > 0) line += " " + copies[i].real_path + " (" + copies[i].via + ")";
        }
        add_fact(report, Layer::host, "host.search_path.copies." + soname, paths, "loader search path");
        duplicates.push_back(line);
    }
    if (duplicates.empty()) {
        report.add_check(make_check("host.search_path.duplicates", Layer::host, Status::pass,
                                    "no CUDA library has a second copy on the search path",
                                    "searched " + search.describe_order()));
        return;
    }
    std::string evidence;
    for (const std::string& line : duplicates) evidence += (evidence.empty() ? "" : "; ") + line;
    report.add_check(make_check(
        "host.search_path.duplicates", Layer::host, Status::warn,
        std::to_string(duplicates.size()) + " CUDA librar" + (duplicates.size() == 1 ? "y has" : "ies have") +
            " more than one copy on the search path",
        evidence,
        "keep one copy of each library on LD_LIBRARY_PATH, or make sure the one that wins is the "
        "version your application was built for"));
}

}  // namespace strata
