//===- ProgramTest.cpp - Tests of loading and running artifacts -----------===//
//
// Loads the hand-written artifacts built from Inputs/fake_artifact.c: the
// good one runs with exact results (adds, counts, checks buffer alignment);
// the broken ones, a missing file, a text file and a directory are refused
// with messages naming the file and what is wrong. Also input checking
// (count, shape, element type), entry lookup, and the prepare/execute split
// that timing loops use.
//
//===----------------------------------------------------------------------===//

#include "TestUtil.h"

#include "plaidml/Runtime/Program.h"

#include <gtest/gtest.h>

using namespace plaidml::rt;
using namespace plaidml::rt::test;

namespace {
std::unique_ptr<Program> loadGood() {
  StatusOr<std::unique_ptr<Program>> program =
      Program::load(FAKE_ARTIFACT_GOOD);
  EXPECT_TRUE(program.ok()) << program.message();
  return program.ok() ? std::move(*program) : nullptr;
}

std::string loadError(const std::string &path,
                      const LoadOptions &options = {}) {
  StatusOr<std::unique_ptr<Program>> program = Program::load(path, options);
  EXPECT_FALSE(program.ok()) << path;
  return program.ok() ? "" : program.message();
}

HostArray scalarSi8(int8_t v) {
  HostArray array;
  array.dtype = DType::si8;
  array.bytes = {static_cast<uint8_t>(v)};
  return array;
}
} // namespace

TEST(Program, LoadsManifest) {
  std::unique_ptr<Program> program = loadGood();
  ASSERT_TRUE(program);
  EXPECT_EQ(program->getPath(), FAKE_ARTIFACT_GOOD);
  const Manifest &m = program->getManifest();
  EXPECT_EQ(m.compiler, "0.1.0");
  ASSERT_EQ(m.entries.size(), 3u);
  EXPECT_EQ(m.entries[0].name, "add");
}

TEST(Program, RunsAdd) {
  std::unique_ptr<Program> program = loadGood();
  ASSERT_TRUE(program);
  HostArray a = makeF32({2, 3}, {1, 2, 3, 4, 5, 6});
  HostArray b = makeF32({2, 3}, {0.5f, -2, 10, 0.25f, -5, 100});
  StatusOr<std::vector<HostArray>> outputs = program->run("add", {a, b});
  ASSERT_TRUE(outputs.ok()) << outputs.message();
  ASSERT_EQ(outputs->size(), 1u);
  const HostArray &sum = (*outputs)[0];
  EXPECT_EQ(sum.describe(), "2x3xf32");
  EXPECT_EQ(toF32(sum), (std::vector<float>{1.5f, 0, 13, 4.25f, 0, 106}));
}

TEST(Program, RunsScalarAndBoolOutputs) {
  std::unique_ptr<Program> program = loadGood();
  ASSERT_TRUE(program);
  StatusOr<std::vector<HostArray>> outputs =
      program->run("stats", {makeF32({4}, {1, -1, 0, 3})});
  ASSERT_TRUE(outputs.ok()) << outputs.message();
  ASSERT_EQ(outputs->size(), 2u);
  EXPECT_EQ((*outputs)[0].describe(), "si64");
  EXPECT_EQ(getElementAsDouble((*outputs)[0], 0), 2);
  EXPECT_EQ((*outputs)[1].describe(), "4xi1");
  EXPECT_EQ((*outputs)[1].bytes, (std::vector<uint8_t>{1, 0, 0, 1}));
}

TEST(Program, BuffersAreAligned) {
  std::unique_ptr<Program> program = loadGood();
  ASSERT_TRUE(program);
  StatusOr<std::vector<HostArray>> outputs =
      program->run("aligned", {makeF32({3}, {1, 2, 3}), scalarSi8(-7)});
  ASSERT_TRUE(outputs.ok()) << outputs.message();
  EXPECT_EQ((*outputs)[0].bytes, (std::vector<uint8_t>{1}));
  // The empty output has its shape and no data.
  EXPECT_EQ((*outputs)[1].describe(), "0x5xf64");
  EXPECT_TRUE((*outputs)[1].bytes.empty());
}

