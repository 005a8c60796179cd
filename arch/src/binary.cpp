#include "strata/arch/binary.h"

#include <algorithm>
#include <map>
#include <unordered_map>

#include "strata/arch/image_info.h"

namespace strata::arch {

namespace {

constexpr std::string_view archive_magic = "!<arch>\n";
constexpr uint64_t archive_header_size = 60;

// A bare cubin is one SASS image whose SM comes from its own e_flags.
void add_cubin(Bytes bytes, const ElfFile& elf, const std::string& where, FatbinScan& out) {
    FatbinImage image;
    image.kind = ImageKind::sass;
    image.raw_kind = 2;
    image.sm = cubin_sm_from_flags(elf.flags, elf.abi_version);
    image.version_major = 1;
    image.version_minor = elf.abi_version;
    image.section = where;
    image.payload = bytes;
    image.stored_size = bytes.size();
    image.uncompressed_size = bytes.size();
    out.images.push_back(std::move(image));
}

// Whether a container's images define any kernel. nvcc's link stubs hold a
// cubin without a single .text.<kernel> section; nothing in them is ever
// launched. Only small containers are opened (stubs are 1-2 KB), so this
// stays cheap on libraries of hundreds of MB; a large one holds kernels.
bool defines_kernels(const std::vector<const FatbinImage*>& images) {
    constexpr uint64_t open_at_most = 16 * 1024;
    uint64_t total = 0;
    for (const FatbinImage* image : images)
        total += std::max<uint64_t>(image->uncompressed_size, image->payload.size());
    if (total > open_at_most) return true;
    for (const FatbinImage* image : images) {
        if (image->kind != ImageKind::sass && image->kind != ImageKind::ptx) continue;
        auto contents = image_contents(*image);
        if (!contents) return true;  // unreadable: assume it matters
        if (image->kind == ImageKind::ptx) {
            if (contents->find(".entry") != std::string::npos) return true;
            continue;
        }
        auto cubin = parse_elf(*contents);
        if (!cubin) return true;
        for (const ElfSection& section : cubin->sections)
            if (section.name.rfind(".text.", 0) == 0) return true;
    }
    return false;
}

// Every container whose code images define no kernel, registered or not.
void find_kernel_less_containers(BinaryListing& listing) {
    std::map<uint64_t, std::vector<const FatbinImage*>> code_by_container;
    for (const FatbinImage& image : listing.scan.images)
        if (image.kind == ImageKind::sass || image.kind == ImageKind::ptx)
            code_by_container[image.container].push_back(&image);
    for (const auto& [offset, members] : code_by_container)
        if (!defines_kernels(members)) listing.kernel_less_containers.push_back(offset);
}

// Groups the images by registered container once, for every decision made
// on the listing afterwards; counts the images the runtime never loads.
void group_registered_images(BinaryListing& listing) {
    Registration& registration = listing.registration;
    std::unordered_map<uint64_t, size_t> index_of;
    for (size_t i = 0; i < registration.offsets.size(); ++i) index_of.emplace(registration.offsets[i], i);
    registration.code_images.assign(registration.offsets.size(), {});
    const auto& images = listing.scan.images;
    for (size_t i = 0; i < images.size(); ++i) {
        auto it = index_of.find(images[i].container);
        if (it == index_of.end()) {
            if (!registration.offsets.empty()) ++registration.unregistered_images;
            continue;
        }
        if (images[i].kind == ImageKind::sass || images[i].kind == ImageKind::ptx)
            registration.code_images[it->second].push_back(i);
    }
    for (auto& group : registration.code_images)
        if (!group.empty() && in_kernel_less_container(listing, images[group.front()])) group.clear();
}

}  // namespace

bool in_kernel_less_container(const BinaryListing& listing, const FatbinImage& image) {
    return std::binary_search(listing.kernel_less_containers.begin(), listing.kernel_less_containers.end(),
                              image.container);
}

bool link_stubs_only(const BinaryListing& listing) {
    bool code = false;
    for (const FatbinImage& image : listing.scan.images) {
        if (image.kind != ImageKind::sass && image.kind != ImageKind::ptx) continue;
        if (!in_kernel_less_container(listing, image)) return false;
        code = true;
    }
    return code;
}

namespace {

Expected<BinaryListing> read_elf(Bytes bytes, const std::string& prefix) {
    auto elf = parse_elf(bytes);
    if (!elf) return Error{elf.error()};
    BinaryListing listing;
    if (elf->machine == elf_machine_cuda) {
        listing.format = BinaryFormat::cubin;
        add_cubin(bytes, *elf, prefix + "(cubin)", listing.scan);
        return listing;
    }
    listing.format = BinaryFormat::elf;
    listing.scan = scan_elf(*elf);
    // An archive member's registrations point into the member, not the
    // archive: only a loadable file's are kept.
    if (prefix.empty()) {
        find_kernel_less_containers(listing);
        listing.registration = registered_fatbins(*elf);
        group_registered_images(listing);
        for (const std::string& warning : listing.registration.warnings)
            listing.scan.warnings.push_back(warning);
    }
    if (!prefix.empty())
        for (FatbinImage& image : listing.scan.images) image.section = prefix + image.section;
    return listing;
}

uint64_t parse_decimal(Bytes field) {
    uint64_t value = 0;
    for (char c : field) {
        if (c < '0' || c > '9') break;
        if (value > (UINT64_MAX - 9) / 10) return UINT64_MAX;
        value = value * 10 + static_cast<uint64_t>(c - '0');
    }
    return value;
}

Expected<BinaryListing> read_archive(Bytes bytes) {
    BinaryListing listing;
    listing.format = BinaryFormat::archive;
    Bytes long_names;
    uint64_t at = archive_magic.size();
    while (in_bounds(bytes, at, archive_header_size)) {
        Bytes header = slice(bytes, at, archive_header_size);
        if (header.substr(58, 2) != "`\n")
            return Error{"archive member header at " + hex(at) + " is corrupt"};
        uint64_t size = parse_decimal(header.substr(48, 10));
        uint64_t data = at + archive_header_size;
        if (!in_bounds(bytes, data, size))
            return Error{"archive member at " + hex(at) + " (" + std::to_string(size) +
                         " bytes) runs past the end"};
        std::string name(header.substr(0, 16));
        while (!name.empty() && name.back() == ' ') name.pop_back();
        Bytes member = slice(bytes, data, size);
        if (name == "//") {
            long_names = member;
        } else if (name.size() > 1 && name[0] == '/' && name[1] >= '0' && name[1] <= '9') {
            uint64_t offset = parse_decimal(Bytes(name).substr(1));
            if (offset < long_names.size()) {
                size_t end = long_names.find("/\n", offset);
                name =
                    std::string(long_names.substr(offset, end == Bytes::npos ? Bytes::npos : end - offset));
            }
        } else if (!name.empty() && name.back() == '/') {
            name.pop_back();
        }
        if (name != "/" && name != "/SYM64/" && name != "//" && looks_like_elf(member)) {
            auto inner = read_elf(member, name + ":");
            if (!inner) {
                listing.scan.warnings.push_back("archive member " + name + ": " + inner.error());
                at = data + size + (size & 1);
                continue;
            }
            auto& images = inner->scan.images;
            for (FatbinImage& image : images) image.offset += data;  // member-relative -> file offset
            listing.scan.images.insert(listing.scan.images.end(), images.begin(), images.end());
            listing.scan.containers += inner->scan.containers;
            for (const std::string& warning : inner->scan.warnings)
                listing.scan.warnings.push_back(name + ": " + warning);
        }
        at = data + size + (size & 1);  // members are 2-byte aligned
    }
    return listing;
}

}  // namespace

std::string_view binary_format_name(BinaryFormat format) {
    switch (format) {
        case BinaryFormat::elf: return "elf";
        case BinaryFormat::cubin: return "cubin";
        case BinaryFormat::fatbin: return "fatbin";
        case BinaryFormat::archive: return "archive";
        case BinaryFormat::not_binary: return "not a binary";
    }
    return "not a binary";
}

BinaryFormat sniff_format(Bytes bytes) {
    if (looks_like_elf(bytes)) return BinaryFormat::elf;  // or cubin: decided on parsing
    if (bytes.substr(0, archive_magic.size()) == archive_magic) return BinaryFormat::archive;
    if (bytes.substr(0, 4) == std::string_view("\x50\xED\x55\xBA", 4))
        return BinaryFormat::fatbin;  // 0xBA55ED50
    return BinaryFormat::not_binary;
}

Expected<BinaryListing> read_binary(Bytes bytes) {
    switch (sniff_format(bytes)) {
        case BinaryFormat::elf:
        case BinaryFormat::cubin: return read_elf(bytes, "");
        case BinaryFormat::archive: return read_archive(bytes);
        case BinaryFormat::fatbin: {
            BinaryListing listing;
            listing.format = BinaryFormat::fatbin;
            scan_bytes(bytes, 0, "(fatbin)", /*strict=*/true, listing.scan);
            return listing;
        }
        case BinaryFormat::not_binary: break;
    }
    return Error{"not an ELF file, archive or fat binary"};
}

}  // namespace strata::arch
