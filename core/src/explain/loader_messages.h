// The dynamic loader's messages (glibc elf/dl-load.c, dl-lookup.c,
// dl-version.c, rtld.c) and the wrappers that repeat them (Python's ctypes,
// TensorFlow's dso_loader, cuDNN 8's sub-library loader). The library they
// name decides the layer: libcuda/libnvidia-* is the driver, a CUDA library
// is the library layer, anything else is the host.
#pragma once

#include <string_view>
#include <vector>

#include "explain/explain.h"

namespace strata {

void find_loader_messages(std::string_view line, std::string_view lower, std::vector<Finding>& out);

// Every lower-case phrase find_loader_messages looks for: a line holding none
// of them holds no loader message (explain skips such lines unread).
std::vector<std::string_view> loader_message_words();

// Which part of the stack a shared library belongs to, by its soname:
// "driver", "cuda_library" or "other".
std::string_view soname_owner(std::string_view soname);

}  // namespace strata
