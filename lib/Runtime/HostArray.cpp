//===- HostArray.cpp - Host arrays and .npy files -------------------------===//
//
// Element type names, shape specs ("2x3xf32") and the NumPy .npy format
// (https://numpy.org/doc/stable/reference/generated/numpy.lib.format.html):
// a magic string, a version, a header length and a Python-literal dict with
// 'descr', 'fortran_order' and 'shape', then the raw data.
//
//===----------------------------------------------------------------------===//

#include "plaidml/Runtime/HostArray.h"

#include "FileUtil.h"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <sstream>

using namespace plaidml::rt;

namespace {
struct DTypeInfo {
  DType dtype;
  const char *name;
  const char *descr; // NumPy type string
  size_t size;
};

constexpr DTypeInfo kDTypes[] = {
    {DType::i1, "i1", "|b1", 1},     {DType::si8, "si8", "|i1", 1},
    {DType::si16, "si16", "<i2", 2}, {DType::si32, "si32", "<i4", 4},
    {DType::si64, "si64", "<i8", 8}, {DType::ui8, "ui8", "|u1", 1},
    {DType::ui16, "ui16", "<u2", 2}, {DType::ui32, "ui32", "<u4", 4},
    {DType::ui64, "ui64", "<u8", 8}, {DType::f16, "f16", "<f2", 2},
    {DType::bf16, "bf16", "<f4", 2}, {DType::f32, "f32", "<f4", 4},
    {DType::f64, "f64", "<f8", 8},
};

const DTypeInfo &info(DType dtype) {
  return kDTypes[static_cast<size_t>(dtype)];
}

float halfToFloat(uint16_t h) {
  uint32_t sign = (h & 0x8000u) << 16, exp = (h >> 10) & 0x1f, mant = h & 0x3ff;
  uint32_t bits;
  if (exp == 0x1f) {
    bits = sign | 0x7f800000u | (mant << 13); // inf / NaN
  } else if (exp != 0) {
    bits = sign | ((exp + 112) << 23) | (mant << 13);
  } else if (mant == 0) {
    bits = sign;
  } else { // subnormal: renormalize
    int e = -1;
    do {
      ++e;
      mant <<= 1;
    } while (!(mant & 0x400));
    bits = sign | ((112 - e) << 23) | ((mant & 0x3ff) << 13);
  }
  float f;
  std::memcpy(&f, &bits, 4);
  return f;
}

/// Rounds a float to IEEE binary16 bits, nearest even (overflow to inf).
uint16_t floatToHalf(float f) {
  uint32_t x;
  std::memcpy(&x, &f, 4);
  uint32_t sign = (x >> 16) & 0x8000u;
  uint32_t absx = x & 0x7fffffffu;
  if (absx >= 0x7f800000u) // inf or NaN (keep NaN quiet)
    return static_cast<uint16_t>(sign | 0x7c00u |
                                 (absx > 0x7f800000u ? 0x200u : 0));
  if (absx >= 0x477ff000u) // rounds to >= 65520: overflow
    return static_cast<uint16_t>(sign | 0x7c00u);
  if (absx < 0x38800000u) { // subnormal or zero in f16
    // Scale so the f16 subnormal unit (2^-24) is 1, then round to even.
    float a;
    std::memcpy(&a, &absx, 4);
    float scaled = a * 16777216.0f; // exact: power of two
    uint32_t q = static_cast<uint32_t>(scaled);
    float rest = scaled - static_cast<float>(q);
    if (rest > 0.5f || (rest == 0.5f && (q & 1)))
      ++q;
    return static_cast<uint16_t>(sign | q);
  }
  uint32_t mant = absx & 0x7fffffu;
  uint32_t exp = (absx >> 23) - 112;
  uint32_t h = (exp << 10) | (mant >> 13);
  uint32_t rest = mant & 0x1fffu;
  if (rest > 0x1000u || (rest == 0x1000u && (h & 1)))
    ++h; // may carry into the exponent, which is still correct
  return static_cast<uint16_t>(sign | h);
}

/// Rounds a float to bfloat16 bits, nearest even.
uint16_t floatToBf16(float f) {
  uint32_t x;
  std::memcpy(&x, &f, 4);
  if ((x & 0x7fffffffu) > 0x7f800000u)
    return static_cast<uint16_t>((x >> 16) | 0x40u); // quiet NaN
  uint32_t rounding = 0x7fffu + ((x >> 16) & 1);
  return static_cast<uint16_t>((x + rounding) >> 16);
}

float bf16ToFloat(uint16_t b) {
  uint32_t bits = static_cast<uint32_t>(b) << 16;
  float f;
  std::memcpy(&f, &bits, 4);
  return f;
}

/// Little-endian unsigned integer of `size` bytes at `p`.
uint64_t loadLE(const uint8_t *p, size_t size) {
  uint64_t v = 0;
  for (size_t b = 0; b < size; ++b)
    v |= static_cast<uint64_t>(p[b]) << (8 * b);
  return v;
}

/// The value of `key` in a .npy header dict, up to the next top-level comma.
std::optional<std::string> headerValue(const std::string &header,
                                       const std::string &key) {
  size_t k = header.find("'" + key + "'");
  if (k == std::string::npos)
    return std::nullopt;
  size_t colon = header.find(':', k);
  if (colon == std::string::npos)
    return std::nullopt;
  size_t begin = header.find_first_not_of(' ', colon + 1);
  if (begin == std::string::npos)
    return std::nullopt;
  size_t end = header[begin] == '(' ? header.find(')', begin) + 1
                                    : header.find_first_of(",}", begin);
  if (end == std::string::npos || end == 0)
    return std::nullopt;
  return header.substr(begin, end - begin);
}
} // namespace

