/*===- fake_artifact.c - Hand-written artifacts for runtime tests ---------===*\
|*                                                                            *|
|* Stands in for what plaidml-compile emits (docs/ABI.md) so the runtime can  *|
|* be tested without the compiler: a `plaidml_manifest` string and            *|
|* `_plaidml_entry_<f>(void **buffers)` wrappers. CMake builds this file      *|
|* several times as MODULE libraries; one FAKE_* macro picks the variant:     *|
|* a good artifact, or one broken in a single way (no manifest, another       *|
|* format version, a missing wrapper, ...).                                   *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#include <stdint.h>

#define EXPORT __attribute__((visibility("default")))

#if defined(__x86_64__)
#define TRIPLE "x86_64-unknown-linux-gnu"
#define HOST_FEATURES "+64bit,+sse2,-avx512f,+evex512,+nonexistent-feature"
#elif defined(__aarch64__)
#define TRIPLE "aarch64-unknown-linux-gnu"
#define HOST_FEATURES "+neon,-sve,+nonexistent-feature"
#else
#define TRIPLE "unknown-unknown-linux-gnu"
#define HOST_FEATURES "+nonexistent-feature"
#endif

#define ENTRIES                                                                \
  "entry add _plaidml_entry_add\n"                                             \
  "input a 2x3xf32\n"                                                          \
  "input b 2x3xf32\n"                                                          \
  "output sum 2x3xf32\n"                                                       \
  "entry stats _plaidml_entry_stats\n"                                         \
  "input x 4xf32\n"                                                            \
  "output count si64\n"                                                        \
  "output positive 4xi1\n"                                                     \
  "entry aligned _plaidml_entry_aligned\n"                                     \
  "input x 3xf32\n"                                                            \
  "input y si8\n"                                                              \
  "output ok i1\n"                                                             \
  "output empty 0x5xf64\n"

#if defined(FAKE_GOOD)
EXPORT const char plaidml_manifest[] =
    "plaidml-artifact 1\n"
    "compiler 0.1.0\n"
    "device cpu\n"
    "triple " TRIPLE "\n"
    "cpu generic\n"
    "features " HOST_FEATURES "\n" ENTRIES "end\n";
#elif defined(FAKE_NEEDS_AVX512)
EXPORT const char plaidml_manifest[] =
    "plaidml-artifact 1\n"
    "compiler 0.1.0\n"
    "device cpu\n"
    "triple x86_64-unknown-linux-gnu\n"
    "cpu skylake-avx512\n"
    "features +avx,+avx2,+fma,+sse4.2,+avx512f,+evex512\n" ENTRIES "end\n";
#elif defined(FAKE_BAD_VERSION)
EXPORT const char plaidml_manifest[] = "plaidml-artifact 2\n"
                                       "device cpu\n" ENTRIES "end\n";
#elif defined(FAKE_VULKAN)
EXPORT const char plaidml_manifest[] = "plaidml-artifact 1\n"
                                       "device vulkan\n"
                                       "triple " TRIPLE "\n" ENTRIES "end\n";
#elif defined(FAKE_MISSING_WRAPPER)
EXPORT const char plaidml_manifest[] =
    "plaidml-artifact 1\n"
    "device cpu\n" ENTRIES "entry mul _plaidml_entry_mul\n"
    "input a f32\n"
    "output b f32\n"
    "end\n";
#elif defined(FAKE_BAD_MANIFEST)
EXPORT const char plaidml_manifest[] = "plaidml-artifact 1\n"
                                       "device cpu\n"
                                       "entry add _plaidml_entry_add\n"
                                       "input a 2x3xfloat\n"
                                       "end\n";
#elif defined(FAKE_UNTERMINATED)
/* Exactly as long as its text: no terminating NUL. */
EXPORT const char plaidml_manifest[18] __attribute__((nonstring)) =
    "plaidml-artifact 1";
#elif defined(FAKE_NEEDS_MISSING_LIBRARY)
/* A good manifest, but the library needs another one that the loader cannot
   find at run time, as an artifact compiled for several threads needs
   libomp.so.5. */
extern int plaidml_fake_dependency(void);
EXPORT int (*const plaidml_fake_dependency_ref)(void) = plaidml_fake_dependency;
EXPORT const char plaidml_manifest[] = "plaidml-artifact 1\n"
                                       "device cpu\n" ENTRIES "end\n";
#elif defined(FAKE_PREPARED) || defined(FAKE_MISSING_PREPARE)
/* An entry with a preparation (docs/ABI.md section 2) that reads input w;
   FAKE_MISSING_PREPARE lacks the preparation's symbol. */
EXPORT const char plaidml_manifest[] = "plaidml-artifact 1\n"
                                       "device cpu\n"
                                       "entry scale _plaidml_entry_scale\n"
                                       "prepare _plaidml_prepare_scale 64\n"
                                       "input x 4xf32\n"
                                       "input w 4xf32 param\n"
                                       "output y 4xf32\n"
                                       "output preparations si32\n"
                                       "end\n";
#elif defined(FAKE_NO_MANIFEST)
/* No manifest at all: an ordinary shared library. */
#else
#error "define one FAKE_* variant"
#endif

EXPORT void _plaidml_entry_add(void **buffers) {
  const float *a = (const float *)buffers[0];
  const float *b = (const float *)buffers[1];
  float *sum = (float *)buffers[2];
  for (int i = 0; i < 6; ++i)
    sum[i] = a[i] + b[i];
}

EXPORT void _plaidml_entry_stats(void **buffers) {
  const float *x = (const float *)buffers[0];
  int64_t *count = (int64_t *)buffers[1];
  uint8_t *positive = (uint8_t *)buffers[2];
  *count = 0;
  for (int i = 0; i < 4; ++i) {
    positive[i] = x[i] > 0.0f;
    *count += positive[i];
  }
}

/* The preparation of `scale` writes 2 * w into the prepared buffer and
   counts its calls; the entry computes y = x * prepared and reports the
   count. */
static int32_t preparations;

#if !defined(FAKE_MISSING_PREPARE)
EXPORT void _plaidml_prepare_scale(void **buffers) {
  const float *w = (const float *)buffers[1];
  float *prepared = (float *)buffers[2];
  for (int i = 0; i < 4; ++i)
    prepared[i] = 2 * w[i];
  ++preparations;
}
#endif

EXPORT void _plaidml_entry_scale(void **buffers) {
  const float *x = (const float *)buffers[0];
  float *y = (float *)buffers[2];
  const float *prepared = (const float *)buffers[4];
  for (int i = 0; i < 4; ++i)
    y[i] = x[i] * prepared[i];
  *(int32_t *)buffers[3] = preparations;
}

/* ok = every buffer is 64-byte aligned and y == -7. */
EXPORT void _plaidml_entry_aligned(void **buffers) {
  uint8_t ok = *(const int8_t *)buffers[1] == -7;
  for (int i = 0; i < 4; ++i)
    ok = ok && ((uintptr_t)buffers[i] % 64 == 0);
  *(uint8_t *)buffers[2] = ok;
}
