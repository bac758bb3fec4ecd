// RUN: plaidml-opt %s -split-input-file -verify-diagnostics

// One case for every diagnostic the Tile verifiers emit (TileOps.cpp), for
// the ODS type and attribute constraints, and for malformed text: each must
// be a located diagnostic, never a crash. The sections follow TileOps.cpp:
// elementwise traits, tile.contract, casts/select, shape ops, then ODS
// constraints and parser errors.

// Shapes do not broadcast.
func.func @no_broadcast(%a: tensor<4xf32>, %b: tensor<3xf32>) {
  // expected-error @+1 {{operand shapes (4, 3) do not broadcast: each dimension, aligned from the right, must match or be 1}}
  %0 = tile.add %a, %b : tensor<4xf32>, tensor<3xf32> -> tensor<4xf32>
  return
}

// -----

// Result shape is not the broadcast shape.
func.func @result_shape_not_broadcast(%a: tensor<4xf32>, %b: tensor<f32>) {
  // expected-error @+1 {{result shape 2x4 differs from the broadcast shape 4 of the operands}}
  %0 = tile.sub %a, %b : tensor<4xf32>, tensor<f32> -> tensor<2x4xf32>
  return
}

// -----

// Arithmetic on i1.
func.func @arith_on_i1(%a: tensor<4xi1>) {
  // expected-error @+1 {{arithmetic on i1 operands is not defined; cast them to an integer type first}}
  %0 = tile.mul %a, %a : tensor<4xi1>
  return
}

// -----

// Bitwise op on a float.
func.func @bitwise_on_float(%a: tensor<4xsi32>, %b: tensor<f32>) {
  // expected-error @+1 {{bitwise op needs integer operands, but their promoted element type is 'f32'}}
  %0 = tile.bit_and %a, %b : tensor<4xsi32>, tensor<f32> -> tensor<4xf32>
  return
}

// -----

// Comparison result must be i1 (ODS).
func.func @cmp_result_not_i1(%a: tensor<4xf32>) {
  // expected-error @+1 {{result #0 must be statically shaped tensor of 1-bit signless integer values, but got 'tensor<4xf32>'}}
  %0 = tile.cmp lt, %a, %a : tensor<4xf32>, tensor<4xf32> -> tensor<4xf32>
  return
}

// -----

// Result element type is not the promoted type.
func.func @result_not_promoted(%a: tensor<4xf32>, %b: tensor<si32>) {
  // expected-error @+1 {{result element type 'si32' differs from 'f32', the promoted element type of the operands}}
  %0 = tile.add %a, %b : tensor<4xf32>, tensor<si32> -> tensor<4xsi32>
  return
}

// -----

// Combination takes a fixed number of inputs.
func.func @contract_combo_inputs(%a: tensor<4xf32>, %i: tensor<f32>) {
  // expected-error @+1 {{combination 'mul' takes 2 inputs after the init, but 1 was given}}
  %0 = tile.contract add, mul, %i, %a {sink = affine_map<(i) -> ()>, srcs = [affine_map<(i) -> (i)>]} : tensor<f32>, tensor<4xf32> -> tensor<f32>
  return
}

// -----

// One source map per input.
func.func @contract_srcs_count(%a: tensor<4xf32>, %i: tensor<f32>) {
  // expected-error @+1 {{'srcs' must have one affine map per input (1), but has 2}}
  %0 = tile.contract add, none, %i, %a {sink = affine_map<(i) -> ()>, srcs = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>]} : tensor<f32>, tensor<4xf32> -> tensor<f32>
  return
}

// -----

// Sink map with symbols.
func.func @contract_sink_symbols(%a: tensor<4xf32>, %i: tensor<f32>) {
  // expected-error @+1 {{'sink' map must not have symbols}}
  %0 = tile.contract add, none, %i, %a {sink = affine_map<(i)[s] -> ()>, srcs = [affine_map<(i)[s] -> (i)>]} : tensor<f32>, tensor<4xf32> -> tensor<f32>
  return
}

// -----

// Sink map results vs result rank.
func.func @contract_sink_rank(%a: tensor<4xf32>, %i: tensor<f32>) {
  // expected-error @+1 {{'sink' map has 1 result(s) but the result 'tensor<f32>' has rank 0}}
  %0 = tile.contract add, none, %i, %a {sink = affine_map<(i) -> (i)>, srcs = [affine_map<(i) -> (i)>]} : tensor<f32>, tensor<4xf32> -> tensor<f32>
  return
}

