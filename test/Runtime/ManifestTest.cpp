//===- ManifestTest.cpp - Tests of the artifact manifest parser -----------===//
//
// The manifest (docs/ABI.md section 3) parsed into header fields and entry
// points, and every kind of malformed manifest refused with the line number
// and what is wrong: version, unknown lines, field counts, shapes, order and
// duplicates, a missing `end`.
//
//===----------------------------------------------------------------------===//

#include "plaidml/Runtime/Manifest.h"

#include <gtest/gtest.h>

using namespace plaidml::rt;

namespace {
const char *kGood = "plaidml-artifact 1\n"
                    "compiler 0.1.0\n"
                    "device cpu\n"
                    "triple x86_64-unknown-linux-gnu\n"
                    "cpu skylake-avx512\n"
                    "features +avx,+avx2,-avx512f\n"
                    "entry f _plaidml_entry_f\n"
                    "input arg0 2x3xsi32\n"
                    "input arg1 3xf32\n"
                    "output result0 2x3xf32\n"
                    "output result1 i1\n"
                    "entry g _plaidml_entry_g\n"
                    "output result0 0x4xbf16\n"
                    "end\n";

/// The error of parsing `text`, which must fail.
std::string parseError(const std::string &text) {
  StatusOr<Manifest> manifest = Manifest::parse(text);
  EXPECT_FALSE(manifest.ok()) << text;
  return manifest.ok() ? "" : manifest.message();
}

/// kGood with line `n` (1-based) replaced by `line` (or removed if empty).
std::string withLine(unsigned n, const std::string &line) {
  std::string text = kGood, result;
  size_t pos = 0;
  for (unsigned i = 1; pos < text.size(); ++i) {
    size_t eol = text.find('\n', pos);
    std::string current = text.substr(pos, eol - pos + 1);
    pos = eol + 1;
    if (i != n)
      result += current;
    else if (!line.empty())
      result += line + "\n";
  }
  return result;
}
} // namespace

TEST(Manifest, ParsesTheAbiExample) {
  StatusOr<Manifest> m = Manifest::parse(kGood);
  ASSERT_TRUE(m.ok()) << m.message();
  EXPECT_EQ(m->version, 1);
  EXPECT_EQ(m->compiler, "0.1.0");
  EXPECT_EQ(m->device, "cpu");
  EXPECT_EQ(m->triple, "x86_64-unknown-linux-gnu");
  EXPECT_EQ(m->getArch(), "x86_64");
  EXPECT_EQ(m->cpu, "skylake-avx512");
  EXPECT_EQ(m->features,
            (std::vector<std::string>{"+avx", "+avx2", "-avx512f"}));
  ASSERT_EQ(m->entries.size(), 2u);
  const EntrySpec &f = m->entries[0];
  EXPECT_EQ(f.name, "f");
  EXPECT_EQ(f.symbol, "_plaidml_entry_f");
  ASSERT_EQ(f.inputs.size(), 2u);
  EXPECT_EQ(f.inputs[0].name, "arg0");
  EXPECT_EQ(f.inputs[0].dtype, DType::si32);
  EXPECT_EQ(f.inputs[0].shape, (std::vector<int64_t>{2, 3}));
  EXPECT_EQ(f.inputs[0].getByteSize(), 24u);
  EXPECT_EQ(f.inputs[1].describe(), "3xf32");
  ASSERT_EQ(f.outputs.size(), 2u);
  EXPECT_EQ(f.outputs[1].describe(), "i1");
  EXPECT_TRUE(f.outputs[1].shape.empty());
  EXPECT_EQ(f.outputs[1].getByteSize(), 1u);
  const EntrySpec *g = m->findEntry("g");
  ASSERT_NE(g, nullptr);
  EXPECT_TRUE(g->inputs.empty());
  EXPECT_EQ(g->outputs[0].getByteSize(), 0u);
  EXPECT_EQ(m->findEntry("h"), nullptr);
}

TEST(Manifest, MinimalAndOptionalLines) {
  StatusOr<Manifest> m = Manifest::parse("plaidml-artifact 1\n"
                                         "device vulkan\n"
                                         "features\n"
                                         "entry f f\n"
                                         "input a i32\n"
                                         "end");
  ASSERT_TRUE(m.ok()) << m.message();
  EXPECT_EQ(m->device, "vulkan");
  EXPECT_TRUE(m->features.empty());
  EXPECT_TRUE(m->triple.empty());
  // Signless integers read as signed.
  EXPECT_EQ(m->entries[0].inputs[0].dtype, DType::si32);
}

TEST(Manifest, VersionErrors) {
  EXPECT_EQ(parseError(""), "line 1: empty manifest");
  EXPECT_EQ(parseError(withLine(1, "plaidml-artifact 2")),
            "line 1: artifact format version 2 is not supported (this "
            "runtime reads version 1)");
  EXPECT_EQ(parseError(withLine(1, "plaidml-artifact one")),
            "line 1: bad format version 'one'");
  EXPECT_EQ(parseError(withLine(1, "\x7f"
                                   "ELF")),
            "line 1: expected 'plaidml-artifact <version>', got '\x7f"
            "ELF'");
}

