//===- artifact-fuzzer.cpp - libFuzzer target of artifact validation ------===//
//
// Feeds arbitrary bytes to validateArtifact (lib/Runtime/
// ArtifactValidation.cpp), the check of an artifact's ELF structure and
// manifest that Program::load runs before dlopen: it must answer every
// input with an error or a manifest, reading nothing outside the buffer.
// A crash, a sanitizer report, or an accepted file whose manifest breaks
// the parser's promises is a bug. The seeds are the fake artifacts of the
// runtime's tests and a compiled CPU artifact; nothing is ever dlopened.
//
//===----------------------------------------------------------------------===//

#include "plaidml/Runtime/ArtifactValidation.h"

#include <cstddef>
#include <cstdint>
#include <vector>

using namespace plaidml::rt;

namespace {
void check(bool condition) {
  if (!condition)
    __builtin_trap();
}
} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  // A buffer of exactly `size` bytes (none for an empty input), so that
  // AddressSanitizer sees any read past the end.
  std::vector<uint8_t> bytes(data, data + size);
  StatusOr<Manifest> manifest =
      validateArtifact(bytes.empty() ? nullptr : bytes.data(), bytes.size());
  if (!manifest.ok()) {
    check(!manifest.status().message().empty());
    return 0;
  }
  check(!manifest->entries.empty());
  for (const EntrySpec &entry : manifest->entries) {
    check(!entry.name.empty() && !entry.symbol.empty());
    for (const auto *list : {&entry.inputs, &entry.outputs})
      for (const TensorSpec &tensor : *list)
        check(!tensor.describe().empty());
  }
  return 0;
}
