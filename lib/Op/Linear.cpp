//===- Linear.cpp - Matrix products: matmul, dense, gemm ------------------===//
//
// NumPy matmul as one contraction: 1-D operands become matrices, batch
// dimensions broadcast (a size-1 batch dimension is read at 0). dense adds
// a bias; gemm is ONNX's alpha * op(A) op(B) + beta * C.
//
//===----------------------------------------------------------------------===//

#include "Common.h"

using namespace plaidml::op;
using namespace plaidml::op::detail;
namespace edsl = plaidml::edsl;

Tensor plaidml::op::matmul(const Tensor &a, const Tensor &b) {
  int64_t ra = a.getRank(), rb = b.getRank();
  if (ra == 0 || rb == 0)
    throw Error("matmul: operands must have rank 1 or more, not " + a.str() +
                " and " + b.str());
  Tensor A = ra == 1 ? edsl::reshape(a, {1, a.getShape()[0]}) : a;
  Tensor B = rb == 1 ? edsl::reshape(b, {b.getShape()[0], 1}) : b;
  std::vector<int64_t> sa = A.getShape(), sb = B.getShape();
  int64_t m = sa[sa.size() - 2], k = sa.back(), k2 = sb[sb.size() - 2],
          n = sb.back();
  if (k != k2)
    throw Error("matmul: the inner dimensions of " + a.str() + " and " +
                b.str() + " differ (" + std::to_string(k) + " and " +
                std::to_string(k2) + ")");
  size_t batchA = sa.size() - 2, batchB = sb.size() - 2;
  size_t batch = std::max(batchA, batchB);
  std::vector<TensorIndex> bi = makeIndices(batch, "b");
  std::vector<TensorIndex> aIdx, bIdx, outIdx;
  std::vector<TensorDim> outShape;
  for (size_t i = 0; i < batch; ++i) {
    int64_t da = i + batchA >= batch ? sa[i + batchA - batch] : 1;
    int64_t db = i + batchB >= batch ? sb[i + batchB - batch] : 1;
    if (da != db && da != 1 && db != 1)
      throw Error("matmul: batch dimensions of " + a.str() + " and " + b.str() +
                  " do not broadcast");
    int64_t d = std::max(da, db);
    outShape.emplace_back(d);
    outIdx.push_back(bi[i]);
    if (i + batchA >= batch)
      aIdx.push_back(da == 1 && d != 1 ? TensorIndex(0) : bi[i]);
    if (i + batchB >= batch)
      bIdx.push_back(db == 1 && d != 1 ? TensorIndex(0) : bi[i]);
  }
  TensorIndex mi("m"), ni("n"), ki("k");
  aIdx.push_back(mi);
  aIdx.push_back(ki);
  bIdx.push_back(ki);
  bIdx.push_back(ni);
  outIdx.push_back(mi);
  outIdx.push_back(ni);
  outShape.emplace_back(m);
  outShape.emplace_back(n);
  Tensor r = Contraction("matmul")
                 .outShape(outShape)
                 .outAccess(outIdx)
                 .sum(A(aIdx) * B(bIdx))
                 .build();
  std::vector<int64_t> shape = r.getShape();
  if (ra == 1 || rb == 1) {
    std::vector<int64_t> out(shape.begin(), shape.end() - 2);
    if (ra != 1)
      out.push_back(m);
    if (rb != 1)
      out.push_back(n);
    return edsl::reshape(r, out);
  }
  return r;
}

Tensor plaidml::op::dense(const Tensor &x, const Tensor &weights,
                          const Tensor &bias) {
  Tensor r = matmul(x, weights);
  return bias.isNull() ? r : r + bias;
}

Tensor plaidml::op::gemm(const Tensor &a, const Tensor &b, const Tensor &c,
                         double alpha, double beta, bool transA, bool transB) {
  if (a.getRank() != 2 || b.getRank() != 2)
    throw Error("gemm: A and B must be matrices, not " + a.str() + " and " +
                b.str());
  std::vector<int64_t> sa = a.getShape(), sb = b.getShape();
  int64_t m = transA ? sa[1] : sa[0], k = transA ? sa[0] : sa[1];
  int64_t k2 = transB ? sb[1] : sb[0], n = transB ? sb[0] : sb[1];
  if (k != k2)
    throw Error("gemm: the inner dimensions of op(A) " + a.str() +
                " and op(B) " + b.str() + " differ");
  TensorIndex mi("m"), ni("n"), ki("k");
  Tensor r = Contraction("gemm")
                 .outShape({TensorDim(m), TensorDim(n)})
                 .outAccess({mi, ni})
                 .sum(a(transA ? ki : mi, transA ? mi : ki) *
                      b(transB ? ni : ki, transB ? ki : ni))
                 .build();
  if (alpha != 1.0)
    r = r * alpha;
  if (!c.isNull())
    r = beta == 1.0 ? r + c : r + c * beta;
  return r;
}