TEST(Manifest, LineErrors) {
  EXPECT_EQ(parseError(withLine(3, "devcie cpu")),
            "line 3: unknown line 'devcie cpu'");
  EXPECT_EQ(parseError(withLine(3, "device tpu")),
            "line 3: unknown device kind 'tpu' (expected cpu, vulkan or "
            "opencl)");
  EXPECT_EQ(parseError(withLine(3, "device  cpu")),
            "line 3: empty field in 'device  cpu' (fields are separated by "
            "single spaces)");
  EXPECT_EQ(parseError(withLine(3, "device cpu ")),
            "line 3: empty field in 'device cpu ' (fields are separated by "
            "single spaces)");
  EXPECT_EQ(parseError(withLine(3, "device cpu gpu")),
            "line 3: 'device' takes one field, got 2 field(s) in 'device cpu "
            "gpu'");
  EXPECT_EQ(parseError(withLine(6, "features avx,+avx2")),
            "line 6: bad CPU feature 'avx' (expected '+name' or '-name')");
  EXPECT_EQ(parseError(withLine(6, "features +avx,,+avx2")),
            "line 6: bad CPU feature '' (expected '+name' or '-name')");
  EXPECT_EQ(parseError(withLine(8, "input arg0 2x3xint32")),
            "line 8: input 'arg0': bad shape '2x3xint32' (expected dimensions "
            "and an element type like 2x3xf32; types are i1, si8..si64, "
            "ui8..ui64, f16, bf16, f32, f64)");
  EXPECT_EQ(parseError(withLine(8, "input arg0 2xax3xf32")),
            "line 8: input 'arg0': cannot parse '2xax3xf32': expected "
            "dimensions and an element type, like 2x3xf32");
  EXPECT_EQ(parseError(withLine(8, "input arg0")),
            "line 8: 'input' takes a name and a shape like 2x3xf32, got 1 "
            "field(s) in 'input arg0'");
  EXPECT_EQ(parseError(withLine(7, "entry f 1bad")),
            "line 7: bad symbol name '1bad'");
  EXPECT_EQ(parseError(withLine(6, "requires Shader,,Int64")),
            "line 6: bad device requirement ''");
  EXPECT_EQ(parseError(withLine(6, "requires Shader,sub group")),
            "line 6: 'requires' takes one comma-separated list");
  EXPECT_EQ(parseError(withLine(6, "requires Shader,a.b")),
            "line 6: bad device requirement 'a.b'");
}

TEST(Manifest, Requirements) {
  // SPIR-V names and device properties (with '-').
  StatusOr<Manifest> m = Manifest::parse(
      withLine(6, "requires CooperativeMatrixKHR,coopmat-16x16x16-f16-f32,"
                  "subgroup-size-32"));
  ASSERT_TRUE(m.ok()) << m.message();
  EXPECT_EQ(m->requirements,
            (std::vector<std::string>{"CooperativeMatrixKHR",
                                      "coopmat-16x16x16-f16-f32",
                                      "subgroup-size-32"}));
}

TEST(Manifest, Workspace) {
  const std::string head = "plaidml-artifact 1\ndevice cpu\n";
  StatusOr<Manifest> m = Manifest::parse(
      head + "entry f f\nworkspace 4096\ninput a f32\nentry g g\nend\n");
  ASSERT_TRUE(m.ok()) << m.message();
  EXPECT_EQ(m->entries[0].workspaceBytes, 4096u);
  EXPECT_EQ(m->entries[1].workspaceBytes, 0u);
  EXPECT_EQ(parseError(head + "workspace 64\nentry f f\nend\n"),
            "line 3: 'workspace' before any 'entry'");
  EXPECT_EQ(parseError(head + "entry f f\ninput a f32\nworkspace 64\nend\n"),
            "line 5: 'workspace' of entry 'f' must come once, right after its "
            "'entry' line");
  EXPECT_EQ(parseError(head + "entry f f\nworkspace 64\nworkspace 64\nend\n"),
            "line 5: 'workspace' of entry 'f' must come once, right after its "
            "'entry' line");
  for (const char *bad :
       {"0", "-1", "1k", "9223372036854775808", "99999999999999999999999"})
    EXPECT_EQ(parseError(head + "entry f f\nworkspace " + bad + "\nend\n"),
              std::string("line 4: bad workspace size '") + bad +
                  "' (a positive number of bytes below 2^63)");
  EXPECT_EQ(parseError(head + "entry f f\nworkspace\nend\n"),
            "line 4: 'workspace' takes a number of bytes, got 0 field(s) in "
            "'workspace'");
  EXPECT_EQ(parseError("plaidml-artifact 1\ndevice vulkan\nentry f f\n"
                       "workspace 64\nend\n"),
            "entry 'f' has a workspace, which only artifacts for the cpu "
            "device take");
}

