/*===- op.h - The PlaidML C API: the op library ------------------*- C -*-===*/
/*
 * The op library of include/plaidml/Op/Op.h through C, by name: every op is
 * called through plaidml_op_apply with its input tensors and a set of named
 * attributes, like an ONNX node. New ops and attributes never change this
 * interface, and a binding needs one function to reach all of them.
 *
 *   plaidml_attrs *a;
 *   plaidml_attrs_create(&a);
 *   int64_t strides[2] = {2, 2};
 *   plaidml_attrs_set_ints(a, "strides", 2, strides);
 *   plaidml_attrs_set_string(a, "padding", "same_upper");
 *   plaidml_tensor *inputs[2] = {x, w}, *y;
 *   size_t n;
 *   plaidml_op_apply("convolution", 2, inputs, a, 1, &y, &n);
 *
 * plaidml_op_list names every op; docs/CAPI.md lists their inputs and
 * attributes. An unknown op or attribute, an attribute of the wrong kind or
 * a missing input is PLAIDML_INVALID_ARGUMENT; an op the library rejects
 * (bad shapes, bad attribute values) is PLAIDML_BUILD_ERROR.
 */
/*===----------------------------------------------------------------------===*/

#ifndef PLAIDML_C_OP_H
#define PLAIDML_C_OP_H

#include "plaidml-c/edsl.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Named attributes of one op call: integers, integer lists, numbers,
 * strings and tensors. Setting a name again replaces its value. */
typedef struct plaidml_attrs plaidml_attrs;

PLAIDML_C_API plaidml_status plaidml_attrs_create(plaidml_attrs **out);
PLAIDML_C_API void plaidml_attrs_destroy(plaidml_attrs *attrs);
PLAIDML_C_API plaidml_status plaidml_attrs_set_int(plaidml_attrs *attrs,
                                                   const char *name,
                                                   int64_t value);
PLAIDML_C_API plaidml_status plaidml_attrs_set_ints(plaidml_attrs *attrs,
                                                    const char *name,
                                                    size_t count,
                                                    const int64_t *values);
PLAIDML_C_API plaidml_status plaidml_attrs_set_float(plaidml_attrs *attrs,
                                                     const char *name,
                                                     double value);
PLAIDML_C_API plaidml_status plaidml_attrs_set_string(plaidml_attrs *attrs,
                                                      const char *name,
                                                      const char *value);
PLAIDML_C_API plaidml_status plaidml_attrs_set_tensor(plaidml_attrs *attrs,
                                                      const char *name,
                                                      const plaidml_tensor *t);

/* Applies op `name` to `inputs` with `attrs` (NULL for none). The op's
 * results (most ops have one; `split` has several) are written to
 * `outputs`, which has room for `capacity`, and their number to
 * `*num_outputs`; too little room is PLAIDML_INVALID_ARGUMENT. */
PLAIDML_C_API plaidml_status plaidml_op_apply(
    const char *name, size_t num_inputs, plaidml_tensor *const *inputs,
    const plaidml_attrs *attrs, size_t capacity, plaidml_tensor **outputs,
    size_t *num_outputs);

/* The names of the ops plaidml_op_apply knows, in alphabetical order; the
 * strings live as long as the library. */
PLAIDML_C_API size_t plaidml_op_count(void);
PLAIDML_C_API const char *plaidml_op_name(size_t index);

#ifdef __cplusplus
}
#endif

#endif /* PLAIDML_C_OP_H */
