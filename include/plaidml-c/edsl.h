/*===- edsl.h - The PlaidML C API: building programs from code ---*- C -*-===*/
/*
 * The EDSL of include/plaidml/EDSL/EDSL.h through C: symbolic dimensions
 * (plaidml_dim), index expressions (plaidml_index), tensors (plaidml_tensor:
 * placeholders, constants and the results of operations), contractions built
 * step by step (plaidml_contraction), and programs (plaidml_program: a
 * function from placeholders to outputs) whose Tile IR prints as text and
 * compiles into a plaidml_executable for any device.
 *
 * Every handle is created by a function of this header and freed by its
 * _destroy function; handles are values (a tensor handle keeps its tensor
 * alive even after the handles it was built from are destroyed). Building
 * an ill-formed program (a rank mismatch, a dimension bound to two sizes, an
 * unbounded index, an operation on types it does not take) returns
 * PLAIDML_BUILD_ERROR with a message naming the tensor and the dimension.
 *
 * Programs are recorded in one process-wide context: build them from one
 * thread at a time. docs/CAPI.md shows a complete network.
 */
/*===----------------------------------------------------------------------===*/

#ifndef PLAIDML_C_EDSL_H
#define PLAIDML_C_EDSL_H

#include "plaidml-c/plaidml.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct plaidml_dim plaidml_dim;
typedef struct plaidml_index plaidml_index;
typedef struct plaidml_tensor plaidml_tensor;
typedef struct plaidml_contraction plaidml_contraction;
typedef struct plaidml_program plaidml_program;

/*===----------------------------------------------------------------------===*
 * Dimensions
 *===----------------------------------------------------------------------===*/

/* An unbound dimension variable, bound by plaidml_tensor_bind_dims (`name`
 * is for messages and may be NULL). */
PLAIDML_C_API plaidml_status plaidml_dim_create(const char *name,
                                                plaidml_dim **out);
PLAIDML_C_API plaidml_status plaidml_dim_constant(int64_t value,
                                                  plaidml_dim **out);
typedef enum plaidml_dim_op {
  PLAIDML_DIM_ADD = 0,
  PLAIDML_DIM_SUB = 1,
  PLAIDML_DIM_MUL = 2,
  PLAIDML_DIM_DIV = 3, /* rounds toward negative infinity */
  PLAIDML_DIM_NEG = 4, /* of `a`; `b` must be NULL */
  PLAIDML_DIM_MAX = 5,
  PLAIDML_DIM_MIN = 6
} plaidml_dim_op;
PLAIDML_C_API plaidml_status plaidml_dim_op_apply(plaidml_dim_op op,
                                                  const plaidml_dim *a,
                                                  const plaidml_dim *b,
                                                  plaidml_dim **out);
/* The size; PLAIDML_BUILD_ERROR when a variable it uses is unbound. */
PLAIDML_C_API plaidml_status plaidml_dim_value(const plaidml_dim *dim,
                                               int64_t *value);
PLAIDML_C_API void plaidml_dim_destroy(plaidml_dim *dim);

/*===----------------------------------------------------------------------===*
 * Indices
 *===----------------------------------------------------------------------===*/

/* A fresh index variable of a contraction (`name` may be NULL). */
PLAIDML_C_API plaidml_status plaidml_index_create(const char *name,
                                                  plaidml_index **out);
PLAIDML_C_API plaidml_status plaidml_index_constant(int64_t value,
                                                    plaidml_index **out);
/* A dimension's size as a constant position. */
PLAIDML_C_API plaidml_status plaidml_index_from_dim(const plaidml_dim *dim,
                                                    plaidml_index **out);
typedef enum plaidml_index_op {
  PLAIDML_INDEX_ADD = 0,
  PLAIDML_INDEX_SUB = 1,
  PLAIDML_INDEX_MUL = 2, /* one side must be constant */
  PLAIDML_INDEX_DIV = 3, /* exact rational division by a constant */
  PLAIDML_INDEX_NEG = 4  /* of `a`; `b` must be NULL */
} plaidml_index_op;
PLAIDML_C_API plaidml_status plaidml_index_op_apply(plaidml_index_op op,
                                                    const plaidml_index *a,
                                                    const plaidml_index *b,
                                                    plaidml_index **out);
PLAIDML_C_API void plaidml_index_destroy(plaidml_index *index);

/*===----------------------------------------------------------------------===*
 * Tensors
 *===----------------------------------------------------------------------===*/

