//===- plaidml-run.cpp - Execute PlaidML programs -------------------------===//
//
// Opens a program (a compiled artifact, or a .mlir or .tile source when this
// build has the compiler), binds its inputs (.npy files or seeded random data),
// runs it on a device and writes or prints the results, with the command
// line contract of docs/Design.md section 6. Every failure is one line on
// stderr and a non-zero exit code. This file links no MLIR: the runtime-only
// build uses it as it is.
//
//===----------------------------------------------------------------------===//

#include "plaidml/Runner/Args.h"
#include "plaidml/Runner/Runner.h"

#include "plaidml/Runtime/Device.h"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <sys/stat.h>

using namespace plaidml;
using namespace plaidml::run;

namespace {
constexpr const char *kUsage = R"(usage: plaidml-run FILE [options]

Runs the entry function of FILE: a compiled artifact (from plaidml-compile),
a .mlir program with Tile-dialect functions, a .tile Tile-language
program or a .onnx model (builds with the compiler).
  --entry NAME             function to run (default: the only one, or main)
  --device D               cpu, vulkan:N, opencl:N, or reference (the
                           reference interpreter); default: $PLAIDML_DEVICE,
                           else the plaidml-setup config, else cpu
  --input NAME=PATH.npy    input data (repeatable); inputs are arg0, arg1, ...
                           (.tile, .onnx: the input names, typed by the
                           file; .onnx: also the values of inputs read at
                           import time, such as a Reshape's shape)
  --bind NAME=2x3xf32      check an input's shape and element type (.tile:
                           give it, for --random-inputs)
  --random-inputs[=SEED]   fill inputs not given with --input from a seeded RNG
  --output-dir DIR         write DIR/<output name>.npy (result0, result1, ...;
                           .tile: the output names); DIR is created
  --print[=all]            print the outputs; an output of more than 1000
                           elements is summarized like NumPy does (the
                           first and last 3 of each dimension around ...)
                           unless --print=all
  --threads N              compile CPU code for N threads (default 1; OpenMP
                           for N > 1); --device cpu and source files only: an
                           artifact keeps the setting it was compiled with
  --emulate-nv-ptx         opencl:N, source files: compile the cooperative-
                           matrix kernels of NVIDIA's OpenCL with their PTX
                           as portable OpenCL C, so any OpenCL device runs
                           them (slowly; a test aid)
  --repeat N, --warmup N   time N runs after N warm-up runs
  --list-devices           list the devices of this machine and exit
  --check-device D         exit 0 when device D opens here (and has every
                           --require FEATURE, a word of a manifest's
                           `requires` line), else say why and exit 1
  --verbose                say on stderr what each GPU kernel module is built
                           from (OpenCL: SPIR-V or OpenCL C, and why)

Environment: PLAIDML_OPENCL_KERNEL_FORMAT=spirv|opencl-c|auto forces the
format OpenCL kernels are built from (default auto: SPIR-V where the device
takes it, else OpenCL C).
)";

/// Reports `message` as the one-line reason and returns the exit code.
int fail(const std::string &message) {
  std::fprintf(stderr, "plaidml-run: error: %s\n", message.c_str());
  return 1;
}

struct Options {
  std::string file, entry, device, checkDevice;
  std::optional<std::string> outputDir;
  std::vector<std::string> requiredFeatures;
  std::map<std::string, std::string> inputs, binds;
  std::optional<uint64_t> randomSeed;
  bool print = false, printAll = false, listDevices = false, verbose = false;
  int64_t repeat = 0, warmup = 0;
  std::optional<int64_t> threads;
  bool emulateNvPtx = false;
};

std::optional<int64_t> parseCount(const std::string &s) {
  if (s.empty() || s.size() > 9 ||
      s.find_first_not_of("0123456789") != std::string::npos)
    return std::nullopt;
  return std::stoll(s);
}

