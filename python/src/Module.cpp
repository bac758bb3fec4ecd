//===- Module.cpp - The _plaidml extension: the C API for Python ----------===//
//
// The native half of the `plaidml` Python package: a nanobind module that
// wraps the C API of include/plaidml-c (plaidml.h, edsl.h, op.h) one to one.
// Every handle becomes a Python object that destroys it when collected;
// every failing status becomes a Python exception made by the factory that
// plaidml/_errors.py registers (so the exception classes, with their
// ValueError/TypeError bases, are defined in Python), carrying the C API's
// message. Everything v1-shaped (operators, the contraction builder, NumPy
// conversions, devices and settings) lives in the Python modules; this file
// only moves handles, numbers, strings and array memory across.
//
// The GIL is released only while a compiled program runs (building and
// compiling use the EDSL's process-wide MLIR context). Arrays cross without
// extra copies: an input is read in place from a
// C-contiguous NumPy array of the right element type by
// plaidml_buffer_create (the one copy the C API makes), and an output
// buffer is handed to NumPy as an array that views the buffer's memory and
// owns the buffer.
//
//===----------------------------------------------------------------------===//

#include "plaidml-c/edsl.h"
#include "plaidml-c/networks.h"
#include "plaidml-c/op.h"
#include "plaidml-c/plaidml.h"

#include <nanobind/nanobind.h>
#include <nanobind/ndarray.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/pair.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/tuple.h>
#include <nanobind/stl/unique_ptr.h>
#include <nanobind/stl/vector.h>

#include <cstring>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace nb = nanobind;
using namespace nb::literals;