// -----

// Source map over another index space.
func.func @contract_src_dims(%a: tensor<4xf32>, %i: tensor<f32>) {
  // expected-error @+1 {{source map #0 has 1 dimension(s) but 'sink' has 2; all maps must share one index space}}
  %0 = tile.contract add, none, %i, %a {sink = affine_map<(i, j) -> ()>, srcs = [affine_map<(i) -> (i)>]} : tensor<f32>, tensor<4xf32> -> tensor<f32>
  return
}

// -----

// Source map with symbols.
func.func @contract_src_symbols(%a: tensor<4xf32>, %i: tensor<f32>) {
  // expected-error @+1 {{source map #0 must not have symbols}}
  %0 = tile.contract add, none, %i, %a {sink = affine_map<(i) -> ()>, srcs = [affine_map<(i)[s] -> (i)>]} : tensor<f32>, tensor<4xf32> -> tensor<f32>
  return
}

// -----

// Source map results vs input rank.
func.func @contract_src_rank(%a: tensor<4xf32>, %i: tensor<f32>) {
  // expected-error @+1 {{source map #0 has 2 result(s) but input #0 'tensor<4xf32>' has rank 1}}
  %0 = tile.contract add, none, %i, %a {sink = affine_map<(i) -> ()>, srcs = [affine_map<(i) -> (i, i)>]} : tensor<f32>, tensor<4xf32> -> tensor<f32>
  return
}

// -----

// Cons over another index space.
func.func @contract_cons_dims(%a: tensor<4xf32>, %i: tensor<f32>) {
  // expected-error @+1 {{'cons' has 2 dimension(s) but 'sink' has 1}}
  %0 = tile.contract add, none, %i, %a {cons = affine_set<(i, j) : (i >= 0)>, sink = affine_map<(i) -> ()>, srcs = [affine_map<(i) -> (i)>]} : tensor<f32>, tensor<4xf32> -> tensor<f32>
  return
}

// -----

// Cons with symbols.
func.func @contract_cons_symbols(%a: tensor<4xf32>, %i: tensor<f32>) {
  // expected-error @+1 {{'cons' must not have symbols}}
  %0 = tile.contract add, none, %i, %a {cons = affine_set<(i)[s] : (i - s >= 0)>, sink = affine_map<(i) -> ()>, srcs = [affine_map<(i) -> (i)>]} : tensor<f32>, tensor<4xf32> -> tensor<f32>
  return
}

// -----

// Idxs names every index.
func.func @contract_idxs_count(%a: tensor<4xf32>, %i: tensor<f32>) {
  // expected-error @+1 {{'idxs' names 2 index(es) but the maps have 1}}
  %0 = tile.contract add, none, %i, %a {idxs = ["i", "j"], sink = affine_map<(i) -> ()>, srcs = [affine_map<(i) -> (i)>]} : tensor<f32>, tensor<4xf32> -> tensor<f32>
  return
}

// -----

// Empty index name.
func.func @contract_idxs_empty(%a: tensor<4xf32>, %i: tensor<f32>) {
  // expected-error @+1 {{'idxs' contains an empty index name}}
  %0 = tile.contract add, none, %i, %a {idxs = [""], sink = affine_map<(i) -> ()>, srcs = [affine_map<(i) -> (i)>]} : tensor<f32>, tensor<4xf32> -> tensor<f32>
  return
}

// -----

// Duplicate index name.
func.func @contract_idxs_duplicate(%a: tensor<4x4xf32>, %i: tensor<f32>) {
  // expected-error @+1 {{index name 'i' appears twice in 'idxs'}}
  %0 = tile.contract add, none, %i, %a {idxs = ["i", "i"], sink = affine_map<(i, j) -> ()>, srcs = [affine_map<(i, j) -> (i, j)>]} : tensor<f32>, tensor<4x4xf32> -> tensor<f32>
  return
}

// -----

// Lower and upper bounds together.
func.func @contract_bounds_pair(%a: tensor<4xf32>, %i: tensor<f32>) {
  // expected-error @+1 {{'lower_bounds' and 'upper_bounds' must be given together}}
  %0 = tile.contract add, none, %i, %a {lower_bounds = array<i64: 0>, sink = affine_map<(i) -> ()>, srcs = [affine_map<(i) -> (i)>]} : tensor<f32>, tensor<4xf32> -> tensor<f32>
  return
}

// -----

