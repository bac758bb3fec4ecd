//===- HostArrayTest.cpp - Tests of HostArray, shape specs and .npy -------===//
//
// Round trips through .npy files for every element type, scalars and empty
// arrays; shape-spec parsing ("2x3xf32") including overflow; and the files
// readNpy must refuse with a reason: bad magic, truncated headers or data,
// big-endian data, Fortran order, unknown element types.
//
//===----------------------------------------------------------------------===//

#include "TestUtil.h"

#include "plaidml/Runtime/HostArray.h"

#include <algorithm>
#include <gtest/gtest.h>
#include <limits>

using namespace plaidml::rt;
using namespace plaidml::rt::test;

namespace {
constexpr DType kAllDTypes[] = {
    DType::i1,   DType::si8,  DType::si16, DType::si32, DType::si64,
    DType::ui8,  DType::ui16, DType::ui32, DType::ui64, DType::f16,
    DType::bf16, DType::f32,  DType::f64};

/// A .npy file with the given header dict and data bytes (format 1.0).
std::string makeNpy(const std::string &dict, const std::string &data) {
  std::string header = dict;
  size_t total = 10 + header.size() + 1;
  header.append((64 - total % 64) % 64, ' ');
  header += '\n';
  std::string file = "\x93NUMPY\x01";
  file += '\0';
  file += static_cast<char>(header.size() & 0xff);
  file += static_cast<char>(header.size() >> 8);
  return file + header + data;
}

std::string readError(const std::string &path) {
  std::string error;
  std::optional<HostArray> array = readNpy(path, error);
  EXPECT_FALSE(array.has_value());
  return error;
}
} // namespace

TEST(DType, NamesRoundTrip) {
  for (DType dtype : kAllDTypes) {
    std::optional<DType> parsed = parseDType(getDTypeName(dtype));
    ASSERT_TRUE(parsed.has_value()) << getDTypeName(dtype);
    EXPECT_EQ(*parsed, dtype);
  }
  EXPECT_EQ(parseDType("i32"), DType::si32);
  EXPECT_EQ(parseDType("float32"), DType::f32);
  EXPECT_FALSE(parseDType("f33").has_value());
}

TEST(ShapeSpec, Parses) {
  std::string error;
  std::optional<HostArray> array = parseArraySpec("2x3xf32", error);
  ASSERT_TRUE(array) << error;
  EXPECT_EQ(array->shape, (std::vector<int64_t>{2, 3}));
  EXPECT_EQ(array->dtype, DType::f32);
  EXPECT_EQ(array->bytes.size(), 24u);
  EXPECT_EQ(array->describe(), "2x3xf32");

  array = parseArraySpec("si8", error);
  ASSERT_TRUE(array) << error;
  EXPECT_TRUE(array->shape.empty());
  EXPECT_EQ(array->bytes.size(), 1u);
  EXPECT_EQ(array->describe(), "si8");

  array = parseArraySpec("0x7xi1", error);
  ASSERT_TRUE(array) << error;
  EXPECT_EQ(array->getNumElements(), 0);
}

TEST(ShapeSpec, Errors) {
  std::string error;
  EXPECT_FALSE(parseArraySpec("2x3", error));
  EXPECT_NE(error.find("cannot parse '2x3'"), std::string::npos) << error;
  EXPECT_FALSE(parseArraySpec("2x3xfloat128", error));
  EXPECT_FALSE(parseArraySpec("x3xf32", error));

  std::vector<int64_t> shape;
  DType dtype;
  EXPECT_FALSE(
      parseShapeAndType("99999999999999999999xf32", shape, dtype, error));
  EXPECT_NE(error.find("too large"), std::string::npos) << error;
  // Each dimension fits, the product does not.
  EXPECT_FALSE(
      parseShapeAndType("4294967296x4294967296xf32", shape, dtype, error));
  EXPECT_NE(error.find("too large"), std::string::npos) << error;
  // No data is allocated: a huge but valid shape parses.
  ASSERT_TRUE(
      parseShapeAndType("100000x100000x100000xf64", shape, dtype, error))
      << error;
  EXPECT_EQ(shape.size(), 3u);
}

