//===- Convolution.cpp - Convolutions and transposed convolutions ---------===//
//
// One contraction per convolution, written once in the NXC / XIO order:
// lenses present NCX inputs and OIX filters in that order, and the output
// is a contraction through the input's lens, so it is stored in the input's
// layout. Groups split the channels with two indices (group g and channel j
// within it). Padding is an explicit zero pad of the input in its own layout
// (a cheap copy) followed by a convolution without padding: with implicit
// padding (reads outside the input being invalid points) every reduction step
// carries a bounds guard, which the CPU code generator cannot block or
// vectorize (ResNet-50's 3x3 convolutions ran 20-50x slower).
//
//===----------------------------------------------------------------------===//

#include "Common.h"

using namespace plaidml::op;
using namespace plaidml::op::detail;
namespace edsl = plaidml::edsl;

SpatialSize plaidml::op::computeSpatialSize(int64_t input, int64_t window,
                                            int64_t stride, int64_t dilation,
                                            Padding padding, int64_t padBefore,
                                            int64_t padAfter) {
  int64_t effective = (window - 1) * dilation + 1;
  switch (padding) {
  case Padding::Valid:
    if (input < effective)
      throw Error("the window of " + std::to_string(effective) + " (size " +
                  std::to_string(window) + ", dilation " +
                  std::to_string(dilation) + ") does not fit in an input of " +
                  std::to_string(input) + " without padding");
    return {(input - effective) / stride + 1, 0};
  case Padding::SameUpper:
  case Padding::SameLower: {
    int64_t out = (input + stride - 1) / stride;
    int64_t total =
        std::max<int64_t>((out - 1) * stride + effective - input, 0);
    return {out, padding == Padding::SameUpper ? total / 2 : (total + 1) / 2};
  }
  case Padding::Explicit: {
    int64_t padded = input + padBefore + padAfter;
    if (padded < effective)
      throw Error("the window of " + std::to_string(effective) +
                  " does not fit in the padded input of " +
                  std::to_string(padded));
    return {(padded - effective) / stride + 1, padBefore};
  }
  }
  return {0, 0};
}

namespace {
/// The spatial letters D, E, F, ... for `n` dimensions.
std::string spatialLetters(size_t n) {
  std::string s;
  for (size_t i = 0; i < n; ++i)
    s += static_cast<char>('D' + i);
  return s;
}

/// The bias added along the channel axis of `out` (storage order).
Tensor addBias(const Tensor &out, const Tensor &bias, DataLayout layout,
               const char *op) {
  if (bias.isNull())
    return out;
  std::vector<int64_t> shape = out.getShape();
  int64_t c = shape[channelAxis(layout, shape.size())];
  if (bias.getShape() != std::vector<int64_t>{c})
    throw Error(std::string(op) + ": the bias is " + bias.str() +
                " but the output has " + std::to_string(c) + " channels");
  if (layout == DataLayout::NXC)
    return out + bias;
  std::vector<int64_t> bshape(shape.size() - 1, 1);
  bshape[0] = c;
  return out + edsl::reshape(bias, bshape);
}

std::vector<int64_t> explicitPads(const std::vector<int64_t> &pads, size_t n,
                                  bool needed, const char *op) {
  if (!needed && pads.empty())
    return std::vector<int64_t>(2 * n, 0);
  if (pads.size() != 2 * n)
    throw Error(std::string(op) + ": pads has " + std::to_string(pads.size()) +
                " entries but " + std::to_string(n) +
                " spatial dimensions need " + std::to_string(2 * n));
  for (int64_t p : pads)
    if (p < 0)
      throw Error(std::string(op) + ": negative padding " + std::to_string(p));
  return pads;
}
} // namespace

