// Writing a result file that another program reads while it may be written
// (node_exporter's textfile collector, a fleet collector, a Slurm batch
// script): the text goes to a new file of an unguessable name beside it,
// then is renamed over FILE, so a reader sees the old file or the new one,
// never half of one; and strata, often root, never writes through a link
// another user planted at FILE or beside it. Every output file strata
// writes goes through here.
#pragma once

#include <string>

namespace strata {

// Throws UsageError when `path` exists and is not a regular file (renaming
// over a device or a directory would replace it; as root even /dev/null).
void refuse_unless_file_or_absent(const std::string& path);

// Called for every output path before any work, so that minutes of GPU time
// are never spent on a result that cannot be kept: refuses what
// refuse_unless_file_or_absent() refuses, creates the missing parent
// directories (as `rollout --keep` does), and proves the directory takes a
// new file. Throws UsageError with the OS's reason.
void prepare_output_file(const std::string& path);

// Throws UsageError when the file cannot be written.
void write_file_atomically(const std::string& path, const std::string& text);

}  // namespace strata
