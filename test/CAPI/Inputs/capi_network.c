/*===- capi_network.c - A small network built through the C API -----------===*/
/*
 * Builds dense -> relu -> dense -> softmax with the EDSL of the C API
 * (placeholders, dimensions bound from a tensor, indices, contractions,
 * elementwise ops), prints its Tile IR, compiles it for the device named on
 * the command line, runs it on two rows and compares every probability with
 * the same network computed here in double precision. Then shows that an
 * ill-formed program is a PLAIDML_BUILD_ERROR naming the tensor and the
 * dimension, never a crash. docs/CAPI.md walks through this program.
 */
/*===----------------------------------------------------------------------===*/

#include "plaidml-c/networks.h"
#include "plaidml-c/op.h"
#include "plaidml-c/plaidml.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

/* Stops the program with the failing call and its message. */
#define CHECK(call)                                                            \
  do {                                                                         \
    plaidml_status status_ = (call);                                           \
    if (status_ != PLAIDML_OK) {                                               \
      printf("FAILED %s: %s: %s\n", #call, plaidml_status_string(status_),     \
             plaidml_last_error());                                            \
      exit(1);                                                                 \
    }                                                                          \
  } while (0)

enum { BATCH = 2, IN = 3, HIDDEN = 4, OUT = 3 };

static const float kX[BATCH][IN] = {{1.0f, -2.0f, 0.5f}, {0.0f, 1.0f, 2.0f}};
static const float kW1[IN][HIDDEN] = {{0.5f, -1.0f, 0.25f, 1.0f},
                                      {0.75f, 0.5f, -0.5f, 0.0f},
                                      {-0.25f, 1.5f, 1.0f, -1.0f}};
static const float kB1[HIDDEN] = {0.1f, -0.2f, 0.3f, 0.0f};
static const float kW2[HIDDEN][OUT] = {{1.0f, -1.0f, 0.5f},
                                       {0.5f, 0.25f, -0.75f},
                                       {-1.0f, 2.0f, 0.0f},
                                       {0.25f, 0.5f, 1.0f}};
static const float kB2[OUT] = {0.0f, 0.1f, -0.1f};

/* A constant tensor of `rank` dims `shape` holding `data` (f32). */
static plaidml_tensor *constant(size_t rank, const int64_t *shape,
                                const float *data, const char *name) {
  plaidml_buffer *buffer = NULL;
  plaidml_tensor *tensor = NULL;
  CHECK(plaidml_buffer_create(PLAIDML_F32, rank, shape, data, &buffer));
  CHECK(plaidml_tensor_constant(buffer, name, &tensor));
  plaidml_buffer_destroy(buffer);
  return tensor;
}

/* dense(X, W, B) = X . W + B: a contraction over k, then a broadcast add. */
static plaidml_tensor *dense(plaidml_tensor *x, plaidml_tensor *w,
                             plaidml_tensor *b, const char *name) {
  plaidml_dim *m, *k, *n;
  CHECK(plaidml_dim_create("M", &m));
  CHECK(plaidml_dim_create("K", &k));
  CHECK(plaidml_dim_create("N", &n));
  plaidml_dim *xdims[2] = {m, k}, *wdims[2] = {k, n};
  CHECK(plaidml_tensor_bind_dims(x, 2, xdims));
  CHECK(plaidml_tensor_bind_dims(w, 2, wdims));

  plaidml_index *i, *j, *kk;
  CHECK(plaidml_index_create("i", &i));
  CHECK(plaidml_index_create("j", &j));
  CHECK(plaidml_index_create("k", &kk));
  plaidml_contraction *c;
  CHECK(plaidml_contraction_create(name, NULL, NULL, &c));
  plaidml_dim *shape[2] = {m, n};
  plaidml_index *out[2] = {i, j}, *xa[2] = {i, kk}, *wa[2] = {kk, j};
  CHECK(plaidml_contraction_set_shape(c, 2, shape));
  CHECK(plaidml_contraction_set_access(c, 2, out));
  CHECK(plaidml_contraction_add_input(c, x, 2, xa));
  CHECK(plaidml_contraction_add_input(c, w, 2, wa));
  CHECK(plaidml_contraction_set_kind(c, PLAIDML_AGG_SUM, PLAIDML_COMBO_MUL));
  plaidml_tensor *product, *sum;
  CHECK(plaidml_contraction_build(c, &product));
  CHECK(plaidml_tensor_binary(PLAIDML_ADD, product, b, &sum));

  plaidml_contraction_destroy(c);
  plaidml_tensor_destroy(product);
  plaidml_index_destroy(i);
  plaidml_index_destroy(j);
  plaidml_index_destroy(kk);
  plaidml_dim_destroy(m);
  plaidml_dim_destroy(k);
  plaidml_dim_destroy(n);
  return sum;
}