// One bound per index.
func.func @contract_bounds_count(%a: tensor<4xf32>, %i: tensor<f32>) {
  // expected-error @+1 {{bounds must have one entry per index (1), but 'lower_bounds' has 2 and 'upper_bounds' has 2}}
  %0 = tile.contract add, none, %i, %a {lower_bounds = array<i64: 0, 0>, sink = affine_map<(i) -> ()>, srcs = [affine_map<(i) -> (i)>], upper_bounds = array<i64: 3, 3>} : tensor<f32>, tensor<4xf32> -> tensor<f32>
  return
}

// -----

// Init element type.
func.func @contract_init_element(%a: tensor<4xf32>, %i: tensor<f64>) {
  // expected-error @+1 {{init element type 'f64' differs from the result element type 'f32'}}
  %0 = tile.contract add, none, %i, %a {sink = affine_map<(i) -> ()>, srcs = [affine_map<(i) -> (i)>]} : tensor<f64>, tensor<4xf32> -> tensor<f32>
  return
}

// -----

// Init shape must broadcast.
func.func @contract_init_shape(%a: tensor<4xf32>, %i: tensor<3xf32>) {
  // expected-error @+1 {{init of shape 3 does not broadcast to the result shape 4}}
  %0 = tile.contract add, none, %i, %a {sink = affine_map<(i) -> (i)>, srcs = [affine_map<(i) -> (i)>]} : tensor<3xf32>, tensor<4xf32> -> tensor<4xf32>
  return
}

// -----

// Combination narrowed into the result.
func.func @contract_narrowing(%a: tensor<4xf32>, %i: tensor<f16>) {
  // expected-error @+1 {{the combination yields 'f32', which does not fit the result element type 'f16' without narrowing; cast the inputs first}}
  %0 = tile.contract add, none, %i, %a {sink = affine_map<(i) -> ()>, srcs = [affine_map<(i) -> (i)>]} : tensor<f16>, tensor<4xf32> -> tensor<f16>
  return
}

// -----

// Cast keeps the shape.
func.func @cast_shape(%a: tensor<4xf32>) {
  // expected-error @+1 {{changes the shape from 4 to 2x2; a cast only converts element types (use tile.reshape)}}
  %0 = tile.cast %a : tensor<4xf32> -> tensor<2x2xsi32>
  return
}

// -----

// Logical_not keeps the shape.
func.func @logical_not_shape(%a: tensor<4xf32>) {
  // expected-error @+1 {{result shape 2 differs from the operand shape 4}}
  %0 = tile.logical_not %a : tensor<4xf32> -> tensor<2xi1>
  return
}

// -----

// Select result shape.
func.func @select_result_shape(%c: tensor<4xi1>, %a: tensor<4xf32>, %b: tensor<f32>) {
  // expected-error @+1 {{result shape 2x4 differs from the broadcast shape 4 of the operands}}
  %0 = tile.select %c, %a, %b : tensor<4xi1>, tensor<4xf32>, tensor<f32> -> tensor<2x4xf32>
  return
}

// -----

// Select result element type.
func.func @select_result_element(%c: tensor<4xi1>, %a: tensor<4xf32>, %b: tensor<si8>) {
  // expected-error @+1 {{result element type 'si8' differs from 'f32', the promoted element type of the two values}}
  %0 = tile.select %c, %a, %b : tensor<4xi1>, tensor<4xf32>, tensor<si8> -> tensor<4xsi8>
  return
}

// -----

// Condition does not broadcast with the values.
func.func @select_cond_broadcast(%c: tensor<4xi1>, %a: tensor<3xf32>, %b: tensor<f32>) {
  // expected-error @+1 {{operand shapes (4, 3, scalar) do not broadcast: each dimension, aligned from the right, must match or be 1}}
  %0 = tile.select %c, %a, %b : tensor<4xi1>, tensor<3xf32>, tensor<f32> -> tensor<4xf32>
  return
}

// -----

// Values do not broadcast.
func.func @select_values_broadcast(%c: tensor<4xi1>, %a: tensor<3xf32>, %b: tensor<4xf32>) {
  // expected-error @+1 {{operand shapes (4, 3, 4) do not broadcast: each dimension, aligned from the right, must match or be 1}}
  %0 = tile.select %c, %a, %b : tensor<4xi1>, tensor<3xf32>, tensor<4xf32> -> tensor<4xf32>
  return
}

// -----

// Reshape keeps the element type.
func.func @reshape_element(%a: tensor<2x3xf32>) {
  // expected-error @+1 {{changes the element type from 'f32' to 'f64'; use tile.cast}}
  %0 = tile.reshape %a : tensor<2x3xf32> -> tensor<6xf64>
  return
}

