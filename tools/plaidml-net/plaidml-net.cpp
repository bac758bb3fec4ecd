//===- plaidml-net.cpp - Build, compile, run and time a network -----------===//
//
// plaidml-net NAME [--batch N] [--size S] [--width W] [--seed S]
//             [--device D]... [--threads T] [--repeat R] [--tolerance X]
//             [--print-ir] [--save-inputs DIR]
//
// Builds one of the op library's networks (lib/Networks) with seeded
// weights and a seeded image, runs it on every --device (default cpu),
// prints the compile time, the time of one run (the best of --repeat) and
// the top class per image, and compares every device's probabilities with
// the first device's (exit 1 when they differ by more than --tolerance).
// --save-inputs writes the image and the weights as DIR/arg<i>.npy, so
// plaidml-run can run the --print-ir program (or a part of it) on them.
//
//===----------------------------------------------------------------------===//

#include "plaidml/EDSL/Run.h"
#include "plaidml/Networks/Networks.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <iostream>

using namespace plaidml;
using namespace plaidml::edsl;
using Clock = std::chrono::steady_clock;

static double msSince(Clock::time_point t) {
  return std::chrono::duration<double, std::milli>(Clock::now() - t).count();
}

int main(int argc, char **argv) {
  if (argc < 2 || argv[1][0] == '-') {
    std::cerr << "usage: plaidml-net NAME [--batch N] [--size S] [--width W] "
                 "[--seed S] [--device D]... [--threads T] [--repeat R] "
                 "[--tolerance X] [--print-ir] [--save-inputs DIR]\nnetworks:";
    for (const std::string &n : networks::getNetworkNames())
      std::cerr << " " << n;
    std::cerr << "\n";
    return 2;
  }
  std::string name = argv[1];
  networks::NetworkOptions options;
  std::vector<std::string> devices;
  unsigned threads = 1, repeat = 1;
  double tolerance = 1e-4;
  bool printIR = false;
  std::string saveDir;
  for (int i = 2; i < argc; ++i) {
    std::string a = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc) {
        std::cerr << "error: " << a << " needs a value\n";
        std::exit(2);
      }
      return argv[++i];
    };
    try {
      if (a == "--batch")
        options.batch = std::stoll(value());
      else if (a == "--size")
        options.imageSize = std::stoll(value());
      else if (a == "--width")
        options.width = std::stod(value());
      else if (a == "--seed")
        options.seed = std::stoull(value());
      else if (a == "--device")
        devices.push_back(value());
      else if (a == "--threads")
        threads = static_cast<unsigned>(std::stoul(value()));
      else if (a == "--repeat")
        repeat = static_cast<unsigned>(std::stoul(value()));
      else if (a == "--tolerance")
        tolerance = std::stod(value());
      else if (a == "--print-ir")
        printIR = true;
      else if (a == "--save-inputs")
        saveDir = value();
      else {
        std::cerr << "error: unknown argument '" << a << "'\n";
        return 2;
      }
    } catch (const std::logic_error &) {
      std::cerr << "error: bad value for " << a << "\n";
      return 2;
    }
  }
  if (devices.empty())
    devices.push_back("cpu");

  auto start = Clock::now();
  std::unique_ptr<networks::Network> net;
  try {
    net = std::make_unique<networks::Network>(
        networks::buildNetwork(name, options));
  } catch (const Error &e) {
    std::cerr << "error: " << e.what() << "\n";
    return 1;
  }
  double buildMs = msSince(start);
  if (printIR) {
    std::cout << net->program.str();
    return 0;
  }
  int64_t numWeights = 0;
  for (const rt::HostArray &w : net->weights)
    numWeights += w.getNumElements();
  std::printf("%s: batch %lld, %lldx%lld, width %g: %zu weight tensors, "
              "%lld weights, built in %.1f ms\n",
              name.c_str(), static_cast<long long>(options.batch),
              static_cast<long long>(options.imageSize),
              static_cast<long long>(options.imageSize), options.width,
              net->weights.size(), static_cast<long long>(numWeights), buildMs);

  std::mt19937_64 rng(options.seed + 1000);
  std::vector<rt::HostArray> inputs{
      randomArray(net->program.getInputs()[0], rng)};
  inputs.insert(inputs.end(), net->weights.begin(), net->weights.end());
  for (size_t i = 0; i < inputs.size() && !saveDir.empty(); ++i) {
    std::string error, path = saveDir + "/arg" + std::to_string(i) + ".npy";
    if (!rt::writeNpy(path, inputs[i], error)) {
      std::cerr << "error: " << error << "\n";
      return 1;
    }
  }

  std::vector<double> first;
  int status = 0;
  for (const std::string &device : devices) {
    RunOptions ro;
    ro.device = device;
    ro.threads = threads;
    auto t0 = Clock::now();
    auto exe = Executable::open(net->program, ro);
    if (!exe.ok()) {
      std::cerr << "error: " << device << ": " << exe.status().message()
                << "\n";
      return 1;
    }
    double openMs = msSince(t0);
    t0 = Clock::now();
    auto results = (*exe)->run(inputs);
    if (!results.ok()) {
      std::cerr << "error: " << device << ": " << results.status().message()
                << "\n";
      return 1;
    }
    double best = msSince(t0);
    for (unsigned r = 1; r < repeat; ++r) {
      t0 = Clock::now();
      rt::Status s = (*exe)->rerun();
      if (!s.ok()) {
        std::cerr << "error: " << device << ": " << s.message() << "\n";
        return 1;
      }
      best = std::min(best, msSince(t0));
    }
    std::vector<double> probs = toDoubles((*results)[0]);
    std::printf("%s: compile %.1f ms (open %.1f ms), run %.2f ms (best of "
                "%u)\n",
                device.c_str(), (*exe)->getCompileMs(), openMs, best, repeat);
    int64_t classes = options.classes;
    for (int64_t n = 0; n < options.batch; ++n) {
      auto row = probs.begin() + n * classes;
      auto top = std::max_element(row, row + classes);
      double total = 0;
      for (int64_t c = 0; c < classes; ++c)
        total += row[c];
      std::printf("%s: image %lld: top class %lld (p = %.6f), sum %.6f\n",
                  device.c_str(), static_cast<long long>(n),
                  static_cast<long long>(top - row), *top, total);
    }
    if (first.empty()) {
      first = probs;
      continue;
    }
    double diff = 0;
    for (size_t i = 0; i < probs.size(); ++i)
      diff = std::max(diff, std::fabs(probs[i] - first[i]));
    bool ok = diff <= tolerance;
    std::printf("%s vs %s: max difference %.3g: %s\n", device.c_str(),
                devices[0].c_str(), diff, ok ? "agree" : "DIFFER");
    if (!ok)
      status = 1;
  }
  return status;
}
