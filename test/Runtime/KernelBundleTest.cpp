//===- KernelBundleTest.cpp - Kernel bundles and the format choice --------===//
//
// The kernel bundle codec (KernelBundle.h) against the layout of docs/ABI.md
// section 6: round trips, the single-format modules of older artifacts,
// every truncation and every flipped byte of a bundle (a message or a
// bundle, never a crash), each malformed field with its message; and the
// choice of a kernel format, exhaustively over the formats a module has,
// whether the device takes SPIR-V and the forced format. No device needed:
// neither PoCL nor NVIDIA's OpenCL takes SPIR-V, so the SPIR-V branch of the
// choice is tested here as a pure function.
//
//===----------------------------------------------------------------------===//

#include "plaidml/Runtime/KernelBundle.h"
#include "opencl/OpenCLDevice.h"

#include <gtest/gtest.h>

#include <cstring>
#include <vector>

using namespace plaidml::rt;

namespace {

/// A SPIR-V module of `words` words: the header, then zeros.
std::string spirvOf(size_t words) {
  std::vector<uint32_t> w(words, 0);
  w[0] = kSpirvMagic;
  w[1] = 0x00010000;
  return std::string(reinterpret_cast<const char *>(w.data()), words * 4);
}

uint32_t wordAt(const std::string &bytes, size_t offset) {
  const auto *p = reinterpret_cast<const unsigned char *>(bytes.data());
  return uint32_t(p[offset]) | uint32_t(p[offset + 1]) << 8 |
         uint32_t(p[offset + 2]) << 16 | uint32_t(p[offset + 3]) << 24;
}

void setWord(std::string &bytes, size_t offset, uint32_t value) {
  for (int i = 0; i < 4; ++i)
    bytes[offset + i] = static_cast<char>(value >> (8 * i));
}

KernelBundle both() {
  KernelBundle b;
  b.spirv = spirvOf(8);
  b.openclC = "__kernel void k(__global float *a) { a[0] = 1.0f; }\n";
  b.name = "k";
  return b;
}

std::string decodeError(const std::string &bytes) {
  StatusOr<KernelBundle> b = decodeKernelModule(bytes.data(), bytes.size());
  return b.ok() ? "(decoded)" : b.message();
}

TEST(KernelBundle, LayoutIsTheDocumentedOne) {
  KernelBundle b = both();
  b.note = "why";
  std::string bytes = encodeKernelBundle(b);
  ASSERT_EQ(bytes.substr(0, 4), std::string("\x7fPKB"));
  EXPECT_EQ(wordAt(bytes, 4), 1u); // version
  EXPECT_EQ(wordAt(bytes, 8), 4u); // entries
  size_t expected = 12 + 4 * 12;   // payloads start past the table
  uint32_t kinds[] = {1, 2, 3, 4}; // SPIR-V, OpenCL C, name, note
  std::string payloads[] = {*b.spirv, *b.openclC, b.name, b.note};
  for (int i = 0; i < 4; ++i) {
    size_t entry = 12 + 12 * i;
    EXPECT_EQ(wordAt(bytes, entry), kinds[i]);
    EXPECT_EQ(wordAt(bytes, entry + 4), expected);
    EXPECT_EQ(wordAt(bytes, entry + 8), payloads[i].size());
    EXPECT_EQ(bytes.substr(expected, payloads[i].size()), payloads[i]);
    expected += (payloads[i].size() + 3) / 4 * 4;
  }
  EXPECT_EQ(bytes.size(), expected);
}

TEST(KernelBundle, RoundTrips) {
  for (int mask = 1; mask < 16; ++mask) {
    KernelBundle b;
    if (mask & 1)
      b.spirv = spirvOf(5 + mask);
    if (mask & 2)
      b.openclC = std::string(mask, 'x');
    if (mask & 4)
      b.name = "module_" + std::to_string(mask);
    if (mask & 8)
      b.note = "no SPIR-V: " + std::to_string(mask);
    std::string bytes = encodeKernelBundle(b);
    StatusOr<KernelBundle> back =
        decodeKernelModule(bytes.data(), bytes.size());
    if (!(mask & 3)) {
      EXPECT_FALSE(back.ok()) << mask;
      continue;
    }
    ASSERT_TRUE(back.ok()) << mask << ": " << back.message();
    EXPECT_TRUE(back->isBundle);
    EXPECT_EQ(back->spirv, b.spirv);
    EXPECT_EQ(back->openclC, b.openclC);
    EXPECT_EQ(back->name, b.name);
    EXPECT_EQ(back->note, b.note);
  }
}

TEST(KernelBundle, SingleFormatModules) {
  // OpenCL C text as plaidml-gpu-module-to-opencl-c embeds it: NUL-ended.
  const char text[] = "__kernel void k() {}\n";
  StatusOr<KernelBundle> c = decodeKernelModule(text, sizeof(text));
  ASSERT_TRUE(c.ok()) << c.message();
  EXPECT_FALSE(c->isBundle);
  EXPECT_EQ(c->openclC, std::string(text));
  EXPECT_FALSE(c->spirv);
  // SPIR-V, recognized by its magic number.
  std::string spirv = spirvOf(6);
  StatusOr<KernelBundle> s = decodeKernelModule(spirv.data(), spirv.size());
  ASSERT_TRUE(s.ok()) << s.message();
  EXPECT_EQ(s->spirv, spirv);
  EXPECT_FALSE(s->openclC);

  EXPECT_EQ(decodeError(""), "empty kernel module");
  EXPECT_EQ(decodeError(std::string("\0abc", 4)),
            "kernel module of 4 bytes holds no OpenCL C text (it starts with "
            "a NUL)");
  EXPECT_EQ(decodeError("\x7fPK"),
            "kernel module of 3 bytes starts with 0x7F but not with the "
            "kernel bundle magic 0x7F 'PKB'");
  EXPECT_EQ(decodeError(spirvOf(6).substr(0, 22)),
            "kernel module is not SPIR-V: 22 bytes, not a multiple of 4");
  EXPECT_EQ(decodeError(spirvOf(6).substr(0, 16)),
            "kernel module is not SPIR-V: 16 bytes, less than a SPIR-V header "
            "(20)");
}

TEST(KernelBundle, EveryTruncationIsAMessage) {
  std::string bytes = encodeKernelBundle(both());
  // The last payload (the name) is padded; only its padding may go.
  size_t end = bytes.size() - 3;
  for (size_t n = 0; n < end; ++n) {
    StatusOr<KernelBundle> b = decodeKernelModule(bytes.data(), n);
    EXPECT_FALSE(b.ok()) << "prefix of " << n << " bytes decoded";
  }
  EXPECT_EQ(decodeError(bytes.substr(0, 11)),
            "kernel bundle of 11 bytes: truncated: the header alone is 12 "
            "bytes");
  EXPECT_EQ(decodeError(bytes.substr(0, 40)),
            "kernel bundle of 40 bytes: truncated: its 3 entries need a header "
            "of 48 bytes");
  EXPECT_EQ(decodeError(bytes.substr(0, 60)),
            "kernel bundle of 60 bytes: truncated: entry 0 (SPIR-V, 32 bytes "
            "at 48) ends past the end");
}

TEST(KernelBundle, EveryFlippedByteIsABundleOrAMessage) {
  std::string bytes = encodeKernelBundle(both());
  for (size_t i = 0; i < bytes.size(); ++i)
    for (unsigned char flip : {0x01, 0x80, 0xff}) {
      std::string bad = bytes;
      bad[i] = static_cast<char>(bad[i] ^ flip);
      StatusOr<KernelBundle> b = decodeKernelModule(bad.data(), bad.size());
      if (!b.ok())
        EXPECT_FALSE(b.message().empty());
    }
}

TEST(KernelBundle, MalformedFields) {
  const std::string good = encodeKernelBundle(both());
  auto with = [&](size_t offset, uint32_t value) {
    std::string bytes = good;
    setWord(bytes, offset, value);
    return decodeError(bytes);
  };
  std::string size = std::to_string(good.size());
  std::string prefix = "kernel bundle of " + size + " bytes: ";
  EXPECT_EQ(with(4, 2), prefix + "version 2 is not supported (this runtime "
                                 "reads version 1)");
  EXPECT_EQ(with(8, 0xffffffff),
            prefix + "truncated: its 4294967295 entries need a header of "
                     "51539607552 bytes");
  // Entry 1 (OpenCL C) at the table, at an odd offset, past the end.
  EXPECT_EQ(with(12 + 12 + 4, 12),
            prefix + "entry 1 (OpenCL C, 52 bytes at 12) does not start at a "
                     "multiple of 4 past the 48-byte header");
  EXPECT_EQ(with(12 + 12 + 4, 81),
            prefix + "entry 1 (OpenCL C, 52 bytes at 81) does not start at a "
                     "multiple of 4 past the 48-byte header");
  EXPECT_EQ(with(12 + 12 + 8, 0xfffffff0),
            prefix + "truncated: entry 1 (OpenCL C, 4294967280 bytes at 80) "
                     "ends past the end");
  // Two SPIR-V entries; a SPIR-V entry that is not SPIR-V.
  EXPECT_EQ(with(12 + 12, 1),
            prefix + "entry 1 (SPIR-V, 52 bytes at 80) repeats an entry of "
                     "that kind");
  EXPECT_EQ(with(48, 0x12345678),
            prefix + "entry 0 (SPIR-V, 32 bytes at 48) is not SPIR-V: no "
                     "SPIR-V magic number");
  EXPECT_EQ(with(12 + 8, 30),
            prefix + "entry 0 (SPIR-V, 30 bytes at 48) is not SPIR-V: 30 "
                     "bytes, not a multiple of 4");
  // OpenCL C with a NUL inside, and empty.
  std::string nul = good;
  nul[80 + 5] = '\0';
  EXPECT_EQ(decodeError(nul),
            prefix +
                "entry 1 (OpenCL C, 52 bytes at 80) holds a NUL at byte 5");
  EXPECT_EQ(with(12 + 12 + 8, 0),
            prefix + "entry 1 (OpenCL C, 0 bytes at 80) is empty");
  // Unknown kinds are a later compiler's business: skipped.
  std::string unknown = good;
  setWord(unknown, 12 + 24, 99); // the name entry
  StatusOr<KernelBundle> b = decodeKernelModule(unknown.data(), unknown.size());
  ASSERT_TRUE(b.ok()) << b.message();
  EXPECT_EQ(b->name, "");
  EXPECT_TRUE(b->spirv && b->openclC);
  // Neither format: with the note that says why.
  KernelBundle none;
  none.name = "k";
  none.note = "no SPIR-V: boom";
  std::string empty = encodeKernelBundle(none);
  EXPECT_EQ(decodeError(empty), "kernel bundle of " +
                                    std::to_string(empty.size()) +
                                    " bytes: neither SPIR-V nor OpenCL C (no "
                                    "SPIR-V: boom)");
}

TEST(KernelFormat, Preferences) {
  for (const char *value : {"", "auto"}) {
    StatusOr<KernelFormatPreference> p =
        KernelFormatPreference::parse(value, "VAR");
    ASSERT_TRUE(p.ok());
    EXPECT_EQ(p->kind, KernelFormatPreference::Auto);
    EXPECT_EQ(p->origin, "");
  }
  StatusOr<KernelFormatPreference> s =
      KernelFormatPreference::parse("spirv", "VAR");
  ASSERT_TRUE(s.ok());
  EXPECT_EQ(s->kind, KernelFormatPreference::SPIRV);
  EXPECT_EQ(s->origin, "VAR=spirv");
  StatusOr<KernelFormatPreference> c =
      KernelFormatPreference::parse("opencl-c", "VAR");
  ASSERT_TRUE(c.ok());
  EXPECT_EQ(c->kind, KernelFormatPreference::OpenCLC);
  StatusOr<KernelFormatPreference> bad =
      KernelFormatPreference::parse("SPIRV", "PLAIDML_OPENCL_KERNEL_FORMAT");
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.message(), "PLAIDML_OPENCL_KERNEL_FORMAT=SPIRV is not a kernel "
                           "format (expected auto, spirv or opencl-c)");
}

