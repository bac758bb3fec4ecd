//===- plaidml-op-test.cpp - Run the op library's test cases --------------===//
//
// Builds every test case of the op library (an op over one combination of
// its attributes, on seeded random inputs), runs it on each device given
// with --device and writes, per case, a directory with the inputs
// (in<i>.npy), the outputs of every device (<device>_<j>.npy) and meta.json
// (the op and its attributes). check_ops.py recomputes each case with NumPy
// and compares. --gpu-subset keeps the cases marked representative (for the
// GPU devices, to keep test time modest); --filter keeps the cases whose
// name contains the text.
//
//===----------------------------------------------------------------------===//

#include "Cases.h"

#include "llvm/ADT/STLExtras.h"

#include "plaidml/EDSL/Run.h"

#include <filesystem>
#include <fstream>
#include <iostream>

using namespace plaidml;
using namespace plaidml::edsl;
namespace fs = std::filesystem;

int main(int argc, char **argv) {
  std::vector<std::string> devices;
  std::string outDir, filter;
  bool gpuSubset = false, list = false;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc) {
        std::cerr << "error: " << a << " needs a value\n";
        std::exit(2);
      }
      return argv[++i];
    };
    if (a == "--device")
      devices.push_back(value());
    else if (a == "--out")
      outDir = value();
    else if (a == "--filter")
      filter = value();
    else if (a == "--gpu-subset")
      gpuSubset = true;
    else if (a == "--list")
      list = true;
    else {
      std::cerr << "error: unknown argument '" << a << "'\n"
                << "usage: plaidml-op-test --device D... --out DIR "
                   "[--filter TEXT] [--gpu-subset] [--list]\n";
      return 2;
    }
  }
  std::vector<optest::Case> cases = optest::getCases();
  int failures = 0, ran = 0;
  for (size_t ci = 0; ci < cases.size(); ++ci) {
    const optest::Case &c = cases[ci];
    if (!filter.empty() && c.name.find(filter) == std::string::npos)
      continue;
    if (gpuSubset && !c.gpu)
      continue;
    if (list) {
      std::cout << c.name << "\n";
      continue;
    }
    resetTensors();
    std::vector<Tensor> inputs;
    for (auto [i, spec] : llvm::enumerate(c.inputs))
      inputs.push_back(
          Placeholder(spec.dtype, spec.shape, "in" + std::to_string(i)));
    std::unique_ptr<Program> program;
    try {
      std::vector<Tensor> outputs = c.build(inputs);
      program = std::make_unique<Program>(c.name, inputs, outputs);
    } catch (const Error &e) {
      std::cout << "FAIL " << c.name << ": build: " << e.what() << "\n";
      ++failures;
      continue;
    }
    fs::path dir = fs::path(outDir) / c.name;
    fs::create_directories(dir);
    std::ofstream(dir / "meta.json")
        << "{\"op\": \"" << c.op << "\", \"attrs\": " << c.attrs << "}\n";
    std::mt19937_64 rng(1000 + ci);
    std::vector<rt::HostArray> data;
    std::string error;
    for (auto [i, spec] : llvm::enumerate(program->getInputs())) {
      data.push_back(c.makeInput ? c.makeInput(i, spec, rng)
                                 : randomArray(spec, rng));
      rt::writeNpy((dir / ("in" + std::to_string(i) + ".npy")).string(),
                   data.back(), error);
    }
    for (const std::string &device : devices) {
      RunOptions options;
      options.device = device;
      auto exe = Executable::open(*program, options);
      rt::StatusOr<std::vector<rt::HostArray>> results =
          exe.ok() ? (*exe)->run(data)
                   : rt::StatusOr<std::vector<rt::HostArray>>(exe.status());
      if (!results.ok()) {
        std::cout << "FAIL " << c.name << " on " << device << ": "
                  << results.status().message() << "\n";
        ++failures;
        continue;
      }
      std::string tag = device;
      for (char &ch : tag)
        if (ch == ':')
          ch = '_';
      for (size_t j = 0; j < results->size(); ++j)
        rt::writeNpy((dir / (tag + "_" + std::to_string(j) + ".npy")).string(),
                     (*results)[j], error);
      ++ran;
    }
  }
  if (!list)
    std::cout << "ran " << ran << " case-device pairs, " << failures
              << " failed to build or run\n";
  return failures ? 1 : 0;
}
