/*===- capi_program.c - The program part of the C API from C --------------===*\
|*                                                                            *|
|* Compiles a Tile-language program and a Tile-IR program through the C API   *|
|* for the device named on the command line, runs them on buffers made in C   *|
|* and prints the results, which the lit test compares with hand-worked       *|
|* values. Then walks through the failures a binding must be able to report:  *|
|* each prints its status and message. Plain C11: the C API needs nothing     *|
|* else.                                                                      *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#include "plaidml-c/plaidml.h"

#include <stdio.h>
#include <string.h>

static int check(plaidml_status status, const char *what) {
  if (status == PLAIDML_OK)
    return 0;
  printf("FAILED %s: %s: %s\n", what, plaidml_status_string(status),
         plaidml_last_error());
  return 1;
}

/* Prints an expected failure: its status and message. */
static void expect_failure(plaidml_status status, const char *what) {
  if (status == PLAIDML_OK) {
    printf("UNEXPECTED SUCCESS %s\n", what);
    return;
  }
  printf("%s: %s: %s\n", what, plaidml_status_string(status),
         plaidml_last_error());
}

static const char *kTile = "function (A[M, K], B[K, N]) -> (C, R) {\n"
                           "  C[m, n : M, N] = +(A[m, k] * B[k, n]);\n"
                           "  R = relu(C - 10);\n"
                           "}\n";

static const char *kIR =
    "func.func @scale(%x: tensor<4xsi32>) -> tensor<4xsi32> {\n"
    "  %c = tile.constant dense<3> : tensor<si32>\n"
    "  %y = tile.mul %x, %c : tensor<4xsi32>, tensor<si32> -> tensor<4xsi32>\n"
    "  return %y : tensor<4xsi32>\n"
    "}\n";

