//===- SortAndRandom.cpp - Reference tile.argsort and tile.prng -----------===//
//
// The reference semantics of the two ops that are not elementwise or
// contractions. tile.argsort sorts each line with std::sort and a comparator
// that puts NaNs above every number and breaks ties by position (a stable
// order), an algorithm independent of the rank counting of the lowering.
// tile.prng evaluates Philox4x32-10 as written in the Random123 paper, with
// 64-bit products for the mulhi/mullo steps (the lowering splits them into
// 16-bit halves), and converts words to floats by exact scaling.
//
//===----------------------------------------------------------------------===//

#include "Internal.h"
#include "Scalar.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <numeric>

using namespace mlir;
using namespace mlir::plaidml;
using namespace mlir::plaidml::reference;
using namespace mlir::plaidml::tile;

FailureOr<Buffer> reference::evaluateArgSort(ArgSortOp op,
                                             const Buffer &operand) {
  auto type = operand.getType();
  ArrayRef<int64_t> shape = type.getShape();
  Type element = type.getElementType();
  int64_t axis = op.getAxis();
  int64_t size = shape[axis];
  int64_t inner = 1;
  for (int64_t d = axis + 1; d < type.getRank(); ++d)
    inner *= shape[d];
  int64_t outer = size == 0 ? 0 : operand.getNumElements() / (size * inner);
  bool descending = op.getDirection() == SortDirection::desc;
  bool isFloat = isa<FloatType>(element);

  // a comes before b in ascending order (NaN above everything, NaNs equal).
  auto less = [&](const Scalar &a, const Scalar &b) {
    if (isFloat) {
      if (std::isnan(a.f))
        return false;
      if (std::isnan(b.f))
        return true;
    }
    return compare("lt", a, b, element);
  };

  FailureOr<Buffer> created =
      Buffer::create(cast<RankedTensorType>(op.getType()), op.getLoc());
  if (failed(created))
    return failure();
  Buffer result = std::move(*created);
  std::vector<int64_t> order(size);
  std::vector<Scalar> line(size);
  for (int64_t o = 0; o < outer; ++o) {
    for (int64_t i = 0; i < inner; ++i) {
      int64_t base = o * size * inner + i;
      for (int64_t k = 0; k < size; ++k)
        line[k] = readAs(operand, base + k * inner, element);
      std::iota(order.begin(), order.end(), 0);
      // Stable: equal keys order by position.
      std::sort(order.begin(), order.end(), [&](int64_t a, int64_t b) {
        bool first =
            descending ? less(line[b], line[a]) : less(line[a], line[b]);
        bool last =
            descending ? less(line[a], line[b]) : less(line[b], line[a]);
        return first || (!last && a < b);
      });
      for (int64_t k = 0; k < size; ++k)
        result.setInt(base + k * inner, order[k]);
    }
  }
  return std::move(result);
}

namespace {
using Words = std::array<uint32_t, 4>;

/// philox4x32 with 10 rounds (Random123, Salmon et al. SC'11).
Words philox4x32_10(Words ctr, uint32_t k0, uint32_t k1) {
  for (int round = 0; round < 10; ++round) {
    if (round > 0) {
      k0 += 0x9E3779B9u;
      k1 += 0xBB67AE85u;
    }
    uint64_t p0 = uint64_t(0xD2511F53u) * ctr[0];
    uint64_t p1 = uint64_t(0xCD9E8D57u) * ctr[2];
    ctr = {uint32_t(p1 >> 32) ^ ctr[1] ^ k0, uint32_t(p1),
           uint32_t(p0 >> 32) ^ ctr[3] ^ k1, uint32_t(p0)};
  }
  return ctr;
}

/// The 128-bit counter `c + n`, wrapping.
Words addToCounter(Words c, uint64_t n) {
  for (uint32_t &word : c) {
    uint64_t sum = uint64_t(word) + (n & 0xffffffffu);
    word = uint32_t(sum);
    n = (n >> 32) + (sum >> 32);
  }
  return c;
}
} // namespace

FailureOr<std::pair<Buffer, Buffer>>
reference::evaluatePrng(PrngOp op, const Buffer &state) {
  std::array<uint32_t, 6> s;
  for (int i = 0; i < 6; ++i)
    s[i] = static_cast<uint32_t>(state.getInt(i));
  Words counter = {s[2], s[3], s[4], s[5]};
  FailureOr<Buffer> createdValues = Buffer::create(
      cast<RankedTensorType>(op.getValues().getType()), op.getLoc());
  if (failed(createdValues))
    return failure();
  Buffer values = std::move(*createdValues);
  Type element = values.getElementType();
  int64_t count = values.getNumElements();
  Words words{};
  for (int64_t i = 0; i < count; ++i) {
    if (i % 4 == 0)
      words = philox4x32_10(addToCounter(counter, i / 4), s[0], s[1]);
    uint32_t w = words[i % 4];
    if (element.isF32())
      values.setFloat(i, std::ldexp(double(w >> 8), -24));
    else if (element.isF16())
      values.setFloat(i, std::ldexp(double(w >> 21), -11));
    else if (element.isBF16())
      values.setFloat(i, std::ldexp(double(w >> 24), -8));
    else if (element.isF64())
      values.setFloat(i, std::ldexp(double(w), -32));
    else
      values.setInt(i, w); // wrapped to the 32-bit integer type
  }
  FailureOr<Buffer> createdNext = Buffer::create(state.getType(), op.getLoc());
  if (failed(createdNext))
    return failure();
  Buffer next = std::move(*createdNext);
  Words advanced = addToCounter(counter, (count + 3) / 4);
  next.setInt(0, s[0]);
  next.setInt(1, s[1]);
  for (int i = 0; i < 4; ++i)
    next.setInt(2 + i, advanced[i]);
  return std::make_pair(std::move(values), std::move(next));
}
