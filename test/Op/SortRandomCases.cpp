//===- SortRandomCases.cpp - Test cases of argsort and prng ---------------===//
//
// The EDSL intrinsics argsort and prng, checked exactly by check_ops.py:
// argsort along every axis in both directions, on floats with ties, signed
// zeros and NaNs, on integers with many ties, and on lines of one element;
// prng of every generated element type from states whose counter carries
// across words, with the new state, and two chained calls.
//
//===----------------------------------------------------------------------===//

#include "Cases.h"

#include <cmath>
#include <cstring>
#include <limits>

using namespace plaidml;
using namespace plaidml::optest;

namespace {
using Build = std::function<std::vector<Tensor>(const std::vector<Tensor> &)>;

std::string shapeName(const std::vector<int64_t> &s) {
  std::string r;
  for (size_t i = 0; i < s.size(); ++i)
    r += (i ? "x" : "") + std::to_string(s[i]);
  return r;
}

/// f32 keys from a few values, so lines have ties, with -0.0 and NaN mixed
/// in.
rt::HostArray tiedFloats(size_t, const TensorSpec &spec, std::mt19937_64 &rng) {
  rt::HostArray a;
  a.dtype = DType::f32;
  a.shape = spec.shape;
  std::vector<float> v(a.getNumElements());
  for (float &x : v) {
    switch (rng() % 8) {
    case 0:
      x = std::numeric_limits<float>::quiet_NaN();
      break;
    case 1:
      x = -0.0f;
      break;
    case 2:
      x = 0.0f;
      break;
    default:
      x = static_cast<float>(static_cast<int>(rng() % 7) - 3) * 0.5f;
    }
  }
  a.bytes.resize(v.size() * sizeof(float));
  std::memcpy(a.bytes.data(), v.data(), a.bytes.size());
  return a;
}

/// A prng state: a key from the seed and a counter whose low words are near
/// 2^32 - 1, so the blocks of one call carry across words.
rt::HostArray carryState(size_t, const TensorSpec &, std::mt19937_64 &rng) {
  rt::HostArray a;
  a.dtype = DType::ui32;
  a.shape = {6};
  uint32_t w[6] = {static_cast<uint32_t>(rng()),
                   static_cast<uint32_t>(rng()),
                   0xfffffffeu,
                   0xffffffffu,
                   static_cast<uint32_t>(rng() % 3),
                   0};
  a.bytes.resize(sizeof(w));
  std::memcpy(a.bytes.data(), w, sizeof(w));
  return a;
}
} // namespace

void plaidml::optest::addSortRandomCases(std::vector<Case> &cases) {
  struct Sort {
    std::vector<int64_t> shape;
    int64_t axis;
    DType dtype;
    bool ties, gpu;
  };
  for (const Sort &s : {Sort{{3, 7}, -1, DType::f32, false, true},
                        Sort{{4, 9}, 1, DType::f32, true, true},
                        Sort{{4, 9}, 0, DType::f32, true, false},
                        Sort{{2, 3, 5}, 1, DType::si32, false, true},
                        Sort{{6, 5}, 0, DType::si32, false, false},
                        Sort{{5, 1}, 1, DType::f32, false, true},
                        Sort{{1}, 0, DType::si32, false, false}})
    for (bool desc : {false, true}) {
      Case c;
      c.name = std::string("argsort_") + (desc ? "desc_" : "asc_") +
               shapeName(s.shape) + "_axis" +
               (s.axis < 0 ? "m" + std::to_string(-s.axis)
                           : std::to_string(s.axis)) +
               "_" + rt::getDTypeName(s.dtype) + (s.ties ? "_ties" : "");
      c.op = "argsort";
      c.attrs = Json()
                    .i("axis", s.axis)
                    .s("direction", desc ? "desc" : "asc")
                    .b("exact", true)
                    .str();
      c.inputs = {spec(s.shape, s.dtype)};
      int64_t axis = s.axis;
      c.build = [=](const std::vector<Tensor> &x) {
        return std::vector<Tensor>{edsl::argsort(
            x[0], axis,
            desc ? edsl::SortDirection::Desc : edsl::SortDirection::Asc)};
      };
      if (s.ties)
        c.makeInput = tiedFloats;
      c.gpu = s.gpu;
      cases.push_back(std::move(c));
    }

  struct Random {
    std::vector<int64_t> shape;
    DType dtype;
    bool gpu;
  };
  for (const Random &r :
       {Random{{7}, DType::f32, true}, Random{{2, 3, 5}, DType::ui32, true},
        Random{{3, 3}, DType::si32, false}, Random{{4, 5}, DType::f16, true},
        Random{{5}, DType::f64, false}, Random{{1}, DType::f32, false}}) {
    Case c;
    c.name = "prng_" + shapeName(r.shape) + "_" + rt::getDTypeName(r.dtype);
    c.op = "prng";
    c.attrs = Json()
                  .v("shape", r.shape)
                  .s("dtype", rt::getDTypeName(r.dtype))
                  .b("exact", true)
                  .str();
    c.inputs = {spec({6}, DType::ui32)};
    std::vector<int64_t> shape = r.shape;
    DType dtype = r.dtype;
    c.build = [=](const std::vector<Tensor> &x) {
      edsl::PrngResult p = edsl::prng(x[0], shape, dtype);
      return std::vector<Tensor>{p.values, p.state};
    };
    c.makeInput = carryState;
    c.gpu = r.gpu;
    cases.push_back(std::move(c));
  }
  // Two chained calls: the second continues where the first stopped.
  Case c;
  c.name = "prng_chained_5_3";
  c.op = "prng_chained";
  c.attrs = Json().v("shapes", {5, 3}).b("exact", true).str();
  c.inputs = {spec({6}, DType::ui32)};
  c.build = [](const std::vector<Tensor> &x) {
    edsl::PrngResult a = edsl::prng(x[0], {5}, DType::ui32);
    edsl::PrngResult b = edsl::prng(a.state, {3}, DType::ui32);
    return std::vector<Tensor>{a.values, b.values, b.state};
  };
  c.makeInput = carryState;
  c.gpu = true;
  cases.push_back(std::move(c));
}
