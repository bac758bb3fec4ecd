//===- OtherCases.cpp - Test cases of the ops other than conv and pooling ===//
//
// Matrix products (batched, broadcast, 1-D, gemm transposes), normalizations,
// every activation (softmax and log-softmax on each axis), the shape ops,
// reductions over axes with and without keepdims, cumsum, argmax/argmin,
// and resizing.
//
//===----------------------------------------------------------------------===//

#include "Cases.h"

using namespace plaidml;
using namespace plaidml::optest;
using namespace plaidml::op;

namespace {
using Build = std::function<std::vector<Tensor>(const std::vector<Tensor> &)>;

void add(std::vector<Case> &cases, std::string name, std::string op,
         std::string attrs, std::vector<TensorSpec> inputs, Build build,
         bool gpu = false) {
  Case c;
  c.name = std::move(name);
  c.op = std::move(op);
  c.attrs = std::move(attrs);
  c.inputs = std::move(inputs);
  c.build = std::move(build);
  c.gpu = gpu;
  cases.push_back(std::move(c));
}

std::string shapeName(const std::vector<int64_t> &s) {
  std::string r;
  for (size_t i = 0; i < s.size(); ++i)
    r += (i ? "x" : "") + std::to_string(s[i]);
  return r.empty() ? "scalar" : r;
}

std::string axesName(const std::vector<int64_t> &axes) {
  if (axes.empty())
    return "all";
  std::string r;
  for (int64_t a : axes)
    r += (a < 0 ? "m" + std::to_string(-a) : std::to_string(a));
  return r;
}
} // namespace