TEST(Program, PrepareThenExecute) {
  std::unique_ptr<Program> program = loadGood();
  ASSERT_TRUE(program);
  HostArray a = makeF32({2, 3}, {1, 1, 1, 1, 1, 1});
  StatusOr<Invocation> inv = program->prepare("add", {a, a});
  ASSERT_TRUE(inv.ok()) << inv.message();
  // The Invocation keeps the artifact loaded.
  program.reset();
  for (int i = 0; i < 3; ++i)
    ASSERT_TRUE(inv->execute().ok());
  EXPECT_EQ(toF32(*inv->getOutput(0)), std::vector<float>(6, 2));
  ASSERT_EQ(inv->getBuffers().size(), 3u);
  for (const std::unique_ptr<Buffer> &buffer : inv->getBuffers())
    EXPECT_EQ(reinterpret_cast<uintptr_t>(buffer->getBinding()) %
                  kBufferAlignment,
              0u);

  ASSERT_TRUE(inv->setInput(1, makeF32({2, 3}, {0, 1, 2, 3, 4, 5})).ok());
  ASSERT_TRUE(inv->execute().ok());
  EXPECT_EQ(toF32((*inv->getOutputs())[0]),
            (std::vector<float>{1, 2, 3, 4, 5, 6}));

  Status s = inv->setInput(0, makeF32({3, 2}, {0, 0, 0, 0, 0, 0}));
  EXPECT_EQ(s.message(), "input 'a' must be 2x3xf32, got 3x2xf32");
  EXPECT_EQ(inv->setInput(2, a).message(),
            "entry 'add' has no input #2 (it takes 2)");
}

TEST(Program, InputErrors) {
  std::unique_ptr<Program> program = loadGood();
  ASSERT_TRUE(program);
  HostArray a = makeF32({2, 3}, {1, 2, 3, 4, 5, 6});

  auto runError = [&](std::string_view entry,
                      const std::vector<HostArray> &inputs) {
    StatusOr<std::vector<HostArray>> outputs = program->run(entry, inputs);
    EXPECT_FALSE(outputs.ok());
    return outputs.ok() ? "" : outputs.message();
  };
  EXPECT_EQ(runError("add", {a}), "entry 'add' takes 2 inputs, got 1");
  EXPECT_EQ(runError("add", {a, a, a}), "entry 'add' takes 2 inputs, got 3");
  EXPECT_EQ(runError("stats", {}), "entry 'stats' takes 1 input, got 0");
  EXPECT_EQ(runError("add", {a, makeF32({3, 3}, std::vector<float>(9))}),
            "input 'b' must be 2x3xf32, got 3x3xf32");
  HostArray ints = a;
  ints.dtype = DType::si32;
  EXPECT_EQ(runError("add", {ints, a}),
            "input 'a' must be 2x3xf32, got 2x3xsi32");
  HostArray scalar = makeF32({}, {1});
  EXPECT_EQ(runError("add", {a, scalar}), "input 'b' must be 2x3xf32, got f32");
  HostArray shortData = a;
  shortData.bytes.resize(20);
  EXPECT_EQ(runError("add", {a, shortData}),
            "input 'b' (2x3xf32) needs 24 bytes of data, got 20");
  EXPECT_EQ(runError("mul", {a, a}),
            "artifact '" FAKE_ARTIFACT_GOOD
            "' has no entry point 'mul' (it has: add, stats, aligned)");
  EXPECT_EQ(runError("", {a, a}),
            "artifact '" FAKE_ARTIFACT_GOOD
            "' has 3 entry points (add, stats, aligned); name one");
}

TEST(Program, LoadErrorsForFiles) {
  TempDir dir;
  EXPECT_EQ(loadError(dir.file("missing.so")),
            "cannot load artifact '" + dir.file("missing.so") +
                "': No such file or directory");
  EXPECT_EQ(loadError(dir.path()),
            "cannot load artifact '" + dir.path() + "': it is a directory");
  writeFile(dir.file("text.so"), "this is not a shared library\n");
  // Validation's reason, before dlopen (ArtifactValidationTest.cpp).
  EXPECT_EQ(loadError(dir.file("text.so")),
            "cannot load artifact '" + dir.file("text.so") +
                "': not an ELF file (it starts with 74 68 69 73, not 7f 45 "
                "4c 46)");
  std::string longer(4096, 'x');
  writeFile(dir.file("long.so"), longer);
  EXPECT_EQ(loadError(dir.file("long.so")),
            "cannot load artifact '" + dir.file("long.so") +
                "': not an ELF file (it starts with 78 78 78 78, not 7f 45 "
                "4c 46)");
}

