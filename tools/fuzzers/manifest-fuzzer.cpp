//===- manifest-fuzzer.cpp - libFuzzer target of the manifest parser ------===//
//
// Feeds arbitrary bytes to Manifest::parse (lib/Runtime/Manifest.cpp), the
// parser of the `plaidml_manifest` text every artifact carries (docs/ABI.md
// section 3). An error is the expected answer to bad text; a crash, a
// sanitizer report or a parsed manifest that breaks the promises the runtime
// relies on (an entry point, a device line, names that do not repeat, byte
// sizes that fit in memory without overflowing) is a bug.
//
//===----------------------------------------------------------------------===//

#include "plaidml/Runtime/Manifest.h"

#include <cstddef>
#include <cstdint>
#include <set>
#include <string_view>

using namespace plaidml::rt;

namespace {
void check(bool condition) {
  if (!condition)
    __builtin_trap();
}

void checkTensor(const TensorSpec &tensor) {
  check(!tensor.name.empty());
  // The runtime allocates getByteSize() bytes for every input and output:
  // the number of elements (the product of the dimensions, in order, as
  // getNumElements computes it) must not wrap, nor its product with the
  // element size. A dimension of 0 makes the tensor empty, whatever the
  // others (5634503533799087217x0xf64 is 0 bytes).
  bool empty = false;
  for (int64_t dim : tensor.shape) {
    check(dim >= 0);
    empty |= dim == 0;
  }
  uint64_t elements = 1;
  for (int64_t dim : tensor.shape) {
    if (dim != 0)
      check(elements <= INT64_MAX / static_cast<uint64_t>(dim));
    elements *= static_cast<uint64_t>(dim);
  }
  uint64_t size = getDTypeSize(tensor.dtype);
  check(empty ? elements == 0 : elements <= INT64_MAX / size);
  uint64_t bytes = elements * size;
  check(tensor.getByteSize() == bytes);
  check(!tensor.describe().empty());
}
} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  std::string_view text(reinterpret_cast<const char *>(data), size);
  StatusOr<Manifest> parsed = Manifest::parse(text);
  if (!parsed.ok()) {
    check(!parsed.status().message().empty());
    return 0;
  }
  const Manifest &manifest = *parsed;
  check(manifest.version == kArtifactFormatVersion);
  check(!manifest.entries.empty());
  (void)manifest.getArch();
  std::set<std::string_view> entryNames;
  for (const EntrySpec &entry : manifest.entries) {
    check(entryNames.insert(entry.name).second);
    check(manifest.findEntry(entry.name) == &entry);
    check(!entry.symbol.empty());
    std::set<std::string_view> tensorNames;
    for (const auto *list : {&entry.inputs, &entry.outputs})
      for (const TensorSpec &tensor : *list) {
        check(tensorNames.insert(tensor.name).second);
        checkTensor(tensor);
      }
  }
  return 0;
}