TEST(Npy, RoundTripEveryDType) {
  TempDir dir;
  for (DType dtype : kAllDTypes) {
    SCOPED_TRACE(getDTypeName(dtype));
    HostArray array;
    array.dtype = dtype;
    array.shape = {2, 3};
    size_t size = getDTypeSize(dtype);
    array.bytes.resize(6 * size);
    for (size_t i = 0; i < array.bytes.size(); ++i)
      array.bytes[i] = static_cast<uint8_t>(i * 37 + 1);
    if (dtype == DType::i1)
      for (size_t i = 0; i < 6; ++i)
        array.bytes[i] = i % 2;
    // Keep floats finite and not NaN so values compare.
    if (dtype == DType::f16 || dtype == DType::bf16)
      for (size_t i = 1; i < array.bytes.size(); i += 2)
        array.bytes[i] &= 0x3f;
    if (dtype == DType::f32)
      for (size_t i = 3; i < array.bytes.size(); i += 4)
        array.bytes[i] &= 0x3f;
    if (dtype == DType::f64)
      for (size_t i = 7; i < array.bytes.size(); i += 8)
        array.bytes[i] &= 0x3f;

    std::string path = dir.file(std::string(getDTypeName(dtype)) + ".npy");
    std::string error;
    ASSERT_TRUE(writeNpy(path, array, error)) << error;
    std::optional<HostArray> back = readNpy(path, error);
    ASSERT_TRUE(back) << error;
    EXPECT_EQ(back->shape, array.shape);
    if (dtype == DType::bf16) {
      // NumPy has no bfloat16: written as float32, which holds it exactly.
      EXPECT_EQ(back->dtype, DType::f32);
      for (int64_t i = 0; i < 6; ++i)
        EXPECT_EQ(getElementAsDouble(*back, i), getElementAsDouble(array, i));
    } else {
      EXPECT_EQ(back->dtype, dtype);
      EXPECT_EQ(back->bytes, array.bytes);
    }
  }
}

TEST(Npy, RoundTripScalarAndEmpty) {
  TempDir dir;
  std::string error;
  HostArray scalar = makeF32({}, {2.5f});
  ASSERT_TRUE(writeNpy(dir.file("s.npy"), scalar, error)) << error;
  std::optional<HostArray> back = readNpy(dir.file("s.npy"), error);
  ASSERT_TRUE(back) << error;
  EXPECT_TRUE(back->shape.empty());
  EXPECT_EQ(getElementAsDouble(*back, 0), 2.5);

  HostArray vector = makeF32({3}, {1, 2, 3});
  ASSERT_TRUE(writeNpy(dir.file("v.npy"), vector, error)) << error;
  back = readNpy(dir.file("v.npy"), error);
  ASSERT_TRUE(back) << error;
  EXPECT_EQ(back->shape, (std::vector<int64_t>{3}));

  HostArray empty = makeF32({0, 4}, {});
  ASSERT_TRUE(writeNpy(dir.file("e.npy"), empty, error)) << error;
  back = readNpy(dir.file("e.npy"), error);
  ASSERT_TRUE(back) << error;
  EXPECT_EQ(back->shape, (std::vector<int64_t>{0, 4}));
  EXPECT_TRUE(back->bytes.empty());
}

TEST(Npy, HeaderIsAligned) {
  TempDir dir;
  std::string error;
  ASSERT_TRUE(writeNpy(dir.file("a.npy"), makeF32({2}, {1, 2}), error));
  std::ifstream in(dir.file("a.npy"), std::ios::binary);
  std::string content((std::istreambuf_iterator<char>(in)),
                      std::istreambuf_iterator<char>());
  EXPECT_EQ((content.size() - 8) % 64, 0u);
}

TEST(Npy, ReadsHandWrittenFile) {
  TempDir dir;
  std::string data("\x01\x00\x00\x00\xff\xff\xff\xff", 8);
  writeFile(dir.file("h.npy"),
            makeNpy("{'descr': '<i4', 'fortran_order': False, "
                    "'shape': (2,), }",
                    data));
  std::string error;
  std::optional<HostArray> array = readNpy(dir.file("h.npy"), error);
  ASSERT_TRUE(array) << error;
  EXPECT_EQ(array->dtype, DType::si32);
  EXPECT_EQ(getElementAsDouble(*array, 0), 1);
  EXPECT_EQ(getElementAsDouble(*array, 1), -1);
}