const char *plaidml::rt::getDTypeName(DType dtype) { return info(dtype).name; }

size_t plaidml::rt::getDTypeSize(DType dtype) { return info(dtype).size; }

std::optional<DType> plaidml::rt::parseDType(std::string_view name) {
  static const std::pair<const char *, DType> aliases[] = {
      {"i8", DType::si8},       {"i16", DType::si16},
      {"i32", DType::si32},     {"i64", DType::si64},
      {"bool", DType::i1},      {"int8", DType::si8},
      {"int16", DType::si16},   {"int32", DType::si32},
      {"int64", DType::si64},   {"uint8", DType::ui8},
      {"uint16", DType::ui16},  {"uint32", DType::ui32},
      {"uint64", DType::ui64},  {"float16", DType::f16},
      {"float32", DType::f32},  {"float64", DType::f64},
      {"bfloat16", DType::bf16}};
  for (const DTypeInfo &i : kDTypes)
    if (name == i.name)
      return i.dtype;
  for (auto [alias, dtype] : aliases)
    if (name == alias)
      return dtype;
  return std::nullopt;
}

int64_t HostArray::getNumElements() const {
  int64_t n = 1;
  for (int64_t d : shape)
    n *= d;
  return n;
}

std::string HostArray::describe() const {
  return describeShapeAndType(shape, dtype);
}

std::string plaidml::rt::describeShapeAndType(const std::vector<int64_t> &shape,
                                              DType dtype) {
  std::string s;
  for (int64_t d : shape)
    s += std::to_string(d) + "x";
  return s + getDTypeName(dtype);
}

