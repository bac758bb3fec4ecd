//===- OpenBlasPeer.cpp - SGEMM with OpenBLAS -----------------------------===//
//
// The SGEMM peer: cblas_sgemm on row-major matrices, as PlaidML's program
// lays them out. OpenBLAS picks its kernels when the library loads, from
// OPENBLAS_CORETYPE or its own CPU detection; plaidml-bench-cpu sets the
// variable before that happens (it re-executes itself), and
// describeOpenBlas() reports the core that was used.
//
//===----------------------------------------------------------------------===//

#include "Peers.h"

#include <cblas.h>

using namespace plaidml;
using namespace plaidml::bench;

namespace {
class OpenBlasSgemm : public Peer {
public:
  OpenBlasSgemm(const float *a, const float *b, int64_t m, int64_t k, int64_t n,
                unsigned threads)
      : a(a), b(b), m(m), k(k), n(n), c(static_cast<size_t>(m * n)) {
    // Global to OpenBLAS: holds until the next case's peer sets its own.
    openblas_set_num_threads(static_cast<int>(threads));
  }

  std::string getName() const override { return "OpenBLAS"; }

  rt::Status run() override {
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, m, n, k, 1.0f, a, k,
                b, n, 0.0f, c.data(), n);
    return rt::Status::success();
  }

  rt::StatusOr<std::vector<float>> getExpected() override { return c; }

private:
  const float *a, *b;
  int64_t m, k, n;
  std::vector<float> c;
};
} // namespace

std::unique_ptr<Peer>
plaidml::bench::createOpenBlasSgemm(const float *a, const float *b, int64_t m,
                                    int64_t k, int64_t n, unsigned threads) {
  return std::make_unique<OpenBlasSgemm>(a, b, m, k, n, threads);
}

std::string plaidml::bench::describeOpenBlas() {
  std::string config = openblas_get_config();
  // The config starts with "OpenBLAS 0.3.21 "; the core is its own field.
  return config + ", core " + openblas_get_corename() + ", " +
         std::to_string(openblas_get_num_procs()) + " processors";
}
