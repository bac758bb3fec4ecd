//===- ArtifactValidation.h - Checking an artifact before dlopen -*- C++
//-*-===//
//
// dlopen trusts the file it maps: a truncated or corrupted shared library can
// crash the loader (SIGSEGV inside dlopen) instead of failing. So the
// runtime reads an artifact's bytes and checks them first: the ELF header
// (magic, class, byte order, version, type, this machine's architecture),
// that the program and section header tables and every segment and section
// they describe lie inside the file, that a dynamic segment exists, and the
// manifest: the `plaidml_manifest` symbol of the dynamic symbol table, its
// bytes inside a loaded segment, NUL-terminated within the symbol's size,
// and parsed (Manifest::parse). Program::load calls it for every artifact
// (given on a command line or taken from the compile cache) before dlopen.
//
// The interface is a pure function of a byte buffer, with no file system
// and no global state, so that a fuzzer can call it directly; it never
// reads outside [data, data + size) and never aborts.
//
//===----------------------------------------------------------------------===//

#ifndef PLAIDML_RUNTIME_ARTIFACTVALIDATION_H
#define PLAIDML_RUNTIME_ARTIFACTVALIDATION_H

#include "plaidml/Runtime/Manifest.h"
#include "plaidml/Runtime/Status.h"

#include <cstddef>
#include <cstdint>

namespace plaidml::rt {

/// Checks the `size` bytes at `data` as a whole artifact file (above) and
/// returns its parsed manifest. Failures: InvalidArgument for a file that is
/// not an ELF shared library for this machine ("not an ELF file (it starts
/// with 7f 45 4c 47)", "an ELF file for machine 183 (aarch64), but this
/// machine is x86_64"), for a missing or bad manifest (the messages of
/// Program::load: "not a PlaidML artifact: no 'plaidml_manifest' symbol",
/// "'plaidml_manifest' is not null-terminated", "bad manifest: line 3:
/// ..."); DataLoss for a damaged file ("truncated: segment 2 (LOAD) ends at
/// byte 16384, past the end of the 9000-byte file").
StatusOr<Manifest> validateArtifact(const uint8_t *data, size_t size);

} // namespace plaidml::rt

#endif // PLAIDML_RUNTIME_ARTIFACTVALIDATION_H