TEST(Manifest, Preparation) {
  const std::string head = "plaidml-artifact 1\ndevice cpu\n";
  StatusOr<Manifest> m = Manifest::parse(
      head + "entry f f\nworkspace 64\nprepare p 4096\ninput a f32\n"
             "input w 3xf32 param\noutput r f32\nentry g g\nend\n");
  ASSERT_TRUE(m.ok()) << m.message();
  EXPECT_EQ(m->entries[0].prepareSymbol, "p");
  EXPECT_EQ(m->entries[0].preparedBytes, 4096u);
  EXPECT_FALSE(m->entries[0].inputs[0].param);
  EXPECT_TRUE(m->entries[0].inputs[1].param);
  EXPECT_EQ(m->entries[0].inputs[1].describe(), "3xf32");
  EXPECT_EQ(m->entries[1].prepareSymbol, "");
  EXPECT_EQ(m->entries[1].preparedBytes, 0u);
  EXPECT_EQ(parseError(head + "prepare p 64\nentry f f\nend\n"),
            "line 3: 'prepare' before any 'entry'");
  EXPECT_EQ(parseError(head + "entry f f\ninput a f32\nprepare p 64\nend\n"),
            "line 5: 'prepare' of entry 'f' must come once, before its inputs");
  EXPECT_EQ(parseError(head + "entry f f\nprepare p 64\nworkspace 64\nend\n"),
            "line 5: 'workspace' of entry 'f' must come once, right after its "
            "'entry' line");
  EXPECT_EQ(parseError(head + "entry f f\nprepare p 0\nend\n"),
            "line 4: bad prepared size '0' (a positive number of bytes below "
            "2^63)");
  EXPECT_EQ(parseError(head + "entry f f\nprepare 9p 64\nend\n"),
            "line 4: bad symbol name '9p'");
  EXPECT_EQ(parseError(head + "entry f f\nprepare p\nend\n"),
            "line 4: 'prepare' takes a symbol and a number of bytes, got 1 "
            "field(s) in 'prepare p'");
  EXPECT_EQ(parseError(head + "entry f f\ninput w f32 param\nend\n"),
            "line 4: input 'w' is marked 'param', but entry 'f' has no "
            "'prepare' line");
  EXPECT_EQ(parseError(head + "entry f f\nprepare p 64\ninput w f32 weight\n"
                              "end\n"),
            "line 5: 'input' takes a name and a shape like 2x3xf32, got 3 "
            "field(s) in 'input w f32 weight'");
  EXPECT_EQ(parseError("plaidml-artifact 1\ndevice vulkan\nentry f f\n"
                       "prepare p 64\nend\n"),
            "entry 'f' has a preparation, which only artifacts for the cpu "
            "device have");
}

TEST(Manifest, StructureErrors) {
  const std::string head = "plaidml-artifact 1\ndevice cpu\n";
  EXPECT_EQ(parseError(head + "entry f f\noutput r f32\ninput a f32\nend\n"),
            "line 5: input 'a' after the outputs of entry 'f' (inputs come "
            "first)");
  EXPECT_EQ(parseError(head + "input a f32\nend\n"),
            "line 3: 'input' before any 'entry'");
  EXPECT_EQ(parseError(head + "entry f f\ndevice cpu\nend\n"),
            "line 4: 'device' must come before the first 'entry'");
  EXPECT_EQ(parseError("plaidml-artifact 1\ndevice cpu\ncpu a\ncpu b\n"
                       "entry f f\nend\n"),
            "line 4: duplicate 'cpu' line (first on line 3)");
  EXPECT_EQ(parseError(head + "entry f f\nentry f g\nend\n"),
            "line 4: duplicate entry 'f'");
  EXPECT_EQ(parseError(head + "entry f f\ninput a f32\noutput a f32\nend\n"),
            "line 5: duplicate name 'a' in entry 'f' (first on line 4)");
  EXPECT_EQ(parseError(head + "entry f f\n\nend\n"), "line 4: empty line");
  EXPECT_EQ(parseError(head + "entry f f\nend\nentry g g\n"),
            "line 5: text after 'end'");
  EXPECT_EQ(parseError(head + "entry f f\nend\n\n"),
            "line 5: text after 'end'");
  EXPECT_EQ(parseError(head + "entry f f\nend x\n"),
            "line 4: 'end' takes no fields, got 1 field(s) in 'end x'");
  EXPECT_EQ(parseError(head + "entry f f\ninput a f32\n"),
            "line 4: manifest ends without 'end' (truncated?)");
  EXPECT_EQ(parseError("plaidml-artifact 1\nentry f f\nend\n"),
            "manifest has no 'device' line");
  EXPECT_EQ(parseError(head + "end\n"), "manifest declares no entry point");
  EXPECT_EQ(parseError(head + "entry f f\r\nend\n"),
            "line 3: bad symbol name 'f\r'");
}
