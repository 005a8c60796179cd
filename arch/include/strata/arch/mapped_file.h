// A read-only memory mapping of a whole file; listing a 500 MB library
// touches only the pages of the headers it reads.
//
// A mapped file that another process truncates turns every read past its new
// end into SIGBUS. While a MappedFile lives, a SIGBUS at an address inside it
// replaces the rest of the mapping with zero pages and marks the file as
// changed: the reader sees zeros (which no parser trusts), and the caller
// asks changed_while_read() before it believes the result. Faults anywhere
// else get the default action, as before.
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
    // True when a read ran past the end of the file as it is now.
    bool changed_while_read() const;

private:
    MappedFile(void* data, size_t size, int guard_slot) : data_(data), size_(size), guard_slot_(guard_slot) {}
    void release() noexcept;
    void* data_ = nullptr;
    size_t size_ = 0;
    int guard_slot_ = -1;  // in the table the SIGBUS handler reads; -1: not guarded
};

}  // namespace strata::arch