TEST(Program, LoadErrorsForArtifacts) {
  EXPECT_EQ(loadError(FAKE_ARTIFACT_NO_MANIFEST),
            std::string("cannot load artifact '") + FAKE_ARTIFACT_NO_MANIFEST +
                "': not a PlaidML artifact: no 'plaidml_manifest' symbol");

  EXPECT_EQ(loadError(FAKE_ARTIFACT_BAD_VERSION),
            std::string("cannot load artifact '") + FAKE_ARTIFACT_BAD_VERSION +
                "': bad manifest: line 1: artifact format version 2 is not "
                "supported (this runtime reads version 1)");

  EXPECT_EQ(loadError(FAKE_ARTIFACT_BAD_MANIFEST),
            std::string("cannot load artifact '") + FAKE_ARTIFACT_BAD_MANIFEST +
                "': bad manifest: line 4: input 'a': bad shape '2x3xfloat' "
                "(expected dimensions and an element type like 2x3xf32; "
                "types are i1, si8..si64, ui8..ui64, f16, bf16, f32, f64)");

  EXPECT_EQ(loadError(FAKE_ARTIFACT_UNTERMINATED),
            std::string("cannot load artifact '") + FAKE_ARTIFACT_UNTERMINATED +
                "': 'plaidml_manifest' is not null-terminated");

  EXPECT_EQ(loadError(FAKE_ARTIFACT_NEEDS_MISSING_LIBRARY),
            std::string("cannot load artifact '") +
                FAKE_ARTIFACT_NEEDS_MISSING_LIBRARY +
                "': it needs libplaidml_fake_dependency.so, which the "
                "dynamic loader cannot find (not in the artifact's runpath, "
                "LD_LIBRARY_PATH or the system library directories)");

  EXPECT_EQ(loadError(FAKE_ARTIFACT_MISSING_WRAPPER),
            std::string("cannot load artifact '") +
                FAKE_ARTIFACT_MISSING_WRAPPER +
                "': entry 'mul': symbol '_plaidml_entry_mul' not found");

  EXPECT_EQ(loadError(FAKE_ARTIFACT_VULKAN),
            std::string("cannot load artifact '") + FAKE_ARTIFACT_VULKAN +
                "': compiled for device kind 'vulkan', not for device 'cpu'");
  LoadOptions onVulkan;
  onVulkan.device = {"vulkan", 0};
  // The vulkan driver checks the exports (where it can open vulkan:0).
  if (checkDeviceAvailable(onVulkan.device).ok())
    EXPECT_EQ(loadError(FAKE_ARTIFACT_VULKAN, onVulkan),
              std::string("cannot load artifact '") + FAKE_ARTIFACT_VULKAN +
                  "': a GPU artifact must export '_plaidml_gpu_abi', "
                  "'_plaidml_gpu_load' and '_plaidml_gpu_unload'");
  EXPECT_EQ(loadError(FAKE_ARTIFACT_GOOD, onVulkan),
            std::string("cannot load artifact '") + FAKE_ARTIFACT_GOOD +
                "': compiled for device kind 'cpu', not for device "
                "'vulkan:0'");
}

// Artifacts are dlopen()ed from /proc/self/fd/N. The loader keeps a library
// that it does not unload (these are marked NODELETE) under that name after
// dlclose, so when N was closed and given to the next artifact, dlopen
// returned the first library again: here the GPU artifact, which lacks the
// good one's 'stats' entry (found by the sanitizer build, whose test order
// hit it).
TEST(Program, ArtifactsLoadedOneAfterAnotherStayApart) {
  EXPECT_NE(loadError(FAKE_GPU_ARTIFACT_GOOD)
                .find("compiled for device kind 'vulkan', not for device "
                      "'cpu'"),
            std::string::npos);
  for (int i = 0; i < 3; ++i) {
    std::unique_ptr<Program> program = loadGood();
    ASSERT_TRUE(program);
    HostArray x = makeF32({4}, {1, -2, 3, 0});
    StatusOr<std::vector<HostArray>> outputs = program->run("stats", {x});
    ASSERT_TRUE(outputs.ok()) << outputs.message();
    EXPECT_EQ(getElementAsInt((*outputs)[0], 0), 2);
  }
}

TEST(Program, CpuFeatures) {
  HostCpu old;
  old.arch = "x86_64";
  old.flags = std::set<std::string>{"fpu",  "lm",  "sse2",  "avx",
                                    "avx2", "fma", "sse4_2"};
  LoadOptions options;
  options.hostCpu = &old;
  EXPECT_EQ(loadError(FAKE_ARTIFACT_NEEDS_AVX512, options),
            std::string("cannot load artifact '") + FAKE_ARTIFACT_NEEDS_AVX512 +
                "': artifact needs CPU feature 'avx512f', which this machine "
                "lacks (compiled for CPU 'skylake-avx512')");

  HostCpu skylake = old;
  skylake.flags->insert("avx512f");
  options.hostCpu = &skylake;
  StatusOr<std::unique_ptr<Program>> program =
      Program::load(FAKE_ARTIFACT_NEEDS_AVX512, options);
  EXPECT_TRUE(program.ok()) << program.message();

  HostCpu arm;
  arm.arch = "aarch64";
  arm.flags = std::set<std::string>{"fp", "asimd"};
  options.hostCpu = &arm;
  EXPECT_EQ(loadError(FAKE_ARTIFACT_NEEDS_AVX512, options),
            std::string("cannot load artifact '") + FAKE_ARTIFACT_NEEDS_AVX512 +
                "': compiled for 'x86_64-unknown-linux-gnu', but this machine "
                "is aarch64");
}