bool plaidml::rt::parseShapeAndType(std::string_view spec,
                                    std::vector<int64_t> &shape, DType &dtype,
                                    std::string &error) {
  shape.clear();
  std::string_view rest = spec;
  int64_t numElements = 1;
  while (true) {
    size_t x = rest.find('x');
    // A dimension is a run of digits followed by 'x'.
    if (x == std::string_view::npos || x == 0 ||
        rest.substr(0, x).find_first_not_of("0123456789") !=
            std::string_view::npos)
      break;
    std::string_view digits = rest.substr(0, x);
    int64_t dim = 0;
    for (char c : digits) {
      if (dim > (INT64_MAX - 9) / 10) {
        dim = -1;
        break;
      }
      dim = dim * 10 + (c - '0');
    }
    if (dim < 0 || (dim != 0 && numElements > INT64_MAX / dim)) {
      error = "dimension '" + std::string(digits) + "' in '" +
              std::string(spec) + "' is too large";
      return false;
    }
    numElements *= dim;
    shape.push_back(dim);
    rest = rest.substr(x + 1);
  }
  std::optional<DType> parsed = parseDType(rest);
  if (!parsed) {
    error = "cannot parse '" + std::string(spec) +
            "': expected dimensions and an element type, like 2x3xf32";
    return false;
  }
  // Leave room for the byte size too (up to 8 bytes per element).
  if (numElements > INT64_MAX / 8) {
    error = "'" + std::string(spec) + "' has too many elements";
    return false;
  }
  dtype = *parsed;
  return true;
}

std::optional<HostArray> plaidml::rt::parseArraySpec(std::string_view spec,
                                                     std::string &error) {
  HostArray array;
  if (!parseShapeAndType(spec, array.shape, array.dtype, error) ||
      !allocateArray(array, "'" + std::string(spec) + "'", error))
    return std::nullopt;
  return array;
}

bool plaidml::rt::allocateArray(HostArray &array, const std::string &what,
                                std::string &error) {
  uint64_t bytes = getDTypeSize(array.dtype);
  for (int64_t d : array.shape) {
    if (d < 0) {
      error = "cannot allocate " + what + ": negative dimension " +
              std::to_string(d);
      return false;
    }
    if (d != 0 && bytes > std::numeric_limits<uint64_t>::max() /
                              static_cast<uint64_t>(d)) {
      error = "cannot allocate " + what + " (" + array.describe() +
              "): its size in bytes overflows 64 bits";
      return false;
    }
    bytes *= static_cast<uint64_t>(d);
  }
  for (int64_t d : array.shape)
    if (d == 0)
      bytes = 0;
  // std::vector aborts when it cannot allocate (the runtime has no
  // exceptions): ask malloc first, which says so instead.
  // Through a volatile pointer, since a compiler may drop a malloc/free pair
  // whose memory is never used, and assume it succeeded.
  static void *(*volatile probeAllocate)(size_t) = std::malloc;
  bool fits = bytes <= std::numeric_limits<size_t>::max() / 2;
  if (fits && bytes > 0) {
    void *probe = probeAllocate(static_cast<size_t>(bytes));
    fits = probe != nullptr;
    std::free(probe);
  }
  if (!fits) {
    error = "out of memory: cannot allocate " + std::to_string(bytes) +
            " bytes (" + detail::formatBytes(bytes) + ") for " + what + " (" +
            array.describe() + ")";
    return false;
  }
  array.bytes.assign(static_cast<size_t>(bytes), 0);
  return true;
}

