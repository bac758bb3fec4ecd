/*===- capi_consumer.c - Use the installed C API --------------------------===*/
/*
 * The C program the package test builds against an installed PlaidML
 * (PlaidML::PlaidMLCAPI and the installed include/plaidml-c): it compiles a
 * Tile-language matmul for the device given on the command line, runs it
 * and prints the result, so the test checks the installed headers, the
 * exported shared library and everything it loads.
 */
/*===----------------------------------------------------------------------===*/

#include "plaidml-c/plaidml.h"

#include <stdio.h>

int main(int argc, char **argv) {
  const char *device = argc > 1 ? argv[1] : "reference";
  static const char *source = "function (A[M, K], B[K, N]) -> (C) {\n"
                              "  C[m, n : M, N] = +(A[m, k] * B[k, n]);\n"
                              "}\n";
  float a[4] = {1, 2, 3, 4}, b[4] = {5, 6, 7, 8};
  int64_t shape[2] = {2, 2};
  plaidml_compile_options *options = NULL;
  plaidml_executable *exe = NULL;
  plaidml_buffer *inputs[2] = {NULL, NULL}, *c = NULL;
  if (plaidml_compile_options_create(&options) ||
      plaidml_compile_options_set_device(options, device) ||
      plaidml_compile_options_bind(options, "A", "2x2xf32") ||
      plaidml_compile_options_bind(options, "B", "2x2xf32") ||
      plaidml_executable_compile(source, "matmul.tile", options, &exe) ||
      plaidml_buffer_create(PLAIDML_F32, 2, shape, a, &inputs[0]) ||
      plaidml_buffer_create(PLAIDML_F32, 2, shape, b, &inputs[1]) ||
      plaidml_executable_run(exe, 2, inputs, 1, &c)) {
    printf("C API failure: %s\n", plaidml_last_error());
    return 1;
  }
  const float *v = (const float *)plaidml_buffer_data(c);
  printf("C API %d on %s: C = [%g, %g, %g, %g]\n", plaidml_c_api_version(),
         plaidml_executable_device(exe), v[0], v[1], v[2], v[3]);
  plaidml_buffer_destroy(c);
  plaidml_buffer_destroy(inputs[0]);
  plaidml_buffer_destroy(inputs[1]);
  plaidml_executable_destroy(exe);
  plaidml_compile_options_destroy(options);
  return 0;
}