Tensor plaidml::op::convolution(const Tensor &input, const Tensor &filter,
                                const ConvOptions &o) {
  const char *op = "convolution";
  int64_t rank = input.getRank();
  size_t ns = rank - 2;
  if (rank < 3 || rank > 5)
    throw Error(std::string(op) + ": the input " + input.str() +
                " must have 1 to 3 spatial dimensions");
  if (filter.getRank() != rank)
    throw Error(std::string(op) + ": rank mismatch: the filter " +
                filter.str() + " and the input " + input.str());
  std::string sp = spatialLetters(ns);
  Tensor in = toNXC(input, o.layout);
  Tensor f = o.filterLayout == FilterLayout::XIO
                 ? filter
                 : filter.use(edsl::TensorLens("OI" + sp, sp + "IO"));
  std::vector<int64_t> inShape = in.getShape(), fShape = f.getShape();
  int64_t n = inShape[0], ci = inShape[rank - 1];
  int64_t cig = fShape[ns], co = fShape[ns + 1], g = o.groups;
  if (g <= 0 || ci != cig * g)
    throw Error(std::string(op) + ": the input has " + std::to_string(ci) +
                " channels but the filter " + filter.str() + " takes " +
                std::to_string(cig) + " per group with " + std::to_string(g) +
                " groups");
  if (co % g != 0)
    throw Error(std::string(op) + ": " + std::to_string(co) +
                " output channels do not split into " + std::to_string(g) +
                " groups");
  int64_t cog = co / g;
  std::vector<int64_t> strides = spatialAttr(o.strides, ns, 1, op, "strides");
  std::vector<int64_t> dil = spatialAttr(o.dilations, ns, 1, op, "dilations");
  std::vector<int64_t> pads =
      explicitPads(o.pads, ns, o.padding == Padding::Explicit, op);

  TensorIndex in_n("n"), in_ci("ci"), grp("g"), j("co");
  std::vector<TensorIndex> x = makeIndices(ns, "x"), k = makeIndices(ns, "k");
  std::vector<TensorIndex> inIdx{in_n}, fIdx, outIdx{in_n};
  std::vector<TensorDim> outShape{n};
  // The zero padding each side of each spatial dimension actually reads.
  std::vector<int64_t> zeroPads(2 * rank, 0);
  bool padded = false;
  for (size_t i = 0; i < ns; ++i) {
    SpatialSize s;
    try {
      s = computeSpatialSize(inShape[1 + i], fShape[i], strides[i], dil[i],
                             o.padding, pads[i], pads[ns + i]);
    } catch (const Error &e) {
      throw Error(std::string(op) + ": spatial dimension " + std::to_string(i) +
                  ": " + e.what());
    }
    int64_t last = (s.output - 1) * strides[i] + (fShape[i] - 1) * dil[i];
    zeroPads[1 + i] = s.padBefore;
    zeroPads[rank + 1 + i] =
        std::max<int64_t>(last + 1 - s.padBefore - inShape[1 + i], 0);
    padded |= zeroPads[1 + i] > 0 || zeroPads[rank + 1 + i] > 0;
    inIdx.push_back(x[i] * strides[i] + k[i] * dil[i]);
    fIdx.push_back(k[i]);
    outIdx.push_back(x[i]);
    outShape.emplace_back(s.output);
  }
  auto [source, nxc] = layoutStrings(o.layout, rank);
  if (padded) {
    // Pad in the input's own layout: the output is stored in that layout
    // too, so the convolution reads the padded copy along the dimension it
    // writes contiguously (the width of an NCX convolution), which the CPU
    // code generator vectorizes. Padded in NXC order, an NCX convolution
    // read the width with a stride of the channel count and ran scalar.
    std::vector<int64_t> sourcePads(2 * rank, 0);
    for (int64_t i = 0; i < rank; ++i) {
      size_t pos = source.find(nxc[i]);
      sourcePads[pos] = zeroPads[i];
      sourcePads[rank + pos] = zeroPads[rank + i];
    }
    in = toNXC(pad(input, sourcePads, PadMode::Constant, 0.0), o.layout);
  }
  TensorIndex outChannel = g == 1 ? j : grp * cog + j;
  inIdx.push_back(g == 1 ? in_ci : grp * cig + in_ci);
  fIdx.push_back(in_ci);
  fIdx.push_back(outChannel);
  outIdx.push_back(outChannel);
  outShape.emplace_back(co);

  Contraction c(edsl::TensorLens(source, nxc), "conv");
  c.outShape(outShape).outAccess(outIdx).sum(in(inIdx)*f(fIdx));
  if (g != 1)
    c.add_constraint(j < cog).add_constraint(grp < g);
  return addBias(storage(c.build()), o.bias, o.layout, op);
}

