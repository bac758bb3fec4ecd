//===- OneDnnPeer.cpp - Convolutions with oneDNN --------------------------===//
//
// The convolution peer: oneDNN's forward-inference convolution with every
// memory format `any`, so oneDNN picks the layouts its fastest kernel wants.
// The NHWC input and the HWIO (depthwise: HWC) kernel of PlaidML's program
// are reordered into those layouts once, before timing, and the result is
// reordered back to NHWC after it; the timed run is the convolution alone.
// A depthwise convolution is a grouped one with groups = channels.
//
// oneDNN's C++ API reports errors by throwing dnnl::error, so this file is
// built with exceptions (the rest of the project is not) and turns every
// exception into a Status before it leaves.
//
// Threads: Debian's libdnnl uses OpenMP (libgomp); its parallel regions take
// omp_get_max_threads() of the calling thread, set here with
// omp_set_num_threads before the primitive is created (oneDNN sizes some
// kernels for the thread count at creation). The function is looked up at
// run time in the libgomp that libdnnl loaded, so the harness itself is
// not built with OpenMP.
//
//===----------------------------------------------------------------------===//

#include "Peers.h"

#include "oneapi/dnnl/dnnl.hpp"

#include <dlfcn.h>
#include <exception>
#include <unordered_map>

using namespace plaidml;
using namespace plaidml::bench;

namespace {
using dt = dnnl::memory::data_type;
using tag = dnnl::memory::format_tag;

/// Sets the thread count of oneDNN's parallel regions started from this
/// thread.
rt::Status setThreads(unsigned threads) {
#if DNNL_CPU_THREADING_RUNTIME == DNNL_RUNTIME_OMP
  using SetNumThreads = void (*)(int);
  auto set = reinterpret_cast<SetNumThreads>(
      dlsym(RTLD_DEFAULT, "omp_set_num_threads"));
  if (!set)
    return rt::Status::failure(
        "oneDNN uses OpenMP, but omp_set_num_threads is not loaded");
  set(static_cast<int>(threads));
  return rt::Status::success();
#elif DNNL_CPU_THREADING_RUNTIME == DNNL_RUNTIME_SEQ
  if (threads != 1)
    return rt::Status::failure("this oneDNN is sequential; it cannot use " +
                               std::to_string(threads) + " threads");
  return rt::Status::success();
#else
  return rt::Status::failure(
      "cannot set the thread count of this oneDNN's threading runtime "
      "(only OpenMP and sequential builds are supported)");
#endif
}

class OneDnnConv : public Peer {
public:
  OneDnnConv(const ConvShape &shape, const float *input, const float *kernel)
      : engine(dnnl::engine::kind::cpu, 0), stream(engine) {
    int64_t c = shape.channels, co = shape.outChannels;
    int64_t kh = shape.kernelHeight, kw = shape.kernelWidth;
    dnnl::memory::dims srcDims = {1, c, shape.height, shape.width};
    dnnl::memory::dims dstDims = {1, co, shape.getOutHeight(),
                                  shape.getOutWidth()};
    // oneDNN's logical weight dimensions are (O, I, KH, KW), with a leading
    // G for groups; PlaidML stores them as KH x KW x I x O (depthwise:
    // KH x KW x G), which the strides describe.
    dnnl::memory::dims weightDims, weightStrides;
    if (shape.depthwise) {
      weightDims = {c, 1, 1, kh, kw};
      weightStrides = {1, 1, 1, kw * c, c};
    } else {
      weightDims = {co, c, kh, kw};
      weightStrides = {1, co, kw * c * co, c * co};
    }
    dnnl::memory::desc userSrc(srcDims, dt::f32, tag::nhwc);
    dnnl::memory::desc userWeights(weightDims, dt::f32, weightStrides);
    userDst = dnnl::memory::desc(dstDims, dt::f32, tag::nhwc);

    dnnl::convolution_forward::desc desc(
        dnnl::prop_kind::forward_inference, dnnl::algorithm::convolution_direct,
        dnnl::memory::desc(srcDims, dt::f32, tag::any),
        dnnl::memory::desc(weightDims, dt::f32, tag::any),
        dnnl::memory::desc(dstDims, dt::f32, tag::any), {1, 1}, {0, 0}, {0, 0});
    dnnl::convolution_forward::primitive_desc pd(desc, engine);
    implementation = pd.impl_info_str();
    conv = dnnl::convolution_forward(pd);

    dnnl::memory src(pd.src_desc(), engine);
    dnnl::memory weights(pd.weights_desc(), engine);
    dst = dnnl::memory(pd.dst_desc(), engine);
    dnnl::memory userSrcMem(userSrc, engine, const_cast<float *>(input));
    dnnl::memory userWeightsMem(userWeights, engine,
                                const_cast<float *>(kernel));
    dnnl::reorder(userSrcMem, src).execute(stream, userSrcMem, src);
    dnnl::reorder(userWeightsMem, weights)
        .execute(stream, userWeightsMem, weights);
    stream.wait();
    args = {
        {DNNL_ARG_SRC, src}, {DNNL_ARG_WEIGHTS, weights}, {DNNL_ARG_DST, dst}};
    outElements = shape.getOutHeight() * shape.getOutWidth() * co;
  }

