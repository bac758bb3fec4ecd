//===- EDSL.cpp - C API: dimensions, indices, tensors, programs -----------===//
//
// include/plaidml-c/edsl.h over the C++ EDSL (include/plaidml/EDSL/EDSL.h).
// Each handle holds an EDSL value (they share their nodes, so handles are
// independent of each other). The EDSL reports ill-formed programs by
// throwing edsl::Error; every function here runs its body through guard(),
// which turns an Error into PLAIDML_BUILD_ERROR and anything else thrown
// into PLAIDML_INTERNAL_ERROR, so no exception crosses the C boundary. This
// library is therefore compiled with exceptions (lib/CAPI/CMakeLists.txt).
// Programs compile by printing their Tile IR and handing it to the
// executable path of Executable.cpp.
//
//===----------------------------------------------------------------------===//

#include "EDSLHandles.h"
#include "Executable.h"
#include "Internal.h"

#include "plaidml-c/edsl.h"

#include "plaidml/EDSL/EDSL.h"

#include <exception>
#include <memory>

using namespace plaidml;
using namespace plaidml::capi;

struct plaidml_contraction {
  std::string name;
  edsl::TensorLens lens;
  std::vector<edsl::TensorDim> shape;
  std::vector<edsl::TensorIndex> access;
  bool hasShape = false, hasAccess = false, hasKind = false;
  std::vector<edsl::IndexedTensor> inputs;
  plaidml_agg agg = PLAIDML_AGG_SUM;
  plaidml_combo combo = PLAIDML_COMBO_NONE;
  std::vector<edsl::Constraint> constraints;
  edsl::Tensor init;
  bool noDefract = false;
  bool hasDType = false;
  rt::DType dtype = rt::DType::f32;
};
struct plaidml_program {
  std::unique_ptr<edsl::Program> program;
  std::string ir;
  std::vector<capi::TensorSpec> inputs, outputs;
};