std::optional<HostArray> plaidml::rt::readNpy(const std::string &path,
                                              std::string &error) {
  std::string content, why;
  if (!detail::readWholeFile(path, content, why)) {
    error = "cannot open '" + path + "': " + why;
    return std::nullopt;
  }
  auto fail = [&](const std::string &why) -> std::optional<HostArray> {
    error = "'" + path + "' is not a readable .npy file: " + why;
    return std::nullopt;
  };
  if (content.size() < 10 || content.compare(0, 6, "\x93NUMPY") != 0)
    return fail("missing the \\x93NUMPY magic");
  unsigned major = static_cast<uint8_t>(content[6]);
  size_t headerLen, headerStart;
  if (major == 1) {
    headerLen = loadLE(reinterpret_cast<const uint8_t *>(&content[8]), 2);
    headerStart = 10;
  } else if (major == 2 || major == 3) {
    if (content.size() < 12)
      return fail("truncated header");
    headerLen = loadLE(reinterpret_cast<const uint8_t *>(&content[8]), 4);
    headerStart = 12;
  } else {
    return fail("unsupported format version " + std::to_string(major));
  }
  if (headerStart + headerLen > content.size())
    return fail("truncated header");
  std::string header = content.substr(headerStart, headerLen);

  std::optional<std::string> descr = headerValue(header, "descr");
  std::optional<std::string> fortran = headerValue(header, "fortran_order");
  std::optional<std::string> shape = headerValue(header, "shape");
  if (!descr || !fortran || !shape)
    return fail("header lacks 'descr', 'fortran_order' or 'shape'");
  if (*fortran != "False")
    return fail("Fortran-ordered arrays are not supported; save with "
                "numpy.ascontiguousarray");
  // A quoted string and a parenthesized tuple: anything else (an empty
  // value, say) is no .npy header, and must not reach substr() below.
  auto enclosed = [](const std::string &value, char open, char close) {
    return value.size() >= 2 && value.front() == open && value.back() == close;
  };
  if (!enclosed(*descr, '\'', '\'') && !enclosed(*descr, '"', '"'))
    return fail("'descr' is not a quoted type string: '" + *descr + "'");
  if (!enclosed(*shape, '(', ')'))
    return fail("'shape' is not a tuple: '" + *shape + "'");
  std::string d = descr->substr(1, descr->size() - 2);
  HostArray array;
  bool found = false;
  for (const DTypeInfo &i : kDTypes) {
    // '<f4' means f32 on input; bf16 is only ever written, as '<f4'.
    if (i.dtype == DType::bf16)
      continue;
    if (d == i.descr || (d.size() == 3 && d[0] == '=' &&
                         d.substr(1) == std::string(i.descr).substr(1))) {
      array.dtype = i.dtype;
      found = true;
    }
  }
  if (!found) {
    if (!d.empty() && d[0] == '>')
      return fail("big-endian data ('" + d + "') is not supported");
    return fail("unsupported element type '" + d + "'");
  }

  // Shape: "(2, 3)", "(5,)" or "()".
  std::string dims = shape->substr(1, shape->size() - 2);
  std::stringstream ss(dims);
  std::string item;
  int64_t numElements = 1;
  while (std::getline(ss, item, ',')) {
    size_t b = item.find_first_not_of(' ');
    if (b == std::string::npos)
      continue;
    item = item.substr(b, item.find_last_not_of(' ') - b + 1);
    if (item.empty() || item.size() > 12 ||
        item.find_first_not_of("0123456789") != std::string::npos)
      return fail("bad dimension '" + item + "' in shape " + *shape);
    int64_t dim = std::stoll(item);
    if (dim != 0 && numElements > INT64_MAX / 8 / dim)
      return fail("shape " + *shape + " has too many elements");
    numElements *= dim;
    array.shape.push_back(dim);
  }
  size_t dataStart = headerStart + headerLen;
  size_t expected =
      static_cast<size_t>(array.getNumElements()) * getDTypeSize(array.dtype);
  if (content.size() - dataStart != expected)
    return fail("expected " + std::to_string(expected) + " data bytes for " +
                array.describe() + ", found " +
                std::to_string(content.size() - dataStart));
  array.bytes.assign(content.begin() + dataStart, content.end());
  return array;
}

