/*===- call_entry.c - Run one entry point of a CPU artifact ---------------===*
 *
 * A test driver that proves a plaidml-compile artifact works without the
 * runtime: dlopens it, prints its manifest, allocates every buffer the
 * manifest lists for the chosen entry point, fills input k element j with
 * j + 1 + 10 * k (j % 2 for i1), allocates the entry's workspace when the
 * manifest has one, runs its preparation into a prepared buffer when it has
 * one, calls `_plaidml_entry_<name>(void **)` and
 * prints every output, one line each. docs/ABI.md sections 2 and 3 are the
 * contract it reads.
 *
 * Usage: call_entry LIB.so [ENTRY]   (default: the manifest's first entry)
 *
 *===----------------------------------------------------------------------===*/

#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { kMaxBuffers = 16, kMaxLine = 4096 };

struct buffer {
  char kind[8];  /* "input" or "output" */
  char name[64]; /* arg0, result1, ... */
  char type[64]; /* 2x3xsi32 */
  char elem[8];  /* si32 */
  size_t count;
  size_t elemSize;
  void *data;
};

static int fail(const char *what, const char *detail) {
  fprintf(stderr, "call_entry: %s%s%s\n", what, detail ? ": " : "",
          detail ? detail : "");
  return 1;
}

/* Splits "2x3xsi32" into its element count and element type. */
static int parseType(struct buffer *b) {
  b->count = 1;
  const char *p = b->type;
  const char *x;
  while ((x = strchr(p, 'x')) != NULL) {
    b->count *= strtoull(p, NULL, 10);
    p = x + 1;
  }
  snprintf(b->elem, sizeof b->elem, "%s", p);
  if (!strcmp(p, "i1") || !strcmp(p, "si8") || !strcmp(p, "ui8"))
    b->elemSize = 1;
  else if (!strcmp(p, "si16") || !strcmp(p, "ui16") || !strcmp(p, "f16") ||
           !strcmp(p, "bf16"))
    b->elemSize = 2;
  else if (!strcmp(p, "si32") || !strcmp(p, "ui32") || !strcmp(p, "f32"))
    b->elemSize = 4;
  else if (!strcmp(p, "si64") || !strcmp(p, "ui64") || !strcmp(p, "f64"))
    b->elemSize = 8;
  else
    return 0;
  return 1;
}

static float bf16ToFloat(uint16_t bits) {
  uint32_t wide = (uint32_t)bits << 16;
  float f;
  memcpy(&f, &wide, 4);
  return f;
}

static uint16_t floatToBf16(float f) { /* exact for the small integers used */
  uint32_t wide;
  memcpy(&wide, &f, 4);
  return (uint16_t)(wide >> 16);
}

static void store(struct buffer *b, size_t i, double v) {
  const char *e = b->elem;
  char *p = (char *)b->data + i * b->elemSize;
  if (!strcmp(e, "i1"))
    *(uint8_t *)p = (uint8_t)((long long)v & 1);
  else if (!strcmp(e, "si8"))
    *(int8_t *)p = (int8_t)v;
  else if (!strcmp(e, "ui8"))
    *(uint8_t *)p = (uint8_t)v;
  else if (!strcmp(e, "si16"))
    *(int16_t *)p = (int16_t)v;
  else if (!strcmp(e, "ui16"))
    *(uint16_t *)p = (uint16_t)v;
  else if (!strcmp(e, "si32"))
    *(int32_t *)p = (int32_t)v;
  else if (!strcmp(e, "ui32"))
    *(uint32_t *)p = (uint32_t)v;
  else if (!strcmp(e, "si64"))
    *(int64_t *)p = (int64_t)v;
  else if (!strcmp(e, "ui64"))
    *(uint64_t *)p = (uint64_t)v;
  else if (!strcmp(e, "f16"))
    *(_Float16 *)p = (_Float16)v;
  else if (!strcmp(e, "bf16"))
    *(uint16_t *)p = floatToBf16((float)v);
  else if (!strcmp(e, "f32"))
    *(float *)p = (float)v;
  else if (!strcmp(e, "f64"))
    *(double *)p = v;
}

static void print(const struct buffer *b, size_t i) {
  const char *e = b->elem;
  const char *p = (const char *)b->data + i * b->elemSize;
  if (!strcmp(e, "i1") || !strcmp(e, "ui8"))
    printf("%u", *(const uint8_t *)p);
  else if (!strcmp(e, "si8"))
    printf("%d", *(const int8_t *)p);
  else if (!strcmp(e, "si16"))
    printf("%d", *(const int16_t *)p);
  else if (!strcmp(e, "ui16"))
    printf("%u", *(const uint16_t *)p);
  else if (!strcmp(e, "si32"))
    printf("%d", *(const int32_t *)p);
  else if (!strcmp(e, "ui32"))
    printf("%u", *(const uint32_t *)p);
  else if (!strcmp(e, "si64"))
    printf("%lld", (long long)*(const int64_t *)p);
  else if (!strcmp(e, "ui64"))
    printf("%llu", (unsigned long long)*(const uint64_t *)p);
  else if (!strcmp(e, "f16"))
    printf("%g", (double)*(const _Float16 *)p);
  else if (!strcmp(e, "bf16"))
    printf("%g", (double)bf16ToFloat(*(const uint16_t *)p));
  else if (!strcmp(e, "f32"))
    printf("%g", (double)*(const float *)p);
  else if (!strcmp(e, "f64"))
    printf("%g", *(const double *)p);
}

