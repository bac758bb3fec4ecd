//===- plaidbench.cpp - Benchmark a network on a device -------------------===//
//
// plaidbench [--device D] [--batch-size N] [--examples N] [--warmup N]
//            [--threads N] [--results DIR] [--check[=DEVICE|reference]]
//            [--tolerance X] [--image-size S] [--width W] [--classes C]
//            [--seed S] NETWORK|MODEL.onnx
//
// PlaidML's benchmark tool: builds one of the networks of lib/Networks
// (seeded weights) or imports an ONNX model (lib/Import/Onnx), compiles it
// twice through the compile cache of lib/Compiler (cold, into a fresh
// private cache directory, then from that cache), runs it on seeded inputs
// until --examples examples have run (after --warmup runs), and prints the
// compile times and the per-example latency and throughput as a table.
// --results writes them as JSON; --check runs the same inputs on another
// device (default: the reference interpreter) and fails when an output
// differs by more than --tolerance times its largest magnitude. Programs
// are opened with the Runner library (lib/Runner) that plaidml-run uses.
//
//===----------------------------------------------------------------------===//

#include "plaidml/Networks/Networks.h"
#include "plaidml/Runner/Args.h"
#include "plaidml/Runner/Runner.h"

#include "plaidml/Runtime/Device.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <unistd.h>

using namespace plaidml;
using namespace plaidml::run;
using Clock = std::chrono::steady_clock;

namespace {
constexpr const char *kUsage =
    R"(usage: plaidbench [options] NETWORK|MODEL.onnx

Times a network on a PlaidML device: a built-in network (NETWORKS) with
seeded weights, or an ONNX model, on seeded inputs.
  --device D             cpu, vulkan:N, opencl:N; default: $PLAIDML_DEVICE,
                         else the plaidml-setup config, else cpu
  --batch-size N         images per run (built-in networks; an ONNX model
                         runs at the batch size of its input)
  --examples N           examples to run in total (default 1024)
  --warmup N             untimed runs first (default 1)
  --threads N            compile CPU code for N threads (default 1)
  --results DIR          write the results as JSON into DIR
  --check[=DEVICE]       compare the outputs with DEVICE's (default
                         reference, the reference interpreter); exit 1 when
                         they differ
  --tolerance X          --check's bound on max |error| / max |expected|
                         (default 1e-4)
  --image-size S, --width W, --classes C, --seed S
                         shape and seed of a built-in network (defaults: 224,
                         or 299 for inception_v3; 1.0; 1000; 1)
)";

struct Options {
  std::string target, device;
  int64_t batch = 0, examples = 1024, warmup = 1, threads = 1;
  std::string resultsDir;
  std::optional<std::string> check;
  double tolerance = 1e-4;
  networks::NetworkOptions network;
  bool imageSizeGiven = false;
};

double msSince(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start)
      .count();
}

