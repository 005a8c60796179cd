#include "strata/arch/mapped_file.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdint>
#include <cstring>
#include <mutex>

namespace strata::arch {

namespace {

// The live mappings, for the SIGBUS handler: fixed size and lock-free. More
// slots than files strata maps at once (one per scanning thread); a mapping
// that finds none full is simply not guarded.
struct GuardSlot {
    std::atomic<uintptr_t> begin{0};
    std::atomic<size_t> size{0};
    std::atomic<bool> changed{false};
};
constexpr int kGuardSlots = 64;
GuardSlot guard_slots[kGuardSlots];
struct sigaction previous_sigbus;

extern "C" void on_sigbus(int signal_number, siginfo_t* info, void* context) {
    uintptr_t address = reinterpret_cast<uintptr_t>(info->si_addr);
    for (GuardSlot& slot : guard_slots) {
        uintptr_t begin = slot.begin.load();
        size_t size = slot.size.load();
        if (begin == 0 || address < begin || address - begin >= size) continue;
        // Zero pages from the faulting page to the end of the mapping: the
        // file has shrunk, so nothing after this page is in it either.
        uintptr_t page = address & ~(static_cast<uintptr_t>(::sysconf(_SC_PAGESIZE)) - 1);
        void* zeros = ::mmap(reinterpret_cast<void*>(page), begin + size - page, PROT_READ,
                             MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
        if (zeros != MAP_FAILED) {
            slot.changed.store(true);
            return;  // the read is retried, and now finds zeros
        }
        break;
    }
    // Not ours: what would have happened without this handler.
    if (previous_sigbus.sa_flags & SA_SIGINFO) {
        previous_sigbus.sa_sigaction(signal_number, info, context);
        return;
    }
    if (previous_sigbus.sa_handler != SIG_DFL && previous_sigbus.sa_handler != SIG_IGN) {
        previous_sigbus.sa_handler(signal_number);
        return;
    }
    ::signal(SIGBUS, SIG_DFL);
    ::raise(SIGBUS);
}

void install_sigbus_handler_once() {
    static std::once_flag once;
    std::call_once(once, [] {
        struct sigaction action {};
        action.sa_sigaction = on_sigbus;
        action.sa_flags = SA_SIGINFO | SA_NODEFER;
        sigemptyset(&action.sa_mask);
        ::sigaction(SIGBUS, &action, &previous_sigbus);
    });
}

int claim_guard_slot(void* data, size_t size) {
    install_sigbus_handler_once();
    for (int i = 0; i < kGuardSlots; ++i) {
        uintptr_t empty = 0;
        if (guard_slots[i].begin.compare_exchange_strong(empty, reinterpret_cast<uintptr_t>(data))) {
            guard_slots[i].changed.store(false);
            guard_slots[i].size.store(size);
            return i;
        }
    }
    return -1;
}

}  // namespace

Expected<MappedFile> MappedFile::open(const std::string& path) {
    // Non-blocking: a FIFO given as a binary must be refused, not waited on.
    int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
    if (fd < 0) return Error{std::strerror(errno)};
    struct stat info {};
    if (::fstat(fd, &info) != 0 || !S_ISREG(info.st_mode)) {
        ::close(fd);
        return Error{"not a regular file"};
    }
    size_t size = static_cast<size_t>(info.st_size);
    void* data = nullptr;
    if (size > 0) {
        data = ::mmap(nullptr, size, PROT_READ, MAP_PRIVATE, fd, 0);
        if (data == MAP_FAILED) {
            int saved = errno;
            ::close(fd);
            return Error{std::string("mmap: ") + std::strerror(saved)};
        }
    }
    ::close(fd);
    return MappedFile(data, size, data ? claim_guard_slot(data, size) : -1);
}

bool MappedFile::changed_while_read() const {
    return guard_slot_ >= 0 && guard_slots[guard_slot_].changed.load();
}

void MappedFile::release() noexcept {
    if (guard_slot_ >= 0) {
        guard_slots[guard_slot_].size.store(0);
        guard_slots[guard_slot_].begin.store(0);
    }
    if (data_) ::munmap(data_, size_);
    data_ = nullptr;
    size_ = 0;
    guard_slot_ = -1;
}

MappedFile::MappedFile(MappedFile&& other) noexcept
    : data_(other.data_), size_(other.size_), guard_slot_(other.guard_slot_) {
    other.data_ = nullptr;
    other.size_ = 0;
    other.guard_slot_ = -1;
}

MappedFile& MappedFile::operator=(MappedFile&& other) noexcept {
    if (this != &other) {
        release();
        data_ = other.data_;
        size_ = other.size_;
        guard_slot_ = other.guard_slot_;
        other.data_ = nullptr;
        other.size_ = 0;
        other.guard_slot_ = -1;
    }
    return *this;
}

MappedFile::~MappedFile() {
    release();
}

}  // namespace strata::arch
