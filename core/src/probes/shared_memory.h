// The size of /dev/shm. NCCL's shared-memory transport and PyTorch's
// DataLoader workers keep their buffers there, and a container runtime's
// default (Docker's and Kubernetes' 64 MB) is too small for either.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace strata {

struct SharedMemoryMount {
    bool mounted = false;
    std::optional<uint64_t> size_bytes;  // from the mount's size= option; empty when it has none
};

// Reads /proc/mounts text: the last mount at `mount_point` wins (a later mount
// hides the earlier). tmpfs's size= takes k, m, g, t, p and e suffixes; a
// percentage of RAM, or a value that overflows, counts as no size.
SharedMemoryMount find_tmpfs_mount(std::string_view mounts, std::string_view mount_point);

// The number in a tmpfs size= option, in bytes ("65536k" is 64 MiB).
std::optional<uint64_t> parse_tmpfs_size(std::string_view value);

}  // namespace strata
