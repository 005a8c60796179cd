// The distributions installed in a site-packages directory, read from their
// dist-info (METADATA; RECORD for the ones strata looks inside), and which
// framework each belongs to.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "frameworks/python_metadata.h"

namespace strata {

struct Distribution {
    std::string name;  // normalised
    PackageMetadata metadata;
    std::string site_dir;
    // Absolute, inside site_dir (frameworks and nvidia-* wheels only), from
    // RECORD, installed-files.txt (egg-info), conda-meta, or a walk of the
    // package's directories when the installer left no list.
    std::vector<std::string> files;
    std::string file_list;  // where `files` came from: "RECORD", "conda-meta", ...
};

// A framework strata knows: its id in check ids ("torch") and its name ("PyTorch").
struct FrameworkKind {
    const char* id;
    const char* name;
};

// The framework a distribution (by normalised name) is part of, or nullptr:
// torch; jaxlib and jax-cudaNN-plugin/-pjrt; tensorflow(-gpu, -cpu, tf-nightly);
// cupy(-cudaNNx); onnxruntime(-gpu).
const FrameworkKind* classify_distribution(const std::string& name);

// Whether a package requires a framework (or jax) without an extra: a
// package built on it, whose files may carry its own device code.
bool builds_on_framework(const PackageMetadata& metadata);

// Every *.dist-info (METADATA) and *.egg-info (PKG-INFO, or the file itself)
// in the directory with readable metadata, in name order.
std::vector<Distribution> read_distributions(const std::string& site_dir);

// A small text file's contents, "" when it cannot be read.
std::string read_text(const std::filesystem::path& path, size_t limit = 4 << 20);

}  // namespace strata
