#include "report/atomic_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>

#include "model/usage_error.h"

namespace strata {

namespace fs = std::filesystem;

void refuse_unless_file_or_absent(const std::string& path) {
    std::error_code ec;
    fs::file_status status = fs::symlink_status(path, ec);
    if (fs::exists(status) && !fs::is_regular_file(status))
        throw UsageError("'" + path + "' exists and is not a regular file");
}

namespace {

fs::path directory_of(const std::string& path) {
    fs::path parent = fs::path(path).parent_path();
    return parent.empty() ? fs::path(".") : parent;
}

bool write_all(int fd, const std::string& text) {
    size_t written = 0;
    while (written < text.size()) {
        ssize_t n = ::write(fd, text.data() + written, text.size() - written);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return false;
        written += static_cast<size_t>(n);
    }
    return true;
}

}  // namespace

void prepare_output_file(const std::string& path) {
    refuse_unless_file_or_absent(path);
    fs::path directory = directory_of(path);
    std::error_code ec;
    if (!fs::exists(directory, ec)) {
        fs::create_directories(directory, ec);
        if (ec)
            throw UsageError("cannot write '" + path + "': cannot create the directory '" +
                             directory.string() + "': " + ec.message());
    }
    std::string probe = directory / ".strata-write-test.XXXXXX";
    int fd = ::mkstemp(probe.data());
    if (fd < 0) throw UsageError("cannot write '" + path + "': " + std::strerror(errno));
    ::close(fd);
    ::unlink(probe.c_str());
}

void write_file_atomically(const std::string& path, const std::string& text) {
    refuse_unless_file_or_absent(path);
    fs::path target(path);
    // A new file of a name no one can guess, created by this call alone
    // (mkstemp: O_CREAT|O_EXCL, so never through a link planted at the name),
    // in the target's directory so the rename is atomic. A fixed FILE.partial
    // in a directory others can write (a shared results folder, the
    // node_exporter textfile directory) let them plant a link there and have
    // root overwrite whatever it pointed at.
    std::string temporary = directory_of(path) / ("." + target.filename().string() + ".XXXXXX");
    int fd = ::mkstemp(temporary.data());
    if (fd < 0)
        throw UsageError("cannot write '" + path +
                         "': cannot create a file beside it: " + std::strerror(errno));
    // Readable by the programs that collect it (node_exporter runs as its
    // own user), as a file written with the default umask would be.
    bool ok = ::fchmod(fd, 0644) == 0 && write_all(fd, text) && ::fsync(fd) == 0;
    int saved = errno;
    ok = ::close(fd) == 0 && ok;
    // rename replaces a link at the final name; it never writes through it.
    if (!ok || ::rename(temporary.c_str(), path.c_str()) != 0) {
        if (ok) saved = errno;
        ::unlink(temporary.c_str());
        throw UsageError("cannot write '" + path + "': " + std::strerror(saved));
    }
}

}  // namespace strata
