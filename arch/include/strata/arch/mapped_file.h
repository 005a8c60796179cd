// A read-only memory mapping of a whole file; listing a 500 MB library
// touches only the pages of the headers it reads.
#pragma once

#include <string>

#include "strata/arch/bytes.h"
#include "strata/arch/expected.h"

namespace strata::arch {

class MappedFile {
public:
    static Expected<MappedFile> open(const std::string& path);
    MappedFile(MappedFile&& other) noexcept;
    MappedFile& operator=(MappedFile&& other) noexcept;
    MappedFile(const MappedFile&) = delete;
    MappedFile& operator=(const MappedFile&) = delete;
    ~MappedFile();

    Bytes bytes() const { return {static_cast<const char*>(data_), size_}; }

private:
    MappedFile(void* data, size_t size) : data_(data), size_(size) {}
    void* data_ = nullptr;
    size_t size_ = 0;
};

}  // namespace strata::arch