/// Parses argv into `opts`; returns an error message on bad usage.
std::optional<std::string> parseArgs(int argc, char **argv, Options &opts) {
  ArgWalker args(argc, argv);
  while (args.next()) {
    const std::string arg = args.name();
    auto next = [&] { return args.value(); };
    auto keyValue = [&](std::map<std::string, std::string> &into)
        -> std::optional<std::string> {
      std::optional<std::string> v = next();
      if (!v)
        return arg + " needs NAME=VALUE";
      size_t eq = v->find('=');
      if (eq == std::string::npos || eq == 0)
        return arg + " needs NAME=VALUE, got '" + *v + "'";
      into[v->substr(0, eq)] = v->substr(eq + 1);
      return std::nullopt;
    };
    if (arg == "--help" || arg == "-h") {
      std::fputs(kUsage, stdout);
      std::exit(0);
    } else if (arg == "--entry" || arg == "--device" || arg == "--output-dir") {
      std::optional<std::string> v = next();
      if (!v)
        return arg + " needs a value";
      // An empty value (an unset shell variable) is a mistake, not "the
      // default": --output-dir "" would write nothing and still succeed.
      if (v->empty())
        return arg + " needs a value, got an empty string";
      if (arg == "--output-dir")
        opts.outputDir = *v;
      else
        (arg == "--entry" ? opts.entry : opts.device) = *v;
    } else if (arg == "--input") {
      if (auto err = keyValue(opts.inputs))
        return err;
    } else if (arg == "--bind") {
      if (auto err = keyValue(opts.binds))
        return err;
    } else if (arg == "--random-inputs") {
      opts.randomSeed = 0;
      if (const std::optional<std::string> &value = args.getInlineValue()) {
        std::optional<int64_t> seed = parseCount(*value);
        if (!seed)
          return "--random-inputs takes a non-negative integer seed, got '" +
                 *value + "'";
        opts.randomSeed = *seed;
      }
    } else if (arg == "--repeat" || arg == "--warmup") {
      std::optional<std::string> v = next();
      std::optional<int64_t> n = v ? parseCount(*v) : std::nullopt;
      if (!n)
        return arg + " needs a non-negative count";
      (arg == "--repeat" ? opts.repeat : opts.warmup) = *n;
    } else if (arg == "--emulate-nv-ptx") {
      opts.emulateNvPtx = true;
    } else if (arg == "--threads") {
      std::optional<std::string> v = next();
      std::optional<int64_t> n = v ? parseCount(*v) : std::nullopt;
      if (!n || *n < 1)
        return arg + " needs a positive count";
      opts.threads = *n;
    } else if (arg == "--print") {
      opts.print = true;
      if (const std::optional<std::string> &value = args.getInlineValue()) {
        if (*value != "all")
          return "--print takes no value or =all, got '" + *value + "'";
        opts.printAll = true;
      }
    } else if (arg == "--list-devices") {
      opts.listDevices = true;
    } else if (arg == "--check-device" || arg == "--require") {
      std::optional<std::string> v = next();
      if (!v)
        return arg + " needs a value";
      if (arg == "--check-device")
        opts.checkDevice = *v;
      else
        opts.requiredFeatures.push_back(*v);
    } else if (arg == "--verbose") {
      opts.verbose = true;
    } else if (arg.rfind("-", 0) == 0) {
      return "unknown option '" + arg + "' (see --help)";
    } else if (opts.file.empty()) {
      opts.file = arg;
    } else {
      return "more than one input file ('" + opts.file + "' and '" + arg + "')";
    }
  }
  if (!opts.requiredFeatures.empty() && opts.checkDevice.empty())
    return "--require goes with --check-device";
  return std::nullopt;
}

/// --check-device: whether the device opens and has the features.
int checkDevice(const Options &opts) {
  rt::StatusOr<std::shared_ptr<rt::Device>> device =
      rt::openDevice(std::string_view(opts.checkDevice));
  if (!device.ok())
    return fail(device.message());
  for (const std::string &feature : opts.requiredFeatures)
    if (!(*device)->getInfo().hasFeature(feature))
      return fail((*device)->getLabel() + " lacks " + feature);
  return 0;
}

/// True when `path` starts with the ELF magic (an artifact).
bool isArtifact(const std::string &path) {
  FILE *f = std::fopen(path.c_str(), "rb");
  if (!f)
    return false;
  char magic[4] = {};
  size_t n = std::fread(magic, 1, 4, f);
  std::fclose(f);
  return n == 4 && magic[0] == 0x7f && magic[1] == 'E' && magic[2] == 'L' &&
         magic[3] == 'F';
}

double millisecondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double, std::milli>(
             std::chrono::steady_clock::now() - start)
      .count();
}

