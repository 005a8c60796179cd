#include "report/atomic_file.h"

#include <filesystem>
#include <fstream>

#include "model/usage_error.h"

namespace strata {

namespace fs = std::filesystem;

void refuse_unless_file_or_absent(const std::string& path) {
    std::error_code ec;
    fs::file_status status = fs::symlink_status(path, ec);
    if (fs::exists(status) && !fs::is_regular_file(status))
        throw UsageError("'" + path + "' exists and is not a regular file");
}

void write_file_atomically(const std::string& path, const std::string& text) {
    refuse_unless_file_or_absent(path);
    fs::path target(path);
    fs::path temporary = target;
    temporary += ".partial";
    {
        std::ofstream out(temporary);
        out << text;
        out.flush();
        if (!out) {
            std::error_code ignored;
            fs::remove(temporary, ignored);
            throw UsageError("cannot write '" + temporary.string() + "'");
        }
    }
    std::error_code ec;
    fs::rename(temporary, target, ec);
    if (ec) {
        std::error_code ignored;
        fs::remove(temporary, ignored);
        throw UsageError("cannot write '" + path + "': " + ec.message());
    }
}

}  // namespace strata