bool plaidml::rt::writeNpy(const std::string &path, const HostArray &array,
                           std::string &error) {
  const HostArray *data = &array;
  HostArray widened;
  if (array.dtype == DType::bf16) {
    widened.dtype = DType::f32;
    widened.shape = array.shape;
    if (!allocateArray(widened, "the float32 copy of '" + path + "'", error))
      return false;
    for (int64_t i = 0; i < array.getNumElements(); ++i) {
      float f =
          bf16ToFloat(static_cast<uint16_t>(loadLE(&array.bytes[i * 2], 2)));
      std::memcpy(&widened.bytes[i * 4], &f, 4);
    }
    data = &widened;
  }
  std::string shape = "(";
  for (int64_t d : data->shape)
    shape += std::to_string(d) + ", ";
  if (data->shape.size() > 1)
    shape.resize(shape.size() - 2);
  else if (data->shape.size() == 1)
    shape.resize(shape.size() - 1);
  shape += ")";
  std::string header = "{'descr': '" + std::string(info(data->dtype).descr) +
                       "', 'fortran_order': False, 'shape': " + shape + ", }";
  // Pad so that the data starts on a 64-byte boundary; end with '\n'.
  size_t total = 10 + header.size() + 1;
  header.append((64 - total % 64) % 64, ' ');
  header += '\n';
  uint16_t len = static_cast<uint16_t>(header.size());
  const char prefix[10] = {'\x93',
                           'N',
                           'U',
                           'M',
                           'P',
                           'Y',
                           '\x01',
                           '\x00',
                           static_cast<char>(len & 0xff),
                           static_cast<char>(len >> 8)};
  std::string why;
  if (!detail::writeWholeFile(
          path,
          {std::string_view(prefix, sizeof(prefix)), header,
           std::string_view(reinterpret_cast<const char *>(data->bytes.data()),
                            data->bytes.size())},
          why)) {
    error = "cannot write '" + path + "': " + why;
    return false;
  }
  return true;
}

double plaidml::rt::getElementAsDouble(const HostArray &array, int64_t i) {
  size_t size = getDTypeSize(array.dtype);
  uint64_t bits = loadLE(&array.bytes[i * size], size);
  switch (array.dtype) {
  case DType::i1:
    return bits != 0;
  case DType::si8:
    return static_cast<int8_t>(bits);
  case DType::si16:
    return static_cast<int16_t>(bits);
  case DType::si32:
    return static_cast<int32_t>(bits);
  case DType::si64:
    return static_cast<double>(static_cast<int64_t>(bits));
  case DType::ui8:
  case DType::ui16:
  case DType::ui32:
  case DType::ui64:
    return static_cast<double>(bits);
  case DType::f16:
    return halfToFloat(static_cast<uint16_t>(bits));
  case DType::bf16:
    return bf16ToFloat(static_cast<uint16_t>(bits));
  case DType::f32: {
    uint32_t b32 = static_cast<uint32_t>(bits);
    float f;
    std::memcpy(&f, &b32, 4);
    return f;
  }
  case DType::f64: {
    double d;
    std::memcpy(&d, &bits, 8);
    return d;
  }
  }
  return 0;
}

void plaidml::rt::setElementFromDouble(HostArray &array, int64_t i,
                                       double value) {
  size_t size = getDTypeSize(array.dtype);
  uint64_t bits = 0;
  switch (array.dtype) {
  case DType::i1:
    bits = value != 0.0;
    break;
  case DType::f16:
    bits = floatToHalf(static_cast<float>(value));
    break;
  case DType::bf16:
    bits = floatToBf16(static_cast<float>(value));
    break;
  case DType::f32: {
    float f = static_cast<float>(value);
    uint32_t b32;
    std::memcpy(&b32, &f, 4);
    bits = b32;
    break;
  }
  case DType::f64:
    std::memcpy(&bits, &value, 8);
    break;
  default: // integers: truncate, then keep the low bytes (wraps)
    bits = value < 0 ? static_cast<uint64_t>(static_cast<int64_t>(value))
                     : static_cast<uint64_t>(value);
    break;
  }
  for (size_t b = 0; b < size; ++b)
    array.bytes[i * size + b] = static_cast<uint8_t>(bits >> (8 * b));
}

bool plaidml::rt::isUnsignedDType(DType dtype) {
  return dtype == DType::ui8 || dtype == DType::ui16 || dtype == DType::ui32 ||
         dtype == DType::ui64;
}