/// Collects the inputs of `runner` from --input files, or random data.
rt::StatusOr<std::vector<rt::HostArray>> bindInputs(const Runner &runner,
                                                    const Options &opts) {
  const std::string entry = runner.getEntryName();
  const std::vector<rt::TensorSpec> &specs = runner.getInputs();
  auto isInput = [&](const std::string &name) {
    return std::any_of(specs.begin(), specs.end(),
                       [&](const rt::TensorSpec &s) { return s.name == name; });
  };
  for (const auto *map : {&opts.inputs, &opts.binds})
    for (const auto &kv : *map)
      if (!isInput(kv.first)) {
        std::string names;
        for (const rt::TensorSpec &s : specs)
          names += (names.empty() ? "" : ", ") + s.name;
        return rt::Status::failure(
            "'" + kv.first + "' is not an input of '" + entry +
            "' (inputs: " + (names.empty() ? "none" : names) + ")");
      }

  std::vector<rt::HostArray> inputs;
  std::mt19937_64 rng(opts.randomSeed.value_or(0));
  std::string error;
  for (const rt::TensorSpec &spec : specs) {
    if (auto it = opts.binds.find(spec.name); it != opts.binds.end()) {
      rt::HostArray bound;
      if (!rt::parseShapeAndType(it->second, bound.shape, bound.dtype, error))
        return rt::Status::failure("--bind " + spec.name + ": " + error);
      if (bound.describe() != spec.describe())
        return rt::Status::failure("--bind " + spec.name + "=" + it->second +
                                   " does not match the input type " +
                                   spec.describe());
    }
    if (auto it = opts.inputs.find(spec.name); it != opts.inputs.end()) {
      std::optional<rt::HostArray> array = rt::readNpy(it->second, error);
      if (!array)
        return rt::Status::failure(error);
      // NumPy has no bfloat16: a float32 file feeds a bf16 input, rounded.
      if (spec.dtype == rt::DType::bf16 && array->dtype == rt::DType::f32 &&
          array->shape == spec.shape) {
        rt::HostArray rounded;
        rounded.dtype = rt::DType::bf16;
        rounded.shape = spec.shape;
        if (!rt::allocateArray(rounded, "input '" + spec.name + "'", error))
          return rt::Status::failure(error);
        for (int64_t i = 0, e = spec.getNumElements(); i < e; ++i)
          rt::setElementFromDouble(rounded, i,
                                   rt::getElementAsDouble(*array, i));
        array = std::move(rounded);
      }
      if (!spec.matches(*array))
        return rt::Status::failure("input '" + spec.name + "' must be " +
                                   spec.describe() + ", but '" + it->second +
                                   "' holds " + array->describe());
      inputs.push_back(std::move(*array));
    } else if (opts.randomSeed) {
      rt::StatusOr<rt::HostArray> array = randomArray(spec, rng);
      if (!array.ok())
        return array.status();
      inputs.push_back(std::move(*array));
    } else {
      return rt::Status::failure("missing input '" + spec.name + "' (" +
                                 spec.describe() + "): pass --input " +
                                 spec.name + "=FILE.npy or --random-inputs");
    }
  }
  return rt::StatusOr<std::vector<rt::HostArray>>(std::move(inputs));
}
} // namespace

