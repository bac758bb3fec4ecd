/*===- plaidml.h - The PlaidML C API: status, buffers, executables - C -===*/
/*
 * The stable C interface of PlaidML, for the Python package and any other
 * language that calls C. Everything crosses the boundary as C types: opaque
 * handles (created by one function, destroyed by its _destroy twin), plain
 * integers and NUL-terminated UTF-8 strings. No C++ type, exception or STL
 * object ever crosses it.
 *
 * Errors: every function that can fail returns a plaidml_status; PLAIDML_OK
 * is success, anything else a failure whose one-line message
 * plaidml_last_error() returns (per thread, until the next failing call on
 * that thread). Out parameters are written only on success.
 *
 * This header holds what every binding needs: status codes, element types,
 * host buffers, the device list, and executables (compile Tile-language or
 * Tile-IR text for a device, inspect the inputs and outputs, run). edsl.h
 * builds programs from code and op.h holds the op library. docs/CAPI.md
 * describes the conventions and shows a complete program.
 */
/*===----------------------------------------------------------------------===*/

#ifndef PLAIDML_C_PLAIDML_H
#define PLAIDML_C_PLAIDML_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Functions are exported from the shared library with default visibility. */
#if defined(_WIN32) && defined(PLAIDML_C_API_BUILDING)
#define PLAIDML_C_API __declspec(dllexport)
#elif defined(_WIN32)
#define PLAIDML_C_API __declspec(dllimport)
#elif defined(__GNUC__)
#define PLAIDML_C_API __attribute__((visibility("default")))
#else
#define PLAIDML_C_API
#endif

/* The version of this interface: bumped when a declaration changes.
 * plaidml_c_api_version() returns the library's, to check a binding against
 * the library it loaded. */
#define PLAIDML_C_API_VERSION 1

/*===----------------------------------------------------------------------===*
 * Status
 *===----------------------------------------------------------------------===*/

typedef enum plaidml_status {
  PLAIDML_OK = 0,
  /* A null handle or pointer, a value out of range, a malformed string. */
  PLAIDML_INVALID_ARGUMENT = 1,
  /* A device, entry, input or function that does not exist. */
  PLAIDML_NOT_FOUND = 2,
  /* A program built with the EDSL is not well formed (rank mismatch, a
   * dimension that cannot be bound, an unbounded index, ...). */
  PLAIDML_BUILD_ERROR = 3,
  /* Tile-language or IR text that does not import or parse, or a program
   * that does not compile for the device. */
  PLAIDML_COMPILE_ERROR = 4,
  /* Loading or running a compiled program failed (device, driver, inputs). */
  PLAIDML_RUNTIME_ERROR = 5,
  /* Something this build or device cannot do. */
  PLAIDML_UNSUPPORTED = 6,
  /* A bug in PlaidML: please report the message. */
  PLAIDML_INTERNAL_ERROR = 7
} plaidml_status;

/* "ok", "invalid argument", ...; "unknown status" for other values. */
PLAIDML_C_API const char *plaidml_status_string(plaidml_status status);

/* The message of the last failure on the calling thread, or "" when no call
 * on this thread has failed. Valid until the next failing call on the same
 * thread. */
PLAIDML_C_API const char *plaidml_last_error(void);

/* The project version ("0.1.0") and PLAIDML_C_API_VERSION of the library. */
PLAIDML_C_API const char *plaidml_version(void);
PLAIDML_C_API int plaidml_c_api_version(void);

/*===----------------------------------------------------------------------===*
 * Element types
 *===----------------------------------------------------------------------===*/

/* The element types of Tile tensors. Buffers store them little-endian and
 * row-major; i1 takes one byte (0 or 1), f16 and bf16 two bytes of their
 * IEEE binary16 / bfloat16 bits. */
typedef enum plaidml_dtype {
  PLAIDML_I1 = 0,
  PLAIDML_SI8 = 1,
  PLAIDML_SI16 = 2,
  PLAIDML_SI32 = 3,
  PLAIDML_SI64 = 4,
  PLAIDML_UI8 = 5,
  PLAIDML_UI16 = 6,
  PLAIDML_UI32 = 7,
  PLAIDML_UI64 = 8,
  PLAIDML_F16 = 9,
  PLAIDML_BF16 = 10,
  PLAIDML_F32 = 11,
  PLAIDML_F64 = 12
} plaidml_dtype;

