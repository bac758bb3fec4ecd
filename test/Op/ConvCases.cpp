//===- ConvCases.cpp - Convolution and pooling test cases -----------------===//
//
// Convolutions over strides x padding x dilation for 2-D, layouts x groups
// (plain, grouped, depthwise), 1-D and 3-D, bias, degenerate sizes (1x1
// images, one channel, batch 1) and sizes that leave remainders with
// stride 2; transposed convolutions; max and average pooling over padding,
// strides and count-include-pad, dilated windows and ceil mode; global
// pooling.
//
//===----------------------------------------------------------------------===//

#include "Cases.h"

using namespace plaidml;
using namespace plaidml::optest;
using namespace plaidml::op;

namespace {
const char *paddingName(Padding p) {
  switch (p) {
  case Padding::Valid:
    return "valid";
  case Padding::SameUpper:
    return "same_upper";
  case Padding::SameLower:
    return "same_lower";
  case Padding::Explicit:
    return "explicit";
  }
  return "";
}

struct ConvCase {
  std::vector<int64_t> spatial, kernel, strides, dilations, pads;
  int64_t n = 2, ci = 4, co = 6, groups = 1;
  Padding padding = Padding::Valid;
  DataLayout layout = DataLayout::NXC;
  FilterLayout filterLayout = FilterLayout::XIO;
  bool bias = false, gpu = false;
};

void addConv(std::vector<Case> &cases, const ConvCase &cc) {
  Case c;
  std::string name = "conv" + std::to_string(cc.spatial.size()) + "d";
  for (int64_t s : cc.spatial)
    name += "_" + std::to_string(s);
  name += std::string("_k") + std::to_string(cc.kernel[0]) + "_s" +
          std::to_string(cc.strides.empty() ? 1 : cc.strides[0]) + "_d" +
          std::to_string(cc.dilations.empty() ? 1 : cc.dilations[0]) + "_" +
          paddingName(cc.padding) + "_g" + std::to_string(cc.groups) +
          (cc.layout == DataLayout::NXC ? "_nxc" : "_ncx") +
          (cc.filterLayout == FilterLayout::XIO ? "_xio" : "_oix") +
          (cc.bias ? "_bias" : "") + "_n" + std::to_string(cc.n) + "_c" +
          std::to_string(cc.ci) + "_" + std::to_string(cc.co);
  c.name = name;
  c.op = "conv";
  c.gpu = cc.gpu;
  std::vector<int64_t> in{cc.n}, f;
  if (cc.layout == DataLayout::NCX)
    in.push_back(cc.ci);
  in.insert(in.end(), cc.spatial.begin(), cc.spatial.end());
  if (cc.layout == DataLayout::NXC)
    in.push_back(cc.ci);
  if (cc.filterLayout == FilterLayout::XIO) {
    f = cc.kernel;
    f.push_back(cc.ci / cc.groups);
    f.push_back(cc.co);
  } else {
    f = {cc.co, cc.ci / cc.groups};
    f.insert(f.end(), cc.kernel.begin(), cc.kernel.end());
  }
  c.inputs = {spec(in), spec(f)};
  if (cc.bias)
    c.inputs.push_back(spec({cc.co}));
  c.attrs = Json()
                .v("strides", cc.strides)
                .v("dilations", cc.dilations)
                .s("padding", paddingName(cc.padding))
                .v("pads", cc.pads)
                .i("groups", cc.groups)
                .s("layout", cc.layout == DataLayout::NXC ? "nxc" : "ncx")
                .s("filter_layout",
                   cc.filterLayout == FilterLayout::XIO ? "xio" : "oix")
                .b("bias", cc.bias)
                .str();
  c.build = [cc](const std::vector<Tensor> &x) {
    ConvOptions o;
    o.strides = cc.strides;
    o.dilations = cc.dilations;
    o.padding = cc.padding;
    o.pads = cc.pads;
    o.groups = cc.groups;
    o.layout = cc.layout;
    o.filterLayout = cc.filterLayout;
    if (cc.bias)
      o.bias = x[2];
    return std::vector<Tensor>{convolution(x[0], x[1], o)};
  };
  cases.push_back(std::move(c));
}

void addConvTranspose(std::vector<Case> &cases, std::vector<int64_t> spatial,
                      std::vector<int64_t> kernel, std::vector<int64_t> strides,
                      std::vector<int64_t> pads, std::vector<int64_t> extra,
                      DataLayout layout, FilterLayout fl, bool gpu) {
  Case c;
  c.name = "conv_transpose" + std::to_string(spatial.size()) + "d_" +
           std::to_string(spatial[0]) + "_k" + std::to_string(kernel[0]) +
           "_s" + std::to_string(strides[0]) + "_p" +
           std::to_string(pads.empty() ? 0 : pads[0]) + "_e" +
           std::to_string(extra.empty() ? 0 : extra[0]) +
           (layout == DataLayout::NXC ? "_nxc" : "_ncx") +
           (fl == FilterLayout::XIO ? "_xio" : "_oix");
  c.op = "conv_transpose";
  c.gpu = gpu;
  int64_t n = 2, ci = 3, co = 5;
  std::vector<int64_t> in{n}, f;
  if (layout == DataLayout::NCX)
    in.push_back(ci);
  in.insert(in.end(), spatial.begin(), spatial.end());
  if (layout == DataLayout::NXC)
    in.push_back(ci);
  if (fl == FilterLayout::XIO) {
    f = kernel;
    f.push_back(ci);
    f.push_back(co);
  } else {
    f = {ci, co};
    f.insert(f.end(), kernel.begin(), kernel.end());
  }
  c.inputs = {spec(in), spec(f)};
  c.attrs = Json()
                .v("strides", strides)
                .v("pads", pads)
                .v("output_padding", extra)
                .s("layout", layout == DataLayout::NXC ? "nxc" : "ncx")
                .s("filter_layout", fl == FilterLayout::XIO ? "xio" : "oix")
                .str();
  c.build = [=](const std::vector<Tensor> &x) {
    ConvTransposeOptions o;
    o.strides = strides;
    o.pads = pads;
    o.outputPadding = extra;
    o.layout = layout;
    o.filterLayout = fl;
    return std::vector<Tensor>{convolution_transpose(x[0], x[1], o)};
  };
  cases.push_back(std::move(c));
}

void addPool(std::vector<Case> &cases, PoolMode mode,
             std::vector<int64_t> spatial, std::vector<int64_t> window,
             std::vector<int64_t> strides, Padding padding,
             std::vector<int64_t> pads, bool includePad, DataLayout layout,
             bool gpu, std::vector<int64_t> dilations = {},
             bool ceilMode = false) {
  Case c;
  c.name = std::string(mode == PoolMode::Max ? "maxpool" : "avgpool") +
           std::to_string(spatial.size()) + "d_" + std::to_string(spatial[0]) +
           "_w" + std::to_string(window[0]) + "_s" +
           std::to_string(strides.empty() ? 1 : strides[0]) + "_" +
           paddingName(padding) + (includePad ? "_incpad" : "") +
           (layout == DataLayout::NXC ? "_nxc" : "_ncx") +
           (dilations.empty() ? "" : "_d" + std::to_string(dilations[0])) +
           (ceilMode ? "_ceil" : "");
  c.op = "pool";
  c.gpu = gpu;
  std::vector<int64_t> in{2};
  if (layout == DataLayout::NCX)
    in.push_back(3);
  in.insert(in.end(), spatial.begin(), spatial.end());
  if (layout == DataLayout::NXC)
    in.push_back(3);
  c.inputs = {spec(in)};
  c.attrs = Json()
                .s("mode", mode == PoolMode::Max ? "max" : "avg")
                .v("window", window)
                .v("strides", strides)
                .s("padding", paddingName(padding))
                .v("pads", pads)
                .b("count_include_pad", includePad)
                .s("layout", layout == DataLayout::NXC ? "nxc" : "ncx")
                .v("dilations", dilations)
                .b("ceil_mode", ceilMode)
                .str();
  c.build = [=](const std::vector<Tensor> &x) {
    PoolOptions o;
    o.window = window;
    o.strides = strides;
    o.dilations = dilations;
    o.ceilMode = ceilMode;
    o.padding = padding;
    o.pads = pads;
    o.countIncludePad = includePad;
    o.layout = layout;
    return std::vector<Tensor>{pool(x[0], mode, o)};
  };
  cases.push_back(std::move(c));
}
} // namespace