// -----

// Reshape keeps the element count.
func.func @reshape_count(%a: tensor<2x3xf32>) {
  // expected-error @+1 {{cannot reshape 2x3 (6 elements) to 5 (5 elements)}}
  %0 = tile.reshape %a : tensor<2x3xf32> -> tensor<5xf32>
  return
}

// -----

// Element count overflows int64 (was reported as 0 elements).
func.func @reshape_overflow(%a: tensor<4611686018427387904x4xf32>) {
  // expected-error @+1 {{the operand shape 4611686018427387904x4 has more elements than a 64-bit count can hold}}
  %0 = tile.reshape %a : tensor<4611686018427387904x4xf32> -> tensor<16xf32>
  return
}

// -----

// Index axis out of range.
func.func @index_axis() {
  // expected-error @+1 {{axis 2 is out of range for 'tensor<3x4xsi32>' of rank 2}}
  %0 = tile.index 2 : tensor<3x4xsi32>
  return
}

// -----

// Index into i1.
func.func @index_i1() {
  // expected-error @+1 {{coordinates need an integer or float element type, not i1}}
  %0 = tile.index 0 : tensor<3xi1>
  return
}

// -----

// Coordinates do not fit si8.
func.func @index_si8_range() {
  // expected-error @+1 {{coordinate 128 along axis 0 does not fit exactly in element type 'si8'}}
  %0 = tile.index 0 : tensor<129xsi8>
  return
}

// -----

// Coordinates do not fit f16 exactly.
func.func @index_f16_range() {
  // expected-error @+1 {{coordinate 2999 along axis 0 does not fit exactly in element type 'f16'}}
  %0 = tile.index 0 : tensor<3000xf16>
  return
}

// -----

// Gather axis out of range.
func.func @gather_axis(%t: tensor<10x2xf32>, %i: tensor<5xsi32>) {
  // expected-error @+1 {{axis 2 is out of range for the source 'tensor<10x2xf32>' of rank 2}}
  %0 = tile.gather %t, %i {axis = 2} : tensor<10x2xf32>, tensor<5xsi32> -> tensor<5x2xf32>
  return
}

// -----

// Gather with i1 indices.
func.func @gather_i1_indices(%t: tensor<10x2xf32>, %i: tensor<5xi1>) {
  // expected-error @+1 {{indices must be integers wider than i1}}
  %0 = tile.gather %t, %i : tensor<10x2xf32>, tensor<5xi1> -> tensor<5x2xf32>
  return
}

// -----

// Gather result element type.
func.func @gather_element(%t: tensor<10x2xf32>, %i: tensor<5xsi32>) {
  // expected-error @+1 {{result element type 'f16' differs from the source element type 'f32'}}
  %0 = tile.gather %t, %i : tensor<10x2xf32>, tensor<5xsi32> -> tensor<5x2xf16>
  return
}

// -----

// Gather result shape.
func.func @gather_shape(%t: tensor<10x2xf32>, %i: tensor<5xsi32>) {
  // expected-error @+1 {{result shape 2x5 should be 5x2 (the source shape with axis 0 replaced by the index shape)}}
  %0 = tile.gather %t, %i : tensor<10x2xf32>, tensor<5xsi32> -> tensor<2x5xf32>
  return
}

// -----

// Scatter axis out of range.
func.func @scatter_axis(%u: tensor<5x2xf32>, %i: tensor<5xsi32>) {
  // expected-error @+1 {{axis 2 is out of range for the result 'tensor<10x2xf32>' of rank 2}}
  %0 = tile.scatter %u, %i {axis = 2} : tensor<5x2xf32>, tensor<5xsi32> -> tensor<10x2xf32>
  return
}

// -----

// Scatter with i1 indices.
func.func @scatter_i1_indices(%u: tensor<5x2xf32>, %i: tensor<5xi1>) {
  // expected-error @+1 {{indices must be integers wider than i1}}
  %0 = tile.scatter %u, %i : tensor<5x2xf32>, tensor<5xi1> -> tensor<10x2xf32>
  return
}

// -----

// Scatter result element type.
func.func @scatter_element(%u: tensor<5x2xf32>, %i: tensor<5xsi32>) {
  // expected-error @+1 {{result element type 'bf16' differs from the updates element type 'f32'}}
  %0 = tile.scatter %u, %i : tensor<5x2xf32>, tensor<5xsi32> -> tensor<10x2xbf16>
  return
}