TEST(Npy, BadFiles) {
  TempDir dir;
  std::string f32x2(8, '\0');

  EXPECT_NE(readError(dir.file("missing.npy")).find("cannot open"),
            std::string::npos);

  // A directory: reported, not thrown out of libstdc++.
  EXPECT_EQ(readError(dir.path()),
            "cannot open '" + dir.path() + "': Is a directory");

  writeFile(dir.file("magic.npy"), "PK\x03\x04 this is a zip file");
  EXPECT_NE(readError(dir.file("magic.npy")).find("magic"), std::string::npos);

  std::string good = makeNpy(
      "{'descr': '<f4', 'fortran_order': False, 'shape': (2,), }", f32x2);
  writeFile(dir.file("trunc-header.npy"), good.substr(0, 40));
  std::string error = readError(dir.file("trunc-header.npy"));
  EXPECT_NE(error.find("truncated header"), std::string::npos) << error;

  writeFile(dir.file("trunc-data.npy"), good.substr(0, good.size() - 3));
  error = readError(dir.file("trunc-data.npy"));
  EXPECT_NE(error.find("expected 8 data bytes for 2xf32, found 5"),
            std::string::npos)
      << error;

  writeFile(dir.file("big.npy"),
            makeNpy("{'descr': '>f4', 'fortran_order': False, "
                    "'shape': (2,), }",
                    f32x2));
  error = readError(dir.file("big.npy"));
  EXPECT_NE(error.find("big-endian"), std::string::npos) << error;

  writeFile(dir.file("fortran.npy"),
            makeNpy("{'descr': '<f4', 'fortran_order': True, "
                    "'shape': (2,), }",
                    f32x2));
  error = readError(dir.file("fortran.npy"));
  EXPECT_NE(error.find("Fortran"), std::string::npos) << error;

  writeFile(dir.file("complex.npy"),
            makeNpy("{'descr': '<c8', 'fortran_order': False, "
                    "'shape': (1,), }",
                    f32x2));
  error = readError(dir.file("complex.npy"));
  EXPECT_NE(error.find("unsupported element type '<c8'"), std::string::npos)
      << error;

  writeFile(dir.file("nodescr.npy"),
            makeNpy("{'fortran_order': False, 'shape': (2,), }", f32x2));
  error = readError(dir.file("nodescr.npy"));
  EXPECT_NE(error.find("lacks"), std::string::npos) << error;

  writeFile(dir.file("huge.npy"),
            makeNpy("{'descr': '<f4', 'fortran_order': False, "
                    "'shape': (999999999999, 999999999999), }",
                    f32x2));
  error = readError(dir.file("huge.npy"));
  EXPECT_NE(error.find("too many elements"), std::string::npos) << error;
}

// Found by npy-fuzzer (test/Fuzz/Seeds/npy/crash-empty-descr.npy): header
// values that are empty or of the wrong kind used to reach std::string::substr
// out of range, which aborts the process (the runtime has no exceptions).
TEST(Npy, MalformedHeaderValues) {
  TempDir dir;
  std::string f32x1(4, '\0');
  struct Case {
    const char *dict, *error;
  } cases[] = {
      {"{'descr': , 'fortran_order': False, 'shape': (1,), }",
       "'descr' is not a quoted type string: ''"},
      {"{'descr': ', 'fortran_order': False, 'shape': (1,), }",
       "'descr' is not a quoted type string: '''"},
      {"{'descr': <f4, 'fortran_order': False, 'shape': (1,), }",
       "'descr' is not a quoted type string: '<f4'"},
      {"{'descr': '<f4', 'fortran_order': False, 'shape': , }",
       "'shape' is not a tuple: ''"},
      {"{'descr': '<f4', 'fortran_order': False, 'shape': 1, }",
       "'shape' is not a tuple: '1'"},
  };
  for (const Case &c : cases) {
    writeFile(dir.file("bad.npy"), makeNpy(c.dict, f32x1));
    std::string error = readError(dir.file("bad.npy"));
    EXPECT_NE(error.find(c.error), std::string::npos)
        << c.dict << " gave: " << error;
  }
}

