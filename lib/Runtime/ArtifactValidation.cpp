//===- ArtifactValidation.cpp - Checking an artifact before dlopen --------===//
//
// validateArtifact (ArtifactValidation.h): every structure is copied out of
// the buffer with memcpy after its range has been checked with arithmetic
// that cannot overflow (`fits`), so no byte outside the buffer is read and
// unaligned input is fine. Only what dlopen relies on is checked; the
// contents of code and relocations are the compiler's business.
//
//===----------------------------------------------------------------------===//

#include "plaidml/Runtime/ArtifactValidation.h"

#include <cstring>
#include <elf.h>
#include <string>
#include <vector>

using namespace plaidml::rt;

namespace {

#if defined(__LP64__)
using Ehdr = Elf64_Ehdr;
using Phdr = Elf64_Phdr;
using Shdr = Elf64_Shdr;
using Sym = Elf64_Sym;
constexpr unsigned char kClass = ELFCLASS64;
#else
using Ehdr = Elf32_Ehdr;
using Phdr = Elf32_Phdr;
using Shdr = Elf32_Shdr;
using Sym = Elf32_Sym;
constexpr unsigned char kClass = ELFCLASS32;
#endif

#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
constexpr unsigned char kData = ELFDATA2LSB;
#else
constexpr unsigned char kData = ELFDATA2MSB;
#endif

/// This machine's e_machine, and its name; 0 where it is not known (then
/// the machine is not checked).
#if defined(__x86_64__)
constexpr uint16_t kMachine = EM_X86_64;
#elif defined(__aarch64__)
constexpr uint16_t kMachine = EM_AARCH64;
#elif defined(__riscv)
constexpr uint16_t kMachine = EM_RISCV;
#else
constexpr uint16_t kMachine = 0;
#endif

std::string getMachineName(uint16_t machine) {
  switch (machine) {
  case EM_X86_64:
    return "x86_64";
  case EM_386:
    return "i386";
  case EM_AARCH64:
    return "aarch64";
  case EM_ARM:
    return "arm";
  case EM_RISCV:
    return "riscv";
  case EM_PPC64:
    return "ppc64";
  default:
    return "unknown";
  }
}

/// Whether [offset, offset + length) lies in a buffer of `size` bytes.
bool fits(uint64_t offset, uint64_t length, size_t size) {
  return offset <= size && length <= size - offset;
}

/// offset * count, or nullopt on overflow.
bool multiply(uint64_t a, uint64_t b, uint64_t &out) {
  if (a != 0 && b > UINT64_MAX / a)
    return false;
  out = a * b;
  return true;
}

const char *getSegmentTypeName(uint32_t type) {
  switch (type) {
  case PT_LOAD:
    return "LOAD";
  case PT_DYNAMIC:
    return "DYNAMIC";
  case PT_INTERP:
    return "INTERP";
  case PT_NOTE:
    return "NOTE";
  case PT_GNU_RELRO:
    return "GNU_RELRO";
  case PT_GNU_EH_FRAME:
    return "GNU_EH_FRAME";
  default:
    return "other";
  }
}

class Validator {
public:
  Validator(const uint8_t *data, size_t size) : data(data), size(size) {}

  StatusOr<Manifest> run();

private:
  Status invalid(const std::string &why) const {
    return Status::invalidArgument(why);
  }
  Status truncated(const std::string &what, uint64_t end) const {
    return Status::dataLoss("truncated: " + what + " ends at byte " +
                            std::to_string(end) + ", past the end of the " +
                            std::to_string(size) + "-byte file");
  }
  template <typename T> T read(uint64_t offset) const {
    T value;
    std::memcpy(&value, data + offset, sizeof(T));
    return value;
  }

  Status checkHeader();
  /// A header table (`what` is "program header" or "section header"):
  /// entries of the size this ELF class has, all inside the file.
  Status checkTable(const std::string &what, uint64_t entrySize,
                    uint64_t expectedSize, uint64_t count,
                    uint64_t offset) const;
  Status checkSegments();
  Status checkSections();
  StatusOr<Manifest> readManifest();
  /// The file offset of virtual address range [address, address + length)
  /// inside the file bytes of one PT_LOAD segment, or false.
  bool mapAddress(uint64_t address, uint64_t length, uint64_t &offset) const;