/* A reduction of Y[i, j] over j into R[i, 0] (keepdims), by `agg`. */
static plaidml_tensor *reduce_rows(plaidml_tensor *y, plaidml_agg agg,
                                   const char *name) {
  plaidml_dim *rows, *cols, *one;
  CHECK(plaidml_dim_create("R", &rows));
  CHECK(plaidml_dim_create("C", &cols));
  CHECK(plaidml_dim_constant(1, &one));
  plaidml_dim *dims[2] = {rows, cols};
  CHECK(plaidml_tensor_bind_dims(y, 2, dims));
  plaidml_index *i, *j, *zero;
  CHECK(plaidml_index_create("i", &i));
  CHECK(plaidml_index_create("j", &j));
  CHECK(plaidml_index_constant(0, &zero));
  plaidml_contraction *c;
  CHECK(plaidml_contraction_create(name, NULL, NULL, &c));
  plaidml_dim *shape[2] = {rows, one};
  plaidml_index *out[2] = {i, zero}, *in[2] = {i, j};
  CHECK(plaidml_contraction_set_shape(c, 2, shape));
  CHECK(plaidml_contraction_set_access(c, 2, out));
  CHECK(plaidml_contraction_add_input(c, y, 2, in));
  CHECK(plaidml_contraction_set_kind(c, agg, PLAIDML_COMBO_NONE));
  plaidml_tensor *r;
  CHECK(plaidml_contraction_build(c, &r));
  plaidml_contraction_destroy(c);
  plaidml_index_destroy(i);
  plaidml_index_destroy(j);
  plaidml_index_destroy(zero);
  plaidml_dim_destroy(rows);
  plaidml_dim_destroy(cols);
  plaidml_dim_destroy(one);
  return r;
}

/* The network in double precision. */
static void expected(double p[BATCH][OUT]) {
  for (int r = 0; r < BATCH; ++r) {
    double h[HIDDEN], y[OUT], m = -INFINITY, s = 0;
    for (int j = 0; j < HIDDEN; ++j) {
      h[j] = kB1[j];
      for (int k = 0; k < IN; ++k)
        h[j] += (double)kX[r][k] * kW1[k][j];
      h[j] = h[j] > 0 ? h[j] : 0;
    }
    for (int j = 0; j < OUT; ++j) {
      y[j] = kB2[j];
      for (int k = 0; k < HIDDEN; ++k)
        y[j] += h[k] * kW2[k][j];
      m = y[j] > m ? y[j] : m;
    }
    for (int j = 0; j < OUT; ++j)
      s += exp(y[j] - m);
    for (int j = 0; j < OUT; ++j)
      p[r][j] = exp(y[j] - m) / s;
  }
}