namespace {
/// Runs `body` (which returns a plaidml_status), turning exceptions into
/// statuses with the exception's message prefixed by `function`.
template <typename Fn> plaidml_status guard(const char *function, Fn &&body) {
  try {
    return body();
  } catch (const edsl::Error &e) {
    return fail(PLAIDML_BUILD_ERROR, std::string(function) + ": " + e.what());
  } catch (const std::exception &e) {
    return fail(PLAIDML_INTERNAL_ERROR,
                std::string(function) + ": " + e.what());
  } catch (...) {
    return fail(PLAIDML_INTERNAL_ERROR,
                std::string(function) + ": an unknown exception");
  }
}

/// Checks that every pointer of `ptrs` is non-null.
template <typename T> bool allNonNull(size_t count, T *const *ptrs) {
  if (count && !ptrs)
    return false;
  for (size_t i = 0; i < count; ++i)
    if (!ptrs[i])
      return false;
  return true;
}

plaidml_status checkDType(const char *function, plaidml_dtype dtype) {
  if (isValidDType(dtype))
    return PLAIDML_OK;
  return fail(PLAIDML_INVALID_ARGUMENT, std::string(function) + ": " +
                                            std::to_string(int(dtype)) +
                                            " is not a plaidml_dtype");
}

std::vector<int64_t> toShape(size_t rank, const int64_t *shape) {
  return std::vector<int64_t>(shape, shape + rank);
}

plaidml_status newTensor(edsl::Tensor tensor, plaidml_tensor **out) {
  *out = new plaidml_tensor{std::move(tensor)};
  return PLAIDML_OK;
}

void fillSpecs(const std::vector<edsl::TensorSpec> &from,
               std::vector<capi::TensorSpec> &to) {
  for (const edsl::TensorSpec &spec : from) {
    capi::TensorSpec s;
    s.name = spec.name;
    s.dtype = fromDType(spec.dtype);
    s.shape = spec.shape;
    to.push_back(std::move(s));
  }
}

plaidml_status getSpec(const std::vector<capi::TensorSpec> &specs, size_t index,
                       const char *function, const char **name,
                       plaidml_dtype *dtype, size_t *rank,
                       const int64_t **shape) {
  if (index >= specs.size())
    return fail(PLAIDML_NOT_FOUND, std::string(function) +
                                       ": the program has " +
                                       std::to_string(specs.size()) + ", not " +
                                       std::to_string(index + 1));
  if (name)
    *name = specs[index].name.c_str();
  if (dtype)
    *dtype = specs[index].dtype;
  if (rank)
    *rank = specs[index].shape.size();
  if (shape)
    *shape = specs[index].shape.data();
  return PLAIDML_OK;
}

#define REQUIRE(ptr, function)                                                 \
  do {                                                                         \
    if (!(ptr))                                                                \
      return failNull(function, #ptr);                                         \
  } while (false)
} // namespace

extern "C" {

//===----------------------------------------------------------------------===//
// Dimensions
//===----------------------------------------------------------------------===//

plaidml_status plaidml_dim_create(const char *name, plaidml_dim **out) {
  REQUIRE(out, "plaidml_dim_create");
  return guard("plaidml_dim_create", [&] {
    *out = new plaidml_dim{name ? edsl::TensorDim(std::string(name))
                                : edsl::TensorDim()};
    return PLAIDML_OK;
  });
}

plaidml_status plaidml_dim_constant(int64_t value, plaidml_dim **out) {
  REQUIRE(out, "plaidml_dim_constant");
  return guard("plaidml_dim_constant", [&] {
    *out = new plaidml_dim{edsl::TensorDim(value)};
    return PLAIDML_OK;
  });
}

plaidml_status plaidml_dim_op_apply(plaidml_dim_op op, const plaidml_dim *a,
                                    const plaidml_dim *b, plaidml_dim **out) {
  const char *fn = "plaidml_dim_op_apply";
  REQUIRE(a, fn);
  REQUIRE(out, fn);
  if ((op == PLAIDML_DIM_NEG) != (b == nullptr))
    return fail(PLAIDML_INVALID_ARGUMENT,
                std::string(fn) + ": negation takes one operand, the other "
                                  "ops two");
  return guard(fn, [&] {
    const edsl::TensorDim &x = a->dim;
    edsl::TensorDim r;
    switch (op) {
    case PLAIDML_DIM_ADD:
      r = x + b->dim;
      break;
    case PLAIDML_DIM_SUB:
      r = x - b->dim;
      break;
    case PLAIDML_DIM_MUL:
      r = x * b->dim;
      break;
    case PLAIDML_DIM_DIV:
      r = x / b->dim;
      break;
    case PLAIDML_DIM_NEG:
      r = -x;
      break;
    case PLAIDML_DIM_MAX:
      r = max(x, b->dim);
      break;
    case PLAIDML_DIM_MIN:
      r = min(x, b->dim);
      break;
    default:
      return fail(PLAIDML_INVALID_ARGUMENT,
                  std::string(fn) + ": unknown op " + std::to_string(int(op)));
    }
    *out = new plaidml_dim{std::move(r)};
    return PLAIDML_OK;
  });
}

plaidml_status plaidml_dim_value(const plaidml_dim *dim, int64_t *value) {
  REQUIRE(dim, "plaidml_dim_value");
  REQUIRE(value, "plaidml_dim_value");
  return guard("plaidml_dim_value", [&] {
    *value = dim->dim.value();
    return PLAIDML_OK;
  });
}

void plaidml_dim_destroy(plaidml_dim *dim) { delete dim; }

//===----------------------------------------------------------------------===//
// Indices
//===----------------------------------------------------------------------===//

plaidml_status plaidml_index_create(const char *name, plaidml_index **out) {
  REQUIRE(out, "plaidml_index_create");
  return guard("plaidml_index_create", [&] {
    *out = new plaidml_index{name ? edsl::TensorIndex(std::string(name))
                                  : edsl::TensorIndex()};
    return PLAIDML_OK;
  });
}

plaidml_status plaidml_index_constant(int64_t value, plaidml_index **out) {
  REQUIRE(out, "plaidml_index_constant");
  return guard("plaidml_index_constant", [&] {
    *out = new plaidml_index{edsl::TensorIndex(value)};
    return PLAIDML_OK;
  });
}

plaidml_status plaidml_index_from_dim(const plaidml_dim *dim,
                                      plaidml_index **out) {
  REQUIRE(dim, "plaidml_index_from_dim");
  REQUIRE(out, "plaidml_index_from_dim");
  return guard("plaidml_index_from_dim", [&] {
    *out = new plaidml_index{edsl::TensorIndex(dim->dim)};
    return PLAIDML_OK;
  });
}

plaidml_status plaidml_index_op_apply(plaidml_index_op op,
                                      const plaidml_index *a,
                                      const plaidml_index *b,
                                      plaidml_index **out) {
  const char *fn = "plaidml_index_op_apply";
  REQUIRE(a, fn);
  REQUIRE(out, fn);
  if ((op == PLAIDML_INDEX_NEG) != (b == nullptr))
    return fail(PLAIDML_INVALID_ARGUMENT,
                std::string(fn) + ": negation takes one operand, the other "
                                  "ops two");
  return guard(fn, [&] {
    const edsl::TensorIndex &x = a->index;
    edsl::TensorIndex r;
    switch (op) {
    case PLAIDML_INDEX_ADD:
      r = x + b->index;
      break;
    case PLAIDML_INDEX_SUB:
      r = x - b->index;
      break;
    case PLAIDML_INDEX_MUL:
      r = x * b->index;
      break;
    case PLAIDML_INDEX_DIV:
      r = x / b->index;
      break;
    case PLAIDML_INDEX_NEG:
      r = -x;
      break;
    default:
      return fail(PLAIDML_INVALID_ARGUMENT,
                  std::string(fn) + ": unknown op " + std::to_string(int(op)));
    }
    *out = new plaidml_index{std::move(r)};
    return PLAIDML_OK;
  });
}

void plaidml_index_destroy(plaidml_index *index) { delete index; }

//===----------------------------------------------------------------------===//
// Tensors
//===----------------------------------------------------------------------===//

plaidml_status plaidml_tensor_placeholder(plaidml_dtype dtype, size_t rank,
                                          const int64_t *shape,
                                          const char *name,
                                          plaidml_tensor **out) {
  const char *fn = "plaidml_tensor_placeholder";
  REQUIRE(out, fn);
  if (rank)
    REQUIRE(shape, fn);
  if (plaidml_status s = checkDType(fn, dtype))
    return s;
  return guard(fn, [&] {
    return newTensor(edsl::Placeholder(toDType(dtype), toShape(rank, shape),
                                       name ? name : ""),
                     out);
  });
}

plaidml_status plaidml_tensor_constant(const plaidml_buffer *b,
                                       const char *name, plaidml_tensor **out) {
  REQUIRE(b, "plaidml_tensor_constant");
  REQUIRE(out, "plaidml_tensor_constant");
  return guard("plaidml_tensor_constant", [&] {
    return newTensor(edsl::Constant(b->array, name ? name : ""), out);
  });
}

plaidml_status plaidml_tensor_scalar(plaidml_dtype dtype, double value,
                                     plaidml_tensor **out) {
  REQUIRE(out, "plaidml_tensor_scalar");
  if (plaidml_status s = checkDType("plaidml_tensor_scalar", dtype))
    return s;
  return guard("plaidml_tensor_scalar", [&] {
    return newTensor(edsl::Constant(toDType(dtype), value), out);
  });
}

void plaidml_tensor_destroy(plaidml_tensor *tensor) { delete tensor; }

plaidml_status plaidml_tensor_dtype(const plaidml_tensor *t,
                                    plaidml_dtype *dtype) {
  REQUIRE(t, "plaidml_tensor_dtype");
  REQUIRE(dtype, "plaidml_tensor_dtype");
  return guard("plaidml_tensor_dtype", [&] {
    *dtype = fromDType(t->tensor.getDType());
    return PLAIDML_OK;
  });
}

plaidml_status plaidml_tensor_rank(const plaidml_tensor *t, size_t *rank) {
  REQUIRE(t, "plaidml_tensor_rank");
  REQUIRE(rank, "plaidml_tensor_rank");
  return guard("plaidml_tensor_rank", [&] {
    *rank = static_cast<size_t>(t->tensor.getRank());
    return PLAIDML_OK;
  });
}

plaidml_status plaidml_tensor_dim(const plaidml_tensor *t, size_t dim,
                                  int64_t *size) {
  REQUIRE(t, "plaidml_tensor_dim");
  REQUIRE(size, "plaidml_tensor_dim");
  return guard("plaidml_tensor_dim", [&] {
    std::vector<int64_t> shape = t->tensor.getShape();
    if (dim >= shape.size())
      return fail(PLAIDML_INVALID_ARGUMENT,
                  "plaidml_tensor_dim: " + t->tensor.str() + " has no " +
                      "dimension " + std::to_string(dim));
    *size = shape[dim];
    return PLAIDML_OK;
  });
}

plaidml_status plaidml_tensor_named(const plaidml_tensor *t, const char *name,
                                    plaidml_tensor **out) {
  REQUIRE(t, "plaidml_tensor_named");
  REQUIRE(name, "plaidml_tensor_named");
  REQUIRE(out, "plaidml_tensor_named");
  return guard("plaidml_tensor_named",
               [&] { return newTensor(t->tensor.named(name), out); });
}

plaidml_status plaidml_tensor_bind_dims(const plaidml_tensor *t, size_t count,
                                        plaidml_dim *const *dims) {
  REQUIRE(t, "plaidml_tensor_bind_dims");
  if (!allNonNull(count, dims))
    return failNull("plaidml_tensor_bind_dims", "a dimension");
  return guard("plaidml_tensor_bind_dims", [&] {
    std::vector<edsl::TensorDim *> ptrs;
    for (size_t i = 0; i < count; ++i)
      ptrs.push_back(&dims[i]->dim);
    t->tensor.bind_dims(ptrs);
    return PLAIDML_OK;
  });
}

plaidml_status plaidml_tensor_use_lens(const plaidml_tensor *t,
                                       const char *source, const char *target,
                                       plaidml_tensor **out) {
  REQUIRE(t, "plaidml_tensor_use_lens");
  REQUIRE(source, "plaidml_tensor_use_lens");
  REQUIRE(target, "plaidml_tensor_use_lens");
  REQUIRE(out, "plaidml_tensor_use_lens");
  return guard("plaidml_tensor_use_lens", [&] {
    return newTensor(t->tensor.use(edsl::TensorLens(source, target)), out);
  });
}

plaidml_status plaidml_tensor_unary(plaidml_unary_op op,
                                    const plaidml_tensor *x,
                                    plaidml_tensor **out) {
  const char *fn = "plaidml_tensor_unary";
  REQUIRE(x, fn);
  REQUIRE(out, fn);
  return guard(fn, [&] {
    const edsl::Tensor &v = x->tensor;
    edsl::Tensor r;
    switch (op) {
    case PLAIDML_NEG:
      r = -v;
      break;
    case PLAIDML_LOGICAL_NOT:
      r = edsl::logical_not(v);
      break;
    case PLAIDML_BIT_NOT:
      r = edsl::bit_not(v);
      break;
    case PLAIDML_ABS:
      r = edsl::abs(v);
      break;
    case PLAIDML_RELU:
      r = edsl::relu(v);
      break;
    case PLAIDML_EXP:
      r = edsl::exp(v);
      break;
    case PLAIDML_LOG:
      r = edsl::log(v);
      break;
    case PLAIDML_SQRT:
      r = edsl::sqrt(v);
      break;
    case PLAIDML_TANH:
      r = edsl::tanh(v);
      break;
    case PLAIDML_SIN:
      r = edsl::sin(v);
      break;
    case PLAIDML_COS:
      r = edsl::cos(v);
      break;
    case PLAIDML_FLOOR:
      r = edsl::floor(v);
      break;
    case PLAIDML_CEIL:
      r = edsl::ceil(v);
      break;
    case PLAIDML_ROUND:
      r = edsl::round(v);
      break;
    case PLAIDML_ERF:
      r = edsl::erf(v);
      break;
    case PLAIDML_SIGMOID:
      r = edsl::sigmoid(v);
      break;
    default:
      return fail(PLAIDML_INVALID_ARGUMENT,
                  std::string(fn) + ": unknown op " + std::to_string(int(op)));
    }
    return newTensor(std::move(r), out);
  });
}

namespace {
/// `a op b` for EDSL operands (tensors or numbers).
plaidml_status applyBinary(const char *fn, plaidml_binary_op op,
                           const edsl::Operand &a, const edsl::Operand &b,
                           plaidml_tensor **out) {
  return guard(fn, [&] {
    edsl::Tensor r;
    switch (op) {
    case PLAIDML_ADD:
      r = a + b;
      break;
    case PLAIDML_SUB:
      r = a - b;
      break;
    case PLAIDML_MUL:
      r = a * b;
      break;
    case PLAIDML_DIV:
      r = a / b;
      break;
    case PLAIDML_MOD:
      r = a % b;
      break;
    case PLAIDML_POW:
      r = edsl::pow(a, b);
      break;
    case PLAIDML_MAX:
      r = edsl::max(a, b);
      break;
    case PLAIDML_MIN:
      r = edsl::min(a, b);
      break;
    case PLAIDML_BIT_AND:
      r = a & b;
      break;
    case PLAIDML_BIT_OR:
      r = a | b;
      break;
    case PLAIDML_BIT_XOR:
      r = a ^ b;
      break;
    case PLAIDML_SHL:
      r = a << b;
      break;
    case PLAIDML_SHR:
      r = a >> b;
      break;
    case PLAIDML_LOGICAL_AND:
      r = a && b;
      break;
    case PLAIDML_LOGICAL_OR:
      r = a || b;
      break;
    case PLAIDML_LOGICAL_XOR:
      r = edsl::logical_xor(a, b);
      break;
    case PLAIDML_EQ:
      r = a == b;
      break;
    case PLAIDML_NE:
      r = a != b;
      break;
    case PLAIDML_LT:
      r = a < b;
      break;
    case PLAIDML_GT:
      r = a > b;
      break;
    case PLAIDML_LE:
      r = a <= b;
      break;
    case PLAIDML_GE:
      r = a >= b;
      break;
    default:
      return fail(PLAIDML_INVALID_ARGUMENT,
                  std::string(fn) + ": unknown op " + std::to_string(int(op)));
    }
    return newTensor(std::move(r), out);
  });
}
} // namespace

plaidml_status plaidml_tensor_binary(plaidml_binary_op op,
                                     const plaidml_tensor *a,
                                     const plaidml_tensor *b,
                                     plaidml_tensor **out) {
  REQUIRE(a, "plaidml_tensor_binary");
  REQUIRE(b, "plaidml_tensor_binary");
  REQUIRE(out, "plaidml_tensor_binary");
  return applyBinary("plaidml_tensor_binary", op, edsl::Operand(a->tensor),
                     edsl::Operand(b->tensor), out);
}

plaidml_status plaidml_tensor_binary_int(plaidml_binary_op op,
                                         const plaidml_tensor *x, int64_t value,
                                         int reversed, plaidml_tensor **out) {
  REQUIRE(x, "plaidml_tensor_binary_int");
  REQUIRE(out, "plaidml_tensor_binary_int");
  edsl::Operand t(x->tensor), v(value);
  return reversed ? applyBinary("plaidml_tensor_binary_int", op, v, t, out)
                  : applyBinary("plaidml_tensor_binary_int", op, t, v, out);
}

plaidml_status plaidml_tensor_binary_float(plaidml_binary_op op,
                                           const plaidml_tensor *x,
                                           double value, int reversed,
                                           plaidml_tensor **out) {
  REQUIRE(x, "plaidml_tensor_binary_float");
  REQUIRE(out, "plaidml_tensor_binary_float");
  edsl::Operand t(x->tensor), v(value);
  return reversed ? applyBinary("plaidml_tensor_binary_float", op, v, t, out)
                  : applyBinary("plaidml_tensor_binary_float", op, t, v, out);
}

plaidml_status plaidml_tensor_select(const plaidml_tensor *cond,
                                     const plaidml_tensor *a,
                                     const plaidml_tensor *b,
                                     plaidml_tensor **out) {
  REQUIRE(cond, "plaidml_tensor_select");
  REQUIRE(a, "plaidml_tensor_select");
  REQUIRE(b, "plaidml_tensor_select");
  REQUIRE(out, "plaidml_tensor_select");
  return guard("plaidml_tensor_select", [&] {
    return newTensor(edsl::select(cond->tensor, a->tensor, b->tensor), out);
  });
}

plaidml_status plaidml_tensor_cast(const plaidml_tensor *x, plaidml_dtype dtype,
                                   plaidml_tensor **out) {
  REQUIRE(x, "plaidml_tensor_cast");
  REQUIRE(out, "plaidml_tensor_cast");
  if (plaidml_status s = checkDType("plaidml_tensor_cast", dtype))
    return s;
  return guard("plaidml_tensor_cast", [&] {
    return newTensor(edsl::cast(x->tensor, toDType(dtype)), out);
  });
}

plaidml_status plaidml_tensor_index(size_t rank, const int64_t *shape,
                                    int64_t axis, plaidml_dtype dtype,
                                    plaidml_tensor **out) {
  REQUIRE(out, "plaidml_tensor_index");
  if (rank)
    REQUIRE(shape, "plaidml_tensor_index");
  if (plaidml_status s = checkDType("plaidml_tensor_index", dtype))
    return s;
  return guard("plaidml_tensor_index", [&] {
    return newTensor(edsl::index(toShape(rank, shape), axis, toDType(dtype)),
                     out);
  });
}

plaidml_status plaidml_tensor_reshape(const plaidml_tensor *x, size_t rank,
                                      const int64_t *shape,
                                      plaidml_tensor **out) {
  REQUIRE(x, "plaidml_tensor_reshape");
  REQUIRE(out, "plaidml_tensor_reshape");
  if (rank)
    REQUIRE(shape, "plaidml_tensor_reshape");
  return guard("plaidml_tensor_reshape", [&] {
    return newTensor(edsl::reshape(x->tensor, toShape(rank, shape)), out);
  });
}

plaidml_status plaidml_tensor_gather(const plaidml_tensor *x,
                                     const plaidml_tensor *indices,
                                     int64_t axis, plaidml_tensor **out) {
  REQUIRE(x, "plaidml_tensor_gather");
  REQUIRE(indices, "plaidml_tensor_gather");
  REQUIRE(out, "plaidml_tensor_gather");
  return guard("plaidml_tensor_gather", [&] {
    return newTensor(edsl::gather(x->tensor, indices->tensor, axis), out);
  });
}

plaidml_status plaidml_tensor_scatter(const plaidml_tensor *updates,
                                      const plaidml_tensor *indices,
                                      size_t rank, const int64_t *shape,
                                      int64_t axis, plaidml_tensor **out) {
  REQUIRE(updates, "plaidml_tensor_scatter");
  REQUIRE(indices, "plaidml_tensor_scatter");
  REQUIRE(out, "plaidml_tensor_scatter");
  if (rank)
    REQUIRE(shape, "plaidml_tensor_scatter");
  return guard("plaidml_tensor_scatter", [&] {
    return newTensor(edsl::scatter(updates->tensor, indices->tensor,
                                   toShape(rank, shape), axis),
                     out);
  });
}

plaidml_status plaidml_tensor_gradients(const plaidml_tensor *loss,
                                        size_t num_wrt,
                                        const plaidml_tensor *const *wrt,
                                        plaidml_tensor **out) {
  REQUIRE(loss, "plaidml_tensor_gradients");
  if (num_wrt) {
    REQUIRE(wrt, "plaidml_tensor_gradients");
    REQUIRE(out, "plaidml_tensor_gradients");
  }
  for (size_t i = 0; i < num_wrt; ++i)
    REQUIRE(wrt[i], "plaidml_tensor_gradients");
  return guard("plaidml_tensor_gradients", [&] {
    std::vector<edsl::Tensor> ws;
    for (size_t i = 0; i < num_wrt; ++i)
      ws.push_back(wrt[i]->tensor);
    std::vector<edsl::Tensor> grads = edsl::gradients(loss->tensor, ws);
    for (size_t i = 0; i < num_wrt; ++i)
      out[i] = new plaidml_tensor{std::move(grads[i])};
    return PLAIDML_OK;
  });
}

plaidml_status plaidml_tensor_argsort(const plaidml_tensor *x, int64_t axis,
                                      plaidml_sort_direction direction,
                                      plaidml_tensor **out) {
  REQUIRE(x, "plaidml_tensor_argsort");
  REQUIRE(out, "plaidml_tensor_argsort");
  if (direction != PLAIDML_SORT_ASC && direction != PLAIDML_SORT_DESC)
    return fail(PLAIDML_INVALID_ARGUMENT,
                "plaidml_tensor_argsort: unknown sort direction " +
                    std::to_string(static_cast<int>(direction)));
  return guard("plaidml_tensor_argsort", [&] {
    return newTensor(edsl::argsort(x->tensor, axis,
                                   direction == PLAIDML_SORT_ASC
                                       ? edsl::SortDirection::Asc
                                       : edsl::SortDirection::Desc),
                     out);
  });
}

plaidml_status plaidml_tensor_prng(const plaidml_tensor *state, size_t rank,
                                   const int64_t *shape, plaidml_dtype dtype,
                                   plaidml_tensor **values,
                                   plaidml_tensor **new_state) {
  REQUIRE(state, "plaidml_tensor_prng");
  REQUIRE(values, "plaidml_tensor_prng");
  REQUIRE(new_state, "plaidml_tensor_prng");
  if (rank)
    REQUIRE(shape, "plaidml_tensor_prng");
  if (plaidml_status s = checkDType("plaidml_tensor_prng", dtype))
    return s;
  return guard("plaidml_tensor_prng", [&] {
    edsl::PrngResult r =
        edsl::prng(state->tensor, toShape(rank, shape), toDType(dtype));
    newTensor(std::move(r.values), values);
    return newTensor(std::move(r.state), new_state);
  });
}

plaidml_status plaidml_tensor_prng_seed(uint64_t seed, plaidml_tensor **out) {
  REQUIRE(out, "plaidml_tensor_prng_seed");
  return guard("plaidml_tensor_prng_seed",
               [&] { return newTensor(edsl::prngSeed(seed), out); });
}

//===----------------------------------------------------------------------===//
// Contractions
//===----------------------------------------------------------------------===//

plaidml_status plaidml_contraction_create(const char *name, const char *source,
                                          const char *target,
                                          plaidml_contraction **out) {
  REQUIRE(out, "plaidml_contraction_create");
  if ((source == nullptr) != (target == nullptr))
    return fail(PLAIDML_INVALID_ARGUMENT,
                "plaidml_contraction_create: a lens needs both a source and "
                "a target layout");
  return guard("plaidml_contraction_create", [&] {
    auto c = std::make_unique<plaidml_contraction>();
    c->name = name ? name : "";
    if (source)
      c->lens = edsl::TensorLens(source, target);
    *out = c.release();
    return PLAIDML_OK;
  });
}

void plaidml_contraction_destroy(plaidml_contraction *c) { delete c; }

plaidml_status plaidml_contraction_set_shape(plaidml_contraction *c,
                                             size_t rank,
                                             plaidml_dim *const *dims) {
  REQUIRE(c, "plaidml_contraction_set_shape");
  if (!allNonNull(rank, dims))
    return failNull("plaidml_contraction_set_shape", "a dimension");
  c->shape.clear();
  for (size_t i = 0; i < rank; ++i)
    c->shape.push_back(dims[i]->dim);
  c->hasShape = true;
  return PLAIDML_OK;
}

plaidml_status plaidml_contraction_set_access(plaidml_contraction *c,
                                              size_t rank,
                                              plaidml_index *const *indices) {
  REQUIRE(c, "plaidml_contraction_set_access");
  if (!allNonNull(rank, indices))
    return failNull("plaidml_contraction_set_access", "an index");
  c->access.clear();
  for (size_t i = 0; i < rank; ++i)
    c->access.push_back(indices[i]->index);
  c->hasAccess = true;
  return PLAIDML_OK;
}

plaidml_status plaidml_contraction_add_input(plaidml_contraction *c,
                                             const plaidml_tensor *tensor,
                                             size_t rank,
                                             plaidml_index *const *indices) {
  REQUIRE(c, "plaidml_contraction_add_input");
  REQUIRE(tensor, "plaidml_contraction_add_input");
  if (!allNonNull(rank, indices))
    return failNull("plaidml_contraction_add_input", "an index");
  return guard("plaidml_contraction_add_input", [&] {
    std::vector<edsl::TensorIndex> idxs;
    for (size_t i = 0; i < rank; ++i)
      idxs.push_back(indices[i]->index);
    c->inputs.push_back(tensor->tensor(idxs));
    return PLAIDML_OK;
  });
}

plaidml_status plaidml_contraction_set_kind(plaidml_contraction *c,
                                            plaidml_agg agg,
                                            plaidml_combo combo) {
  REQUIRE(c, "plaidml_contraction_set_kind");
  if (agg < PLAIDML_AGG_SUM || agg > PLAIDML_AGG_ASSIGN)
    return fail(PLAIDML_INVALID_ARGUMENT,
                "plaidml_contraction_set_kind: unknown aggregation " +
                    std::to_string(int(agg)));
  if (combo < PLAIDML_COMBO_NONE || combo > PLAIDML_COMBO_COND)
    return fail(PLAIDML_INVALID_ARGUMENT,
                "plaidml_contraction_set_kind: unknown combination " +
                    std::to_string(int(combo)));
  c->agg = agg;
  c->combo = combo;
  c->hasKind = true;
  return PLAIDML_OK;
}

plaidml_status plaidml_contraction_add_constraint(plaidml_contraction *c,
                                                  const plaidml_index *index,
                                                  const plaidml_dim *bound) {
  REQUIRE(c, "plaidml_contraction_add_constraint");
  REQUIRE(index, "plaidml_contraction_add_constraint");
  REQUIRE(bound, "plaidml_contraction_add_constraint");
  return guard("plaidml_contraction_add_constraint", [&] {
    c->constraints.push_back(index->index < bound->dim);
    return PLAIDML_OK;
  });
}

plaidml_status plaidml_contraction_set_init(plaidml_contraction *c,
                                            const plaidml_tensor *init) {
  REQUIRE(c, "plaidml_contraction_set_init");
  REQUIRE(init, "plaidml_contraction_set_init");
  c->init = init->tensor;
  return PLAIDML_OK;
}

plaidml_status plaidml_contraction_no_defract(plaidml_contraction *c) {
  REQUIRE(c, "plaidml_contraction_no_defract");
  c->noDefract = true;
  return PLAIDML_OK;
}

plaidml_status plaidml_contraction_set_dtype(plaidml_contraction *c,
                                             plaidml_dtype dtype) {
  REQUIRE(c, "plaidml_contraction_set_dtype");
  if (plaidml_status s = checkDType("plaidml_contraction_set_dtype", dtype))
    return s;
  c->hasDType = true;
  c->dtype = toDType(dtype);
  return PLAIDML_OK;
}

plaidml_status plaidml_contraction_build(plaidml_contraction *c,
                                         plaidml_tensor **out) {
  const char *fn = "plaidml_contraction_build";
  REQUIRE(c, fn);
  REQUIRE(out, fn);
  std::string what =
      c->name.empty() ? "the contraction" : "contraction '" + c->name + "'";
  if (!c->hasShape || !c->hasAccess || !c->hasKind)
    return fail(PLAIDML_BUILD_ERROR,
                std::string(fn) + ": " + what + " needs " +
                    (!c->hasShape    ? "its output shape"
                     : !c->hasAccess ? "its output access"
                                     : "its aggregation and combination") +
                    " before it is built");
  static const unsigned kInputs[] = {1, 2, 2, 2, 3};
  if (c->inputs.size() != kInputs[c->combo])
    return fail(PLAIDML_BUILD_ERROR,
                std::string(fn) + ": " + what + " has " +
                    std::to_string(c->inputs.size()) +
                    " input access(es), but its combination takes " +
                    std::to_string(kInputs[c->combo]));
  return guard(fn, [&] {
    const std::vector<edsl::IndexedTensor> &in = c->inputs;
    edsl::IndexedTensor body = in[0];
    switch (c->combo) {
    case PLAIDML_COMBO_NONE:
      break;
    case PLAIDML_COMBO_ADD:
      body = in[0] + in[1];
      break;
    case PLAIDML_COMBO_MUL:
      body = in[0] * in[1];
      break;
    case PLAIDML_COMBO_EQ:
      body = in[0] == in[1];
      break;
    case PLAIDML_COMBO_COND:
      body = cond(in[0] == in[1], in[2]);
      break;
    }
    edsl::Contraction k = c->lens.isIdentity()
                              ? edsl::Contraction(c->name)
                              : edsl::Contraction(c->lens, c->name);
    k.outShape(c->shape).outAccess(c->access);
    switch (c->agg) {
    case PLAIDML_AGG_SUM:
      k.sum(body);
      break;
    case PLAIDML_AGG_PRODUCT:
      k.product(body);
      break;
    case PLAIDML_AGG_MAX:
      k.max(body);
      break;
    case PLAIDML_AGG_MIN:
      k.min(body);
      break;
    case PLAIDML_AGG_ASSIGN:
      k.assign(body);
      break;
    }
    k.add_constraints(c->constraints);
    if (!c->init.isNull())
      k.init(c->init);
    if (c->noDefract)
      k.noDefract();
    if (c->hasDType)
      k.dtype(c->dtype);
    return newTensor(k.build(), out);
  });
}

//===----------------------------------------------------------------------===//
// Programs
//===----------------------------------------------------------------------===//

plaidml_status plaidml_program_create(const char *name, size_t num_inputs,
                                      plaidml_tensor *const *inputs,
                                      size_t num_outputs,
                                      plaidml_tensor *const *outputs,
                                      plaidml_program **out) {
  const char *fn = "plaidml_program_create";
  REQUIRE(name, fn);
  REQUIRE(out, fn);
  if (!allNonNull(num_inputs, inputs))
    return failNull(fn, "an input");
  if (!allNonNull(num_outputs, outputs))
    return failNull(fn, "an output");
  return guard(fn, [&] {
    std::vector<edsl::Tensor> ins, outs;
    for (size_t i = 0; i < num_inputs; ++i)
      ins.push_back(inputs[i]->tensor);
    for (size_t i = 0; i < num_outputs; ++i)
      outs.push_back(outputs[i]->tensor);
    auto p = std::make_unique<plaidml_program>();
    p->program = std::make_unique<edsl::Program>(name, ins, outs);
    fillSpecs(p->program->getInputs(), p->inputs);
    fillSpecs(p->program->getOutputs(), p->outputs);
    *out = p.release();
    return PLAIDML_OK;
  });
}

void plaidml_program_destroy(plaidml_program *program) { delete program; }

const char *plaidml_program_ir(plaidml_program *program) {
  if (!program)
    return "";
  plaidml_status s = guard("plaidml_program_ir", [&] {
    program->ir = program->program->str();
    return PLAIDML_OK;
  });
  return s == PLAIDML_OK ? program->ir.c_str() : "";
}

size_t plaidml_program_num_inputs(const plaidml_program *p) {
  return p ? p->inputs.size() : 0;
}

size_t plaidml_program_num_outputs(const plaidml_program *p) {
  return p ? p->outputs.size() : 0;
}

plaidml_status plaidml_program_input(const plaidml_program *p, size_t index,
                                     const char **name, plaidml_dtype *dtype,
                                     size_t *rank, const int64_t **shape) {
  REQUIRE(p, "plaidml_program_input");
  return getSpec(p->inputs, index, "plaidml_program_input", name, dtype, rank,
                 shape);
}

plaidml_status plaidml_program_output(const plaidml_program *p, size_t index,
                                      const char **name, plaidml_dtype *dtype,
                                      size_t *rank, const int64_t **shape) {
  REQUIRE(p, "plaidml_program_output");
  return getSpec(p->outputs, index, "plaidml_program_output", name, dtype, rank,
                 shape);
}

plaidml_status plaidml_program_compile(const plaidml_program *program,
                                       const plaidml_compile_options *options,
                                       plaidml_executable **out) {
  REQUIRE(program, "plaidml_program_compile");
  REQUIRE(out, "plaidml_program_compile");
  std::string ir;
  if (plaidml_status s = guard("plaidml_program_compile", [&] {
        ir = program->program->str();
        return PLAIDML_OK;
      }))
    return s;
  plaidml_compile_options settings;
  if (options) {
    settings.device = options->device;
    settings.threads = options->threads;
  }
  plaidml_executable *exe = nullptr;
  std::string name = program->program->getName() + ".mlir";
  if (plaidml_status s = compileModuleText(ir, name, &settings, &exe))
    return s;
  // The executable's inputs and outputs take the program's names.
  for (size_t i = 0; i < exe->inputs.size() && i < program->inputs.size(); ++i)
    exe->inputs[i].name = program->inputs[i].name;
  for (size_t i = 0; i < exe->outputs.size() && i < program->outputs.size();
       ++i)
    exe->outputs[i].name = program->outputs[i].name;
  *out = exe;
  return PLAIDML_OK;
}

void plaidml_edsl_reset(void) {
  (void)guard("plaidml_edsl_reset", [] {
    edsl::resetTensors();
    return PLAIDML_OK;
  });
}

} // extern "C"

plaidml_program *plaidml::capi::makeProgram(edsl::Program program) {
  auto p = std::make_unique<plaidml_program>();
  p->program = std::make_unique<edsl::Program>(std::move(program));
  fillSpecs(p->program->getInputs(), p->inputs);
  fillSpecs(p->program->getOutputs(), p->outputs);
  return p.release();
}