  std::string getName() const override { return "oneDNN " + implementation; }

  rt::Status run() override {
    try {
      conv.execute(stream, args);
      stream.wait();
    } catch (const std::exception &e) {
      return rt::Status::failure(std::string("oneDNN convolution: ") +
                                 e.what());
    }
    return rt::Status::success();
  }

  rt::StatusOr<std::vector<float>> getExpected() override {
    std::vector<float> result(static_cast<size_t>(outElements));
    try {
      dnnl::memory userDstMem(userDst, engine, result.data());
      dnnl::reorder(dst, userDstMem).execute(stream, dst, userDstMem);
      stream.wait();
    } catch (const std::exception &e) {
      return rt::Status::failure(
          std::string("oneDNN reorder of the result to NHWC: ") + e.what());
    }
    return result;
  }

private:
  dnnl::engine engine;
  dnnl::stream stream;
  dnnl::convolution_forward conv;
  dnnl::memory dst;
  dnnl::memory::desc userDst;
  std::unordered_map<int, dnnl::memory> args;
  int64_t outElements = 0;
  std::string implementation;
};
} // namespace

rt::StatusOr<std::unique_ptr<Peer>>
plaidml::bench::createOneDnnConv(const ConvShape &shape, const float *input,
                                 const float *kernel, unsigned threads) {
  if (rt::Status s = setThreads(threads); !s.ok())
    return s;
  try {
    return std::unique_ptr<Peer>(
        std::make_unique<OneDnnConv>(shape, input, kernel));
  } catch (const dnnl::error &e) {
    return rt::Status::failure(
        std::string("oneDNN rejects the convolution: ") + e.what() +
        " (status " + std::to_string(static_cast<int>(e.status)) + ")");
  } catch (const std::exception &e) {
    return rt::Status::failure(std::string("oneDNN: ") + e.what());
  }
}

std::string plaidml::bench::describeOneDnn() {
  const dnnl::version_t *v = dnnl::version();
  std::string result = std::to_string(v->major) + "." +
                       std::to_string(v->minor) + "." +
                       std::to_string(v->patch);
  if (v->hash && *v->hash && std::string(v->hash) != "N/A")
    result += std::string(" (") + v->hash + ")";
#if DNNL_CPU_THREADING_RUNTIME == DNNL_RUNTIME_OMP
  result += ", OpenMP threading";
#elif DNNL_CPU_THREADING_RUNTIME == DNNL_RUNTIME_SEQ
  result += ", sequential";
#else
  result += ", threading runtime " + std::to_string(DNNL_CPU_THREADING_RUNTIME);
#endif
  const char *isa = "?";
  switch (dnnl::get_effective_cpu_isa()) {
  case dnnl::cpu_isa::sse41:
    isa = "sse41";
    break;
  case dnnl::cpu_isa::avx:
    isa = "avx";
    break;
  case dnnl::cpu_isa::avx2:
    isa = "avx2";
    break;
  case dnnl::cpu_isa::avx2_vnni:
    isa = "avx2_vnni";
    break;
  case dnnl::cpu_isa::avx512_core:
    isa = "avx512_core";
    break;
  case dnnl::cpu_isa::avx512_core_vnni:
    isa = "avx512_core_vnni";
    break;
  case dnnl::cpu_isa::avx512_core_bf16:
    isa = "avx512_core_bf16";
    break;
  case dnnl::cpu_isa::avx512_core_amx:
    isa = "avx512_core_amx";
    break;
  default:
    break;
  }
  return result + ", ISA " + isa;
}