// -----

// Scatter updates shape.
func.func @scatter_shape(%u: tensor<5x2xf32>, %i: tensor<5xsi32>) {
  // expected-error @+1 {{updates shape 5x2 should be 5x3 (the result shape with axis 0 replaced by the index shape)}}
  %0 = tile.scatter %u, %i : tensor<5x2xf32>, tensor<5xsi32> -> tensor<10x3xf32>
  return
}

// -----

// Dynamic shapes are not Tile tensors.
func.func @dynamic_shape(%a: tensor<?xf32>) {
  // expected-error @+1 {{operand #0 must be statically shaped tensor of 8-64 bit integer, f16, bf16, f32 or f64 values, but got 'tensor<?xf32>'}}
  %0 = tile.neg %a : tensor<?xf32>
  return
}

// -----

// Unranked tensors are not Tile tensors.
func.func @unranked(%a: tensor<*xf32>) {
  // expected-error @+1 {{invalid kind of type specified: expected builtin.tensor, but found 'tensor<*xf32>'}}
  %0 = tile.neg %a : tensor<*xf32>
  return
}

// -----

// Unsupported integer width.
func.func @i4(%a: tensor<4xi4>) {
  // expected-error @+1 {{operand #0 must be statically shaped tensor of Tile element type (i1, 8-64 bit integer, f16, bf16, f32, f64) values, but got 'tensor<4xi4>'}}
  %0 = tile.add %a, %a : tensor<4xi4>
  return
}

// -----

// Unsupported float type.
func.func @f8(%a: tensor<4xf8E4M3FN>) {
  // expected-error @+1 {{operand #0 must be statically shaped tensor of Tile element type (i1, 8-64 bit integer, f16, bf16, f32, f64) values, but got 'tensor<4xf8E4M3FN>'}}
  %0 = tile.cast %a : tensor<4xf8E4M3FN> -> tensor<4xf32>
  return
}

// -----

// Index is not a Tile element type.
func.func @index_type(%a: tensor<4xindex>) {
  // expected-error @+1 {{operand #0 must be statically shaped tensor of Tile element type (i1, 8-64 bit integer, f16, bf16, f32, f64) values, but got 'tensor<4xindex>'}}
  %0 = tile.reshape %a : tensor<4xindex> -> tensor<2x2xindex>
  return
}

// -----

// Complex is not a Tile element type.
func.func @complex(%a: tensor<4xcomplex<f32>>) {
  // expected-error @+1 {{operand #0 must be statically shaped tensor of 8-64 bit integer, f16, bf16, f32 or f64 values, but got 'tensor<4xcomplex<f32>>'}}
  %0 = tile.abs %a : tensor<4xcomplex<f32>>
  return
}

// -----

// Vectors are not Tile tensors.
func.func @vector(%a: vector<4xf32>) {
  // expected-error @+1 {{invalid kind of type specified: expected builtin.tensor, but found 'vector<4xf32>'}}
  %0 = tile.exp %a : vector<4xf32>
  return
}

// -----

// Neg on i1.
func.func @neg_i1(%a: tensor<4xi1>) {
  // expected-error @+1 {{operand #0 must be statically shaped tensor of 8-64 bit integer, f16, bf16, f32 or f64 values, but got 'tensor<4xi1>'}}
  %0 = tile.neg %a : tensor<4xi1>
  return
}

// -----

// Exp on an integer.
func.func @exp_integer(%a: tensor<4xsi32>) {
  // expected-error @+1 {{operand #0 must be statically shaped tensor of f16, bf16, f32 or f64 values, but got 'tensor<4xsi32>'}}
  %0 = tile.exp %a : tensor<4xsi32>
  return
}

// -----

// Unary result type differs.
func.func @unary_type_mismatch(%a: tensor<4xf32>) {
  // expected-error @+1 {{requires the same type for all operands and results}}
  %0 = "tile.exp"(%a) : (tensor<4xf32>) -> tensor<4xf16>
  return
}

// -----

