/*===- networks.h - The PlaidML C API: the built-in networks -----*- C -*-===*/
/*
 * The image classifiers of include/plaidml/Networks/Networks.h (MobileNet
 * v1/v2, ResNet-50, VGG-16, Inception-v3) as EDSL programs, for benchmarks
 * (plaidbench in the Python package) and tests. A network is a program
 * whose first input is the image (batch x size x size x 3, f32, NHWC) and
 * whose other inputs are the weights, given back as buffers filled with
 * seeded values; its one output is the class probabilities.
 */
/*===----------------------------------------------------------------------===*/

#ifndef PLAIDML_C_NETWORKS_H
#define PLAIDML_C_NETWORKS_H

#include "plaidml-c/edsl.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The names of the networks, in alphabetical order ("inception_v3",
 * "mobilenet", ...); the strings live as long as the library. NULL for an
 * index out of range. */
PLAIDML_C_API size_t plaidml_network_count(void);
PLAIDML_C_API const char *plaidml_network_name(size_t index);

/* Builds network `name` for `batch` images of `image_size` pixels squared,
 * `classes` outputs, every layer's channel count scaled by `width` (1.0 is
 * the published network) and weights drawn from `seed`. The program goes
 * to `*program`; its weights (inputs 1, 2, ... of the program, in order) to
 * `weights`, which has room for `capacity` buffers, and their number to
 * `*num_weights`; too little room is PLAIDML_INVALID_ARGUMENT (and
 * `*num_weights` still says how many are needed). An unknown name is
 * PLAIDML_NOT_FOUND; sizes the network cannot take are PLAIDML_BUILD_ERROR. */
PLAIDML_C_API plaidml_status plaidml_network_build(
    const char *name, int64_t batch, int64_t image_size, int64_t classes,
    double width, uint64_t seed, plaidml_program **program, size_t capacity,
    plaidml_buffer **weights, size_t *num_weights);

#ifdef __cplusplus
}
#endif

#endif /* PLAIDML_C_NETWORKS_H */