/* "f32", "si32", "ui8", "i1", ... (the Tile spelling); NULL for a value that
 * is not a plaidml_dtype. */
PLAIDML_C_API const char *plaidml_dtype_name(plaidml_dtype dtype);
/* Bytes per element; 0 for a value that is not a plaidml_dtype. */
PLAIDML_C_API size_t plaidml_dtype_size(plaidml_dtype dtype);
/* Parses "f32", "si32", "i32" (signed), "float32", "int8", "bool", ... */
PLAIDML_C_API plaidml_status plaidml_dtype_parse(const char *name,
                                                 plaidml_dtype *out);

/*===----------------------------------------------------------------------===*
 * Buffers: dense tensors in host memory
 *===----------------------------------------------------------------------===*/

typedef struct plaidml_buffer plaidml_buffer;

/* A buffer of `rank` dimensions `shape` (rank 0: a scalar; shape may be
 * NULL then). With `data`, its plaidml_buffer_size_bytes() bytes are copied
 * in; with NULL the buffer is zero-filled. */
PLAIDML_C_API plaidml_status plaidml_buffer_create(plaidml_dtype dtype,
                                                   size_t rank,
                                                   const int64_t *shape,
                                                   const void *data,
                                                   plaidml_buffer **out);
/* Frees the buffer; NULL is ignored. */
PLAIDML_C_API void plaidml_buffer_destroy(plaidml_buffer *buffer);

PLAIDML_C_API plaidml_dtype plaidml_buffer_dtype(const plaidml_buffer *buffer);
PLAIDML_C_API size_t plaidml_buffer_rank(const plaidml_buffer *buffer);
/* The size of dimension `dim`, or -1 when it is out of range. */
PLAIDML_C_API int64_t plaidml_buffer_dim(const plaidml_buffer *buffer,
                                         size_t dim);
PLAIDML_C_API int64_t plaidml_buffer_num_elements(const plaidml_buffer *buffer);
PLAIDML_C_API size_t plaidml_buffer_size_bytes(const plaidml_buffer *buffer);
/* The elements, row-major (valid while the buffer lives; writable). */
PLAIDML_C_API void *plaidml_buffer_data(plaidml_buffer *buffer);
/* "2x3xf32" ("f32" for a scalar), valid while the buffer lives. */
PLAIDML_C_API const char *plaidml_buffer_describe(plaidml_buffer *buffer);

/*===----------------------------------------------------------------------===*
 * Devices
 *===----------------------------------------------------------------------===*/

/* The devices programs can run on: "reference" (the reference interpreter,
 * for checking), then the devices of this machine ("cpu", "vulkan:N",
 * "opencl:N"). The list is taken once, at the first call. */
PLAIDML_C_API plaidml_status plaidml_device_count(size_t *count);
/* Name and description of device `index`; the strings live as long as the
 * library. */
PLAIDML_C_API plaidml_status plaidml_device_name(size_t index,
                                                 const char **name);
PLAIDML_C_API plaidml_status plaidml_device_description(size_t index,
                                                        const char **text);
/* The default device: PLAIDML_DEVICE, else the one plaidml-setup saved,
 * else "cpu" (docs/Setup.md). Lives as long as the library. */
PLAIDML_C_API plaidml_status plaidml_default_device(const char **name);

/*===----------------------------------------------------------------------===*
 * Executables
 *===----------------------------------------------------------------------===*/

/* One entry function of a program, compiled for one device and loaded,
 * ready to run any number of times. (edsl.h builds programs from code and
 * compiles them into executables too.) */
typedef struct plaidml_executable plaidml_executable;

/* How to compile; create with plaidml_compile_options_create (defaults:
 * the default device, one thread) and change with the setters. */
typedef struct plaidml_compile_options plaidml_compile_options;

PLAIDML_C_API plaidml_status
plaidml_compile_options_create(plaidml_compile_options **out);
PLAIDML_C_API void
plaidml_compile_options_destroy(plaidml_compile_options *options);
/* "reference", "cpu", "vulkan:N", "opencl:N". */
PLAIDML_C_API plaidml_status plaidml_compile_options_set_device(
    plaidml_compile_options *options, const char *device);
/* Threads of CPU code (1 = sequential). */
PLAIDML_C_API plaidml_status plaidml_compile_options_set_threads(
    plaidml_compile_options *options, unsigned threads);
