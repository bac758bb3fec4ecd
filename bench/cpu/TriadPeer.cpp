//===- TriadPeer.cpp - The memory-bandwidth yardstick ---------------------===//
//
// STREAM's triad, a[i] = b[i] + s * c[i], on three arrays as large as the
// elementwise chain's input: what this machine's memory delivers to a loop
// the host compiler vectorizes for it (this file is built with -O3
// -march=native). With several threads each takes one contiguous slice;
// threads are started per run, which costs microseconds against the tens of
// milliseconds a run of 16M elements takes.
//
//===----------------------------------------------------------------------===//

#include "Peers.h"

#include "plaidml/Runtime/Program.h"

#include <thread>

using namespace plaidml;
using namespace plaidml::bench;

namespace {
void triad(float *__restrict a, const float *__restrict b,
           const float *__restrict c, float s, int64_t begin, int64_t end) {
  for (int64_t i = begin; i < end; ++i)
    a[i] = b[i] + s * c[i];
}

class Triad : public Peer {
public:
  Triad(const float *x, const float *bias, int64_t rows, int64_t cols,
        unsigned threads, rt::AlignedBuffer a, rt::AlignedBuffer b,
        rt::AlignedBuffer c)
      : x(x), bias(bias), rows(rows), cols(cols), threads(threads),
        a(std::move(a)), b(std::move(b)), c(std::move(c)) {
    float *bp = static_cast<float *>(this->b.data());
    float *cp = static_cast<float *>(this->c.data());
    for (int64_t i = 0, e = rows * cols; i < e; ++i) {
      bp[i] = 1.0f;
      cp[i] = 2.0f;
    }
  }

  std::string getName() const override { return "triad"; }

  rt::Status run() override {
    auto *ap = static_cast<float *>(a.data());
    auto *bp = static_cast<const float *>(b.data());
    auto *cp = static_cast<const float *>(c.data());
    int64_t elements = rows * cols;
    std::vector<std::thread> workers;
    for (unsigned t = 1; t < threads; ++t)
      workers.emplace_back(triad, ap, bp, cp, 0.5f, elements * t / threads,
                           elements * (t + 1) / threads);
    triad(ap, bp, cp, 0.5f, 0, elements / threads);
    for (std::thread &worker : workers)
      worker.join();
    return rt::Status::success();
  }

  rt::StatusOr<std::vector<float>> getExpected() override {
    // relu as PlaidML defines it: select(v < 0, 0, v).
    std::vector<float> out(static_cast<size_t>(rows * cols));
    for (int64_t r = 0; r < rows; ++r)
      for (int64_t col = 0; col < cols; ++col) {
        float v = x[r * cols + col] + bias[col];
        out[r * cols + col] = (v < 0.0f ? 0.0f : v) * 0.5f;
      }
    return out;
  }

private:
  const float *x, *bias;
  int64_t rows, cols;
  unsigned threads;
  rt::AlignedBuffer a, b, c;
};
} // namespace

rt::StatusOr<std::unique_ptr<Peer>>
plaidml::bench::createTriad(const float *x, const float *bias, int64_t rows,
                            int64_t cols, unsigned threads) {
  size_t bytes = static_cast<size_t>(rows * cols) * sizeof(float);
  rt::StatusOr<rt::AlignedBuffer> a = rt::AlignedBuffer::allocate(bytes, "a");
  rt::StatusOr<rt::AlignedBuffer> b = rt::AlignedBuffer::allocate(bytes, "b");
  rt::StatusOr<rt::AlignedBuffer> c = rt::AlignedBuffer::allocate(bytes, "c");
  for (auto *buffer : {&a, &b, &c})
    if (!buffer->ok())
      return buffer->status().withContext("triad");
  return std::unique_ptr<Peer>(
      std::make_unique<Triad>(x, bias, rows, cols, threads, std::move(*a),
                              std::move(*b), std::move(*c)));
}