int main(int argc, char **argv) {
  const char *device = argc > 1 ? argv[1] : "cpu";
  printf("C API %d, PlaidML %s\n", plaidml_c_api_version(), plaidml_version());

  plaidml_compile_options *options = NULL;
  if (check(plaidml_compile_options_create(&options), "options") ||
      check(plaidml_compile_options_set_device(options, device), "device") ||
      check(plaidml_compile_options_bind(options, "A", "2x3xf32"), "bind A") ||
      check(plaidml_compile_options_bind(options, "B", "3x2xf32"), "bind B"))
    return 1;

  /* A .tile program: its inputs and outputs keep their Tile names. */
  plaidml_executable *program = NULL;
  if (check(plaidml_executable_compile(kTile, "matmul.tile", options, &program),
            "compile matmul.tile"))
    return 1;
  printf("device %s entry %s\n", plaidml_executable_device(program),
         plaidml_executable_entry(program));
  for (size_t i = 0; i < plaidml_executable_num_outputs(program); ++i) {
    const char *name;
    plaidml_dtype dtype;
    size_t rank;
    const int64_t *shape;
    if (check(
            plaidml_executable_output(program, i, &name, &dtype, &rank, &shape),
            "output"))
      return 1;
    printf("output %s: %s rank %zu [%lld, %lld]\n", name,
           plaidml_dtype_name(dtype), rank, (long long)shape[0],
           (long long)shape[1]);
  }

  float a[6] = {1, 2, 3, 4, 5, 6};
  float b[6] = {1, 0, 0, 1, 1, 1};
  int64_t shape_a[2] = {2, 3}, shape_b[2] = {3, 2};
  plaidml_buffer *inputs[2] = {NULL, NULL};
  plaidml_buffer *outputs[2] = {NULL, NULL};
  if (check(plaidml_buffer_create(PLAIDML_F32, 2, shape_a, a, &inputs[0]),
            "buffer A") ||
      check(plaidml_buffer_create(PLAIDML_F32, 2, shape_b, b, &inputs[1]),
            "buffer B") ||
      check(plaidml_executable_run(program, 2, inputs, 2, outputs), "run"))
    return 1;
  /* C = [[1+3, 2+3], [4+6, 5+6]] = [[4, 5], [10, 11]]; R = relu(C - 10). */
  for (int k = 0; k < 2; ++k) {
    const float *v = (const float *)plaidml_buffer_data(outputs[k]);
    printf("%s = [%g, %g, %g, %g]\n", plaidml_buffer_describe(outputs[k]), v[0],
           v[1], v[2], v[3]);
  }
  /* A second run reuses the compiled program. */
  a[0] = 11;
  memcpy(plaidml_buffer_data(inputs[0]), a, sizeof(a));
  plaidml_buffer_destroy(outputs[0]);
  plaidml_buffer_destroy(outputs[1]);
  if (check(plaidml_executable_run(program, 2, inputs, 2, outputs),
            "run again"))
    return 1;
  printf("again C[0] = %g\n",
         ((const float *)plaidml_buffer_data(outputs[0]))[0]);

  /* Tile IR text, whose types are written in it. */
  plaidml_executable *scale = NULL;
  int32_t x[4] = {-2, 0, 5, 7};
  int64_t shape_x[1] = {4};
  plaidml_buffer *xs = NULL, *ys = NULL;
  if (check(plaidml_executable_compile(kIR, "scale.mlir", options, &scale),
            "compile scale.mlir") ||
      check(plaidml_buffer_create(PLAIDML_SI32, 1, shape_x, x, &xs), "x") ||
      check(plaidml_executable_run(scale, 1, &xs, 1, &ys), "run scale"))
    return 1;
  const int32_t *y = (const int32_t *)plaidml_buffer_data(ys);
  printf("scale %s = [%d, %d, %d, %d]\n", plaidml_executable_entry(scale), y[0],
         y[1], y[2], y[3]);

  /* Device buffers: three runs of scale chained on the device (x * 27),
   * read back once; then a wrong type and a buffer of another device. */
  plaidml_device_buffer *dx = NULL, *d1 = NULL, *d2 = NULL, *d3 = NULL;
  if (check(plaidml_executable_upload(scale, xs, &dx), "upload x") ||
      check(plaidml_executable_run_on_device(scale, 1, &dx, 1, &d1),
            "run on device 1") ||
      check(plaidml_executable_run_on_device(scale, 1, &d1, 1, &d2),
            "run on device 2") ||
      check(plaidml_executable_run_on_device(scale, 1, &d2, 1, &d3),
            "run on device 3"))
    return 1;
  plaidml_buffer *back = NULL;
  if (check(plaidml_device_buffer_read(d3, &back), "read back"))
    return 1;
  const int32_t *z = (const int32_t *)plaidml_buffer_data(back);
  printf("device buffer %s: [%d, %d, %d, %d]\n",
         plaidml_device_buffer_describe(d3), z[0], z[1], z[2], z[3]);
  plaidml_device_buffer *dw = NULL;
  if (check(plaidml_executable_upload(program, inputs[0], &dw), "upload A"))
    return 1;
  expect_failure(plaidml_executable_run_on_device(scale, 1, &dw, 1, &d1),
                 "wrong device buffer type");
  plaidml_compile_options *other = NULL;
  plaidml_executable *other_scale = NULL;
  plaidml_device_buffer *dother = NULL;
  const char *other_device = strcmp(device, "cpu") ? "cpu" : "reference";
  if (check(plaidml_compile_options_create(&other), "other options") ||
      check(plaidml_compile_options_set_device(other, other_device),
            "other device") ||
      check(plaidml_executable_compile(kIR, "scale.mlir", other, &other_scale),
            "compile scale for the other device") ||
      check(plaidml_executable_upload(other_scale, xs, &dother),
            "upload to the other device"))
    return 1;
  expect_failure(plaidml_executable_run_on_device(scale, 1, &dother, 1, &d1),
                 "buffer of another device");
  plaidml_device_buffer_destroy(dother);
  plaidml_executable_destroy(other_scale);
  plaidml_compile_options_destroy(other);
  plaidml_buffer_destroy(back);
  plaidml_device_buffer_destroy(dw);
  plaidml_device_buffer_destroy(dx);
  plaidml_device_buffer_destroy(d1);
  plaidml_device_buffer_destroy(d2);
  plaidml_device_buffer_destroy(d3);

  /* Failures. */
  plaidml_executable *bad = NULL;
  /* (A[M, K]: the options still bind A to 2x3xf32.) */
  expect_failure(plaidml_executable_compile("function (A[M, K]) -> (B) {\n"
                                            "  B = nosuch(A);\n}\n",
                                            "bad.tile", options, &bad),
                 "unknown function");
  expect_failure(
      plaidml_executable_compile("func.func @f(", "bad.mlir", options, &bad),
      "bad IR");
  expect_failure(plaidml_executable_run(scale, 1, inputs, 1, &ys),
                 "wrong input type");
  expect_failure(plaidml_executable_run(scale, 0, NULL, 1, &ys),
                 "wrong input count");
  expect_failure(plaidml_compile_options_set_device(options, "gpu:7"),
                 "bad device name");
  expect_failure(plaidml_buffer_create(PLAIDML_F32, 1, NULL, NULL, &xs),
                 "null shape");
  expect_failure(plaidml_executable_input(scale, 5, NULL, NULL, NULL, NULL),
                 "input out of range");
  printf("bad stays null: %s\n", bad == NULL ? "yes" : "no");

  plaidml_buffer_destroy(ys);
  plaidml_buffer_destroy(xs);
  plaidml_executable_destroy(scale);
  for (int k = 0; k < 2; ++k) {
    plaidml_buffer_destroy(inputs[k]);
    plaidml_buffer_destroy(outputs[k]);
  }
  plaidml_executable_destroy(program);
  plaidml_compile_options_destroy(options);
  printf("done\n");
  return 0;
}