/* An input of a program: `rank` dimensions `shape`, named `name`. */
PLAIDML_C_API plaidml_status plaidml_tensor_placeholder(plaidml_dtype dtype,
                                                        size_t rank,
                                                        const int64_t *shape,
                                                        const char *name,
                                                        plaidml_tensor **out);
/* A constant holding a copy of `buffer`'s elements. */
PLAIDML_C_API plaidml_status plaidml_tensor_constant(const plaidml_buffer *b,
                                                     const char *name,
                                                     plaidml_tensor **out);
/* A rank-0 constant of `dtype`. */
PLAIDML_C_API plaidml_status plaidml_tensor_scalar(plaidml_dtype dtype,
                                                   double value,
                                                   plaidml_tensor **out);
PLAIDML_C_API void plaidml_tensor_destroy(plaidml_tensor *tensor);

PLAIDML_C_API plaidml_status plaidml_tensor_dtype(const plaidml_tensor *t,
                                                  plaidml_dtype *dtype);
PLAIDML_C_API plaidml_status plaidml_tensor_rank(const plaidml_tensor *t,
                                                 size_t *rank);
/* The size of dimension `dim` (in the lens order). */
PLAIDML_C_API plaidml_status plaidml_tensor_dim(const plaidml_tensor *t,
                                                size_t dim, int64_t *size);
/* The same tensor under another name (for messages and program I/O). */
PLAIDML_C_API plaidml_status plaidml_tensor_named(const plaidml_tensor *t,
                                                  const char *name,
                                                  plaidml_tensor **out);
/* Binds `dims[i]` to the size of dimension i; `count` must be the rank. */
PLAIDML_C_API plaidml_status plaidml_tensor_bind_dims(const plaidml_tensor *t,
                                                      size_t count,
                                                      plaidml_dim *const *dims);
/* The tensor seen in layout `target` (e.g. "NHWC") although stored in
 * `source` (e.g. "NCHW"): its shape, bind_dims and accesses use `target`. */
PLAIDML_C_API plaidml_status plaidml_tensor_use_lens(const plaidml_tensor *t,
                                                     const char *source,
                                                     const char *target,
                                                     plaidml_tensor **out);

/* Elementwise ops (broadcasting like NumPy, promoting element types). */
typedef enum plaidml_unary_op {
  PLAIDML_NEG = 0,
  PLAIDML_LOGICAL_NOT = 1,
  PLAIDML_BIT_NOT = 2,
  PLAIDML_ABS = 3,
  PLAIDML_RELU = 4,
  PLAIDML_EXP = 5,
  PLAIDML_LOG = 6,
  PLAIDML_SQRT = 7,
  PLAIDML_TANH = 8,
  PLAIDML_SIN = 9,
  PLAIDML_COS = 10,
  PLAIDML_FLOOR = 11,
  PLAIDML_CEIL = 12,
  PLAIDML_ROUND = 13,
  PLAIDML_ERF = 14,
  PLAIDML_SIGMOID = 15
} plaidml_unary_op;
PLAIDML_C_API plaidml_status plaidml_tensor_unary(plaidml_unary_op op,
                                                  const plaidml_tensor *x,
                                                  plaidml_tensor **out);

typedef enum plaidml_binary_op {
  PLAIDML_ADD = 0,
  PLAIDML_SUB = 1,
  PLAIDML_MUL = 2,
  PLAIDML_DIV = 3,
  PLAIDML_MOD = 4,
  PLAIDML_POW = 5,
  PLAIDML_MAX = 6,
  PLAIDML_MIN = 7,
  PLAIDML_BIT_AND = 8,
  PLAIDML_BIT_OR = 9,
  PLAIDML_BIT_XOR = 10,
  PLAIDML_SHL = 11,
  PLAIDML_SHR = 12,
  PLAIDML_LOGICAL_AND = 13,
  PLAIDML_LOGICAL_OR = 14,
  PLAIDML_LOGICAL_XOR = 15,
  PLAIDML_EQ = 16,
  PLAIDML_NE = 17,
  PLAIDML_LT = 18,
  PLAIDML_GT = 19,
  PLAIDML_LE = 20,
  PLAIDML_GE = 21
} plaidml_binary_op;
PLAIDML_C_API plaidml_status plaidml_tensor_binary(plaidml_binary_op op,
                                                   const plaidml_tensor *a,
                                                   const plaidml_tensor *b,
                                                   plaidml_tensor **out);
/* `x op value` (or `value op x` when `reversed`): the number takes x's
 * element type when that type holds it, like a literal (an integer with a
 * float tensor takes the float type, so `x * 2` of an f16 x stays f16). */