int main(int argc, char **argv) {
  Options opts;
  if (std::optional<std::string> err = parseArgs(argc, argv, opts))
    return fail(*err);
  if (!opts.checkDevice.empty())
    return checkDevice(opts);
  if (opts.listDevices) {
    std::vector<std::string> notes;
    for (const rt::DeviceInfo &d : rt::listDevices(&notes))
      std::printf("%-10s %s\n", d.name.str().c_str(), d.description.c_str());
    if (canOpenSources())
      std::printf("%-10s %s\n", "reference",
                  "the reference interpreter (exact and slow; the test "
                  "oracle)");
    for (const std::string &note : notes)
      std::fprintf(stderr, "note: %s\n", note.c_str());
    return 0;
  }
  if (opts.file.empty())
    return fail("no input file (see --help)");
  if (opts.device.empty()) {
    rt::StatusOr<std::string> device = rt::getDefaultDeviceName();
    if (!device.ok())
      return fail(device.message());
    opts.device = *device;
  }
  // Before compiling for a device that is not there.
  if (rt::Status s = checkDevice(opts.device); !s.ok())
    return fail(s.message());
  struct stat st;
  if (stat(opts.file.c_str(), &st) != 0)
    return fail("cannot read '" + opts.file + "': " + std::strerror(errno));
  if (S_ISDIR(st.st_mode))
    return fail("cannot read '" + opts.file +
                "': it is a directory, not a program file");
  if (!S_ISREG(st.st_mode))
    return fail("cannot read '" + opts.file + "': it is " +
                (S_ISFIFO(st.st_mode)   ? "a pipe"
                 : S_ISCHR(st.st_mode)  ? "a character device"
                 : S_ISSOCK(st.st_mode) ? "a socket"
                                        : "not a regular file") +
                ", and plaidml-run reads programs from regular files only "
                "(save the program to a file)");

  bool artifact = isArtifact(opts.file);
  if (artifact && opts.device == "reference")
    return fail("'" + opts.file +
                "' is a compiled artifact, and the reference interpreter runs "
                "source programs (.mlir, .tile) only: run the artifact on the "
                "device it was compiled for, or the source with --device "
                "reference");
  CompileSettings settings;
  if (opts.threads) {
    if (artifact)
      return fail("--threads sets how a source program is compiled, but '" +
                  opts.file +
                  "' is an artifact, which runs with the threads it was "
                  "compiled for (plaidml-compile --threads N)");
    if (opts.device != "cpu")
      return fail("--threads applies to --device cpu, not to '" + opts.device +
                  "'");
    settings.threads = static_cast<unsigned>(*opts.threads);
  }
  if (opts.emulateNvPtx) {
    if (artifact)
      return fail("--emulate-nv-ptx sets how a source program is compiled, "
                  "but '" +
                  opts.file +
                  "' is an artifact (plaidml-compile --emulate-nv-ptx)");
    if (opts.device.rfind("opencl:", 0) != 0)
      return fail("--emulate-nv-ptx applies to an opencl:N device, not to '" +
                  opts.device + "'");
    settings.emulateNvPtx = true;
  }

  double compileMs = 0;
  bool onnx = !artifact && opts.file.size() > 5 &&
              opts.file.compare(opts.file.size() - 5, 5, ".onnx") == 0;
  if (onnx && !opts.entry.empty())
    return fail("--entry does not apply to an ONNX model (it has one graph)");
  rt::StatusOr<std::unique_ptr<Runner>> runner =
      artifact ? openArtifact(opts.file, opts.entry, opts.device)
      : onnx   ? openOnnx(opts.file, opts.device,
                          InputBindings{opts.inputs, opts.binds}, settings,
                          compileMs)
               : openSource(opts.file, opts.entry, opts.device,
                            InputBindings{opts.inputs, opts.binds}, settings,
                            compileMs);
  if (!runner.ok())
    return fail(runner.message());
  if (opts.verbose)
    for (const std::string &line : (*runner)->describeKernelModules())
      std::fprintf(stderr, "note: %s\n", line.c_str());

  rt::StatusOr<std::vector<rt::HostArray>> inputs = bindInputs(**runner, opts);
  if (!inputs.ok())
    return fail(inputs.message());
  if (rt::Status s = (*runner)->prepare(*inputs); !s.ok())
    return fail(s.message());

  // Warm-up runs, then timed ones (at least one run in any case).
  std::vector<double> times;
  int64_t runs = std::max<int64_t>(opts.repeat, 1);
  for (int64_t r = 0; r < opts.warmup + runs; ++r) {
    auto start = std::chrono::steady_clock::now();
    if (rt::Status s = (*runner)->execute(); !s.ok())
      return fail(s.message());
    if (r >= opts.warmup)
      times.push_back(millisecondsSince(start));
  }
  if (opts.repeat > 0) {
    std::sort(times.begin(), times.end());
    size_t n = times.size();
    double median =
        n % 2 ? times[n / 2] : (times[n / 2 - 1] + times[n / 2]) / 2;
    std::printf("compile: %.3f ms\n", compileMs);
    std::printf("run: min %.3f ms, median %.3f ms, max %.3f ms over %zu runs\n",
                times.front(), median, times.back(), n);
  }

  if (opts.outputDir) {
    const std::string &dir = *opts.outputDir;
    std::string path;
    for (size_t i = 0; i <= dir.size(); ++i) {
      if (i == dir.size() || dir[i] == '/') {
        path = dir.substr(0, i);
        if (!path.empty() && mkdir(path.c_str(), 0777) != 0 && errno != EEXIST)
          return fail("cannot create output directory '" + path +
                      "': " + std::strerror(errno));
      }
    }
    if (stat(dir.c_str(), &st) != 0 || !S_ISDIR(st.st_mode))
      return fail("output directory '" + dir + "' is not a directory");
  }
  rt::StatusOr<std::vector<rt::HostArray>> fetched = (*runner)->getResults();
  if (!fetched.ok())
    return fail(fetched.message());
  std::vector<rt::HostArray> &results = *fetched;
  for (size_t i = 0; i < results.size(); ++i) {
    const std::string &name = (*runner)->getOutputs()[i].name;
    if (opts.print) {
      std::printf("%s: %s\n", name.c_str(), results[i].describe().c_str());
      std::printf("%s\n", rt::formatArray(results[i], opts.printAll).c_str());
    }
    if (opts.outputDir) {
      std::string error;
      if (!rt::writeNpy(*opts.outputDir + "/" + name + ".npy", results[i],
                        error))
        return fail(error);
    }
  }
  return 0;
}
