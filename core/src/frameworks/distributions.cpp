#include "frameworks/distributions.h"

#include <algorithm>
#include <map>
#include <nlohmann/json.hpp>
#include <regex>

#include "probes/probe_context.h"
#include "probes/text_util.h"

namespace strata {

namespace fs = std::filesystem;

namespace {

constexpr FrameworkKind kTorch{"torch", "PyTorch"}, kJax{"jax", "JAX"},
    kTensorflow{"tensorflow", "TensorFlow"}, kCupy{"cupy", "CuPy"},
    kOnnxruntime{"onnxruntime", "ONNX Runtime"};

}  // namespace

const FrameworkKind* classify_distribution(const std::string& name) {
    static const std::regex jax_cuda(R"(jax-cuda\d+-(plugin|pjrt))");
    static const std::regex cupy(R"(cupy(-cuda\d+x?|-rocm-.*)?)");
    if (name == "torch") return &kTorch;
    if (name == "jaxlib" || std::regex_match(name, jax_cuda)) return &kJax;
    if (name == "tensorflow" || name == "tensorflow-gpu" || name == "tensorflow-cpu" ||
        name == "tf-nightly" || name == "tf-nightly-gpu" || name == "tensorflow-intel")
        return &kTensorflow;
    if (std::regex_match(name, cupy)) return &kCupy;
    if (name == "onnxruntime-gpu" || name == "onnxruntime" || name == "ort-nightly-gpu") return &kOnnxruntime;
    return nullptr;
}

bool builds_on_framework(const PackageMetadata& metadata) {
    return std::any_of(metadata.requires_dist.begin(), metadata.requires_dist.end(),
                       [](const Requirement& r) {
                           return r.extra.empty() && (r.name == "jax" || classify_distribution(r.name));
                       });
}

std::string read_text(const fs::path& path, size_t limit) {
    return read_file(path, limit).value_or("");
}

namespace {

// Bounds on walking a package whose installer left no file list: a framework
// has a few thousand files; a loop of symlinks or a huge tree stops here.
constexpr size_t kMaxWalkedFiles = 50'000;
constexpr int kMaxWalkDepth = 8;

// Regular files under `root` (symlinked directories are not followed), absolute.
void walk_files(const fs::path& root, std::vector<std::string>& out) {
    std::error_code error;
    if (!fs::is_directory(fs::symlink_status(root, error))) {
        if (fs::is_regular_file(fs::symlink_status(root, error)) ||
            fs::is_symlink(fs::symlink_status(root, error)))
            out.push_back(root.lexically_normal().string());
        return;
    }
    fs::recursive_directory_iterator it(root, fs::directory_options::skip_permission_denied, error), end;
    for (; !error && it != end && out.size() < kMaxWalkedFiles; it.increment(error)) {
        if (it.depth() > kMaxWalkDepth) {
            it.disable_recursion_pending();
            continue;
        }
        std::error_code status_error;
        auto status = it->symlink_status(status_error);
        if (fs::is_regular_file(status) || fs::is_symlink(status))
            if (!fs::is_directory(it->status(status_error)))
                out.push_back(it->path().lexically_normal().string());
    }
}

// The directories a distribution without a file list installed: those
// top_level.txt names, else its import name. NVIDIA's wheels share the
// `nvidia/` namespace, so each gets only its own `nvidia/<part>` directory
// (nvidia-cudnn-cu12 -> nvidia/cudnn, nvidia-cuda-runtime-cu12 -> nvidia/cuda_runtime).
std::vector<fs::path> top_level_directories(const fs::path& info, const std::string& site_dir,
                                            const std::string& name) {
    std::vector<fs::path> out;
    if (name.rfind("nvidia-", 0) == 0) {
        static const std::regex suffix(R"(-cu\d+$)");
        std::string part = std::regex_replace(name.substr(7), suffix, "");
        std::replace(part.begin(), part.end(), '-', '_');
        out.push_back(fs::path(site_dir) / "nvidia" / part);
        return out;
    }
    std::error_code error;
    std::string top_level = fs::is_directory(info, error) ? read_text(info / "top_level.txt", 1 << 16) : "";
    for (std::string_view line : split_lines(top_level)) {
        std::string top(line);
        if (top.empty() || top.find("..") != std::string::npos || top.front() == '/') continue;
        out.push_back(fs::path(site_dir) / top);
    }
    if (out.empty()) {
        std::string import_name = name;
        std::replace(import_name.begin(), import_name.end(), '-', '_');
        out.push_back(fs::path(site_dir) / import_name);
    }
    return out;
}

// Paths in a file list, joined to `base` and kept inside `inside` (an entry
// that climbs out, "../../../etc/x" or "/abs/path", is not the package's file).
void add_listed(std::vector<std::string>& out, const fs::path& base, const std::vector<std::string>& relative,
                const fs::path& inside) {
    std::string root = inside.lexically_normal().string();
    if (!root.ends_with("/")) root += "/";
    for (const std::string& entry : relative) {
        if (entry.empty() || entry.front() == '/') continue;
        std::string path = (base / entry).lexically_normal().string();
        if (path.rfind(root, 0) == 0) out.push_back(path);
    }
}

// conda environments list each package's files in <prefix>/conda-meta/*.json;
// a dist-info that conda installed often has no RECORD. Keyed by the files'
// dist-info directory, so the list reaches the right distribution.
std::map<std::string, std::vector<std::string>> conda_file_lists(const std::string& site_dir) {
    std::map<std::string, std::vector<std::string>> out;
    // <prefix>/lib/python3.X/site-packages
    fs::path prefix = fs::path(site_dir).parent_path().parent_path().parent_path();
    std::error_code error;
    if (!fs::is_directory(prefix / "conda-meta", error)) return out;
    for (const auto& entry : fs::directory_iterator(prefix / "conda-meta",
                                                    fs::directory_options::skip_permission_denied, error)) {
        if (entry.path().extension() != ".json") continue;
        auto record = nlohmann::json::parse(read_text(entry.path(), 16 << 20), nullptr, false);
        if (record.is_discarded() || !record.is_object() || !record.contains("files") ||
            !record["files"].is_array())
            continue;
        std::vector<std::string> files;
        std::string info_dir;
        for (const auto& file : record["files"]) {
            if (!file.is_string()) continue;
            std::string relative = file.get<std::string>();
            files.push_back(relative);
            size_t at = relative.find(".dist-info/");
            if (at == std::string::npos) at = relative.find(".egg-info/");
            if (info_dir.empty() && at != std::string::npos)
                info_dir = (prefix / relative.substr(0, relative.find('/', at))).lexically_normal().string();
        }
        if (info_dir.empty()) continue;
        auto& list = out[info_dir];
        add_listed(list, prefix, files, prefix);
    }
    return out;
}

}  // namespace

std::vector<Distribution> read_distributions(const std::string& site_dir) {
    std::vector<Distribution> out;
    std::error_code error;
    std::vector<fs::path> infos;
    for (const auto& entry :
         fs::directory_iterator(site_dir, fs::directory_options::skip_permission_denied, error)) {
        std::string extension = entry.path().extension().string();
        if (extension == ".dist-info" || extension == ".egg-info") infos.push_back(entry.path());
    }
    std::sort(infos.begin(), infos.end());
    std::map<std::string, std::vector<std::string>> conda_lists;
    bool conda_read = false;
    for (const fs::path& info : infos) {
        // dist-info: METADATA; egg-info: PKG-INFO in a directory, or the file itself.
        bool egg = info.extension() == ".egg-info";
        bool directory = fs::is_directory(info, error);
        fs::path metadata_file = !directory ? info : egg ? info / "PKG-INFO" : info / "METADATA";
        auto metadata = parse_package_metadata(read_text(metadata_file, 1 << 20));
        if (!metadata) continue;
        Distribution dist;
        dist.name = normalize_package_name(metadata->name);
        dist.metadata = std::move(*metadata);
        dist.site_dir = site_dir;
        // Only the files of frameworks, of packages built on one (torchvision)
        // and of NVIDIA's libraries are ever looked at: an environment's other
        // file lists (hundreds, some of a megabyte) are not read.
        if (!classify_distribution(dist.name) && dist.name.rfind("nvidia-", 0) != 0 &&
            !builds_on_framework(dist.metadata)) {
            out.push_back(std::move(dist));
            continue;
        }
        fs::path site(site_dir);
        if (directory && !egg && fs::exists(info / "RECORD", error)) {
            dist.file_list = "RECORD";
            add_listed(dist.files, site, parse_record(read_text(info / "RECORD", 16 << 20)), site);
        } else if (directory && egg && fs::exists(info / "installed-files.txt", error)) {
            dist.file_list = "installed-files.txt";
            std::vector<std::string> entries;
            std::string listing = read_text(info / "installed-files.txt", 16 << 20);
            for (std::string_view line : split_lines(listing)) entries.emplace_back(line);
            add_listed(dist.files, info, entries, site);
        } else {
            if (!conda_read) conda_lists = conda_file_lists(site_dir), conda_read = true;
            if (auto it = conda_lists.find(info.lexically_normal().string()); it != conda_lists.end()) {
                dist.file_list = "conda-meta";
                dist.files = it->second;
            } else {
                dist.file_list = "its directories (no file list)";
                for (const fs::path& top : top_level_directories(info, site_dir, dist.name))
                    walk_files(top, dist.files);
            }
        }
        out.push_back(std::move(dist));
    }
    return out;
}

}  // namespace strata