int main(int argc, char **argv) {
  if (argc < 2 || argc > 3)
    return fail("usage: call_entry LIB.so [ENTRY]", NULL);
  /* dlopen searches the library path for a name without a slash. */
  char path[4096];
  snprintf(path, sizeof path, "%s%s", strchr(argv[1], '/') ? "" : "./",
           argv[1]);
  void *lib = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (!lib)
    return fail("dlopen failed", dlerror());
  const char *manifest = (const char *)dlsym(lib, "plaidml_manifest");
  if (!manifest)
    return fail("no plaidml_manifest", dlerror());
  printf("%s", manifest);

  /* Find the entry and its buffers. */
  const char *wanted = argc == 3 ? argv[2] : NULL;
  char wrapper[256] = "";
  struct buffer buffers[kMaxBuffers];
  int numBuffers = 0, inEntry = 0;
  unsigned long long workspaceBytes = 0, preparedBytes = 0;
  char prepareWrapper[256] = "";
  char line[kMaxLine];
  const char *cursor = manifest;
  while (*cursor) {
    size_t len = strcspn(cursor, "\n");
    if (len >= sizeof line)
      return fail("manifest line too long", NULL);
    memcpy(line, cursor, len);
    line[len] = 0;
    cursor += len + (cursor[len] == '\n');
    char a[256], b[256], c[256];
    int fields = sscanf(line, "%255s %255s %255s", a, b, c);
    if (fields == 3 && !strcmp(a, "entry")) {
      if (inEntry)
        break;
      if (!wanted || !strcmp(b, wanted)) {
        inEntry = 1;
        snprintf(wrapper, sizeof wrapper, "%s", c);
      }
    } else if (inEntry && fields == 2 && !strcmp(a, "workspace")) {
      workspaceBytes = strtoull(b, NULL, 10);
    } else if (inEntry && fields == 3 && !strcmp(a, "prepare")) {
      snprintf(prepareWrapper, sizeof prepareWrapper, "%s", b);
      preparedBytes = strtoull(c, NULL, 10);
    } else if (inEntry && fields == 3 &&
               (!strcmp(a, "input") || !strcmp(a, "output"))) {
      if (numBuffers == kMaxBuffers)
        return fail("too many buffers", NULL);
      struct buffer *buf = &buffers[numBuffers++];
      snprintf(buf->kind, sizeof buf->kind, "%s", a);
      snprintf(buf->name, sizeof buf->name, "%s", b);
      snprintf(buf->type, sizeof buf->type, "%s", c);
      if (!parseType(buf))
        return fail("bad type in manifest", c);
    } else if (inEntry && !strcmp(line, "end")) {
      break;
    }
  }
  if (!inEntry)
    return fail("no such entry in the manifest", wanted ? wanted : "(any)");

  void (*entry)(void **) = (void (*)(void **))dlsym(lib, wrapper);
  if (!entry)
    return fail("wrapper not exported", wrapper);

  void *pointers[kMaxBuffers + 2];
  int inputIndex = 0;
  for (int k = 0; k < numBuffers; ++k) {
    struct buffer *buf = &buffers[k];
    buf->data = calloc(buf->count ? buf->count : 1, buf->elemSize);
    pointers[k] = buf->data;
    if (!strcmp(buf->kind, "input")) {
      for (size_t j = 0; j < buf->count; ++j)
        store(buf, j,
              !strcmp(buf->elem, "i1") ? (double)(j % 2)
                                       : (double)(j + 1 + 10 * inputIndex));
      ++inputIndex;
    }
  }
  /* The preparation takes the inputs and the prepared buffer; the entry
     takes the prepared buffer after the outputs, then the workspace
     (docs/ABI.md section 2). */
  int extra = numBuffers;
  void *prepared = NULL;
  if (preparedBytes) {
    void (*prepare)(void **) = (void (*)(void **))dlsym(lib, prepareWrapper);
    if (!prepare)
      return fail("preparation not exported", prepareWrapper);
    prepared = aligned_alloc(64, (preparedBytes + 63) / 64 * 64);
    if (!prepared)
      return fail("cannot allocate the prepared buffer", NULL);
    void *prepareArgs[kMaxBuffers + 1];
    memcpy(prepareArgs, pointers, inputIndex * sizeof(void *));
    prepareArgs[inputIndex] = prepared;
    prepare(prepareArgs);
    printf("prepare %s\n", prepareWrapper);
    pointers[extra++] = prepared;
  }
  void *workspace = NULL;
  if (workspaceBytes) {
    workspace = aligned_alloc(64, (workspaceBytes + 63) / 64 * 64);
    if (!workspace)
      return fail("cannot allocate the workspace", NULL);
    pointers[extra++] = workspace;
  }
  entry(pointers);
  free(workspace);
  free(prepared);

  printf("call %s\n", wrapper);
  for (int k = 0; k < numBuffers; ++k) {
    struct buffer *buf = &buffers[k];
    printf("%s %s %s =", buf->kind, buf->name, buf->type);
    for (size_t j = 0; j < buf->count; ++j) {
      printf(" ");
      print(buf, j);
    }
    printf("\n");
    free(buf->data);
  }
  dlclose(lib);
  return 0;
}
