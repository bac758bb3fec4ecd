//===- plaidml-onnx-test.cpp - Run ONNX node tests ------------------------===//
//
// `plaidml-onnx-test [--device D]... DIR...`: each DIR is an ONNX backend
// test (model.onnx and test_data_set_N/input_K.pb, output_K.pb, as the onnx
// package writes them). The model is imported once (with the inputs of data
// set 0 as the values of inputs read at import time), compiled for each
// device (through the compile cache), run on every data set and compared
// with the expected outputs (|actual - expected| <= atol + rtol * |expected|
// for floats, with NaN matching NaN; integers and booleans exactly). Prints
// one JSON line per test and device: test, device, status (pass, fail,
// error, unsupported) and message. Many tests per process keep the start-up
// cost out of the conformance suite (test/Onnx).
//
//===----------------------------------------------------------------------===//

#include "plaidml/EDSL/Run.h"
#include "plaidml/Import/Onnx.h"

#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

using namespace plaidml;
namespace fs = std::filesystem;

namespace {
struct Options {
  std::vector<std::string> devices, dirs;
  double rtol = 1e-3, atol = 1e-7;
};

std::string jsonEscape(const std::string &s) {
  std::string r;
  for (char c : s) {
    switch (c) {
    case '"':
      r += "\\\"";
      break;
    case '\\':
      r += "\\\\";
      break;
    case '\n':
      r += "\\n";
      break;
    case '\t':
      r += "\\t";
      break;
    default:
      if (static_cast<unsigned char>(c) < 0x20)
        r += ' ';
      else
        r += c;
    }
  }
  return r;
}

void report(const std::string &test, const std::string &device,
            const std::string &status, const std::string &message, double ms) {
  std::printf("{\"test\": \"%s\", \"device\": \"%s\", \"status\": \"%s\", "
              "\"ms\": %.1f, \"message\": \"%s\"}\n",
              jsonEscape(test).c_str(), jsonEscape(device).c_str(),
              status.c_str(), ms, jsonEscape(message).c_str());
  std::fflush(stdout);
}

struct DataSet {
  std::vector<rt::HostArray> inputs, outputs;
  std::vector<std::string> inputNames;
};

/// Reads prefix_0.pb, prefix_1.pb, ... of `dir`.
bool readArrays(const fs::path &dir, const std::string &prefix,
                std::vector<rt::HostArray> &arrays,
                std::vector<std::string> &names, std::string &error) {
  for (int i = 0;; ++i) {
    fs::path p = dir / (prefix + "_" + std::to_string(i) + ".pb");
    if (!fs::exists(p))
      return true;
    std::string name;
    rt::StatusOr<rt::HostArray> a =
        onnx::readTensorProtoFile(p.string(), &name);
    if (!a.ok()) {
      error = a.message();
      return false;
    }
    arrays.push_back(std::move(*a));
    names.push_back(name);
  }
}

/// Why `actual` differs from `expected`, or "".
std::string compare(const rt::HostArray &actual, const rt::HostArray &expected,
                    const Options &o) {
  if (actual.dtype != expected.dtype || actual.shape != expected.shape)
    return "got " + actual.describe() + ", expected " + expected.describe();
  bool isFloat = rt::isFloatDType(expected.dtype);
  int64_t bad = 0, first = -1;
  double worst = 0;
  for (int64_t i = 0, e = expected.getNumElements(); i < e; ++i) {
    if (isFloat) {
      double a = rt::getElementAsDouble(actual, i),
             x = rt::getElementAsDouble(expected, i);
      if (std::isnan(x) && std::isnan(a))
        continue;
      if (std::isinf(x) && a == x)
        continue;
      double diff = std::fabs(a - x);
      if (!(diff <= o.atol + o.rtol * std::fabs(x))) {
        if (first < 0)
          first = i;
        ++bad;
        worst = std::max(worst, std::isnan(diff) ? INFINITY : diff);
      }
    } else if (rt::getElementAsInt(actual, i) !=
               rt::getElementAsInt(expected, i)) {
      if (first < 0)
        first = i;
      ++bad;
    }
  }
  if (!bad)
    return "";
  return std::to_string(bad) + " of " +
         std::to_string(expected.getNumElements()) +
         " elements differ; first at " + std::to_string(first) + ": got " +
         std::to_string(rt::getElementAsDouble(actual, first)) + ", expected " +
         std::to_string(rt::getElementAsDouble(expected, first)) +
         (isFloat ? "; largest difference " + std::to_string(worst) : "");
}

bool isUnsupported(const std::string &message) {
  return message.find("unsupported") != std::string::npos ||
         message.find("dynamic") != std::string::npos ||
         message.find("does not support") != std::string::npos;
}

void runTest(const fs::path &dir, const Options &o) {
  std::string test = dir.filename().string();
  auto start = std::chrono::steady_clock::now();
  auto ms = [&] {
    return std::chrono::duration<double, std::milli>(
               std::chrono::steady_clock::now() - start)
        .count();
  };
  auto all = [&](const std::string &status, const std::string &message) {
    for (const std::string &d : o.devices)
      report(test, d, status, message, ms());
  };
  std::vector<DataSet> sets;
  std::string error;
  for (int i = 0; fs::exists(dir / ("test_data_set_" + std::to_string(i)));
       ++i) {
    DataSet s;
    std::vector<std::string> outNames;
    fs::path sd = dir / ("test_data_set_" + std::to_string(i));
    if (!readArrays(sd, "input", s.inputs, s.inputNames, error) ||
        !readArrays(sd, "output", s.outputs, outNames, error))
      return all("unsupported", "test data: " + error);
    sets.push_back(std::move(s));
  }
  if (sets.empty())
    return all("error", "no test_data_set_0");

  onnx::ImportOptions options;
  for (size_t i = 0; i < sets[0].inputs.size(); ++i)
    options.knownInputs[sets[0].inputNames[i]] = sets[0].inputs[i];
  rt::StatusOr<std::unique_ptr<onnx::ImportedModel>> model =
      onnx::importOnnxFile((dir / "model.onnx").string(), options);
  if (!model.ok()) {
    edsl::resetTensors();
    return all(isUnsupported(model.message()) ? "unsupported" : "error",
               model.message());
  }
  onnx::ImportedModel &m = **model;
  double importMs = ms();
  for (const std::string &device : o.devices) {
    start = std::chrono::steady_clock::now();
    try {
      rt::StatusOr<std::unique_ptr<edsl::Executable>> exe =
          edsl::Executable::open(m.program, edsl::RunOptions{device, 1});
      if (!exe.ok()) {
        report(test, device, "error", "compile: " + exe.message(), ms());
        continue;
      }
      std::string failure;
      for (size_t s = 0; s < sets.size() && failure.empty(); ++s) {
        std::vector<rt::HostArray> args;
        for (size_t i = 0; i < m.graphInputs.size(); ++i) {
          if (!m.isProgramInput[i])
            continue;
          size_t k = 0;
          while (k < sets[s].inputNames.size() &&
                 sets[s].inputNames[k] != m.graphInputs[i].name)
            ++k;
          if (k == sets[s].inputNames.size()) {
            failure = "no data for input '" + m.graphInputs[i].name + "'";
            break;
          }
          args.push_back(sets[s].inputs[k]);
        }
        if (!failure.empty())
          break;
        for (const rt::HostArray &p : m.parameters)
          args.push_back(p);
        rt::StatusOr<std::vector<rt::HostArray>> outs = (*exe)->run(args);
        if (!outs.ok()) {
          report(test, device, "error", "run: " + outs.message(), ms());
          failure = "-";
          break;
        }
        if (outs->size() != sets[s].outputs.size()) {
          failure = "the model has " + std::to_string(outs->size()) +
                    " outputs, the test " +
                    std::to_string(sets[s].outputs.size());
          break;
        }
        for (size_t i = 0; i < outs->size() && failure.empty(); ++i) {
          std::string why = compare((*outs)[i], sets[s].outputs[i], o);
          if (!why.empty())
            failure = "output '" + m.outputNames[i] + "': " + why;
        }
      }
      if (failure == "-")
        continue;
      if (failure.empty())
        report(test, device, "pass", "", ms() + importMs);
      else
        report(test, device, "fail", failure, ms() + importMs);
    } catch (const std::exception &e) {
      report(test, device, "error", e.what(), ms());
    }
  }
  edsl::resetTensors();
}
} // namespace