TEST(Program, RelativePathIsNotSearched) {
  // A bare file name means the current directory, not the library path.
  TempDir dir;
  std::string cwd = std::filesystem::current_path().string();
  std::filesystem::copy_file(FAKE_ARTIFACT_GOOD, dir.file("prog.so"));
  std::filesystem::current_path(dir.path());
  StatusOr<std::unique_ptr<Program>> program = Program::load("prog.so");
  std::filesystem::current_path(cwd);
  ASSERT_TRUE(program.ok()) << program.message();
  EXPECT_EQ((*program)->getManifest().entries.size(), 3u);
}

namespace {
/// y and the preparation count of one run of `scale`.
std::pair<std::vector<float>, int64_t> scaleResults(Invocation &inv) {
  StatusOr<std::vector<HostArray>> outputs = inv.getOutputs();
  EXPECT_TRUE(outputs.ok()) << outputs.message();
  if (!outputs.ok())
    return {};
  return {toF32((*outputs)[0]),
          static_cast<int64_t>(getElementAsDouble((*outputs)[1], 0))};
}
} // namespace

// An entry with a preparation (docs/ABI.md section 2): an Invocation runs it
// on the first execute() and again only after its `param` input changes.
TEST(Program, PreparesOncePerParameterValues) {
  StatusOr<std::unique_ptr<Program>> program =
      Program::load(FAKE_ARTIFACT_PREPARED);
  ASSERT_TRUE(program.ok()) << program.message();
  const EntrySpec &entry = (*program)->getManifest().entries[0];
  EXPECT_EQ(entry.prepareSymbol, "_plaidml_prepare_scale");
  EXPECT_EQ(entry.preparedBytes, 64u);
  EXPECT_FALSE(entry.inputs[0].param);
  EXPECT_TRUE(entry.inputs[1].param);

  HostArray x = makeF32({4}, {1, 2, 3, 4});
  HostArray w = makeF32({4}, {1, -1, 0.5f, 10});
  StatusOr<Invocation> inv = (*program)->prepare("scale", {x, w});
  ASSERT_TRUE(inv.ok()) << inv.message();
  for (int i = 0; i < 3; ++i)
    ASSERT_TRUE(inv->execute().ok());
  EXPECT_EQ(scaleResults(*inv),
            std::make_pair(std::vector<float>{2, -4, 3, 80}, int64_t(1)));

  // Another x: the prepared data stays.
  ASSERT_TRUE(inv->setInput(0, makeF32({4}, {1, 1, 1, 1})).ok());
  ASSERT_TRUE(inv->execute().ok());
  EXPECT_EQ(scaleResults(*inv),
            std::make_pair(std::vector<float>{2, -2, 1, 20}, int64_t(1)));

  // Another w: prepared again, once.
  ASSERT_TRUE(inv->setInput(1, makeF32({4}, {3, 3, 3, 3})).ok());
  ASSERT_TRUE(inv->execute().ok());
  ASSERT_TRUE(inv->execute().ok());
  EXPECT_EQ(scaleResults(*inv),
            std::make_pair(std::vector<float>{6, 6, 6, 6}, int64_t(2)));

  // Told that a buffer changed behind its back: prepared again.
  inv->invalidatePrepared();
  ASSERT_TRUE(inv->execute().ok());
  EXPECT_EQ(scaleResults(*inv).second, 3);

  // Program::execute on the caller's buffers prepares on every call.
  std::vector<Buffer *> bound;
  for (const std::unique_ptr<Buffer> &buffer : inv->getBuffers())
    bound.push_back(buffer.get());
  ASSERT_TRUE((*program)->execute("scale", bound).ok());
  ASSERT_TRUE((*program)->execute("scale", bound).ok());
  EXPECT_EQ(scaleResults(*inv),
            std::make_pair(std::vector<float>{6, 6, 6, 6}, int64_t(5)));
}

TEST(Program, PreparationSymbolMissing) {
  EXPECT_EQ(loadError(FAKE_ARTIFACT_MISSING_PREPARE),
            std::string("cannot load artifact '") +
                FAKE_ARTIFACT_MISSING_PREPARE +
                "': entry 'scale': preparation symbol "
                "'_plaidml_prepare_scale' not found");
}