int main(int argc, char **argv) {
  const char *device = argc > 1 ? argv[1] : "cpu";

  /* Build: X is the input; the weights are constants. */
  int64_t xs[2] = {BATCH, IN}, w1s[2] = {IN, HIDDEN}, b1s[1] = {HIDDEN},
          w2s[2] = {HIDDEN, OUT}, b2s[1] = {OUT};
  plaidml_tensor *x;
  CHECK(plaidml_tensor_placeholder(PLAIDML_F32, 2, xs, "X", &x));
  plaidml_tensor *w1 = constant(2, w1s, &kW1[0][0], "W1");
  plaidml_tensor *b1 = constant(1, b1s, kB1, "B1");
  plaidml_tensor *w2 = constant(2, w2s, &kW2[0][0], "W2");
  plaidml_tensor *b2 = constant(1, b2s, kB2, "B2");

  plaidml_tensor *h1 = dense(x, w1, b1, "dense1");
  plaidml_tensor *h, *y;
  CHECK(plaidml_tensor_unary(PLAIDML_RELU, h1, &h));
  y = dense(h, w2, b2, "dense2");
  /* softmax(Y) = exp(Y - max) / sum(exp(Y - max)), row by row. */
  plaidml_tensor *m = reduce_rows(y, PLAIDML_AGG_MAX, "row_max");
  plaidml_tensor *shifted, *e, *s, *probs, *named;
  CHECK(plaidml_tensor_binary(PLAIDML_SUB, y, m, &shifted));
  CHECK(plaidml_tensor_unary(PLAIDML_EXP, shifted, &e));
  s = reduce_rows(e, PLAIDML_AGG_SUM, "row_sum");
  CHECK(plaidml_tensor_binary(PLAIDML_DIV, e, s, &probs));
  CHECK(plaidml_tensor_named(probs, "P", &named));
  /* The classes from the most to the least likely (argsort), and four raw
   * Philox4x32-10 words from key (0, 0) and counter 0 (prng). */
  plaidml_tensor *order, *seed, *words, *next;
  CHECK(plaidml_tensor_argsort(probs, -1, PLAIDML_SORT_DESC, &order));
  CHECK(plaidml_tensor_prng_seed(0, &seed));
  int64_t ws[1] = {4};
  CHECK(plaidml_tensor_prng(seed, 1, ws, PLAIDML_UI32, &words, &next));
  /* The same softmax from the op library, by name (op.h). */
  plaidml_attrs *attrs;
  CHECK(plaidml_attrs_create(&attrs));
  CHECK(plaidml_attrs_set_int(attrs, "axis", -1));
  plaidml_tensor *lib;
  size_t numResults;
  CHECK(plaidml_op_apply("softmax", 1, &y, attrs, 1, &lib, &numResults));
  plaidml_tensor *outs[4] = {named, order, words, lib};

  plaidml_program *program;
  CHECK(plaidml_program_create("mlp", 1, &x, 4, outs, &program));
  printf("%s", plaidml_program_ir(program));
  const char *name;
  plaidml_dtype dtype;
  size_t rank;
  const int64_t *shape;
  CHECK(plaidml_program_output(program, 0, &name, &dtype, &rank, &shape));
  printf("output %s: %s %lldx%lld\n", name, plaidml_dtype_name(dtype),
         (long long)shape[0], (long long)shape[1]);

  /* Compile and run. */
  plaidml_compile_options *options;
  plaidml_executable *exe;
  CHECK(plaidml_compile_options_create(&options));
  CHECK(plaidml_compile_options_set_device(options, device));
  CHECK(plaidml_program_compile(program, options, &exe));
  CHECK(plaidml_executable_input(exe, 0, &name, NULL, NULL, NULL));
  printf("executable on %s, input %s\n", plaidml_executable_device(exe), name);
  plaidml_buffer *input, *results[4], *output;
  CHECK(plaidml_buffer_create(PLAIDML_F32, 2, xs, &kX[0][0], &input));
  CHECK(plaidml_executable_run(exe, 1, &input, 4, results));
  output = results[0];

  double want[BATCH][OUT], worst = 0;
  expected(want);
  const float *got = (const float *)plaidml_buffer_data(output);
  for (int r = 0; r < BATCH; ++r) {
    printf("P[%d] =", r);
    for (int j = 0; j < OUT; ++j) {
      double err = fabs(got[r * OUT + j] - want[r][j]);
      worst = err > worst ? err : worst;
      printf(" %.4f", got[r * OUT + j]);
    }
    printf("\n");
  }
  printf("%s: max error %.1e\n", worst < 1e-5 ? "PASS" : "FAIL", worst);

  /* The ranking against the expected probabilities (distinct per row). */
  const int32_t *ranks = (const int32_t *)plaidml_buffer_data(results[1]);
  int ranked = 1;
  for (int r = 0; r < BATCH; ++r) {
    printf("order[%d] =", r);
    for (int j = 0; j < OUT; ++j) {
      int better = 0;
      for (int k = 0; k < OUT; ++k)
        better += want[r][k] > want[r][ranks[r * OUT + j]];
      ranked &= better == j;
      printf(" %d", ranks[r * OUT + j]);
    }
    printf("\n");
  }
  const uint32_t *w = (const uint32_t *)plaidml_buffer_data(results[2]);
  int kat = w[0] == 0x6627e8d5u && w[1] == 0xe169c58du && w[2] == 0xbc57ac4cu &&
            w[3] == 0x9b00dbd8u;
  printf("prng words %08x %08x %08x %08x\n", w[0], w[1], w[2], w[3]);
  printf("%s: ranking, %s: known answer\n", ranked ? "PASS" : "FAIL",
         kat ? "PASS" : "FAIL");
  const float *viaOp = (const float *)plaidml_buffer_data(results[3]);
  double opWorst = 0;
  for (int i = 0; i < BATCH * OUT; ++i) {
    double err = fabs(viaOp[i] - want[i / OUT][i % OUT]);
    opWorst = err > opWorst ? err : opWorst;
  }
  printf("%s: op library softmax, max error %.1e\n",
         opWorst < 1e-5 ? "PASS" : "FAIL", opWorst);

  /* An ill-formed program: X is 2x3 but bound to three dimensions. */
  plaidml_dim *d[3];
  for (int i = 0; i < 3; ++i)
    CHECK(plaidml_dim_create("D", &d[i]));
  plaidml_status status = plaidml_tensor_bind_dims(x, 3, d);
  printf("bind_dims: %s: %s\n", plaidml_status_string(status),
         plaidml_last_error());
  /* A contraction built before its shape is set. */
  plaidml_contraction *c;
  plaidml_tensor *none = NULL;
  CHECK(plaidml_contraction_create("incomplete", NULL, NULL, &c));
  status = plaidml_contraction_build(c, &none);
  printf("build: %s: %s\n", plaidml_status_string(status),
         plaidml_last_error());
  plaidml_contraction_destroy(c);
  /* A misspelled attribute is an error, never ignored. */
  plaidml_tensor *unused[1] = {NULL};
  CHECK(plaidml_attrs_set_int(attrs, "axes", 0));
  status = plaidml_op_apply("softmax", 1, &y, attrs, 1, unused, &numResults);
  printf("op_apply: %s: %s\n", plaidml_status_string(status),
         plaidml_last_error());
  plaidml_attrs_destroy(attrs);
  for (int i = 0; i < 3; ++i)
    plaidml_dim_destroy(d[i]);

  /* The built-in networks: a small MobileNet builds with its weights as
   * buffers (inputs 1.. of the program); an unknown name is NOT_FOUND and
   * too little room for the weights is INVALID_ARGUMENT. */
  printf("networks:");
  for (size_t i = 0; i < plaidml_network_count(); ++i)
    printf(" %s", plaidml_network_name(i));
  printf("\n");
  plaidml_program *net = NULL;
  plaidml_buffer *netWeights[256];
  size_t numWeights = 0;
  CHECK(plaidml_network_build("mobilenet", 1, 32, 10, 0.25, 1, &net, 256,
                              netWeights, &numWeights));
  const char *inName;
  plaidml_dtype inType;
  size_t inRank;
  const int64_t *inShape;
  CHECK(plaidml_program_input(net, 0, &inName, &inType, &inRank, &inShape));
  int weightsMatch = plaidml_program_num_inputs(net) == numWeights + 1;
  for (size_t i = 0; weightsMatch && i < numWeights; ++i) {
    const char *wName;
    plaidml_dtype wType;
    size_t wRank;
    const int64_t *wShape;
    CHECK(plaidml_program_input(net, i + 1, &wName, &wType, &wRank, &wShape));
    weightsMatch = wRank == plaidml_buffer_rank(netWeights[i]) &&
                   wType == plaidml_buffer_dtype(netWeights[i]);
    for (size_t d = 0; weightsMatch && d < wRank; ++d)
      weightsMatch = wShape[d] == plaidml_buffer_dim(netWeights[i], d);
  }
  printf("network mobilenet: image %s %lldx%lldx%lldx%lld, %s weights\n",
         plaidml_dtype_name(inType), (long long)inShape[0],
         (long long)inShape[1], (long long)inShape[2], (long long)inShape[3],
         weightsMatch ? "matching" : "MISMATCHED");
  for (size_t i = 0; i < numWeights; ++i)
    plaidml_buffer_destroy(netWeights[i]);
  plaidml_program_destroy(net);
  status = plaidml_network_build("nonet", 1, 32, 10, 1.0, 1, &net, 0, NULL,
                                 &numWeights);
  printf("network_build: %s: %s\n", plaidml_status_string(status),
         plaidml_last_error());
  status = plaidml_network_build("mobilenet", 1, 32, 10, 0.25, 1, &net, 1,
                                 netWeights, &numWeights);
  printf("network_build: %s: %s\n", plaidml_status_string(status),
         plaidml_last_error());

  plaidml_buffer_destroy(input);
  for (int i = 0; i < 4; ++i)
    plaidml_buffer_destroy(results[i]);
  plaidml_executable_destroy(exe);
  plaidml_compile_options_destroy(options);
  plaidml_program_destroy(program);
  plaidml_tensor *all[] = {x,     w1,   b1,      w2,   b2, h1,    h,
                           y,     m,    shifted, e,    s,  probs, named,
                           order, seed, words,   next, lib};
  for (size_t i = 0; i < sizeof(all) / sizeof(all[0]); ++i)
    plaidml_tensor_destroy(all[i]);
  plaidml_edsl_reset();
  printf("done\n");
  return worst < 1e-5 && ranked && kat && opWorst < 1e-5 ? 0 : 1;
}