bool endsWith(const std::string &s, const std::string &suffix) {
  return s.size() >= suffix.size() &&
         s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

std::string joinNetworkNames() {
  std::string out;
  for (const std::string &n : networks::getNetworkNames())
    out += (out.empty() ? "" : ", ") + n;
  return out;
}

std::optional<int64_t> parseInt(const std::string &s, int64_t min) {
  char *end = nullptr;
  errno = 0;
  long long v = std::strtoll(s.c_str(), &end, 10);
  if (s.empty() || *end || errno || v < min)
    return std::nullopt;
  return v;
}

std::optional<double> parsePositive(const std::string &s) {
  char *end = nullptr;
  double v = std::strtod(s.c_str(), &end);
  if (s.empty() || *end || !(v > 0) || !std::isfinite(v))
    return std::nullopt;
  return v;
}

/// Parses the command line into `o`; returns why it is wrong, or "".
std::string parseArgs(int argc, char **argv, Options &o) {
  ArgWalker args(argc, argv);
  while (args.next()) {
    const std::string arg = args.name();
    auto integer = [&](int64_t &into, int64_t min) -> std::string {
      std::optional<std::string> v = args.value();
      std::optional<int64_t> n = v ? parseInt(*v, min) : std::nullopt;
      if (!n)
        return arg + " needs an integer of at least " + std::to_string(min) +
               (v ? ", got '" + *v + "'" : "");
      into = *n;
      return "";
    };
    std::string err;
    if (arg == "--help" || arg == "-h") {
      std::string usage = kUsage;
      usage.replace(usage.find("NETWORKS"), 8, joinNetworkNames());
      std::fputs(usage.c_str(), stdout);
      std::exit(0);
    } else if (arg == "--device" || arg == "--results") {
      std::optional<std::string> v = args.value();
      if (!v || v->empty())
        return arg + " needs a value";
      (arg == "--device" ? o.device : o.resultsDir) = *v;
    } else if (arg == "--batch-size") {
      err = integer(o.batch, 1);
    } else if (arg == "--examples") {
      err = integer(o.examples, 1);
    } else if (arg == "--warmup") {
      err = integer(o.warmup, 0);
    } else if (arg == "--threads") {
      err = integer(o.threads, 1);
    } else if (arg == "--image-size") {
      err = integer(o.network.imageSize, 1);
      o.imageSizeGiven = true;
    } else if (arg == "--classes") {
      err = integer(o.network.classes, 1);
    } else if (arg == "--seed") {
      int64_t seed = 0;
      err = integer(seed, 0);
      o.network.seed = static_cast<uint64_t>(seed);
    } else if (arg == "--width" || arg == "--tolerance") {
      std::optional<std::string> v = args.value();
      std::optional<double> x = v ? parsePositive(*v) : std::nullopt;
      if (!x)
        return arg + " needs a positive number" +
               (v ? ", got '" + *v + "'" : "");
      (arg == "--width" ? o.network.width : o.tolerance) = *x;
    } else if (arg == "--check") {
      o.check = args.getInlineValue().value_or("reference");
      if (o.check->empty())
        return "--check= needs a device (or write --check alone for the "
               "reference interpreter)";
    } else if (arg.size() > 1 && arg[0] == '-') {
      return "unknown option '" + arg + "' (see --help)";
    } else if (!o.target.empty()) {
      return "one network or model at a time: got '" + o.target + "' and '" +
             arg + "'";
    } else {
      o.target = arg;
    }
    if (!err.empty())
      return err;
  }
  if (o.target.empty())
    return "no network or model given (networks: " + joinNetworkNames() +
           "; or a MODEL.onnx file; see --help)";
  return "";
}

/// What plaidbench runs: a Runner (opened through lib/Runner) and the
/// inputs it takes.
struct Opened {
  std::unique_ptr<Runner> runner;
  std::vector<rt::HostArray> inputs;
  double wallMs = 0, compilerMs = 0;
};

/// A built-in network, or an ONNX model, with its inputs.
class Workload {
public:
  std::string name;
  bool onnx = false;
  int64_t batch = 1;

  /// Builds the network (or checks the model file); "" or why not.
  std::string load(const Options &o) {
    std::string canonical = o.target;
    std::replace(canonical.begin(), canonical.end(), '-', '_');
    if (canonical == "mobilenet_v1")
      canonical = "mobilenet";
    else if (canonical == "resnet_50")
      canonical = "resnet50";
    else if (canonical == "vgg_16")
      canonical = "vgg16";
    std::vector<std::string> names = networks::getNetworkNames();
    bool isNetwork =
        std::find(names.begin(), names.end(), canonical) != names.end();
    if (!isNetwork &&
        (endsWith(o.target, ".onnx") || llvm::sys::fs::exists(o.target))) {
      if (!llvm::sys::fs::exists(o.target))
        return "cannot read model '" + o.target + "': no such file";
      if (!llvm::sys::fs::is_regular_file(o.target))
        return "cannot read model '" + o.target + "': not a regular file";
      onnx = true;
      name = llvm::sys::path::stem(o.target).str();
      return "";
    }
    if (!isNetwork)
      return "unknown network '" + o.target +
             "' (networks: " + joinNetworkNames() + "; or a MODEL.onnx file)";
    name = canonical;
    networks::NetworkOptions options = o.network;
    options.batch = batch = o.batch ? o.batch : 1;
    if (!o.imageSizeGiven && name == "inception_v3")
      options.imageSize = 299;
    try {
      network = std::make_unique<networks::Network>(
          networks::buildNetwork(name, options));
    } catch (const std::exception &e) {
      return name + ": " + e.what();
    }
    programText = network->program.str();
    return "";
  }

  /// Opens the workload on `device`; the first call also makes the inputs.
  rt::StatusOr<Opened> open(const std::string &device, const Options &o) {
    Opened opened;
    CompileSettings settings;
    if (device == "cpu")
      settings.threads = static_cast<unsigned>(o.threads);
    auto start = Clock::now();
    rt::StatusOr<std::unique_ptr<Runner>> runner =
        onnx ? openOnnx(o.target, device, InputBindings(), settings,
                        opened.compilerMs)
             : openSourceText(programText, name + ".mlir",
                              network->program.getName(), device,
                              InputBindings(), settings, opened.compilerMs);
    if (!runner.ok())
      return runner.status();
    opened.wallMs = msSince(start);
    opened.runner = std::move(*runner);
    if (inputs.empty()) {
      if (rt::Status s = makeInputs(*opened.runner, o); !s.ok())
        return s;
    }
    opened.inputs = inputs;
    return opened;
  }

private:
  std::unique_ptr<networks::Network> network;
  std::string programText;
  std::vector<rt::HostArray> inputs;

  rt::Status makeInputs(const Runner &runner, const Options &o) {
    const std::vector<rt::TensorSpec> &specs = runner.getInputs();
    std::mt19937_64 rng(o.network.seed + 1000);
    size_t random = onnx ? specs.size() : 1;
    for (size_t i = 0; i < random && i < specs.size(); ++i) {
      rt::StatusOr<rt::HostArray> a = randomArray(specs[i], rng);
      if (!a.ok())
        return a.status();
      inputs.push_back(std::move(*a));
    }
    if (!onnx)
      inputs.insert(inputs.end(), network->weights.begin(),
                    network->weights.end());
    if (onnx && !specs.empty()) {
      int64_t modelBatch = specs[0].shape.empty() ? 1 : specs[0].shape[0];
      if (o.batch && o.batch != modelBatch)
        return rt::Status::invalidArgument(
            "--batch-size " + std::to_string(o.batch) + ": '" + o.target +
            "' takes a batch of " + std::to_string(modelBatch) + " (input '" +
            specs[0].name + "' is " + specs[0].describe() +
            "); plaidbench runs an ONNX model at the batch size of its input");
      batch = modelBatch;
    }
    return rt::Status::success();
  }
};

/// A private temporary directory that is removed with everything in it.
class TempDir {
public:
  std::string path;
  ~TempDir() {
    if (!path.empty())
      llvm::sys::fs::remove_directories(path);
  }
};

struct Stats {
  double mean = 0, median = 0, min = 0, max = 0, p90 = 0;
};

Stats summarize(std::vector<double> v) {
  Stats s;
  std::sort(v.begin(), v.end());
  size_t n = v.size();
  for (double x : v)
    s.mean += x / n;
  s.median = n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
  s.min = v.front();
  s.max = v.back();
  s.p90 = v[std::min(n - 1, static_cast<size_t>(std::ceil(0.9 * n)) - 1)];
  return s;
}

llvm::json::Object toJson(const Stats &s) {
  return llvm::json::Object{{"mean", s.mean},
                            {"median", s.median},
                            {"min", s.min},
                            {"max", s.max},
                            {"p90", s.p90}};
}

/// One output compared with the check device's.
struct Comparison {
  std::string name, why;
  double maxError = 0, scale = 0;
  bool passed = false;
};

Comparison compare(const std::string &name, const rt::HostArray &got,
                   const rt::HostArray &expected, double tolerance) {
  Comparison c;
  c.name = name;
  if (got.dtype != expected.dtype || got.shape != expected.shape) {
    c.why = "is " + got.describe() + ", expected " + expected.describe();
    return c;
  }
  bool finite = true;
  for (int64_t i = 0, n = got.getNumElements(); i < n; ++i) {
    double a = rt::getElementAsDouble(got, i);
    double e = rt::getElementAsDouble(expected, i);
    if (std::isnan(a) != std::isnan(e))
      finite = false;
    else if (!std::isnan(a))
      c.maxError = std::max(c.maxError, std::fabs(a - e));
    if (std::isfinite(e))
      c.scale = std::max(c.scale, std::fabs(e));
  }
  double bound = tolerance * (c.scale > 0 ? c.scale : 1.0);
  c.passed = finite && c.maxError <= bound;
  if (!finite)
    c.why = "has NaN where the expected output has none (or the reverse)";
  else if (!c.passed)
    c.why = "max |error| " + std::to_string(c.maxError) + " > " +
            std::to_string(bound) + " (tolerance x max |expected|)";
  return c;
}

void drawProgress(int64_t done, int64_t total) {
  constexpr int kWidth = 40;
  int filled = static_cast<int>(kWidth * done / total);
  std::printf("\r[%s%s] %lld/%lld examples", std::string(filled, '#').c_str(),
              std::string(kWidth - filled, ' ').c_str(),
              static_cast<long long>(done), static_cast<long long>(total));
  std::fflush(stdout);
}

std::string utcNow() {
  std::time_t t = std::time(nullptr);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&t));
  return buf;
}