TEST(KernelFormat, DeviceTakesSpirv) {
  struct Case {
    const char *ilVersions;
    bool extension, takes;
  } cases[] = {
      {"", false, false},          {"", true, true},
      {"SPIR-V_1.0", false, true}, {"SPIR-V_1.2 SPIR-V_1.3", false, true},
      {"SPIR-V_1.0", true, true},  {"OtherIL_1.0", false, false},
  };
  for (const Case &c : cases) {
    OpenCLDeviceInfo info;
    info.ilVersions = c.ilVersions;
    if (c.extension)
      info.extensions = {"cl_khr_fp64", "cl_khr_il_program"};
    EXPECT_EQ(info.takesSpirv(), c.takes)
        << "'" << c.ilVersions << "' " << c.extension;
  }
}

/// Every combination of the formats a module has, the device's SPIR-V
/// support and the preference, against the rule: a forced format when the
/// module has it and the device builds it; else SPIR-V when both sides have
/// it; else OpenCL C when the module has it; else an error.
TEST(KernelFormat, ChoiceIsExhaustive) {
  const std::string dev = "opencl:3 (Fake GPU)";
  const std::string why = " takes no SPIR-V (no SPIR-V in its "
                          "CL_DEVICE_IL_VERSION, no cl_khr_il_program)";
  const std::string noIL = dev + why;
  int cases = 0;
  for (int formats = 1; formats < 4; ++formats)
    for (bool takes : {false, true})
      for (int kind = 0; kind < 3; ++kind)
        for (bool noted : {false, true}) {
          ++cases;
          KernelBundle m;
          m.name = "k";
          if (formats & 1)
            m.spirv = spirvOf(5);
          if (formats & 2)
            m.openclC = "__kernel void k() {}";
          if (noted)
            m.note = formats == 1 ? "no OpenCL C: why" : "no SPIR-V: why";
          KernelFormatPreference pref;
          pref.kind = static_cast<KernelFormatPreference::Kind>(kind);
          if (kind != KernelFormatPreference::Auto)
            pref.origin = kind == KernelFormatPreference::SPIRV
                              ? "VAR=spirv"
                              : "VAR=opencl-c";
          StatusOr<KernelFormatChoice> got =
              chooseOpenCLKernelFormat(m, dev, takes, pref);
          std::string what = "formats " + std::to_string(formats) + " takes " +
                             std::to_string(takes) + " kind " +
                             std::to_string(kind) + " noted " +
                             std::to_string(noted);
          std::string note = noted ? " (" + m.note + ")" : "";
          bool hasSpirv = formats & 1, hasC = formats & 2;

          if (kind == KernelFormatPreference::SPIRV) {
            if (!hasSpirv) {
              ASSERT_FALSE(got.ok()) << what;
              EXPECT_EQ(got.message(), "VAR=spirv asks for SPIR-V, but kernel "
                                       "module 'k' has none" +
                                           note)
                  << what;
            } else if (!takes) {
              ASSERT_FALSE(got.ok()) << what;
              EXPECT_EQ(got.message(), "VAR=spirv asks for SPIR-V, but " + noIL)
                  << what;
            } else {
              ASSERT_TRUE(got.ok()) << what << ": " << got.message();
              EXPECT_EQ(got->format, KernelFormat::SPIRV) << what;
              EXPECT_EQ(got->reason, "forced by VAR=spirv") << what;
            }
          } else if (kind == KernelFormatPreference::OpenCLC) {
            if (!hasC) {
              ASSERT_FALSE(got.ok()) << what;
              EXPECT_EQ(got.message(), "VAR=opencl-c asks for OpenCL C, but "
                                       "kernel module 'k' has none" +
                                           note)
                  << what;
            } else {
              // Every OpenCL device builds OpenCL C.
              ASSERT_TRUE(got.ok()) << what << ": " << got.message();
              EXPECT_EQ(got->format, KernelFormat::OpenCLC) << what;
              EXPECT_EQ(got->reason, "forced by VAR=opencl-c") << what;
            }
          } else if (hasSpirv && takes) {
            ASSERT_TRUE(got.ok()) << what << ": " << got.message();
            EXPECT_EQ(got->format, KernelFormat::SPIRV) << what;
            EXPECT_EQ(got->reason,
                      std::string("the device takes SPIR-V") +
                          (hasC ? "; the module has OpenCL C too" : ""))
                << what;
          } else if (hasC) {
            ASSERT_TRUE(got.ok()) << what << ": " << got.message();
            EXPECT_EQ(got->format, KernelFormat::OpenCLC) << what;
            EXPECT_EQ(got->reason, hasSpirv ? "the device" + why +
                                                  "; the module has SPIR-V too"
                                   : noted  ? m.note
                                            : "the module has no SPIR-V")
                << what;
          } else {
            ASSERT_FALSE(got.ok()) << what;
            EXPECT_EQ(got.message(), "kernel module 'k' has only SPIR-V" +
                                         note + ", but " + noIL)
                << what;
          }
        }
  EXPECT_EQ(cases, 3 * 2 * 3 * 2);
}

TEST(KernelFormat, UnnamedModules) {
  KernelBundle m;
  m.spirv = spirvOf(5);
  KernelFormatPreference pref;
  StatusOr<KernelFormatChoice> got =
      chooseOpenCLKernelFormat(m, "opencl:0 (x)", false, pref);
  ASSERT_FALSE(got.ok());
  EXPECT_EQ(got.message().rfind("the kernel module has only SPIR-V, but "
                                "opencl:0 (x) takes no SPIR-V",
                                0),
            0u)
      << got.message();
}

} // namespace