int main(int argc, char **argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if ((a == "--device" || a == "--rtol" || a == "--atol") && i + 1 < argc) {
      std::string v = argv[++i];
      if (a == "--device")
        o.devices.push_back(v);
      else
        (a == "--rtol" ? o.rtol : o.atol) = std::stod(v);
    } else if (a == "--list-ops") {
      for (const std::string &op : onnx::getSupportedOps())
        std::puts(op.c_str());
      return 0;
    } else if (a == "--help" || a == "-h") {
      std::puts("usage: plaidml-onnx-test [--device D]... [--rtol R] "
                "[--atol A] TESTDIR...\n       plaidml-onnx-test "
                "--list-ops\nRuns ONNX backend tests (model.onnx "
                "and test_data_set_N) and prints one JSON line per test and "
                "device.");
      return 0;
    } else if (a.rfind("-", 0) == 0) {
      std::fprintf(stderr, "plaidml-onnx-test: error: unknown option '%s'\n",
                   a.c_str());
      return 1;
    } else {
      o.dirs.push_back(a);
    }
  }
  if (o.devices.empty())
    o.devices.push_back("cpu");
  if (o.dirs.empty()) {
    std::fprintf(stderr, "plaidml-onnx-test: error: no test directories\n");
    return 1;
  }
  for (const std::string &d : o.dirs) {
    if (!fs::is_directory(d)) {
      std::fprintf(stderr,
                   "plaidml-onnx-test: error: '%s' is not a directory\n",
                   d.c_str());
      return 1;
    }
    runTest(d, o);
  }
  return 0;
}