PLAIDML_C_API plaidml_status plaidml_tensor_binary_int(plaidml_binary_op op,
                                                       const plaidml_tensor *x,
                                                       int64_t value,
                                                       int reversed,
                                                       plaidml_tensor **out);
PLAIDML_C_API plaidml_status
plaidml_tensor_binary_float(plaidml_binary_op op, const plaidml_tensor *x,
                            double value, int reversed, plaidml_tensor **out);

/* `cond ? a : b`, broadcasting all three. */
PLAIDML_C_API plaidml_status plaidml_tensor_select(const plaidml_tensor *cond,
                                                   const plaidml_tensor *a,
                                                   const plaidml_tensor *b,
                                                   plaidml_tensor **out);
PLAIDML_C_API plaidml_status plaidml_tensor_cast(const plaidml_tensor *x,
                                                 plaidml_dtype dtype,
                                                 plaidml_tensor **out);
/* Coordinates along `axis` of a tensor of `shape`, of `dtype`. */
PLAIDML_C_API plaidml_status plaidml_tensor_index(size_t rank,
                                                  const int64_t *shape,
                                                  int64_t axis,
                                                  plaidml_dtype dtype,
                                                  plaidml_tensor **out);
/* The same elements in `shape` (row-major; one entry may be -1). */
PLAIDML_C_API plaidml_status plaidml_tensor_reshape(const plaidml_tensor *x,
                                                    size_t rank,
                                                    const int64_t *shape,
                                                    plaidml_tensor **out);
/* Slices of `x` along `axis` picked by integer `indices` (clamped). */
PLAIDML_C_API plaidml_status
plaidml_tensor_gather(const plaidml_tensor *x, const plaidml_tensor *indices,
                      int64_t axis, plaidml_tensor **out);
/* Sums `updates` into zeros of `shape` at `indices` along `axis`. */
PLAIDML_C_API plaidml_status plaidml_tensor_scatter(
    const plaidml_tensor *updates, const plaidml_tensor *indices, size_t rank,
    const int64_t *shape, int64_t axis, plaidml_tensor **out);

/* Automatic differentiation: out[i] (an array of num_wrt handles the caller
 * provides) receives the gradient of `loss` with respect to wrt[i], with
 * wrt[i]'s shape and type (docs/Training.md). A loss of several elements
 * counts as their sum. Fails with a message naming the op when an op on the
 * path has no gradient; nothing is written to `out` then. */
PLAIDML_C_API plaidml_status plaidml_tensor_gradients(
    const plaidml_tensor *loss, size_t num_wrt,
    const plaidml_tensor *const *wrt, plaidml_tensor **out);

/* Sorting and random numbers. */
typedef enum plaidml_sort_direction {
  PLAIDML_SORT_ASC = 0,
  PLAIDML_SORT_DESC = 1
} plaidml_sort_direction;
/* For every line of `x` along `axis` (negative: from the end), the
 * positions of its elements in stable sorted order, as si32 (tile.argsort;
 * ascending is NumPy's argsort with kind='stable'). */
PLAIDML_C_API plaidml_status
plaidml_tensor_argsort(const plaidml_tensor *x, int64_t axis,
                       plaidml_sort_direction direction, plaidml_tensor **out);
/* Philox4x32-10 random values of `shape` and `dtype` (f16, bf16, f32, f64:
 * uniform in [0, 1); si32, ui32: raw words) from `state`, six 32-bit words
 * [k0, k1, c0, c1, c2, c3]; `*new_state` is the state for the next call
 * (tile.prng). The values are the same on every device. */
PLAIDML_C_API plaidml_status plaidml_tensor_prng(
    const plaidml_tensor *state, size_t rank, const int64_t *shape,
    plaidml_dtype dtype, plaidml_tensor **values, plaidml_tensor **new_state);
/* The state that starts a stream: key = seed's two words, counter 0. */
PLAIDML_C_API plaidml_status plaidml_tensor_prng_seed(uint64_t seed,
                                                      plaidml_tensor **out);

/*===----------------------------------------------------------------------===*
 * Contractions
 *===----------------------------------------------------------------------===*/

typedef enum plaidml_agg {
  PLAIDML_AGG_SUM = 0,
  PLAIDML_AGG_PRODUCT = 1,
  PLAIDML_AGG_MAX = 2,
  PLAIDML_AGG_MIN = 3,
  PLAIDML_AGG_ASSIGN = 4
} plaidml_agg;

