//===- ArtifactValidationTest.cpp - Artifacts checked before dlopen -------===//
//
// validateArtifact on the bytes of a good fake artifact, and on copies of it
// that are cut short (at every 1/64th of its length and one byte short),
// have a damaged ELF header (another class, machine, type, a program header
// table past the end) or are no ELF file at all: each is an error with a
// code, never a crash. Program::load of such files says the same, with the
// file's name: before validation a truncated artifact crashed inside dlopen
// (SIGSEGV) and a damaged header gave dlopen's "cannot open shared object
// file".
//
//===----------------------------------------------------------------------===//

#include "TestUtil.h"

#include "plaidml/Runtime/ArtifactValidation.h"
#include "plaidml/Runtime/Program.h"

#include <gtest/gtest.h>

#include <cstring>
#include <elf.h>
#include <fstream>
#include <iterator>

using namespace plaidml::rt;

namespace {

std::string readBytes(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in),
                     std::istreambuf_iterator<char>());
}

StatusOr<Manifest> validate(const std::string &bytes) {
  return validateArtifact(reinterpret_cast<const uint8_t *>(bytes.data()),
                          bytes.size());
}

/// The error of Program::load of `bytes` written to a file.
Status loadBytes(const std::string &bytes, std::string &path) {
  static test::TempDir dir;
  static int counter = 0;
  path = dir.file("artifact" + std::to_string(counter++) + ".so");
  test::writeFile(path, bytes);
  return Program::load(path).status();
}

TEST(ArtifactValidation, GoodArtifact) {
  std::string bytes = readBytes(FAKE_ARTIFACT_GOOD);
  ASSERT_GT(bytes.size(), 1000u);
  StatusOr<Manifest> manifest = validate(bytes);
  ASSERT_TRUE(manifest.ok()) << manifest.message();
  EXPECT_EQ(manifest->device, "cpu");
  EXPECT_NE(manifest->findEntry("add"), nullptr);
}

TEST(ArtifactValidation, Truncated) {
  std::string bytes = readBytes(FAKE_ARTIFACT_GOOD);
  ASSERT_GT(bytes.size(), 1000u);
  std::vector<size_t> lengths = {0, 3, 16, 63, bytes.size() - 1};
  for (size_t i = 1; i < 64; ++i)
    lengths.push_back(bytes.size() * i / 64);
  for (size_t length : lengths) {
    StatusOr<Manifest> manifest = validate(bytes.substr(0, length));
    ASSERT_FALSE(manifest.ok()) << "cut at " << length;
    EXPECT_TRUE(manifest.code() == StatusCode::DataLoss ||
                manifest.code() == StatusCode::InvalidArgument)
        << manifest.status().toString();
  }
  EXPECT_EQ(validate("").message(), "not an ELF file (it is empty)");
  // The last byte is in the section header table, which is checked.
  StatusOr<Manifest> short1 = validate(bytes.substr(0, bytes.size() - 1));
  EXPECT_EQ(short1.code(), StatusCode::DataLoss);
  EXPECT_EQ(short1.message().rfind("truncated: ", 0), 0u) << short1.message();
  // Program::load: an error, not a crash in dlopen.
  std::string path;
  Status status = loadBytes(bytes.substr(0, bytes.size() / 2), path);
  EXPECT_EQ(status.code(), StatusCode::DataLoss);
  EXPECT_EQ(status.message().rfind(
                "cannot load artifact '" + path + "': truncated: ", 0),
            0u)
      << status.message();
}

