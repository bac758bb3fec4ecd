//===- Cases.h - The op library's test cases --------------------*- C++ -*-===//
//
// A case is one op over one combination of attributes: its input specs, a
// function that builds the outputs from the placeholders, and the op name
// and attributes (JSON) that check_ops.py reads to recompute it with NumPy.
// ConvCases.cpp holds convolution and pooling, SortRandomCases.cpp the
// argsort and prng intrinsics, OtherCases.cpp the rest.
//
//===----------------------------------------------------------------------===//

#ifndef PLAIDML_TEST_OP_CASES_H
#define PLAIDML_TEST_OP_CASES_H

#include "plaidml/EDSL/EDSL.h"
#include "plaidml/Op/Op.h"

#include <functional>
#include <random>
#include <sstream>

namespace plaidml::optest {

using edsl::DType;
using edsl::Tensor;
using edsl::TensorSpec;

struct Case {
  std::string name, op, attrs;
  std::vector<TensorSpec> inputs;
  std::function<std::vector<Tensor>(const std::vector<Tensor> &)> build;
  /// Representative: also run on the GPU devices.
  bool gpu = false;
  /// Optional: input i's data (default: seeded random).
  std::function<rt::HostArray(size_t, const TensorSpec &, std::mt19937_64 &)>
      makeInput;
};

/// A JSON object built field by field.
class Json {
public:
  Json &i(const std::string &k, int64_t v) { return raw(k, std::to_string(v)); }
  Json &f(const std::string &k, double v) {
    std::ostringstream os;
    os.precision(17);
    os << v;
    return raw(k, os.str());
  }
  Json &b(const std::string &k, bool v) { return raw(k, v ? "true" : "false"); }
  Json &s(const std::string &k, const std::string &v) {
    return raw(k, "\"" + v + "\"");
  }
  Json &v(const std::string &k, const std::vector<int64_t> &v) {
    std::string s = "[";
    for (size_t j = 0; j < v.size(); ++j)
      s += (j ? ", " : "") + std::to_string(v[j]);
    return raw(k, s + "]");
  }
  Json &raw(const std::string &k, const std::string &v) {
    body += (body.empty() ? "" : ", ") + ("\"" + k + "\": ") + v;
    return *this;
  }
  std::string str() const { return "{" + body + "}"; }

private:
  std::string body;
};

inline TensorSpec spec(std::vector<int64_t> shape, DType dtype = DType::f32) {
  return TensorSpec{"", dtype, std::move(shape)};
}

void addConvCases(std::vector<Case> &cases);
void addOtherCases(std::vector<Case> &cases);
void addSortRandomCases(std::vector<Case> &cases);

inline std::vector<Case> getCases() {
  std::vector<Case> cases;
  addConvCases(cases);
  addOtherCases(cases);
  addSortRandomCases(cases);
  return cases;
}

} // namespace plaidml::optest

#endif // PLAIDML_TEST_OP_CASES_H