namespace {

/// plaidml/_errors.py's factory: (status, message) -> exception instance.
nb::object errorFactory;

/// Raises the Python exception for a failed status.
[[noreturn]] void raise(plaidml_status status) {
  std::string message = plaidml_last_error();
  if (errorFactory.is_valid()) {
    nb::object exc = errorFactory(static_cast<int>(status), message);
    PyErr_SetObject(reinterpret_cast<PyObject *>(Py_TYPE(exc.ptr())),
                    exc.ptr());
    throw nb::python_error();
  }
  throw std::runtime_error(message);
}

void check(plaidml_status status) {
  if (status != PLAIDML_OK)
    raise(status);
}

/// Owns one C handle and destroys it with `Destroy`.
template <typename T, void (*Destroy)(T *)> struct Handle {
  explicit Handle(T *ptr) : ptr(ptr) {}
  Handle(const Handle &) = delete;
  Handle &operator=(const Handle &) = delete;
  ~Handle() { Destroy(ptr); }
  T *ptr;
};

using Dim = Handle<plaidml_dim, plaidml_dim_destroy>;
using Index = Handle<plaidml_index, plaidml_index_destroy>;
using Tensor = Handle<plaidml_tensor, plaidml_tensor_destroy>;
using Contraction = Handle<plaidml_contraction, plaidml_contraction_destroy>;
using Program = Handle<plaidml_program, plaidml_program_destroy>;
using Executable = Handle<plaidml_executable, plaidml_executable_destroy>;
using Buffer = Handle<plaidml_buffer, plaidml_buffer_destroy>;
using DeviceBuffer =
    Handle<plaidml_device_buffer, plaidml_device_buffer_destroy>;
using Attrs = Handle<plaidml_attrs, plaidml_attrs_destroy>;

template <typename H, typename T> std::unique_ptr<H> wrap(T *ptr) {
  return std::make_unique<H>(ptr);
}

/// The C pointers of a list of handles.
template <typename H> auto pointers(const std::vector<H *> &handles) {
  std::vector<decltype(handles[0]->ptr)> ptrs;
  for (H *h : handles) {
    if (!h)
      throw nb::type_error("None where a handle is expected");
    ptrs.push_back(h->ptr);
  }
  return ptrs;
}

/// Runs `e` once through `run` (plaidml_executable_run or
/// plaidml_executable_run_on_device) on the C handles of `inputs`, without
/// the GIL; returns the C outputs, which the caller wraps.
template <typename Out, typename H, typename Run>
std::vector<Out *> runExecutable(Executable &e, const std::vector<H *> &inputs,
                                 Run run) {
  auto in = pointers(inputs);
  size_t n = plaidml_executable_num_outputs(e.ptr);
  std::vector<Out *> out(n, nullptr);
  plaidml_status s;
  {
    nb::gil_scoped_release release;
    s = run(e.ptr, in.size(), in.data(), n, out.data());
  }
  check(s);
  return out;
}

/// (name, dtype, shape) of one program/executable input or output.
using Spec = std::tuple<std::string, int, std::vector<int64_t>>;

Spec makeSpec(const char *name, plaidml_dtype dtype, size_t rank,
              const int64_t *shape) {
  return {name ? name : "", static_cast<int>(dtype),
          std::vector<int64_t>(shape, shape + rank)};
}

/// The NumPy dtype of a plaidml_dtype (bf16 travels as its uint16 bits).
nb::dlpack::dtype dlpackDType(plaidml_dtype dtype) {
  using nb::dlpack::dtype_code;
  switch (dtype) {
  case PLAIDML_I1:
    return {static_cast<uint8_t>(dtype_code::Bool), 8, 1};
  case PLAIDML_SI8:
    return nb::dtype<int8_t>();
  case PLAIDML_SI16:
    return nb::dtype<int16_t>();
  case PLAIDML_SI32:
    return nb::dtype<int32_t>();
  case PLAIDML_SI64:
    return nb::dtype<int64_t>();
  case PLAIDML_UI8:
    return nb::dtype<uint8_t>();
  case PLAIDML_UI16:
  case PLAIDML_BF16:
    return nb::dtype<uint16_t>();
  case PLAIDML_UI32:
    return nb::dtype<uint32_t>();
  case PLAIDML_UI64:
    return nb::dtype<uint64_t>();
  case PLAIDML_F16:
    return {static_cast<uint8_t>(dtype_code::Float), 16, 1};
  case PLAIDML_F32:
    return nb::dtype<float>();
  case PLAIDML_F64:
    return nb::dtype<double>();
  }
  return nb::dtype<uint8_t>();
}

using NumpyArray = nb::ndarray<nb::numpy>;

/// An ndarray viewing `buffer`'s elements and owning the buffer.
NumpyArray toNumpy(plaidml_buffer *buffer) {
  size_t rank = plaidml_buffer_rank(buffer);
  std::vector<size_t> shape(rank);
  for (size_t i = 0; i < rank; ++i)
    shape[i] = static_cast<size_t>(plaidml_buffer_dim(buffer, i));
  nb::capsule owner(buffer, [](void *p) noexcept {
    plaidml_buffer_destroy(static_cast<plaidml_buffer *>(p));
  });
  return NumpyArray(plaidml_buffer_data(buffer), rank, shape.data(), owner,
                    nullptr, dlpackDType(plaidml_buffer_dtype(buffer)));
}

/// A buffer of `dtype` and `shape` holding a copy of `array`'s bytes (a
/// C-contiguous CPU array whose byte size must match).
plaidml_buffer *bufferFrom(int dtype, const std::vector<int64_t> &shape,
                           nb::ndarray<nb::c_contig, nb::device::cpu> array) {
  plaidml_buffer *out = nullptr;
  check(plaidml_buffer_create(static_cast<plaidml_dtype>(dtype), shape.size(),
                              shape.data(), nullptr, &out));
  size_t bytes = plaidml_buffer_size_bytes(out);
  size_t given = array.nbytes();
  if (given != bytes) {
    plaidml_buffer_destroy(out);
    throw nb::value_error(("array of " + std::to_string(given) +
                           " bytes for a buffer of " + std::to_string(bytes))
                              .c_str());
  }
  if (bytes)
    std::memcpy(plaidml_buffer_data(out), array.data(), bytes);
  return out;
}

plaidml_compile_options *makeOptions(const std::string &device,
                                     unsigned threads,
                                     const std::string &entry) {
  plaidml_compile_options *options = nullptr;
  check(plaidml_compile_options_create(&options));
  std::unique_ptr<plaidml_compile_options, void (*)(plaidml_compile_options *)>
      guard(options, plaidml_compile_options_destroy);
  if (!device.empty())
    check(plaidml_compile_options_set_device(options, device.c_str()));
  check(plaidml_compile_options_set_threads(options, threads));
  if (!entry.empty())
    check(plaidml_compile_options_set_entry(options, entry.c_str()));
  return guard.release();
}

std::vector<Spec> executableSpecs(const plaidml_executable *e, bool inputs) {
  std::vector<Spec> specs;
  size_t n = inputs ? plaidml_executable_num_inputs(e)
                    : plaidml_executable_num_outputs(e);
  for (size_t i = 0; i < n; ++i) {
    const char *name;
    plaidml_dtype dtype;
    size_t rank;
    const int64_t *shape;
    check(inputs
              ? plaidml_executable_input(e, i, &name, &dtype, &rank, &shape)
              : plaidml_executable_output(e, i, &name, &dtype, &rank, &shape));
    specs.push_back(makeSpec(name, dtype, rank, shape));
  }
  return specs;
}

std::vector<Spec> programSpecs(const plaidml_program *p, bool inputs) {
  std::vector<Spec> specs;
  size_t n =
      inputs ? plaidml_program_num_inputs(p) : plaidml_program_num_outputs(p);
  for (size_t i = 0; i < n; ++i) {
    const char *name;
    plaidml_dtype dtype;
    size_t rank;
    const int64_t *shape;
    check(inputs ? plaidml_program_input(p, i, &name, &dtype, &rank, &shape)
                 : plaidml_program_output(p, i, &name, &dtype, &rank, &shape));
    specs.push_back(makeSpec(name, dtype, rank, shape));
  }
  return specs;
}

const char *cstr(const std::optional<std::string> &s) {
  return s ? s->c_str() : nullptr;
}

} // namespace