  const uint8_t *data;
  size_t size;
  Ehdr header{};
  std::vector<Phdr> segments;
  std::vector<Shdr> sections;
};

Status Validator::checkHeader() {
  if (size < 4 || std::memcmp(data, ELFMAG, SELFMAG) != 0) {
    std::string start;
    static const char digits[] = "0123456789abcdef";
    for (size_t i = 0; i < 4 && i < size; ++i)
      start += std::string(i ? " " : "") + digits[data[i] >> 4] +
               digits[data[i] & 15];
    return invalid(size == 0 ? "not an ELF file (it is empty)"
                             : "not an ELF file (it starts with " + start +
                                   ", not 7f 45 4c 46)");
  }
  if (size < sizeof(Ehdr))
    return truncated("the ELF header (" + std::to_string(sizeof(Ehdr)) +
                         " bytes)",
                     sizeof(Ehdr));
  header = read<Ehdr>(0);
  if (header.e_ident[EI_CLASS] != kClass)
    return invalid(std::string("an ELF file of class ") +
                   (header.e_ident[EI_CLASS] == ELFCLASS32   ? "ELF32"
                    : header.e_ident[EI_CLASS] == ELFCLASS64 ? "ELF64"
                                                             : "unknown") +
                   ", but this machine loads " +
                   (kClass == ELFCLASS64 ? "ELF64" : "ELF32"));
  if (header.e_ident[EI_DATA] != kData)
    return invalid("an ELF file of the other byte order than this machine's");
  if (header.e_ident[EI_VERSION] != EV_CURRENT ||
      header.e_version != EV_CURRENT)
    return invalid("an ELF file of unknown version " +
                   std::to_string(header.e_ident[EI_VERSION]));
  if (header.e_type != ET_DYN)
    return invalid(std::string("an ELF file that is not a shared library "
                               "(e_type ") +
                   std::to_string(header.e_type) +
                   (header.e_type == ET_EXEC  ? ": an executable"
                    : header.e_type == ET_REL ? ": an object file"
                                              : "") +
                   ")");
  if (kMachine != 0 && header.e_machine != kMachine)
    return invalid("an ELF file for machine " +
                   std::to_string(header.e_machine) + " (" +
                   getMachineName(header.e_machine) +
                   "), but this machine is " + getMachineName(kMachine));
  if (header.e_ehsize < sizeof(Ehdr))
    return invalid("ELF header size " + std::to_string(header.e_ehsize) +
                   " is smaller than " + std::to_string(sizeof(Ehdr)));
  return Status::success();
}

Status Validator::checkTable(const std::string &what, uint64_t entrySize,
                             uint64_t expectedSize, uint64_t count,
                             uint64_t offset) const {
  if (entrySize != expectedSize)
    return invalid(what + " entries of " + std::to_string(entrySize) +
                   " bytes, expected " + std::to_string(expectedSize));
  uint64_t tableBytes = 0;
  multiply(count, expectedSize, tableBytes);
  if (!fits(offset, tableBytes, size))
    return truncated("the " + what + " table", offset + tableBytes);
  return Status::success();
}

Status Validator::checkSegments() {
  if (header.e_phnum == 0)
    return invalid("an ELF file without program headers");
  if (Status s = checkTable("program header", header.e_phentsize, sizeof(Phdr),
                            header.e_phnum, header.e_phoff);
      !s.ok())
    return s;
  bool load = false, dynamic = false;
  for (unsigned i = 0; i < header.e_phnum; ++i) {
    Phdr segment = read<Phdr>(header.e_phoff + uint64_t(i) * sizeof(Phdr));
    segments.push_back(segment);
    std::string what = "segment " + std::to_string(i) + " (" +
                       getSegmentTypeName(segment.p_type) + ")";
    if (segment.p_type != PT_LOAD && segment.p_type != PT_DYNAMIC)
      continue;
    if (!fits(segment.p_offset, segment.p_filesz, size))
      return segment.p_offset > UINT64_MAX - segment.p_filesz
                 ? invalid(what + " has an impossible file range")
                 : truncated(what, segment.p_offset + segment.p_filesz);
    if (segment.p_type == PT_LOAD) {
      load = true;
      if (segment.p_filesz > segment.p_memsz)
        return invalid(what + " has more file bytes (" +
                       std::to_string(segment.p_filesz) + ") than memory (" +
                       std::to_string(segment.p_memsz) + ")");
    } else {
      dynamic = true;
    }
  }
  if (!load)
    return invalid("an ELF file without loadable segments");
  if (!dynamic)
    return invalid("an ELF file without a dynamic segment (not a shared "
                   "library)");
  return Status::success();
}

Status Validator::checkSections() {
  if (header.e_shnum == 0)
    return Status::success();
  if (Status s = checkTable("section header", header.e_shentsize, sizeof(Shdr),
                            header.e_shnum, header.e_shoff);
      !s.ok())
    return s;
  if (header.e_shstrndx != SHN_UNDEF && header.e_shstrndx >= header.e_shnum)
    return invalid("section name table index " +
                   std::to_string(header.e_shstrndx) + " past the " +
                   std::to_string(header.e_shnum) + " sections");
  for (unsigned i = 0; i < header.e_shnum; ++i) {
    Shdr section = read<Shdr>(header.e_shoff + uint64_t(i) * sizeof(Shdr));
    sections.push_back(section);
    if (section.sh_type == SHT_NOBITS || section.sh_type == SHT_NULL)
      continue;
    if (!fits(section.sh_offset, section.sh_size, size))
      return section.sh_offset > UINT64_MAX - section.sh_size
                 ? invalid("section " + std::to_string(i) +
                           " has an impossible file range")
                 : truncated("section " + std::to_string(i),
                             section.sh_offset + section.sh_size);
  }
  return Status::success();
}

bool Validator::mapAddress(uint64_t address, uint64_t length,
                           uint64_t &offset) const {
  for (const Phdr &segment : segments) {
    if (segment.p_type != PT_LOAD || address < segment.p_vaddr)
      continue;
    uint64_t delta = address - segment.p_vaddr;
    if (delta > segment.p_filesz || length > segment.p_filesz - delta)
      continue;
    offset = segment.p_offset + delta;
    return fits(offset, length, size);
  }
  return false;
}

StatusOr<Manifest> Validator::readManifest() {
  const char *symbolName = "plaidml_manifest";
  for (const Shdr &table : sections) {
    if (table.sh_type != SHT_DYNSYM)
      continue;
    if (table.sh_entsize != sizeof(Sym) || table.sh_link >= sections.size())
      return invalid("a malformed dynamic symbol table");
    const Shdr &strings = sections[table.sh_link];
    if (strings.sh_type != SHT_STRTAB)
      return invalid("a dynamic symbol table without its string table");
    uint64_t count = table.sh_size / sizeof(Sym);
    for (uint64_t i = 0; i < count; ++i) {
      Sym symbol = read<Sym>(table.sh_offset + i * sizeof(Sym));
      if (symbol.st_name >= strings.sh_size)
        continue;
      const char *name = reinterpret_cast<const char *>(
          data + strings.sh_offset + symbol.st_name);
      size_t room = strings.sh_size - symbol.st_name;
      if (strnlen(name, room) != std::strlen(symbolName) ||
          std::memcmp(name, symbolName, std::strlen(symbolName)) != 0)
        continue;
      if (symbol.st_shndx == SHN_UNDEF)
        break;
      uint64_t offset = 0;
      if (symbol.st_size == 0 ||
          !mapAddress(symbol.st_value, symbol.st_size, offset))
        return Status::dataLoss("'plaidml_manifest' (" +
                                std::to_string(symbol.st_size) +
                                " bytes) lies outside the file's loaded "
                                "bytes");
      const char *text = reinterpret_cast<const char *>(data + offset);
      size_t length = strnlen(text, symbol.st_size);
      if (length == symbol.st_size)
        return invalid("'plaidml_manifest' is not null-terminated");
      StatusOr<Manifest> manifest =
          Manifest::parse(std::string_view(text, length));
      if (!manifest.ok())
        return Status::invalidArgument("bad manifest: " + manifest.message());
      return manifest;
    }
  }
  return invalid("not a PlaidML artifact: no 'plaidml_manifest' symbol");
}

StatusOr<Manifest> Validator::run() {
  if (Status s = checkHeader(); !s.ok())
    return s;
  if (Status s = checkSegments(); !s.ok())
    return s;
  if (Status s = checkSections(); !s.ok())
    return s;
  return readManifest();
}

} // namespace

StatusOr<Manifest> plaidml::rt::validateArtifact(const uint8_t *data,
                                                 size_t size) {
  if (!data && size != 0)
    return Status::invalidArgument("no bytes to validate");
  static const uint8_t empty = 0;
  return Validator(data ? data : &empty, size).run();
}