int fail(const std::string &message) {
  std::fprintf(stderr, "plaidbench: error: %s\n", message.c_str());
  return 1;
}
} // namespace

int main(int argc, char **argv) {
  Options o;
  if (std::string err = parseArgs(argc, argv, o); !err.empty()) {
    std::fprintf(stderr, "plaidbench: error: %s\n", err.c_str());
    return 2;
  }
  if (o.device.empty()) {
    rt::StatusOr<std::string> device = rt::getDefaultDeviceName();
    if (!device.ok())
      return fail(device.message());
    o.device = *device;
  }
  if (o.device == "reference")
    return fail("--device reference is the reference interpreter, which is "
                "for checking, not timing: use it with --check");
  if (rt::Status s = checkDevice(o.device); !s.ok())
    return fail(s.message());
  if (o.check)
    if (rt::Status s = checkDevice(*o.check); !s.ok())
      return fail("--check: " + s.message());
  if (o.threads > 1 && o.device != "cpu")
    return fail("--threads applies to --device cpu, not to '" + o.device + "'");

  Workload work;
  if (std::string err = work.load(o); !err.empty())
    return fail(err);

  // Compile cold into a fresh private cache, then again from that cache.
  TempDir cache;
  llvm::SmallString<128> cachePath;
  if (std::error_code ec =
          llvm::sys::fs::createUniqueDirectory("plaidbench-cache", cachePath))
    return fail("cannot create a temporary cache directory: " + ec.message());
  cache.path = cachePath.str().str();
  llvm::sys::fs::setPermissions(cache.path, llvm::sys::fs::owner_all);
  setenv("XDG_CACHE_HOME", cache.path.c_str(), 1);

  rt::StatusOr<Opened> cold = work.open(o.device, o);
  if (!cold.ok())
    return fail(cold.message());
  rt::StatusOr<Opened> opened = work.open(o.device, o);
  if (!opened.ok())
    return fail(opened.message());
  Runner &runner = *opened->runner;
  int64_t runs = (o.examples + work.batch - 1) / work.batch;
  int64_t examples = runs * work.batch;
  std::string threads;
  if (o.device == "cpu")
    threads = o.threads == 1 ? " (1 thread)"
                             : " (" + std::to_string(o.threads) + " threads)";
  std::printf("Running %lld examples with %s, batch size %lld, on %s%s\n",
              static_cast<long long>(examples), work.name.c_str(),
              static_cast<long long>(work.batch), o.device.c_str(),
              threads.c_str());
  std::printf("Compiled in %.1f ms cold, %.1f ms from the cache\n",
              cold->wallMs, opened->wallMs);
  std::fflush(stdout);

  if (rt::Status s = runner.prepare(opened->inputs); !s.ok())
    return fail(s.message());
  for (int64_t r = 0; r < o.warmup; ++r)
    if (rt::Status s = runner.execute(); !s.ok())
      return fail(s.message());
  bool tty = isatty(STDOUT_FILENO);
  std::vector<double> batchMs;
  auto total = Clock::now(), lastDraw = Clock::now();
  for (int64_t r = 0; r < runs; ++r) {
    auto start = Clock::now();
    if (rt::Status s = runner.execute(); !s.ok())
      return fail(s.message());
    batchMs.push_back(msSince(start));
    if (tty && (r + 1 == runs || msSince(lastDraw) > 100)) {
      drawProgress((r + 1) * work.batch, examples);
      lastDraw = Clock::now();
    }
  }
  double totalS = msSince(total) / 1000;
  if (tty)
    std::printf("\n");
  else
    std::printf("Ran %lld examples in %.3f s\n",
                static_cast<long long>(examples), totalS);

  std::vector<double> exampleMs;
  for (double ms : batchMs)
    exampleMs.push_back(ms / work.batch);
  Stats latency = summarize(exampleMs), batchLatency = summarize(batchMs);
  double throughput = examples / totalS;
  std::printf("\n| %-27s | %12s |\n|-%s-|-%s-|\n", "measure", "value",
              std::string(27, '-').c_str(), std::string(12, '-').c_str());
  auto row = [](const char *what, double value, const char *unit) {
    std::printf("| %-27s | %9.3f %-2s |\n", what, value, unit);
  };
  row("compile, cold", cold->wallMs, "ms");
  row("compile, from the cache", opened->wallMs, "ms");
  row("latency per example, mean", latency.mean, "ms");
  row("latency per example, median", latency.median, "ms");
  row("latency per example, min", latency.min, "ms");
  row("latency per example, p90", latency.p90, "ms");
  row("latency per example, max", latency.max, "ms");
  std::printf("| %-27s | %8.2f /s |\n", "throughput, examples", throughput);

  rt::StatusOr<std::vector<rt::HostArray>> results = runner.getResults();
  if (!results.ok())
    return fail(results.message());
  llvm::json::Array outputsJson;
  for (size_t i = 0; i < results->size(); ++i)
    outputsJson.push_back(
        llvm::json::Object{{"name", runner.getOutputs()[i].name},
                           {"type", (*results)[i].describe()}});

  // --check: the same inputs on the other device.
  std::optional<llvm::json::Object> checkJson;
  bool checkPassed = true;
  if (o.check) {
    rt::StatusOr<Opened> other = work.open(*o.check, o);
    if (!other.ok())
      return fail("--check: " + other.message());
    Runner &checker = *other->runner;
    if (rt::Status s = checker.prepare(other->inputs); !s.ok())
      return fail("--check: " + s.message());
    if (rt::Status s = checker.execute(); !s.ok())
      return fail("--check: " + s.message());
    rt::StatusOr<std::vector<rt::HostArray>> expected = checker.getResults();
    if (!expected.ok())
      return fail("--check: " + expected.message());
    llvm::json::Array compared;
    std::printf("\n");
    for (size_t i = 0; i < results->size(); ++i) {
      Comparison c = compare(runner.getOutputs()[i].name, (*results)[i],
                             (*expected)[i], o.tolerance);
      checkPassed &= c.passed;
      std::printf("Check %s against %s: max |error| %.3g, max |expected| "
                  "%.3g: %s\n",
                  c.name.c_str(), o.check->c_str(), c.maxError, c.scale,
                  c.passed ? "ok" : ("MISMATCH: " + c.why).c_str());
      compared.push_back(llvm::json::Object{{"name", c.name},
                                            {"max_abs_error", c.maxError},
                                            {"max_abs_expected", c.scale},
                                            {"passed", c.passed}});
    }
    checkJson = llvm::json::Object{{"device", *o.check},
                                   {"tolerance", o.tolerance},
                                   {"outputs", std::move(compared)},
                                   {"passed", checkPassed}};
  }

  if (!o.resultsDir.empty()) {
    llvm::json::Object doc{
        {"tool", "plaidbench"},
        {"date", utcNow()},
        {"network", work.name},
        {"model", work.onnx ? llvm::json::Value(o.target) : nullptr},
        {"device", o.device},
        {"threads", o.threads},
        {"batch_size", work.batch},
        {"examples", examples},
        {"runs", runs},
        {"warmup", o.warmup},
        {"compile_ms", llvm::json::Object{{"cold", cold->wallMs},
                                          {"cached", opened->wallMs},
                                          {"compiler_cold", cold->compilerMs}}},
        {"latency_ms", toJson(latency)},
        {"batch_latency_ms", toJson(batchLatency)},
        {"throughput", throughput},
        {"total_s", totalS},
        {"outputs", std::move(outputsJson)},
        {"check", checkJson ? llvm::json::Value(std::move(*checkJson))
                            : llvm::json::Value(nullptr)}};
    if (!work.onnx)
      doc["network_options"] = llvm::json::Object{
          {"image_size", o.imageSizeGiven || work.name != "inception_v3"
                             ? o.network.imageSize
                             : 299},
          {"width", o.network.width},
          {"classes", o.network.classes},
          {"seed", static_cast<int64_t>(o.network.seed)}};
    if (std::error_code ec = llvm::sys::fs::create_directories(o.resultsDir))
      return fail("cannot create '" + o.resultsDir + "': " + ec.message());
    std::string device = o.device;
    std::replace(device.begin(), device.end(), ':', '_');
    std::string path = o.resultsDir + "/" + work.name + "-" + device + "-b" +
                       std::to_string(work.batch) + "-t" +
                       std::to_string(o.threads) + ".json";
    std::error_code ec;
    llvm::raw_fd_ostream os(path, ec);
    if (ec)
      return fail("cannot write '" + path + "': " + ec.message());
    os << llvm::formatv("{0:2}", llvm::json::Value(std::move(doc))) << "\n";
    std::printf("\nResults written to %s\n", path.c_str());
  }
  if (!checkPassed)
    return fail("the outputs on " + o.device + " differ from " + *o.check +
                "'s (--tolerance " + std::to_string(o.tolerance) + ")");
  return 0;
}