void plaidml::optest::addOtherCases(std::vector<Case> &cases) {
  // Matrix products.
  struct MM {
    std::vector<int64_t> a, b;
    bool gpu;
  };
  for (const MM &m :
       {MM{{3, 5}, {5, 4}, true}, MM{{2, 3, 5}, {2, 5, 4}, false},
        MM{{2, 1, 3, 5}, {3, 5, 2}, true}, MM{{5}, {5, 4}, false},
        MM{{3, 5}, {5}, false}, MM{{5}, {5}, false}, MM{{1, 1}, {1, 1}, false}})
    add(
        cases, "matmul_" + shapeName(m.a) + "_" + shapeName(m.b), "matmul",
        "{}", {spec(m.a), spec(m.b)},
        [](const std::vector<Tensor> &x) {
          return std::vector<Tensor>{matmul(x[0], x[1])};
        },
        m.gpu);
  add(cases, "dense_bias", "dense", "{}",
      {spec({4, 6}), spec({6, 3}), spec({3})},
      [](const std::vector<Tensor> &x) {
        return std::vector<Tensor>{dense(x[0], x[1], x[2])};
      });
  for (int t = 0; t < 4; ++t) {
    bool ta = t & 1, tb = t & 2;
    std::vector<int64_t> a =
        ta ? std::vector<int64_t>{5, 3} : std::vector<int64_t>{3, 5};
    std::vector<int64_t> b =
        tb ? std::vector<int64_t>{4, 5} : std::vector<int64_t>{5, 4};
    add(
        cases, "gemm_ta" + std::to_string(ta) + "_tb" + std::to_string(tb),
        "gemm",
        Json()
            .f("alpha", 0.5)
            .f("beta", 2.0)
            .b("trans_a", ta)
            .b("trans_b", tb)
            .str(),
        {spec(a), spec(b), spec({4})},
        [=](const std::vector<Tensor> &x) {
          return std::vector<Tensor>{gemm(x[0], x[1], x[2], 0.5, 2.0, ta, tb)};
        },
        t == 3);
  }

  // Normalization. The variance input is made positive by the builder.
  for (int64_t axis : {1, -1})
    add(
        cases, "batch_norm_axis" + axesName({axis}), "batch_norm",
        Json().i("axis", axis).f("epsilon", 1e-3).str(),
        {spec({2, 3, 4, 3}), spec({3}), spec({3}), spec({3}), spec({3})},
        [=](const std::vector<Tensor> &x) {
          return std::vector<Tensor>{batch_norm(x[0], x[1], x[2] * x[2] + 0.5,
                                                x[3], x[4], 1e-3, axis)};
        },
        axis == -1);
  add(
      cases, "layer_norm_last", "layer_norm",
      Json().v("axes", {-1}).f("epsilon", 1e-5).str(),
      {spec({3, 4, 6}), spec({6}), spec({6})},
      [](const std::vector<Tensor> &x) {
        return std::vector<Tensor>{layer_norm(x[0], {-1}, x[1], x[2])};
      },
      true);
  add(cases, "layer_norm_12", "layer_norm",
      Json().v("axes", {1, 2}).f("epsilon", 1e-5).str(),
      {spec({3, 4, 6}), spec({4, 6}), spec({6})},
      [](const std::vector<Tensor> &x) {
        return std::vector<Tensor>{layer_norm(x[0], {1, 2}, x[1], x[2])};
      });
  for (DataLayout l : {DataLayout::NCX, DataLayout::NXC})
    for (int64_t g : {1, 2, 4}) {
      std::string ln = l == DataLayout::NXC ? "nxc" : "ncx";
      std::vector<int64_t> shape = l == DataLayout::NXC
                                       ? std::vector<int64_t>{2, 3, 5, 4}
                                       : std::vector<int64_t>{2, 4, 3, 5};
      add(
          cases, "group_norm_g" + std::to_string(g) + "_" + ln, "group_norm",
          Json().i("groups", g).s("layout", ln).f("epsilon", 1e-5).str(),
          {spec(shape), spec({4}), spec({4})},
          [=](const std::vector<Tensor> &x) {
            return std::vector<Tensor>{
                g == 4 ? instance_norm(x[0], x[1], x[2], 1e-5, l)
                       : group_norm(x[0], g, x[1], x[2], 1e-5, l)};
          },
          g == 2 && l == DataLayout::NCX);
    }

  // Activations (inputs in [-1, 1), scaled by 4 to reach the interesting
  // ranges of clip, relu6 and the hard functions).
  struct Act {
    const char *name;
    std::function<Tensor(const Tensor &)> fn;
  };
  std::vector<Act> acts = {
      {"relu", [](const Tensor &x) { return op::relu(x); }},
      {"relu6", [](const Tensor &x) { return relu6(x); }},
      {"clip", [](const Tensor &x) { return clip(x, -1.5, 2.5); }},
      {"leaky_relu", [](const Tensor &x) { return leaky_relu(x, 0.1); }},
      {"elu", [](const Tensor &x) { return elu(x, 0.7); }},
      {"sigmoid", [](const Tensor &x) { return op::sigmoid(x); }},
      {"hard_sigmoid", [](const Tensor &x) { return hard_sigmoid(x); }},
      {"hard_swish", [](const Tensor &x) { return hard_swish(x); }},
      {"swish", [](const Tensor &x) { return swish(x); }},
      {"gelu_erf", [](const Tensor &x) { return gelu(x, false); }},
      {"gelu_tanh", [](const Tensor &x) { return gelu(x, true); }},
      {"tanh", [](const Tensor &x) { return op::tanh(x); }},
  };
  for (size_t i = 0; i < acts.size(); ++i) {
    auto fn = acts[i].fn;
    add(
        cases, std::string("act_") + acts[i].name, acts[i].name, "{}",
        {spec({3, 7})},
        [fn](const std::vector<Tensor> &x) {
          return std::vector<Tensor>{fn(x[0] * 4.0)};
        },
        i % 3 == 0);
  }
  for (int64_t axis : {0, 1, 2, -1})
    for (bool logsm : {false, true})
      add(
          cases,
          std::string(logsm ? "log_softmax" : "softmax") + "_axis" +
              axesName({axis}),
          logsm ? "log_softmax" : "softmax", Json().i("axis", axis).str(),
          {spec({2, 3, 4})},
          [=](const std::vector<Tensor> &x) {
            Tensor y = x[0] * 3.0;
            return std::vector<Tensor>{logsm ? log_softmax(y, axis)
                                             : softmax(y, axis)};
          },
          axis == -1);

  // Reductions.
  const char *kinds[] = {"sum", "mean", "max", "min", "prod"};
  std::vector<std::vector<int64_t>> axesList = {{}, {0}, {1, -1}, {2}};
  int k = 0;
  for (int kind = 0; kind < 5; ++kind)
    for (const auto &axes : axesList)
      for (bool keep : {false, true}) {
        add(
            cases,
            std::string("reduce_") + kinds[kind] + "_" + axesName(axes) +
                (keep ? "_keep" : ""),
            "reduce",
            Json()
                .s("kind", kinds[kind])
                .v("axes", axes)
                .b("keepdims", keep)
                .str(),
            {spec({3, 4, 5})},
            [=](const std::vector<Tensor> &x) {
              return std::vector<Tensor>{
                  reduce(x[0], static_cast<ReduceKind>(kind), axes, keep)};
            },
            k++ % 7 == 0);
      }
  add(cases, "reduce_sum_int", "reduce",
      Json().s("kind", "sum").v("axes", {1}).b("keepdims", false).str(),
      {spec({3, 4}, DType::si32)}, [](const std::vector<Tensor> &x) {
        return std::vector<Tensor>{sum(x[0], {1})};
      });
  for (int64_t axis : {0, 1, -1})
    for (bool excl : {false, true})
      add(
          cases, "cumsum_axis" + axesName({axis}) + (excl ? "_exclusive" : ""),
          "cumsum", Json().i("axis", axis).b("exclusive", excl).str(),
          {spec({3, 4, 5})},
          [=](const std::vector<Tensor> &x) {
            return std::vector<Tensor>{cumsum(x[0], axis, excl)};
          },
          axis == 1 && !excl);
  for (bool isMax : {true, false})
    for (int64_t axis : {0, -1})
      for (bool keep : {false, true}) {
        // Integer inputs so that ties occur (the first index must win).
        add(
            cases,
            std::string(isMax ? "argmax" : "argmin") + "_axis" +
                axesName({axis}) + (keep ? "_keep" : ""),
            isMax ? "argmax" : "argmin",
            Json().i("axis", axis).b("keepdims", keep).str(),
            {spec({4, 6}, DType::si32)},
            [=](const std::vector<Tensor> &x) {
              return std::vector<Tensor>{isMax ? argmax(x[0], axis, keep)
                                               : argmin(x[0], axis, keep)};
            },
            isMax && axis == -1 && !keep);
      }

  // Shape ops.
  add(cases, "reshape", "reshape", Json().v("shape", {4, -1}).str(),
      {spec({2, 3, 4})}, [](const std::vector<Tensor> &x) {
        return std::vector<Tensor>{op::reshape(x[0], {4, -1})};
      });
  for (int64_t axis : {0, 1, 3})
    add(cases, "flatten_axis" + std::to_string(axis), "flatten",
        Json().i("axis", axis).str(), {spec({2, 3, 4})},
        [=](const std::vector<Tensor> &x) {
          return std::vector<Tensor>{flatten(x[0], axis)};
        });
  for (const auto &perm :
       std::vector<std::vector<int64_t>>{{}, {0, 2, 1}, {2, 0, 1}, {1, 0, 2}})
    add(
        cases, "transpose_" + axesName(perm), "transpose",
        Json().v("perm", perm).str(), {spec({2, 3, 4})},
        [=](const std::vector<Tensor> &x) {
          return std::vector<Tensor>{transpose(x[0], perm)};
        },
        perm.size() == 3 && perm[0] == 2);
  for (int64_t axis : {0, 1, -1})
    add(
        cases, "concat_axis" + axesName({axis}), "concat",
        Json().i("axis", axis).str(),
        {spec(axis == 0   ? std::vector<int64_t>{1, 3, 2}
              : axis == 1 ? std::vector<int64_t>{2, 1, 2}
                          : std::vector<int64_t>{2, 3, 1}),
         spec({2, 3, 2}),
         spec(axis == 0   ? std::vector<int64_t>{3, 3, 2}
              : axis == 1 ? std::vector<int64_t>{2, 4, 2}
                          : std::vector<int64_t>{2, 3, 3})},
        [=](const std::vector<Tensor> &x) {
          return std::vector<Tensor>{concat(x, axis)};
        },
        axis == 1);
  add(
      cases, "split_axis1", "split",
      Json().i("axis", 1).v("sizes", {1, 3, 2}).str(), {spec({2, 6, 3})},
      [](const std::vector<Tensor> &x) { return split(x[0], 1, {1, 3, 2}); },
      true);
  struct Sl {
    std::vector<int64_t> starts, ends, axes, steps;
    bool gpu;
  };
  for (const Sl &s :
       {Sl{{1}, {4}, {1}, {}, false}, Sl{{0, 1}, {3, 7}, {0, 2}, {2, 3}, true},
        Sl{{-1}, {-8}, {2}, {-2}, false},
        Sl{{-3, 0}, {100, -1}, {1, 0}, {}, false},
        Sl{{5}, {-100}, {2}, {-1}, false}})
    add(
        cases,
        "slice_" + axesName(s.starts) + "_" + axesName(s.ends) + "_" +
            axesName(s.axes) + "_" + axesName(s.steps),
        "slice",
        Json()
            .v("starts", s.starts)
            .v("ends", s.ends)
            .v("axes", s.axes)
            .v("steps", s.steps)
            .str(),
        {spec({3, 5, 7})},
        [=](const std::vector<Tensor> &x) {
          return std::vector<Tensor>{
              slice(x[0], s.starts, s.ends, s.axes, s.steps)};
        },
        s.gpu);
  const char *modes[] = {"constant", "reflect", "edge", "wrap"};
  for (int m = 0; m < 4; ++m)
    for (const auto &pads : std::vector<std::vector<int64_t>>{
             {1, 0, 2, 2}, {0, 2, 0, 3}, {2, 1, 1, 2}})
      add(
          cases, std::string("pad_") + modes[m] + "_" + axesName(pads), "pad",
          Json().v("pads", pads).s("mode", modes[m]).f("value", 1.5).str(),
          {spec({3, 4})},
          [=](const std::vector<Tensor> &x) {
            return std::vector<Tensor>{
                pad(x[0], pads, static_cast<PadMode>(m), 1.5)};
          },
          pads[0] == 2);
  // Wrap padding longer than the dimension: whole copies and a part.
  add(cases, "pad_wrap_long", "pad",
      Json().v("pads", {4, 0, 0, 9}).s("mode", "wrap").str(), {spec({3, 4})},
      [](const std::vector<Tensor> &x) {
        return std::vector<Tensor>{pad(x[0], {4, 0, 0, 9}, PadMode::Wrap)};
      });
  add(cases, "squeeze_all", "squeeze", Json().v("axes", {}).str(),
      {spec({1, 3, 1, 2})}, [](const std::vector<Tensor> &x) {
        return std::vector<Tensor>{squeeze(x[0])};
      });
  add(cases, "squeeze_2", "squeeze", Json().v("axes", {2}).str(),
      {spec({1, 3, 1, 2})}, [](const std::vector<Tensor> &x) {
        return std::vector<Tensor>{squeeze(x[0], {2})};
      });
  add(cases, "unsqueeze_0_m1", "unsqueeze", Json().v("axes", {0, -1}).str(),
      {spec({3, 2})}, [](const std::vector<Tensor> &x) {
        return std::vector<Tensor>{unsqueeze(x[0], {0, -1})};
      });
  add(
      cases, "broadcast_to", "broadcast_to", Json().v("shape", {2, 3, 4}).str(),
      {spec({3, 1})},
      [](const std::vector<Tensor> &x) {
        return std::vector<Tensor>{broadcast_to(x[0], {2, 3, 4})};
      },
      true);
  add(cases, "tile_2_3", "tile", Json().v("reps", {2, 3}).str(), {spec({2, 3})},
      [](const std::vector<Tensor> &x) {
        return std::vector<Tensor>{tile(x[0], {2, 3})};
      });
  add(cases, "repeat_3_axis1", "repeat",
      Json().i("repeats", 3).i("axis", 1).str(), {spec({2, 3})},
      [](const std::vector<Tensor> &x) {
        return std::vector<Tensor>{repeat(x[0], 3, 1)};
      });
  for (int64_t axis : {0, 1})
    add(
        cases, "gather_axis" + std::to_string(axis), "gather",
        Json().i("axis", axis).str(), {spec({5, 4}), spec({2, 3}, DType::si32)},
        [=](const std::vector<Tensor> &x) {
          // Indices from [-8, 8) mapped into range: |i| mod 4.
          Tensor idx = op::relu(x[1]) % 4;
          return std::vector<Tensor>{op::gather(x[0], idx, axis)};
        },
        axis == 1);
  add(
      cases, "one_hot_5", "one_hot", Json().i("depth", 5).str(),
      {spec({2, 3}, DType::si32)},
      [](const std::vector<Tensor> &x) {
        return std::vector<Tensor>{one_hot(x[1 - 1], 5, DType::f32, 2.0, -1.0)};
      },
      true);

  // Resizing.
  for (int m = 0; m < 2; ++m)
    for (bool ac : {false, true})
      for (const auto &sizes :
           std::vector<std::vector<int64_t>>{{7, 10}, {2, 3}, {1, 1}}) {
        if (m == 0 && ac)
          continue;
        add(
            cases,
            std::string(m ? "resize_bilinear" : "resize_nearest") +
                (ac ? "_ac_" : "_") + shapeName(sizes),
            "resize",
            Json()
                .s("mode", m ? "bilinear" : "nearest")
                .v("sizes", sizes)
                .b("align_corners", ac)
                .str(),
            {spec({2, 4, 5, 3})},
            [=](const std::vector<Tensor> &x) {
              return std::vector<Tensor>{resize(
                  x[0], sizes, m ? ResizeMode::Bilinear : ResizeMode::Nearest,
                  DataLayout::NXC, ac)};
            },
            sizes[0] == 7 && !ac);
      }
  add(cases, "upsample_2_3_ncx", "upsample",
      Json().v("factors", {2, 3}).s("layout", "ncx").str(),
      {spec({2, 3, 2, 2})}, [](const std::vector<Tensor> &x) {
        return std::vector<Tensor>{upsample(x[0], {2, 3}, DataLayout::NCX)};
      });
}