NB_MODULE(_plaidml, m) {
  m.doc() = "The PlaidML C API (include/plaidml-c) for the plaidml package.";

  m.def("_set_error_factory", [](nb::object f) { errorFactory = f; });
  m.def("version", [] { return std::string(plaidml_version()); });
  m.def("c_api_version", &plaidml_c_api_version);
  m.def("dtype_name", [](int d) -> std::optional<std::string> {
    const char *n = plaidml_dtype_name(static_cast<plaidml_dtype>(d));
    return n ? std::optional<std::string>(n) : std::nullopt;
  });
  m.def("dtype_size", [](int d) {
    return plaidml_dtype_size(static_cast<plaidml_dtype>(d));
  });
  m.def("dtype_parse", [](const std::string &name) {
    plaidml_dtype d;
    check(plaidml_dtype_parse(name.c_str(), &d));
    return static_cast<int>(d);
  });

  // Devices.
  m.def("devices", [] {
    size_t n;
    check(plaidml_device_count(&n));
    std::vector<std::pair<std::string, std::string>> out;
    for (size_t i = 0; i < n; ++i) {
      const char *name, *text;
      check(plaidml_device_name(i, &name));
      check(plaidml_device_description(i, &text));
      out.emplace_back(name, text);
    }
    return out;
  });
  m.def("default_device", [] {
    const char *name;
    check(plaidml_default_device(&name));
    return std::string(name);
  });

  // Buffers.
  nb::class_<Buffer>(m, "Buffer")
      .def_static(
          "zeros",
          [](int dtype, const std::vector<int64_t> &shape) {
            plaidml_buffer *out;
            check(plaidml_buffer_create(static_cast<plaidml_dtype>(dtype),
                                        shape.size(), shape.data(), nullptr,
                                        &out));
            return wrap<Buffer>(out);
          },
          "dtype"_a, "shape"_a)
      .def_static(
          "from_array",
          [](int dtype, const std::vector<int64_t> &shape,
             nb::ndarray<nb::c_contig, nb::device::cpu> array) {
            return wrap<Buffer>(bufferFrom(dtype, shape, array));
          },
          "dtype"_a, "shape"_a, "array"_a)
      .def_prop_ro("dtype",
                   [](Buffer &b) {
                     return static_cast<int>(plaidml_buffer_dtype(b.ptr));
                   })
      .def_prop_ro("shape",
                   [](Buffer &b) {
                     std::vector<int64_t> s;
                     for (size_t i = 0; i < plaidml_buffer_rank(b.ptr); ++i)
                       s.push_back(plaidml_buffer_dim(b.ptr, i));
                     return s;
                   })
      .def(
          "describe",
          [](Buffer &b) { return std::string(plaidml_buffer_describe(b.ptr)); })
      // A view of the elements that keeps this Buffer alive.
      .def(
          "view",
          [](Buffer &b) {
            size_t rank = plaidml_buffer_rank(b.ptr);
            std::vector<size_t> shape(rank);
            for (size_t i = 0; i < rank; ++i)
              shape[i] = static_cast<size_t>(plaidml_buffer_dim(b.ptr, i));
            return NumpyArray(plaidml_buffer_data(b.ptr), rank, shape.data(),
                              nb::handle(), nullptr,
                              dlpackDType(plaidml_buffer_dtype(b.ptr)));
          },
          nb::rv_policy::reference_internal);

  // Dimensions and indices.
  nb::class_<Dim>(m, "Dim")
      .def_static(
          "create",
          [](std::optional<std::string> name) {
            plaidml_dim *d;
            check(plaidml_dim_create(cstr(name), &d));
            return wrap<Dim>(d);
          },
          "name"_a = nb::none())
      .def_static("constant",
                  [](int64_t v) {
                    plaidml_dim *d;
                    check(plaidml_dim_constant(v, &d));
                    return wrap<Dim>(d);
                  })
      .def_static(
          "op",
          [](int op, Dim &a, Dim *b) {
            plaidml_dim *d;
            check(plaidml_dim_op_apply(static_cast<plaidml_dim_op>(op), a.ptr,
                                       b ? b->ptr : nullptr, &d));
            return wrap<Dim>(d);
          },
          "op"_a, "a"_a, "b"_a = nb::none())
      .def("value", [](Dim &d) {
        int64_t v;
        check(plaidml_dim_value(d.ptr, &v));
        return v;
      });

  nb::class_<Index>(m, "Index")
      .def_static(
          "create",
          [](std::optional<std::string> name) {
            plaidml_index *i;
            check(plaidml_index_create(cstr(name), &i));
            return wrap<Index>(i);
          },
          "name"_a = nb::none())
      .def_static("constant",
                  [](int64_t v) {
                    plaidml_index *i;
                    check(plaidml_index_constant(v, &i));
                    return wrap<Index>(i);
                  })
      .def_static("from_dim",
                  [](Dim &d) {
                    plaidml_index *i;
                    check(plaidml_index_from_dim(d.ptr, &i));
                    return wrap<Index>(i);
                  })
      .def_static(
          "op",
          [](int op, Index &a, Index *b) {
            plaidml_index *i;
            check(plaidml_index_op_apply(static_cast<plaidml_index_op>(op),
                                         a.ptr, b ? b->ptr : nullptr, &i));
            return wrap<Index>(i);
          },
          "op"_a, "a"_a, "b"_a = nb::none());

  // Tensors.
  auto tensorOut = [](plaidml_tensor *t) { return wrap<Tensor>(t); };
  nb::class_<Tensor>(m, "Tensor")
      .def_static(
          "placeholder",
          [=](int dtype, const std::vector<int64_t> &shape,
              std::optional<std::string> name) {
            plaidml_tensor *t;
            check(plaidml_tensor_placeholder(static_cast<plaidml_dtype>(dtype),
                                             shape.size(), shape.data(),
                                             cstr(name), &t));
            return tensorOut(t);
          },
          "dtype"_a, "shape"_a, "name"_a = nb::none())
      .def_static(
          "constant",
          [=](Buffer &b, std::optional<std::string> name) {
            plaidml_tensor *t;
            check(plaidml_tensor_constant(b.ptr, cstr(name), &t));
            return tensorOut(t);
          },
          "buffer"_a, "name"_a = nb::none())
      .def_static("scalar",
                  [=](int dtype, double value) {
                    plaidml_tensor *t;
                    check(plaidml_tensor_scalar(
                        static_cast<plaidml_dtype>(dtype), value, &t));
                    return tensorOut(t);
                  })
      .def_prop_ro("dtype",
                   [](Tensor &t) {
                     plaidml_dtype d;
                     check(plaidml_tensor_dtype(t.ptr, &d));
                     return static_cast<int>(d);
                   })
      .def_prop_ro("shape",
                   [](Tensor &t) {
                     size_t rank;
                     check(plaidml_tensor_rank(t.ptr, &rank));
                     std::vector<int64_t> s(rank);
                     for (size_t i = 0; i < rank; ++i)
                       check(plaidml_tensor_dim(t.ptr, i, &s[i]));
                     return s;
                   })
      .def("named",
           [=](Tensor &t, const std::string &name) {
             plaidml_tensor *out;
             check(plaidml_tensor_named(t.ptr, name.c_str(), &out));
             return tensorOut(out);
           })
      .def("bind_dims",
           [](Tensor &t, const std::vector<Dim *> &dims) {
             auto ptrs = pointers(dims);
             check(plaidml_tensor_bind_dims(t.ptr, ptrs.size(), ptrs.data()));
           })
      .def(
          "use_lens",
          [=](Tensor &t, const std::string &source, const std::string &target) {
            plaidml_tensor *out;
            check(plaidml_tensor_use_lens(t.ptr, source.c_str(), target.c_str(),
                                          &out));
            return tensorOut(out);
          })
      .def("unary",
           [=](Tensor &t, int op) {
             plaidml_tensor *out;
             check(plaidml_tensor_unary(static_cast<plaidml_unary_op>(op),
                                        t.ptr, &out));
             return tensorOut(out);
           })
      .def("binary",
           [=](Tensor &a, int op, Tensor &b) {
             plaidml_tensor *out;
             check(plaidml_tensor_binary(static_cast<plaidml_binary_op>(op),
                                         a.ptr, b.ptr, &out));
             return tensorOut(out);
           })
      .def("binary_int",
           [=](Tensor &a, int op, int64_t v, bool reversed) {
             plaidml_tensor *out;
             check(plaidml_tensor_binary_int(static_cast<plaidml_binary_op>(op),
                                             a.ptr, v, reversed, &out));
             return tensorOut(out);
           })
      .def("binary_float",
           [=](Tensor &a, int op, double v, bool reversed) {
             plaidml_tensor *out;
             check(plaidml_tensor_binary_float(
                 static_cast<plaidml_binary_op>(op), a.ptr, v, reversed, &out));
             return tensorOut(out);
           })
      .def("cast",
           [=](Tensor &t, int dtype) {
             plaidml_tensor *out;
             check(plaidml_tensor_cast(t.ptr, static_cast<plaidml_dtype>(dtype),
                                       &out));
             return tensorOut(out);
           })
      .def("reshape",
           [=](Tensor &t, const std::vector<int64_t> &shape) {
             plaidml_tensor *out;
             check(plaidml_tensor_reshape(t.ptr, shape.size(), shape.data(),
                                          &out));
             return tensorOut(out);
           })
      .def("gather",
           [=](Tensor &t, Tensor &indices, int64_t axis) {
             plaidml_tensor *out;
             check(plaidml_tensor_gather(t.ptr, indices.ptr, axis, &out));
             return tensorOut(out);
           })
      .def("scatter",
           [=](Tensor &t, Tensor &indices, const std::vector<int64_t> &shape,
               int64_t axis) {
             plaidml_tensor *out;
             check(plaidml_tensor_scatter(t.ptr, indices.ptr, shape.size(),
                                          shape.data(), axis, &out));
             return tensorOut(out);
           })
      .def("argsort",
           [=](Tensor &t, int64_t axis, bool descending) {
             plaidml_tensor *out;
             check(plaidml_tensor_argsort(
                 t.ptr, axis, descending ? PLAIDML_SORT_DESC : PLAIDML_SORT_ASC,
                 &out));
             return tensorOut(out);
           })
      .def("prng",
           [=](Tensor &state, const std::vector<int64_t> &shape, int dtype) {
             plaidml_tensor *values, *next;
             check(plaidml_tensor_prng(state.ptr, shape.size(), shape.data(),
                                       static_cast<plaidml_dtype>(dtype),
                                       &values, &next));
             return std::make_pair(tensorOut(values), tensorOut(next));
           });
  m.def("gradients", [=](Tensor &loss, const std::vector<Tensor *> &wrt) {
    auto ptrs = pointers(wrt);
    std::vector<plaidml_tensor *> out(ptrs.size());
    check(plaidml_tensor_gradients(loss.ptr, ptrs.size(), ptrs.data(),
                                   out.data()));
    std::vector<nb::object> grads;
    for (plaidml_tensor *t : out)
      grads.push_back(nb::cast(tensorOut(t)));
    return grads;
  });
  m.def("select", [=](Tensor &c, Tensor &a, Tensor &b) {
    plaidml_tensor *out;
    check(plaidml_tensor_select(c.ptr, a.ptr, b.ptr, &out));
    return tensorOut(out);
  });
  m.def("index",
        [=](const std::vector<int64_t> &shape, int64_t axis, int dtype) {
          plaidml_tensor *out;
          check(plaidml_tensor_index(shape.size(), shape.data(), axis,
                                     static_cast<plaidml_dtype>(dtype), &out));
          return tensorOut(out);
        });
  m.def("prng_seed", [=](uint64_t seed) {
    plaidml_tensor *out;
    check(plaidml_tensor_prng_seed(seed, &out));
    return tensorOut(out);
  });
  m.def("edsl_reset", &plaidml_edsl_reset);

  // Contractions.
  nb::class_<Contraction>(m, "Contraction")
      .def_static(
          "create",
          [](const std::string &name, std::optional<std::string> source,
             std::optional<std::string> target) {
            plaidml_contraction *c;
            check(plaidml_contraction_create(name.c_str(), cstr(source),
                                             cstr(target), &c));
            return wrap<Contraction>(c);
          },
          "name"_a, "source"_a = nb::none(), "target"_a = nb::none())
      .def("set_shape",
           [](Contraction &c, const std::vector<Dim *> &dims) {
             auto p = pointers(dims);
             check(plaidml_contraction_set_shape(c.ptr, p.size(), p.data()));
           })
      .def("set_access",
           [](Contraction &c, const std::vector<Index *> &idxs) {
             auto p = pointers(idxs);
             check(plaidml_contraction_set_access(c.ptr, p.size(), p.data()));
           })
      .def("add_input",
           [](Contraction &c, Tensor &t, const std::vector<Index *> &idxs) {
             auto p = pointers(idxs);
             check(plaidml_contraction_add_input(c.ptr, t.ptr, p.size(),
                                                 p.data()));
           })
      .def("set_kind",
           [](Contraction &c, int agg, int combo) {
             check(plaidml_contraction_set_kind(
                 c.ptr, static_cast<plaidml_agg>(agg),
                 static_cast<plaidml_combo>(combo)));
           })
      .def("add_constraint",
           [](Contraction &c, Index &i, Dim &bound) {
             check(plaidml_contraction_add_constraint(c.ptr, i.ptr, bound.ptr));
           })
      .def("set_init",
           [](Contraction &c, Tensor &t) {
             check(plaidml_contraction_set_init(c.ptr, t.ptr));
           })
      .def("no_defract",
           [](Contraction &c) { check(plaidml_contraction_no_defract(c.ptr)); })
      .def("set_dtype",
           [](Contraction &c, int dtype) {
             check(plaidml_contraction_set_dtype(
                 c.ptr, static_cast<plaidml_dtype>(dtype)));
           })
      .def("build", [=](Contraction &c) {
        plaidml_tensor *out;
        check(plaidml_contraction_build(c.ptr, &out));
        return tensorOut(out);
      });

  // Executables.
  nb::class_<Executable>(m, "Executable")
      .def_static(
          "compile",
          [](const std::string &source, const std::string &sourceName,
             const std::string &device, unsigned threads,
             const std::string &entry,
             const std::vector<std::pair<std::string, std::string>> &binds) {
            std::unique_ptr<plaidml_compile_options,
                            void (*)(plaidml_compile_options *)>
                options(makeOptions(device, threads, entry),
                        plaidml_compile_options_destroy);
            for (const auto &[name, type] : binds)
              check(plaidml_compile_options_bind(options.get(), name.c_str(),
                                                 type.c_str()));
            plaidml_executable *e;
            plaidml_status s;
            {
              nb::gil_scoped_release release;
              s = plaidml_executable_compile(source.c_str(), sourceName.c_str(),
                                             options.get(), &e);
            }
            check(s);
            return wrap<Executable>(e);
          },
          "source"_a, "source_name"_a, "device"_a = "", "threads"_a = 1,
          "entry"_a = "",
          "bindings"_a = std::vector<std::pair<std::string, std::string>>())
      .def_prop_ro("device",
                   [](Executable &e) {
                     return std::string(plaidml_executable_device(e.ptr));
                   })
      .def_prop_ro("entry",
                   [](Executable &e) {
                     return std::string(plaidml_executable_entry(e.ptr));
                   })
      .def_prop_ro("inputs",
                   [](Executable &e) { return executableSpecs(e.ptr, true); })
      .def_prop_ro("outputs",
                   [](Executable &e) { return executableSpecs(e.ptr, false); })
      // Runs on buffers; the outputs come back as NumPy arrays that own
      // their buffers.
      .def("run",
           [](Executable &e, const std::vector<Buffer *> &inputs) {
             std::vector<NumpyArray> arrays;
             for (plaidml_buffer *b : runExecutable<plaidml_buffer>(
                      e, inputs, plaidml_executable_run))
               arrays.push_back(toNumpy(b));
             return arrays;
           })
      // A host buffer copied to the executable's device.
      .def("upload",
           [](Executable &e, Buffer &host) {
             plaidml_device_buffer *out;
             check(plaidml_executable_upload(e.ptr, host.ptr, &out));
             return wrap<DeviceBuffer>(out);
           })
      // Runs on device buffers; the outputs stay on the device.
      .def("run_on_device", [](Executable &e,
                               const std::vector<DeviceBuffer *> &inputs) {
        std::vector<std::unique_ptr<DeviceBuffer>> buffers;
        for (plaidml_device_buffer *b : runExecutable<plaidml_device_buffer>(
                 e, inputs, plaidml_executable_run_on_device))
          buffers.push_back(wrap<DeviceBuffer>(b));
        return buffers;
      });

  // Device buffers: tensors kept on an executable's device.
  nb::class_<DeviceBuffer>(m, "DeviceBuffer")
      .def("read",
           [](DeviceBuffer &b) {
             plaidml_buffer *out;
             plaidml_status s;
             {
               nb::gil_scoped_release release;
               s = plaidml_device_buffer_read(b.ptr, &out);
             }
             check(s);
             return toNumpy(out);
           })
      .def("__repr__", [](DeviceBuffer &b) {
        return "<plaidml DeviceBuffer " +
               std::string(plaidml_device_buffer_describe(b.ptr)) + ">";
      });

  // Programs.
  nb::class_<Program>(m, "Program")
      .def_static(
          "create",
          [](const std::string &name, const std::vector<Tensor *> &inputs,
             const std::vector<Tensor *> &outputs) {
            auto in = pointers(inputs);
            auto out = pointers(outputs);
            plaidml_program *p;
            check(plaidml_program_create(name.c_str(), in.size(), in.data(),
                                         out.size(), out.data(), &p));
            return wrap<Program>(p);
          })
      .def("ir",
           [](Program &p) {
             const char *ir = plaidml_program_ir(p.ptr);
             if (!ir)
               raise(PLAIDML_INTERNAL_ERROR);
             return std::string(ir);
           })
      .def_prop_ro("inputs",
                   [](Program &p) { return programSpecs(p.ptr, true); })
      .def_prop_ro("outputs",
                   [](Program &p) { return programSpecs(p.ptr, false); })
      .def(
          "compile",
          [](Program &p, const std::string &device, unsigned threads) {
            std::unique_ptr<plaidml_compile_options,
                            void (*)(plaidml_compile_options *)>
                options(makeOptions(device, threads, ""),
                        plaidml_compile_options_destroy);
            // The GIL stays held: printing the program's IR uses the EDSL's
            // process-wide context, which other Python threads may be
            // building in.
            plaidml_executable *e;
            check(plaidml_program_compile(p.ptr, options.get(), &e));
            return wrap<Executable>(e);
          },
          "device"_a = "", "threads"_a = 1);

  // The op library.
  nb::class_<Attrs>(m, "Attrs")
      .def("__init__",
           [](Attrs *self) {
             plaidml_attrs *a;
             check(plaidml_attrs_create(&a));
             new (self) Attrs(a);
           })
      .def("set_int",
           [](Attrs &a, const std::string &n, int64_t v) {
             check(plaidml_attrs_set_int(a.ptr, n.c_str(), v));
           })
      .def("set_ints",
           [](Attrs &a, const std::string &n, const std::vector<int64_t> &v) {
             check(
                 plaidml_attrs_set_ints(a.ptr, n.c_str(), v.size(), v.data()));
           })
      .def("set_float",
           [](Attrs &a, const std::string &n, double v) {
             check(plaidml_attrs_set_float(a.ptr, n.c_str(), v));
           })
      .def("set_string",
           [](Attrs &a, const std::string &n, const std::string &v) {
             check(plaidml_attrs_set_string(a.ptr, n.c_str(), v.c_str()));
           })
      .def("set_tensor", [](Attrs &a, const std::string &n, Tensor &t) {
        check(plaidml_attrs_set_tensor(a.ptr, n.c_str(), t.ptr));
      });
  m.def("op_apply", [=](const std::string &name,
                        const std::vector<Tensor *> &inputs, Attrs *attrs) {
    auto in = pointers(inputs);
    std::vector<plaidml_tensor *> out(64, nullptr);
    size_t n = 0;
    check(plaidml_op_apply(name.c_str(), in.size(), in.data(),
                           attrs ? attrs->ptr : nullptr, out.size(), out.data(),
                           &n));
    std::vector<std::unique_ptr<Tensor>> results;
    for (size_t i = 0; i < n; ++i)
      results.push_back(tensorOut(out[i]));
    return results;
  });
  // The built-in networks.
  m.def("network_names", [] {
    std::vector<std::string> names;
    for (size_t i = 0; i < plaidml_network_count(); ++i)
      names.push_back(plaidml_network_name(i));
    return names;
  });
  m.def(
      "network_build",
      [](const std::string &name, int64_t batch, int64_t imageSize,
         int64_t classes, double width, uint64_t seed) {
        plaidml_program *program = nullptr;
        size_t count = 0;
        // Ask for the count first, then build with room for every weight.
        plaidml_status s =
            plaidml_network_build(name.c_str(), batch, imageSize, classes,
                                  width, seed, &program, 0, nullptr, &count);
        if (s != PLAIDML_OK && !(s == PLAIDML_INVALID_ARGUMENT && count))
          raise(s);
        if (s == PLAIDML_OK)
          plaidml_program_destroy(program);
        std::vector<plaidml_buffer *> weights(count, nullptr);
        check(plaidml_network_build(name.c_str(), batch, imageSize, classes,
                                    width, seed, &program, weights.size(),
                                    weights.data(), &count));
        std::vector<std::unique_ptr<Buffer>> buffers;
        for (plaidml_buffer *b : weights)
          buffers.push_back(wrap<Buffer>(b));
        return std::make_pair(wrap<Program>(program), std::move(buffers));
      },
      "name"_a, "batch"_a = 1, "image_size"_a = 224, "classes"_a = 1000,
      "width"_a = 1.0, "seed"_a = 1);

  m.def("op_names", [] {
    std::vector<std::string> names;
    for (size_t i = 0; i < plaidml_op_count(); ++i)
      names.push_back(plaidml_op_name(i));
    return names;
  });
}