TEST(ArtifactValidation, CorruptedHeader) {
  std::string bytes = readBytes(FAKE_ARTIFACT_GOOD);
  ASSERT_GT(bytes.size(), sizeof(Elf64_Ehdr));
  auto corrupt = [&](auto change) {
    std::string copy = bytes;
    Elf64_Ehdr header;
    std::memcpy(&header, copy.data(), sizeof(header));
    change(header);
    std::memcpy(copy.data(), &header, sizeof(header));
    return validate(copy);
  };
  StatusOr<Manifest> cls =
      corrupt([](Elf64_Ehdr &h) { h.e_ident[EI_CLASS] = ELFCLASS32; });
  EXPECT_EQ(cls.message(),
            "an ELF file of class ELF32, but this machine loads ELF64");
  StatusOr<Manifest> machine =
      corrupt([](Elf64_Ehdr &h) { h.e_machine = EM_PPC64; });
  EXPECT_EQ(machine.code(), StatusCode::InvalidArgument);
  EXPECT_NE(machine.message().find("an ELF file for machine 21 (ppc64), but "
                                   "this machine is "),
            std::string::npos)
      << machine.message();
  StatusOr<Manifest> type = corrupt([](Elf64_Ehdr &h) { h.e_type = ET_EXEC; });
  EXPECT_EQ(type.message(),
            "an ELF file that is not a shared library (e_type 2: an "
            "executable)");
  StatusOr<Manifest> phoff =
      corrupt([](Elf64_Ehdr &h) { h.e_phoff = 0xffffffffffff0000ull; });
  EXPECT_EQ(phoff.code(), StatusCode::DataLoss);
  EXPECT_EQ(phoff.message().rfind("truncated: the program header table", 0), 0u)
      << phoff.message();
  StatusOr<Manifest> phnum = corrupt([](Elf64_Ehdr &h) { h.e_phnum = 0xffff; });
  EXPECT_FALSE(phnum.ok());
  StatusOr<Manifest> shoff =
      corrupt([](Elf64_Ehdr &h) { h.e_shoff = 0xfffffffffffffff0ull; });
  EXPECT_EQ(shoff.code(), StatusCode::DataLoss) << shoff.message();
  StatusOr<Manifest> entsize =
      corrupt([](Elf64_Ehdr &h) { h.e_phentsize = 7; });
  EXPECT_EQ(entsize.message(),
            "program header entries of 7 bytes, expected 56");

  // Program::load names the file and the defect instead of dlopen's "cannot
  // open shared object file".
  std::string copy = bytes;
  copy[EI_CLASS] = ELFCLASS32;
  std::string path;
  Status status = loadBytes(copy, path);
  EXPECT_EQ(status.message(),
            "cannot load artifact '" + path +
                "': an ELF file of class ELF32, but this machine loads ELF64");
}

TEST(ArtifactValidation, NotAnElfFile) {
  StatusOr<Manifest> text = validate("plaidml-artifact 1\n");
  EXPECT_EQ(text.code(), StatusCode::InvalidArgument);
  EXPECT_EQ(text.message(),
            "not an ELF file (it starts with 70 6c 61 69, not 7f 45 4c 46)");
  EXPECT_EQ(validate("\x7f"
                     "EL")
                .message(),
            "not an ELF file (it starts with 7f 45 4c, not 7f 45 4c 46)");
  // An ELF header and nothing else.
  std::string header(sizeof(Elf64_Ehdr) - 1, '\0');
  std::memcpy(header.data(), ELFMAG, SELFMAG);
  EXPECT_EQ(validate(header).code(), StatusCode::DataLoss);
}

/// The manifest errors of Program::load come from validation now, before
/// dlopen, with the same words.
TEST(ArtifactValidation, ManifestErrors) {
  EXPECT_EQ(validate(readBytes(FAKE_ARTIFACT_NO_MANIFEST)).message(),
            "not a PlaidML artifact: no 'plaidml_manifest' symbol");
  EXPECT_EQ(validate(readBytes(FAKE_ARTIFACT_UNTERMINATED)).message(),
            "'plaidml_manifest' is not null-terminated");
  StatusOr<Manifest> bad = validate(readBytes(FAKE_ARTIFACT_BAD_MANIFEST));
  EXPECT_EQ(bad.code(), StatusCode::InvalidArgument);
  EXPECT_EQ(bad.message().rfind("bad manifest: line ", 0), 0u) << bad.message();
}

/// Every single-byte flip of the ELF header and the program headers is an
/// error or a valid artifact, never a crash (a small in-tree fuzz).
TEST(ArtifactValidation, ByteFlipsInHeaders) {
  std::string bytes = readBytes(FAKE_ARTIFACT_GOOD);
  Elf64_Ehdr header;
  std::memcpy(&header, bytes.data(), sizeof(header));
  size_t end = std::min<size_t>(
      bytes.size(), header.e_phoff + header.e_phnum * sizeof(Elf64_Phdr));
  for (size_t i = 0; i < end; ++i) {
    std::string copy = bytes;
    copy[i] = static_cast<char>(copy[i] ^ 0xff);
    (void)validate(copy);
  }
}

} // namespace