// makeArray: the values first, zeros after them; setElementFromInt stores
// integers exactly (no double in between) and wraps them to the width.
TEST(HostArray, MakeArrayAndExactIntegers) {
  HostArray a = makeArray(DType::f32, {2, 2}, {1.5, -2});
  EXPECT_EQ(a.bytes.size(), 16u);
  EXPECT_EQ(getElementAsDouble(a, 0), 1.5);
  EXPECT_EQ(getElementAsDouble(a, 1), -2);
  EXPECT_EQ(getElementAsDouble(a, 3), 0);

  HostArray ints = makeArray(DType::si64, {4});
  const int64_t big = (int64_t{1} << 62) + 1; // not a double
  setElementFromInt(ints, 0, big);
  setElementFromInt(ints, 1, std::numeric_limits<int64_t>::min());
  setElementFromInt(ints, 2, -1);
  EXPECT_EQ(getElementAsInt(ints, 0), big);
  EXPECT_EQ(getElementAsInt(ints, 1), std::numeric_limits<int64_t>::min());
  EXPECT_EQ(getElementAsInt(ints, 2), -1);
  EXPECT_EQ(getElementAsInt(ints, 3), 0);

  HostArray small = makeArray(DType::si8, {2});
  setElementFromInt(small, 0, 300); // wraps: 300 - 256
  setElementFromInt(small, 1, -129);
  EXPECT_EQ(getElementAsInt(small, 0), 44);
  EXPECT_EQ(getElementAsInt(small, 1), 127);

  HostArray flags = makeArray(DType::i1, {2});
  setElementFromInt(flags, 0, 7);
  EXPECT_EQ(getElementAsInt(flags, 0), 1);
  EXPECT_EQ(getElementAsInt(flags, 1), 0);

  HostArray halves = makeArray(DType::f16, {1});
  setElementFromInt(halves, 0, 2049); // rounds to nearest even
  EXPECT_EQ(getElementAsDouble(halves, 0), 2048);
}

TEST(FormatArray, NestedRowsByType) {
  EXPECT_EQ(formatArray(makeArray(DType::f32, {2, 3}, {1, 2.5, -3, 4, 5, 6})),
            "[[1, 2.5, -3],\n [4, 5, 6]]");
  EXPECT_EQ(formatArray(makeArray(DType::f32, {2, 1, 2}, {1, 2, 3, 4})),
            "[[[1, 2]],\n [[3, 4]]]");
  EXPECT_EQ(formatArray(makeArray(DType::si8, {3}, {-1, 0, 127})),
            "[-1, 0, 127]");
  EXPECT_EQ(formatArray(makeArray(DType::ui16, {2}, {65535, 1})), "[65535, 1]");
  EXPECT_EQ(formatArray(makeArray(DType::f64, {}, {0.125})), "0.125");
  EXPECT_EQ(formatArray(makeArray(DType::f32, {0, 3}, {})), "[]");
}

// More than kPrintThreshold (1000) elements: NumPy's summary, the first and
// last three of every longer dimension around "...", unless all are asked for.
TEST(FormatArray, SummarizesLargeArrays) {
  std::vector<double> values(1001);
  for (size_t i = 0; i < values.size(); ++i)
    values[i] = static_cast<double>(i);
  HostArray flat = makeArray(DType::si32, {1001}, values);
  EXPECT_EQ(formatArray(flat), "[0, 1, 2, ..., 998, 999, 1000]");
  std::string all = formatArray(flat, /*all=*/true);
  // 2894 digits, 1000 ", " and the brackets.
  EXPECT_EQ(all.size(), 2894u + 2000u + 2u);
  EXPECT_EQ(all.substr(0, 10), "[0, 1, 2, ");
  EXPECT_NE(all.find("500, 501"), std::string::npos);

  // 1000 elements are still printed in full.
  values.resize(1000);
  EXPECT_EQ(formatArray(makeArray(DType::si32, {1000}, values)).find("..."),
            std::string::npos);

  // Every dimension longer than six is cut; shorter ones are kept.
  std::vector<double> grid(8 * 3 * 50);
  for (size_t i = 0; i < grid.size(); ++i)
    grid[i] = static_cast<double>(i);
  std::string text = formatArray(makeArray(DType::f32, {8, 3, 50}, grid));
  EXPECT_EQ(text.substr(0, text.find('\n')), "[[[0, 1, 2, ..., 47, 48, 49],");
  EXPECT_EQ(text.substr(text.rfind('\n') + 1), "  [1150, 1151, 1152, ..., "
                                               "1197, 1198, 1199]]]");
  // Three blocks, "...", three blocks; each block keeps its three rows.
  EXPECT_NE(text.find("],\n ...,\n [["), std::string::npos);
  EXPECT_EQ(std::count(text.begin(), text.end(), '\n'), 6 + 6 * 2);
}