void plaidml::optest::addConvCases(std::vector<Case> &cases) {
  const Padding paddings[] = {Padding::Valid, Padding::SameUpper,
                              Padding::SameLower, Padding::Explicit};
  // 2-D: strides x dilations x padding; groups and layouts rotate.
  int k = 0;
  for (int64_t s : {1, 2})
    for (int64_t d : {1, 2})
      for (Padding p : paddings) {
        ConvCase cc;
        cc.spatial = {7, 6};
        cc.kernel = {3, 2};
        cc.strides = {s, s};
        cc.dilations = {d, d};
        cc.padding = p;
        if (p == Padding::Explicit)
          cc.pads = {1, 0, 2, 1};
        cc.groups = (k % 3 == 0) ? 1 : (k % 3 == 1 ? 2 : 4);
        cc.co = cc.groups == 4 ? 8 : 6;
        cc.layout = (k / 3) % 2 ? DataLayout::NCX : DataLayout::NXC;
        cc.filterLayout = (k / 2) % 2 ? FilterLayout::OIX : FilterLayout::XIO;
        cc.bias = k % 4 == 3;
        cc.gpu = k % 5 == 0;
        addConv(cases, cc);
        ++k;
      }
  // Layouts x groups (plain, grouped, depthwise with multiplier 2).
  for (DataLayout l : {DataLayout::NXC, DataLayout::NCX})
    for (FilterLayout fl : {FilterLayout::XIO, FilterLayout::OIX})
      for (int64_t g : {1, 2, 4}) {
        ConvCase cc;
        cc.spatial = {5, 5};
        cc.kernel = {3, 3};
        cc.padding = Padding::SameUpper;
        cc.groups = g;
        cc.co = g == 4 ? 8 : 6;
        cc.layout = l;
        cc.filterLayout = fl;
        cc.bias = true;
        cc.gpu = g == 4 && fl == FilterLayout::XIO;
        addConv(cases, cc);
      }
  // 1-D and 3-D.
  for (int64_t s : {1, 2}) {
    ConvCase cc;
    cc.spatial = {9};
    cc.kernel = {3};
    cc.strides = {s};
    cc.dilations = {3 - s};
    cc.padding = s == 1 ? Padding::SameLower : Padding::Valid;
    cc.layout = s == 1 ? DataLayout::NCX : DataLayout::NXC;
    cc.gpu = s == 2;
    addConv(cases, cc);
    ConvCase c3;
    c3.spatial = {4, 5, 3};
    c3.kernel = {2, 3, 2};
    c3.strides = {s, s, s};
    c3.padding = s == 1 ? Padding::Valid : Padding::SameUpper;
    c3.groups = s;
    c3.ci = 2;
    c3.co = 4;
    c3.layout = s == 2 ? DataLayout::NCX : DataLayout::NXC;
    addConv(cases, c3);
  }
  // Degenerate sizes: 1x1 images, a single channel, batch 1, a 1x1 kernel.
  {
    ConvCase cc;
    cc.spatial = {1, 1};
    cc.kernel = {1, 1};
    cc.n = 1;
    cc.ci = 1;
    cc.co = 1;
    cc.gpu = true;
    addConv(cases, cc);
    cc.kernel = {3, 3};
    cc.padding = Padding::SameUpper;
    cc.ci = 3;
    addConv(cases, cc);
    ConvCase one;
    one.spatial = {6, 6};
    one.kernel = {1, 1};
    one.strides = {2, 2};
    one.n = 1;
    one.ci = 1;
    one.co = 2;
    one.layout = DataLayout::NCX;
    addConv(cases, one);
    ConvCase dw;
    dw.spatial = {1, 1};
    dw.kernel = {3, 3};
    dw.padding = Padding::SameUpper;
    dw.n = 1;
    dw.ci = 3;
    dw.co = 3;
    dw.groups = 3;
    addConv(cases, dw);
  }

  // Transposed convolutions.
  addConvTranspose(cases, {4, 3}, {3, 3}, {2, 2}, {}, {}, DataLayout::NXC,
                   FilterLayout::XIO, true);
  addConvTranspose(cases, {4, 4}, {3, 3}, {2, 2}, {1, 1, 1, 1}, {1, 1},
                   DataLayout::NCX, FilterLayout::OIX, false);
  addConvTranspose(cases, {5}, {2}, {1}, {0, 1}, {}, DataLayout::NXC,
                   FilterLayout::XIO, false);
  addConvTranspose(cases, {1, 1}, {2, 2}, {3, 3}, {}, {}, DataLayout::NCX,
                   FilterLayout::XIO, false);

  // Pooling.
  for (PoolMode m : {PoolMode::Max, PoolMode::Average})
    for (Padding p : paddings) {
      std::vector<int64_t> pads;
      if (p == Padding::Explicit)
        pads = {1, 0, 1, 1};
      for (int64_t s : {1, 2}) {
        bool inc = m == PoolMode::Average && s == 2;
        addPool(cases, m, {7, 6}, {3, 2}, {s, s}, p, pads, inc,
                s == 1 ? DataLayout::NXC : DataLayout::NCX,
                p == Padding::SameUpper && s == 2);
      }
    }
  addPool(cases, PoolMode::Average, {5, 5}, {3, 3}, {2, 2}, Padding::Explicit,
          {1, 1, 1, 1}, false, DataLayout::NXC, false);
  addPool(cases, PoolMode::Max, {9}, {2}, {2}, Padding::Valid, {}, false,
          DataLayout::NXC, false);
  addPool(cases, PoolMode::Average, {4, 4, 3}, {2, 2, 2}, {2, 2, 1},
          Padding::SameUpper, {}, false, DataLayout::NCX, false);
  addPool(cases, PoolMode::Max, {1, 1}, {1, 1}, {1, 1}, Padding::Valid, {},
          false, DataLayout::NXC, false);
  // Dilated windows, and ceil mode (a last partial window; with padding and
  // count-include-pad, the padding added for it does not count).
  addPool(cases, PoolMode::Max, {7, 6}, {2, 2}, {1, 2}, Padding::Explicit,
          {1, 0, 1, 1}, false, DataLayout::NCX, false, {2, 2});
  addPool(cases, PoolMode::Average, {7, 6}, {3, 2}, {2, 2}, Padding::Explicit,
          {0, 0, 0, 0}, false, DataLayout::NCX, false, {2, 1});
  addPool(cases, PoolMode::Max, {7, 6}, {3, 3}, {2, 2}, Padding::Explicit,
          {0, 0, 0, 0}, false, DataLayout::NCX, true, {}, true);
  addPool(cases, PoolMode::Average, {6, 5}, {3, 2}, {2, 2}, Padding::Explicit,
          {1, 1, 0, 1}, true, DataLayout::NXC, false, {}, true);
  addPool(cases, PoolMode::Average, {6}, {2}, {2}, Padding::Explicit, {1, 0},
          false, DataLayout::NCX, false, {}, true);
  for (PoolMode m : {PoolMode::Max, PoolMode::Average})
    for (DataLayout l : {DataLayout::NXC, DataLayout::NCX}) {
      Case c;
      c.name = std::string("global_") + (m == PoolMode::Max ? "max" : "avg") +
               (l == DataLayout::NXC ? "_nxc" : "_ncx");
      c.op = "global_pool";
      c.gpu = m == PoolMode::Average && l == DataLayout::NXC;
      c.inputs = {spec({2, 3, 5, 4})};
      c.attrs = Json()
                    .s("mode", m == PoolMode::Max ? "max" : "avg")
                    .s("layout", l == DataLayout::NXC ? "nxc" : "ncx")
                    .str();
      c.build = [=](const std::vector<Tensor> &x) {
        return std::vector<Tensor>{global_pool(x[0], m, l)};
      };
      cases.push_back(std::move(c));
    }
}