typedef enum plaidml_combo {
  PLAIDML_COMBO_NONE = 0, /* one access, passed on */
  PLAIDML_COMBO_ADD = 1,  /* two accesses, added */
  PLAIDML_COMBO_MUL = 2,  /* two accesses, multiplied */
  PLAIDML_COMBO_EQ = 3,   /* two accesses, compared */
  PLAIDML_COMBO_COND = 4  /* three: a == b ? c : 0 */
} plaidml_combo;

/* A contraction `name`, optionally seen through a lens (`source`, `target`
 * both NULL for none): shape and access are given in the target order and
 * the output is stored in the source order. */
PLAIDML_C_API plaidml_status
plaidml_contraction_create(const char *name, const char *source,
                           const char *target, plaidml_contraction **out);
PLAIDML_C_API void plaidml_contraction_destroy(plaidml_contraction *c);
/* The output shape and the output access, one entry per dimension. */
PLAIDML_C_API plaidml_status plaidml_contraction_set_shape(
    plaidml_contraction *c, size_t rank, plaidml_dim *const *dims);
PLAIDML_C_API plaidml_status plaidml_contraction_set_access(
    plaidml_contraction *c, size_t rank, plaidml_index *const *indices);
/* Appends an input access `tensor(indices...)`, in combination order. */
PLAIDML_C_API plaidml_status plaidml_contraction_add_input(
    plaidml_contraction *c, const plaidml_tensor *tensor, size_t rank,
    plaidml_index *const *indices);
/* The aggregation and combination of the inputs. */
PLAIDML_C_API plaidml_status plaidml_contraction_set_kind(
    plaidml_contraction *c, plaidml_agg agg, plaidml_combo combo);
/* `0 <= index < bound`. */
PLAIDML_C_API plaidml_status plaidml_contraction_add_constraint(
    plaidml_contraction *c, const plaidml_index *index,
    const plaidml_dim *bound);
/* The initial value of the output (broadcast); default: the identity. */
PLAIDML_C_API plaidml_status plaidml_contraction_set_init(
    plaidml_contraction *c, const plaidml_tensor *init);
/* Accesses at fractions floor instead of being valid at integers only. */
PLAIDML_C_API plaidml_status
plaidml_contraction_no_defract(plaidml_contraction *c);
/* The result element type instead of the inferred one. */
PLAIDML_C_API plaidml_status
plaidml_contraction_set_dtype(plaidml_contraction *c, plaidml_dtype dtype);
/* Builds the contraction (shape, access, inputs and kind must be set). */
PLAIDML_C_API plaidml_status plaidml_contraction_build(plaidml_contraction *c,
                                                       plaidml_tensor **out);

/*===----------------------------------------------------------------------===*
 * Programs
 *===----------------------------------------------------------------------===*/

/* A function `name` computing `outputs` from `inputs` (placeholders). */
PLAIDML_C_API plaidml_status plaidml_program_create(
    const char *name, size_t num_inputs, plaidml_tensor *const *inputs,
    size_t num_outputs, plaidml_tensor *const *outputs, plaidml_program **out);
PLAIDML_C_API void plaidml_program_destroy(plaidml_program *program);
/* The Tile IR (a module holding the function), valid while the program
 * lives. */
PLAIDML_C_API const char *plaidml_program_ir(plaidml_program *program);
PLAIDML_C_API size_t plaidml_program_num_inputs(const plaidml_program *p);
PLAIDML_C_API size_t plaidml_program_num_outputs(const plaidml_program *p);
/* Names, element types and shapes of the inputs and outputs. */
PLAIDML_C_API plaidml_status plaidml_program_input(
    const plaidml_program *p, size_t index, const char **name,
    plaidml_dtype *dtype, size_t *rank, const int64_t **shape);
PLAIDML_C_API plaidml_status plaidml_program_output(
    const plaidml_program *p, size_t index, const char **name,
    plaidml_dtype *dtype, size_t *rank, const int64_t **shape);
/* Compiles the program for the options' device (the entry and bindings of
 * the options are ignored) into an executable whose inputs and outputs
 * have the program's names. */
PLAIDML_C_API plaidml_status plaidml_program_compile(
    const plaidml_program *program, const plaidml_compile_options *options,
    plaidml_executable **out);

/* Forgets every tensor built so far (tensor handles become invalid; built
 * programs stay). Long-running builders call it between programs. */
PLAIDML_C_API void plaidml_edsl_reset(void);

#ifdef __cplusplus
}
#endif

#endif /* PLAIDML_C_EDSL_H */