// Wrong operand count.
func.func @binary_operand_count(%a: tensor<4xf32>) {
  // expected-error @+1 {{expected 2 operands, but found 1}}
  %0 = "tile.add"(%a) : (tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

// Wrong operand count.
func.func @unary_operand_count(%a: tensor<4xf32>) {
  // expected-error @+1 {{requires a single operand}}
  %0 = "tile.neg"(%a, %a) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

// Contract without operands.
func.func @contract_no_init(%a: tensor<4xf32>) {
  // expected-error @+1 {{expected 1 or more operands, but found 0}}
  %0 = "tile.contract"() <{agg = 1 : i32, combo = 0 : i32, sink = affine_map<() -> ()>, srcs = []}> : () -> tensor<f32>
  return
}

// -----

// Missing sink.
func.func @contract_no_sink(%a: tensor<4xf32>, %i: tensor<f32>) {
  // expected-error @+1 {{requires attribute 'sink'}}
  %0 = "tile.contract"(%i, %a) <{agg = 1 : i32, combo = 0 : i32, srcs = [affine_map<(i) -> (i)>]}> : (tensor<f32>, tensor<4xf32>) -> tensor<f32>
  return
}

// -----

// Out-of-range enum value in the generic form.
func.func @contract_bad_agg_value(%a: tensor<4xf32>, %i: tensor<f32>) {
  // expected-error @+1 {{Invalid attribute `agg` in property conversion: 7 : i32}}
  %0 = "tile.contract"(%i, %a) <{agg = 7 : i32, combo = 0 : i32, sink = affine_map<(i) -> ()>, srcs = [affine_map<(i) -> (i)>]}> : (tensor<f32>, tensor<4xf32>) -> tensor<f32>
  return
}

// -----

// Missing value.
func.func @constant_no_value() {
  // expected-error @+1 {{requires attribute 'value'}}
  %0 = "tile.constant"() : () -> tensor<3xf32>
  return
}

// -----

// Value and result types differ.
func.func @constant_type_mismatch() {
  // expected-error @+1 {{failed to verify that all of {value, result} have same type}}
  %0 = "tile.constant"() <{value = dense<1.0> : tensor<4xf32>}> : () -> tensor<3xf32>
  return
}

// -----

// Unsupported constant element type.
func.func @constant_i4() {
  // expected-error @+1 {{result #0 must be statically shaped tensor of Tile element type (i1, 8-64 bit integer, f16, bf16, f32, f64) values, but got 'tensor<4xi4>'}}
  %0 = tile.constant dense<1> : tensor<4xi4>
  return
}

// -----

// Constant needs an elements attribute.
func.func @constant_not_elements() {
  // expected-error @+1 {{invalid kind of attribute specified}}
  %0 = tile.constant 1.0 : f32
  return
}

// -----

// Negative axis.
func.func @index_negative_axis() {
  // expected-error @+1 {{attribute 'axis' failed to satisfy constraint: 64-bit signless integer attribute whose value is non-negative}}
  %0 = tile.index -1 : tensor<4xf32>
  return
}

// -----

// Index of a scalar.
func.func @index_rank0() {
  // expected-error @+1 {{axis 0 is out of range for 'tensor<f32>' of rank 0}}
  %0 = tile.index 0 : tensor<f32>
  return
}

// -----

// Float indices.
func.func @gather_float_indices(%t: tensor<10x2xf32>, %i: tensor<5xf32>) {
  // expected-error @+1 {{operand #1 must be statically shaped tensor of i1 or 8-64 bit integer values, but got 'tensor<5xf32>'}}
  %0 = tile.gather %t, %i : tensor<10x2xf32>, tensor<5xf32> -> tensor<5x2xf32>
  return
}

// -----

// Negative axis.
func.func @gather_negative_axis(%t: tensor<10x2xf32>, %i: tensor<5xsi32>) {
  // expected-error @+1 {{attribute 'axis' failed to satisfy constraint: 64-bit signless integer attribute whose value is non-negative}}
  %0 = tile.gather %t, %i {axis = -1} : tensor<10x2xf32>, tensor<5xsi32> -> tensor<5x2xf32>
  return
}

// -----

// Logical op result must be i1.
func.func @logical_result_not_i1(%a: tensor<4xf32>) {
  // expected-error @+1 {{result element type must be i1, not 'f32'}}
  %0 = tile.logical_and %a, %a : tensor<4xf32>
  return
}

// -----

// Logical_not result must be i1.
func.func @logical_not_result_not_i1(%a: tensor<4xf32>) {
  // expected-error @+1 {{result #0 must be statically shaped tensor of 1-bit signless integer values, but got 'tensor<4xf32>'}}
  %0 = tile.logical_not %a : tensor<4xf32> -> tensor<4xf32>
  return
}

// -----

// Unknown aggregation keyword.
func.func @contract_unknown_agg(%a: tensor<4xf32>, %i: tensor<f32>) {
  // expected-error @+1 {{expected string or keyword containing one of the following enum values for attribute 'agg' [assign, add, mul, max, min]}}
  %0 = tile.contract foo, mul, %i, %a {sink = affine_map<(i) -> ()>, srcs = [affine_map<(i) -> (i)>]} : tensor<f32>, tensor<4xf32> -> tensor<f32>
  return
}

// -----

// Unknown combination keyword.
func.func @contract_unknown_combo(%a: tensor<4xf32>, %i: tensor<f32>) {
  // expected-error @+1 {{expected string or keyword containing one of the following enum values for attribute 'combo' [none, add, mul, eq, cond]}}
  %0 = tile.contract add, bar, %i, %a {sink = affine_map<(i) -> ()>, srcs = [affine_map<(i) -> (i)>]} : tensor<f32>, tensor<4xf32> -> tensor<f32>
  return
}

// -----

// Unknown predicate keyword.
func.func @cmp_unknown_predicate(%a: tensor<4xf32>) {
  // expected-error @+1 {{expected string or keyword containing one of the following enum values for attribute 'predicate' [eq, ne, lt, le, gt, ge]}}
  %0 = tile.cmp lessthan, %a, %a : tensor<4xf32>, tensor<4xf32> -> tensor<4xi1>
  return
}

// -----

// Map result uses an undeclared dimension.
func.func @contract_map_undeclared_dim(%a: tensor<4xf32>, %i: tensor<f32>) {
  // expected-error @+1 {{use of undeclared identifier}}
  %0 = tile.contract add, none, %i, %a {sink = affine_map<(i) -> (j)>, srcs = [affine_map<(i) -> (i)>]} : tensor<f32>, tensor<4xf32> -> tensor<f32>
  return
}

// -----

// Sink is not an affine map.
func.func @contract_sink_not_map(%a: tensor<4xf32>, %i: tensor<f32>) {
  // expected-error @+1 {{attribute 'sink' failed to satisfy constraint: AffineMap attribute}}
  %0 = tile.contract add, none, %i, %a {sink = 3, srcs = [affine_map<(i) -> (i)>]} : tensor<f32>, tensor<4xf32> -> tensor<f32>
  return
}

// -----

// Idxs are not strings.
func.func @contract_idxs_not_strings(%a: tensor<4xf32>, %i: tensor<f32>) {
  // expected-error @+1 {{attribute 'idxs' failed to satisfy constraint: string array attribute}}
  %0 = tile.contract add, none, %i, %a {idxs = [1], sink = affine_map<(i) -> ()>, srcs = [affine_map<(i) -> (i)>]} : tensor<f32>, tensor<4xf32> -> tensor<f32>
  return
}

// -----

// Operand and type counts differ.
func.func @contract_type_count(%a: tensor<4xf32>, %i: tensor<f32>) {
  // expected-error @+1 {{number of operands and types do not match: got 1 operands and 2 types}}
  %0 = tile.contract add, none, %i, %a {sink = affine_map<(i) -> ()>, srcs = [affine_map<(i) -> (i)>]} : tensor<f32>, tensor<4xf32>, tensor<4xf32> -> tensor<f32>
  return
}

// -----

// Negative dimension.
// expected-error @+1 {{expected non-function type}}
func.func @negative_dim(%a: tensor<-1xf32>) {
  return
}

// -----

func.func @sink_negative_divisor(%a: tensor<4xf32>, %z: tensor<f32>) -> tensor<2xf32> {
  // expected-error @+1 {{'sink': 'd0 floordiv -2' must divide by a positive constant}}
  %r = tile.contract add, none, %z, %a {sink = affine_map<(i) -> (i floordiv -2)>, srcs = [affine_map<(i) -> (i)>]} : tensor<f32>, tensor<4xf32> -> tensor<2xf32>
  return %r : tensor<2xf32>
}

// -----

func.func @src_zero_divisor(%a: tensor<4xf32>, %z: tensor<f32>) -> tensor<4xf32> {
  // expected-error @+1 {{source map #0: 'd0 ceildiv 0' must divide by a positive constant}}
  %r = tile.contract add, none, %z, %a {sink = affine_map<(i) -> (i)>, srcs = [affine_map<(i) -> (i ceildiv 0)>]} : tensor<f32>, tensor<4xf32> -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

func.func @cons_negative_modulus(%a: tensor<4xf32>, %z: tensor<f32>) -> tensor<4xf32> {
  // expected-error @+1 {{'cons': 'd0 mod -3' must divide by a positive constant}}
  %r = tile.contract add, none, %z, %a {sink = affine_map<(i) -> (i)>, srcs = [affine_map<(i) -> (i)>], cons = affine_set<(i) : (i mod -3 >= 0)>} : tensor<f32>, tensor<4xf32> -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

// Two types need an arrow and a result type.
func.func @binary_two_types(%a: tensor<4xf32>) {
  // expected-error @+1 {{expected '->'}}
  %0 = tile.add %a, %a : tensor<4xf32>, tensor<4xf32>
  return
}

// -----

// Truncated op.
func.func @truncated(%a: tensor<4xf32>) {
  // expected-error @+1 {{expected ':'}}
  %0 = tile.contract add, none, %a,

// -----

// argsort: axis out of range.
func.func @argsort_axis(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{'tile.argsort' op axis 2 is out of range for 'tensor<2x3xf32>' of rank 2}}
  %0 = tile.argsort asc, %x {axis = 2} : tensor<2x3xf32> -> tensor<2x3xsi32>
  return
}

// -----

// argsort of a scalar: no axis exists.
func.func @argsort_scalar(%x: tensor<f32>) {
  // expected-error @+1 {{'tile.argsort' op axis 0 is out of range for 'tensor<f32>' of rank 0}}
  %0 = tile.argsort asc, %x {axis = 0} : tensor<f32> -> tensor<si32>
  return
}

// -----

// argsort: result shape differs.
func.func @argsort_shape(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{'tile.argsort' op result shape 3x2 differs from the operand shape 2x3}}
  %0 = tile.argsort asc, %x {axis = 1} : tensor<2x3xf32> -> tensor<3x2xsi32>
  return
}

// -----

// argsort: the axis is too long for si32 positions.
func.func @argsort_long(%x: tensor<2147483648xi1>) {
  // expected-error @+1 {{'tile.argsort' op axis 0 has 2147483648 elements; positions must fit in si32}}
  %0 = tile.argsort asc, %x {axis = 0} : tensor<2147483648xi1> -> tensor<2147483648xsi32>
  return
}

// -----

// argsort: the result element type must be si32 or i32.
func.func @argsort_result_type(%x: tensor<3xf32>) {
  // expected-error @+1 {{result #0 must be statically shaped tensor of 32-bit signed integer or 32-bit signless integer values}}
  %0 = tile.argsort asc, %x {axis = 0} : tensor<3xf32> -> tensor<3xsi64>
  return
}

// -----

// argsort: unknown direction.
func.func @argsort_direction(%x: tensor<3xf32>) {
  // expected-error @+1 {{expected string or keyword containing one of the following enum values for attribute 'direction' [asc, desc]}}
  %0 = tile.argsort up, %x {axis = 0} : tensor<3xf32> -> tensor<3xsi32>
  return
}

// -----

// argsort: negative axis.
func.func @argsort_negative(%x: tensor<3xf32>) {
  // expected-error @+1 {{attribute 'axis' failed to satisfy constraint}}
  %0 = tile.argsort asc, %x {axis = -1} : tensor<3xf32> -> tensor<3xsi32>
  return
}

// -----

// prng: the state has six words.
func.func @prng_state_shape(%s: tensor<4xui32>) {
  // expected-error @+1 {{'tile.prng' op state must have shape 6 (key k0, k1 and counter c0..c3), not 4}}
  %v, %n = tile.prng %s : tensor<4xui32> -> tensor<3xf32>
  return
}

// -----

// prng: the state words are 32-bit integers.
func.func @prng_state_type(%s: tensor<6xui64>) {
  // expected-error @+1 {{operand #0 must be statically shaped tensor of 32-bit signless integer or 32-bit signed integer or 32-bit unsigned integer values}}
  %v, %n = tile.prng %s : tensor<6xui64> -> tensor<3xf32>
  return
}

// -----

// prng: values must be floats or 32-bit words.
func.func @prng_value_type(%s: tensor<6xui32>) {
  // expected-error @+1 {{result #0 must be statically shaped tensor of}}
  %v, %n = tile.prng %s : tensor<6xui32> -> tensor<3xsi8>
  return
}

// -----

// prng: too many values.
func.func @prng_count(%s: tensor<6xui32>) {
  // expected-error @+1 {{'tile.prng' op values of shape 65536x32768 have more than 2^31 - 1 elements}}
  %v, %n = tile.prng %s : tensor<6xui32> -> tensor<65536x32768xf32>
  return
}