bool plaidml::rt::isFloatDType(DType dtype) {
  return dtype == DType::f16 || dtype == DType::bf16 || dtype == DType::f32 ||
         dtype == DType::f64;
}

plaidml::rt::HostArray
plaidml::rt::makeArray(DType dtype, std::vector<int64_t> shape,
                       const std::vector<double> &values) {
  HostArray array;
  array.dtype = dtype;
  array.shape = std::move(shape);
  array.bytes.assign(array.getNumElements() * getDTypeSize(dtype), 0);
  int64_t n = std::min<int64_t>(array.getNumElements(),
                                static_cast<int64_t>(values.size()));
  for (int64_t i = 0; i < n; ++i)
    setElementFromDouble(array, i, values[i]);
  return array;
}

void plaidml::rt::setElementFromInt(HostArray &array, int64_t i,
                                    int64_t value) {
  if (isFloatDType(array.dtype))
    return setElementFromDouble(array, i, static_cast<double>(value));
  size_t size = getDTypeSize(array.dtype);
  uint64_t bits =
      array.dtype == DType::i1 ? value != 0 : static_cast<uint64_t>(value);
  for (size_t b = 0; b < size; ++b)
    array.bytes[i * size + b] = static_cast<uint8_t>(bits >> (8 * b));
}

int64_t plaidml::rt::getElementAsInt(const HostArray &array, int64_t i) {
  size_t size = getDTypeSize(array.dtype);
  uint64_t bits = loadLE(&array.bytes[i * size], size);
  if (array.dtype == DType::i1)
    return bits != 0;
  if (isUnsignedDType(array.dtype) || size == 8)
    return static_cast<int64_t>(bits);
  unsigned shift = 64 - 8 * static_cast<unsigned>(size);
  return static_cast<int64_t>(bits << shift) >> shift; // sign-extend
}

namespace {
/// Appends element `i` of `array` as formatArray shows it.
void appendElement(std::string &text, const HostArray &array, int64_t i) {
  char buffer[64];
  if (isFloatDType(array.dtype))
    std::snprintf(buffer, sizeof(buffer), "%g", getElementAsDouble(array, i));
  else if (isUnsignedDType(array.dtype))
    std::snprintf(buffer, sizeof(buffer), "%llu",
                  static_cast<unsigned long long>(getElementAsInt(array, i)));
  else
    std::snprintf(buffer, sizeof(buffer), "%lld",
                  static_cast<long long>(getElementAsInt(array, i)));
  text += buffer;
}

/// Appends the block of dimensions `d`.. starting at element `offset`;
/// `summarize` shows only kPrintEdgeItems at each end of a dimension.
void appendBlock(std::string &text, const HostArray &array, size_t d,
                 int64_t offset, bool summarize) {
  size_t rank = array.shape.size();
  int64_t size = array.shape[d];
  int64_t stride = 1;
  for (size_t k = d + 1; k < rank; ++k)
    stride *= array.shape[k];
  bool elide = summarize && size > 2 * kPrintEdgeItems;
  std::string separator =
      d + 1 == rank ? ", " : ",\n" + std::string(d + 1, ' ');
  text += '[';
  for (int64_t i = 0; i < size; ++i) {
    if (elide && i == kPrintEdgeItems) {
      text += "..." + separator;
      i = size - kPrintEdgeItems;
    }
    if (d + 1 == rank)
      appendElement(text, array, offset + i);
    else
      appendBlock(text, array, d + 1, offset + i * stride, summarize);
    if (i + 1 < size)
      text += separator;
  }
  text += ']';
}
} // namespace

std::string plaidml::rt::formatArray(const HostArray &array, bool all) {
  int64_t n = array.getNumElements();
  if (array.shape.empty()) {
    std::string text;
    appendElement(text, array, 0);
    return text;
  }
  if (n == 0)
    return "[]";
  std::string text;
  appendBlock(text, array, 0, 0, !all && n > kPrintThreshold);
  return text;
}
