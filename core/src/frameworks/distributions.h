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
    std::vector<std::string> files;  // absolute, from RECORD (frameworks and nvidia-* wheels only)
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

// Every *.dist-info in the directory with a readable METADATA, in name order.
std::vector<Distribution> read_distributions(const std::string& site_dir);

// A small text file's contents, "" when it cannot be read.
std::string read_text(const std::filesystem::path& path, size_t limit = 4 << 20);

}  // namespace strata
