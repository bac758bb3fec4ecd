/*===- capi_consumer.c - Use the installed C API --------------------------===*/
/*
 * The C program the package test builds against an installed PlaidML
 * (PlaidML::PlaidMLCAPI and the installed include/plaidml-c): it compiles a
 * Tile-language matmul for the device given on the command line, runs it
 * and prints the result, then builds relu(A - 2.5) and the argsort of A
 * with the EDSL of edsl.h and runs that, so the test checks the installed
 * headers, the exported shared library and everything it loads.
 */
/*===----------------------------------------------------------------------===*/

#include "plaidml-c/edsl.h"

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

  /* The EDSL: relu(A - 2.5), and A's descending order per row. */
  plaidml_tensor *a_in, *neg, *relu, *order;
  plaidml_program *program;
  plaidml_executable *built;
  plaidml_buffer *results[2] = {NULL, NULL};
  if (plaidml_tensor_placeholder(PLAIDML_F32, 2, shape, "A", &a_in) ||
      plaidml_tensor_binary_float(PLAIDML_SUB, a_in, 2.5, 0, &neg) ||
      plaidml_tensor_unary(PLAIDML_RELU, neg, &relu) ||
      plaidml_tensor_argsort(a_in, -1, PLAIDML_SORT_DESC, &order)) {
    printf("C API failure: %s\n", plaidml_last_error());
    return 1;
  }
  plaidml_tensor *outs[2] = {relu, order};
  if (plaidml_program_create("edsl", 1, &a_in, 2, outs, &program) ||
      plaidml_program_compile(program, options, &built) ||
      plaidml_executable_run(built, 1, inputs, 2, results)) {
    printf("C API failure: %s\n", plaidml_last_error());
    return 1;
  }
  const float *r = (const float *)plaidml_buffer_data(results[0]);
  const int32_t *o = (const int32_t *)plaidml_buffer_data(results[1]);
  printf("EDSL on %s: relu(A - 2.5) = [%g, %g, %g, %g], order = [%d, %d, %d, "
         "%d]\n",
         plaidml_executable_device(built), r[0], r[1], r[2], r[3], o[0], o[1],
         o[2], o[3]);
  plaidml_buffer_destroy(results[0]);
  plaidml_buffer_destroy(results[1]);
  plaidml_executable_destroy(built);
  plaidml_program_destroy(program);
  plaidml_tensor_destroy(a_in);
  plaidml_tensor_destroy(neg);
  plaidml_tensor_destroy(relu);
  plaidml_tensor_destroy(order);

  plaidml_buffer_destroy(c);
  plaidml_buffer_destroy(inputs[0]);
  plaidml_buffer_destroy(inputs[1]);
  plaidml_executable_destroy(exe);
  plaidml_compile_options_destroy(options);
  return 0;
}
