// RUN: plaidml-opt %s -split-input-file -verify-diagnostics \
// RUN:   -plaidml-attach-target="cpu=no-such-cpu" -plaidml-emit-entry-points
// RUN: not plaidml-opt %s \
// RUN:   -plaidml-attach-target="cpu=x86-64 features=+avx2,+nosuchfeature" -plaidml-emit-entry-points \
// RUN:   2>&1 | FileCheck %s --check-prefix=FEATURE
// RUN: not plaidml-opt %s -plaidml-attach-target="features=avx2" -plaidml-emit-entry-points \
// RUN:   2>&1 | FileCheck %s --check-prefix=SIGN
// RUN: not plaidml-opt %s -plaidml-attach-target="triple=nosuch-arch-linux" -plaidml-emit-entry-points \
// RUN:   2>&1 | FileCheck %s --check-prefix=TRIPLE
// RUN: plaidml-opt %s -plaidml-attach-target="cpu=skylake features=-avx2" -plaidml-emit-entry-points \
// RUN:   | FileCheck %s --check-prefix=MINUS
// RUN: plaidml-opt %s -plaidml-emit-entry-points \
// RUN:   | FileCheck %s --check-prefix=NATIVE
// RUN: not plaidml-opt %s -plaidml-attach-target="triple=aarch64-unknown-linux-gnu" -plaidml-emit-entry-points \
// RUN:   2>&1 | FileCheck %s --check-prefix=NATIVE-CROSS
// RUN: plaidml-opt %s -plaidml-attach-target="triple=aarch64-unknown-linux-gnu cpu=cortex-a72 features=+neon,+crc" -plaidml-emit-entry-points \
// RUN:   | FileCheck %s --check-prefix=CROSS
// REQUIRES: host-x86_64

// Target resolution errors name what is unknown.

// expected-error @+1 {{unknown CPU 'no-such-cpu' for target}}
module {
}

// FEATURE: error: unknown CPU feature 'nosuchfeature' for target 'x86_64-
// SIGN: error: CPU feature 'avx2' must start with '+' or '-'
// TRIPLE: error: unknown target triple 'nosuch-arch-linux':

// A feature turned off is not recorded, nor what depends on it.
// MINUS: cpu skylake\0Afeatures +64bit,+adx,+aes,+avx,+bmi,+bmi2,
// MINUS-NOT: avx2
// MINUS-SAME: \0Aend

// native resolves to a concrete CPU name and the host's features.
// NATIVE: \0Acpu {{[a-z0-9-]+}}\0Afeatures +64bit,{{.*}}+sse2
// NATIVE-NOT: cpu native

// Another architecture: no host to detect, and only the listed features are
// recorded (the manifest cannot know another machine's vocabulary).
// NATIVE-CROSS: error: cpu 'native' needs the host's architecture (x86_64), not aarch64
// CROSS: module attributes {llvm.target_triple = "aarch64-unknown-linux-gnu", plaidml.target = #plaidml.target<device = cpu, triple = "aarch64-unknown-linux-gnu", cpu = "cortex-a72", features = "+neon,+crc">}
// CROSS: triple aarch64-unknown-linux-gnu\0Acpu cortex-a72\0Afeatures +crc,+neon\0Aend
