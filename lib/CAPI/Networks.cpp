//===- Networks.cpp - C API: the built-in networks ------------------------===//
//
// include/plaidml-c/networks.h over include/plaidml/Networks/Networks.h:
// lists the networks and builds one into a plaidml_program (made by
// EDSL.cpp's makeProgram) and weight buffers. Exceptions of the network
// builder (edsl::Error) become PLAIDML_BUILD_ERROR.
//
//===----------------------------------------------------------------------===//

#include "EDSLHandles.h"
#include "Internal.h"

#include "plaidml-c/networks.h"

#include "plaidml/Networks/Networks.h"

#include <algorithm>

using namespace plaidml;
using namespace plaidml::capi;

namespace {
const std::vector<std::string> &names() {
  static const std::vector<std::string> sorted = [] {
    std::vector<std::string> n = networks::getNetworkNames();
    std::sort(n.begin(), n.end());
    return n;
  }();
  return sorted;
}
} // namespace

extern "C" {

size_t plaidml_network_count(void) { return names().size(); }

const char *plaidml_network_name(size_t index) {
  return index < names().size() ? names()[index].c_str() : nullptr;
}

plaidml_status plaidml_network_build(const char *name, int64_t batch,
                                     int64_t image_size, int64_t classes,
                                     double width, uint64_t seed,
                                     plaidml_program **program, size_t capacity,
                                     plaidml_buffer **weights,
                                     size_t *num_weights) {
  const char *fn = "plaidml_network_build";
  if (!name)
    return failNull(fn, "name");
  if (!program)
    return failNull(fn, "program");
  if (!num_weights)
    return failNull(fn, "num_weights");
  if (capacity && !weights)
    return failNull(fn, "weights");
  if (std::find(names().begin(), names().end(), name) == names().end()) {
    std::string known;
    for (const std::string &n : names())
      known += (known.empty() ? "" : ", ") + n;
    return fail(PLAIDML_NOT_FOUND, std::string(fn) + ": no network '" + name +
                                       "' (networks: " + known + ")");
  }
  if (batch < 1 || image_size < 1 || classes < 1 || !(width > 0))
    return fail(PLAIDML_INVALID_ARGUMENT,
                std::string(fn) + ": batch, image_size, classes and width "
                                  "must be positive");
  try {
    networks::NetworkOptions options;
    options.batch = batch;
    options.imageSize = image_size;
    options.classes = classes;
    options.width = width;
    options.seed = seed;
    networks::Network net = networks::buildNetwork(name, options);
    *num_weights = net.weights.size();
    if (net.weights.size() > capacity)
      return fail(PLAIDML_INVALID_ARGUMENT,
                  std::string(fn) + ": '" + name + "' has " +
                      std::to_string(net.weights.size()) +
                      " weights, but room for " + std::to_string(capacity) +
                      " was given");
    for (size_t i = 0; i < net.weights.size(); ++i) {
      weights[i] = new plaidml_buffer();
      weights[i]->array = std::move(net.weights[i]);
    }
    *program = makeProgram(std::move(net.program));
    return PLAIDML_OK;
  } catch (const edsl::Error &e) {
    return fail(PLAIDML_BUILD_ERROR,
                std::string(fn) + ": '" + name + "': " + e.what());
  } catch (const std::exception &e) {
    return fail(PLAIDML_INTERNAL_ERROR,
                std::string(fn) + ": '" + name + "': " + e.what());
  }
}

} // extern "C"