/* The entry function; "" (the default) means the only one, or `main`. */
PLAIDML_C_API plaidml_status plaidml_compile_options_set_entry(
    plaidml_compile_options *options, const char *entry);
/* The type of a Tile-language input: `name` and "2x3xf32" (ignored for
 * IR text, whose types are written in it). */
PLAIDML_C_API plaidml_status plaidml_compile_options_bind(
    plaidml_compile_options *options, const char *name, const char *type);

/* Compiles `source` for the options' device (through the compile cache)
 * and loads it. `source_name` names it in messages; a name ending in
 * ".tile" makes `source` a Tile-language program, anything else Tile IR
 * (MLIR text). `options` may be NULL for the defaults. Diagnostics (with
 * the source line) are in the message of a PLAIDML_COMPILE_ERROR. */
PLAIDML_C_API plaidml_status plaidml_executable_compile(
    const char *source, const char *source_name,
    const plaidml_compile_options *options, plaidml_executable **out);
PLAIDML_C_API void plaidml_executable_destroy(plaidml_executable *executable);

/* The device it runs on and the name of its entry function. */
PLAIDML_C_API const char *
plaidml_executable_device(const plaidml_executable *p);
PLAIDML_C_API const char *plaidml_executable_entry(const plaidml_executable *p);

/* Inputs and outputs, in order: their names (the Tile names of a .tile
 * program, else arg0.. / result0..), element types and shapes. The strings
 * and arrays live as long as the program. Out-of-range indices fail. */
PLAIDML_C_API size_t plaidml_executable_num_inputs(const plaidml_executable *p);
PLAIDML_C_API size_t
plaidml_executable_num_outputs(const plaidml_executable *p);
PLAIDML_C_API plaidml_status plaidml_executable_input(
    const plaidml_executable *p, size_t index, const char **name,
    plaidml_dtype *dtype, size_t *rank, const int64_t **shape);
PLAIDML_C_API plaidml_status plaidml_executable_output(
    const plaidml_executable *p, size_t index, const char **name,
    plaidml_dtype *dtype, size_t *rank, const int64_t **shape);

/* Runs the executable once on `inputs` (one per input, in order, of its type
 * and shape) and creates `num_outputs` new buffers in `outputs` (the caller
 * destroys them). `num_outputs` must equal plaidml_executable_num_outputs. */
PLAIDML_C_API plaidml_status plaidml_executable_run(
    plaidml_executable *p, size_t num_inputs, plaidml_buffer *const *inputs,
    size_t num_outputs, plaidml_buffer **outputs);

/*===----------------------------------------------------------------------===*
 * Device buffers: tensors kept in the memory of an executable's device
 *===----------------------------------------------------------------------===*/

/* A tensor in the memory of a device (for the reference interpreter, in host
 * memory). Programs compiled for one device take each other's device buffers:
 * a training step's updated weights, returned as device buffers, are the next
 * step's inputs without a copy through the host. */
typedef struct plaidml_device_buffer plaidml_device_buffer;

/* Copies `host` to the device of `p`: a device buffer of its element type and
 * shape. */
PLAIDML_C_API plaidml_status
plaidml_executable_upload(plaidml_executable *p, const plaidml_buffer *host,
                          plaidml_device_buffer **out);
/* Copies the device buffer into a new host buffer (waits for the device). */
PLAIDML_C_API plaidml_status plaidml_device_buffer_read(
    const plaidml_device_buffer *buffer, plaidml_buffer **out);
/* Frees the device buffer; NULL is ignored. */
PLAIDML_C_API void plaidml_device_buffer_destroy(plaidml_device_buffer *buffer);
/* "2x3xf32 on vulkan:0", valid while the buffer lives. */
PLAIDML_C_API const char *
plaidml_device_buffer_describe(plaidml_device_buffer *buffer);

/* Runs the executable once on device buffers of its device (one per input,
 * in order, of its type and shape) and creates `num_outputs` new device
 * buffers in `outputs` (the caller destroys them); nothing is copied to or
 * from the host. An input on another device is an error naming both. */
PLAIDML_C_API plaidml_status plaidml_executable_run_on_device(
    plaidml_executable *p, size_t num_inputs,
    plaidml_device_buffer *const *inputs, size_t num_outputs,
    plaidml_device_buffer **outputs);

#ifdef __cplusplus
}
#endif

#endif /* PLAIDML_C_PLAIDML_H */
