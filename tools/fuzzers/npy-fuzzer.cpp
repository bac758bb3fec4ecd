//===- npy-fuzzer.cpp - libFuzzer target of the .npy reader ---------------===//
//
// Feeds arbitrary bytes to readNpy (lib/Runtime/HostArray.cpp), the reader
// of the NumPy files plaidml-run takes as inputs. readNpy reads a path, so
// each input is written to an anonymous in-memory file (memfd) and read back
// through /proc/self/fd. An error is the expected answer to bad bytes; a
// crash, an abort, a sanitizer report, or an array whose byte count does not
// match its shape is a bug. An array that reads is formatted, written back
// with writeNpy and must read again to the same array.
//
//===----------------------------------------------------------------------===//

#include "plaidml/Runtime/HostArray.h"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <sys/mman.h>
#include <unistd.h>

using namespace plaidml::rt;

namespace {
void check(bool condition) {
  if (!condition)
    __builtin_trap();
}

/// A path that reads as `size` bytes at `data`, in a memfd reused across
/// inputs.
std::string writeInput(int fd, const uint8_t *data, size_t size) {
  check(ftruncate(fd, 0) == 0);
  size_t done = 0;
  while (done < size) {
    ssize_t n = pwrite(fd, data + done, size - done, done);
    check(n > 0);
    done += static_cast<size_t>(n);
  }
  return "/proc/self/fd/" + std::to_string(fd);
}
} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static int input = memfd_create("npy-fuzzer-input", 0);
  static int output = memfd_create("npy-fuzzer-output", 0);
  check(input >= 0 && output >= 0);

  std::string error;
  std::optional<HostArray> array =
      readNpy(writeInput(input, data, size), error);
  if (!array) {
    check(!error.empty());
    return 0;
  }
  uint64_t elements = 1;
  for (int64_t dim : array->shape) {
    check(dim >= 0);
    elements *= static_cast<uint64_t>(dim);
  }
  check(array->getNumElements() == static_cast<int64_t>(elements));
  check(array->bytes.size() == elements * getDTypeSize(array->dtype));
  if (elements <= 4096) {
    check(!formatArray(*array).empty());
    for (uint64_t i = 0; i < elements; ++i)
      (void)getElementAsDouble(*array, static_cast<int64_t>(i));
  }

  // Round trip: what was read writes and reads back unchanged.
  std::string path = "/proc/self/fd/" + std::to_string(output);
  check(ftruncate(output, 0) == 0);
  check(writeNpy(path, *array, error));
  std::optional<HostArray> again = readNpy(path, error);
  check(again.has_value());
  check(again->dtype == array->dtype);
  check(again->shape == array->shape);
  check(again->bytes == array->bytes);
  return 0;
}