Tensor plaidml::op::convolution_transpose(const Tensor &input,
                                          const Tensor &filter,
                                          const ConvTransposeOptions &o) {
  const char *op = "convolution_transpose";
  int64_t rank = input.getRank();
  size_t ns = rank - 2;
  if (rank < 3 || rank > 5)
    throw Error(std::string(op) + ": the input " + input.str() +
                " must have 1 to 3 spatial dimensions");
  if (filter.getRank() != rank)
    throw Error(std::string(op) + ": rank mismatch: the filter " +
                filter.str() + " and the input " + input.str());
  std::string sp = spatialLetters(ns);
  Tensor in = toNXC(input, o.layout);
  // XIO: (spatial, CI, CO); OIX: PyTorch's (CI, CO, spatial).
  Tensor f = o.filterLayout == FilterLayout::XIO
                 ? filter
                 : filter.use(edsl::TensorLens("IO" + sp, sp + "IO"));
  std::vector<int64_t> inShape = in.getShape(), fShape = f.getShape();
  int64_t ci = inShape[rank - 1], co = fShape[ns + 1];
  if (fShape[ns] != ci)
    throw Error(std::string(op) + ": the input has " + std::to_string(ci) +
                " channels but the filter " + filter.str() + " takes " +
                std::to_string(fShape[ns]));
  std::vector<int64_t> strides = spatialAttr(o.strides, ns, 1, op, "strides");
  std::vector<int64_t> dil = spatialAttr(o.dilations, ns, 1, op, "dilations");
  std::vector<int64_t> pads = explicitPads(o.pads, ns, false, op);
  std::vector<int64_t> extra =
      o.outputPadding.empty() ? std::vector<int64_t>(ns, 0) : o.outputPadding;
  if (extra.size() != ns)
    throw Error(std::string(op) + ": output padding has " +
                std::to_string(extra.size()) + " entries");

  TensorIndex nI("n"), ciI("ci"), coI("co");
  std::vector<TensorIndex> x = makeIndices(ns, "x"), k = makeIndices(ns, "k");
  std::vector<TensorIndex> inIdx{nI}, fIdx, outIdx{nI};
  std::vector<TensorDim> outShape{inShape[0]};
  for (size_t i = 0; i < ns; ++i) {
    int64_t size = (inShape[1 + i] - 1) * strides[i] - pads[i] - pads[ns + i] +
                   (fShape[i] - 1) * dil[i] + 1 + extra[i];
    if (size <= 0)
      throw Error(std::string(op) + ": spatial dimension " + std::to_string(i) +
                  " of the output would be " + std::to_string(size));
    inIdx.push_back(x[i]);
    fIdx.push_back(k[i]);
    outIdx.push_back(x[i] * strides[i] + k[i] * dil[i] - pads[i]);
    outShape.emplace_back(size);
  }
  inIdx.push_back(ciI);
  fIdx.push_back(ciI);
  fIdx.push_back(coI);
  outIdx.push_back(coI);
  outShape.emplace_back(co);
  auto [source, nxc] = layoutStrings(o.layout, rank);
  Contraction c(edsl::TensorLens(source, nxc), "conv_transpose");
  c.outShape(outShape).outAccess(outIdx).sum(in(inIdx)*f(fIdx));
  return addBias(storage(c.build()), o.bias, o.layout, op);
}
