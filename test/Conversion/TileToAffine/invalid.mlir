// RUN: plaidml-opt %s -convert-tile-to-affine -split-input-file -verify-diagnostics

func.func @missing_bounds(%A: tensor<4x8xf32>, %B: tensor<8x16xf32>) -> tensor<4x16xf32> {
  %zero = tile.constant dense<0.0> : tensor<f32>
  // expected-error @+1 {{'tile.contract' has no index bounds; run tile-compute-bounds first}}
  %C = tile.contract add, mul, %zero, %A, %B {
         sink = affine_map<(m, n, k) -> (m, n)>,
         srcs = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>]}
       : tensor<f32>, tensor<4x8xf32>, tensor<8x16xf32> -> tensor<4x16xf32>
  return %C : tensor<4x16xf32>
}

// -----

func.func @foreign_op(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'arith.constant' is not a Tile op; convert-tile-to-affine lowers functions made of Tile ops and func.return only}}
  %c = arith.constant dense<1.0> : tensor<4xf32>
  %r = tile.add %a, %c : tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

// expected-error @+1 {{cannot lower external function 'external': convert-tile-to-affine needs the body of every function on tensors}}
func.func private @external(%a: tensor<4xf32>) -> tensor<4xf32>

// -----

// expected-error @+1 {{argument #0 of 'dynamic' has type 'tensor<?xf32>'; Tile functions take statically shaped tensors}}
func.func @dynamic(%a: tensor<?xf32>) -> tensor<4xf32> {
  %c = tile.constant dense<1.0> : tensor<4xf32>
  return %c : tensor<4xf32>
}

// -----

// expected-error @+1 {{function 'blocks' has more than one block; Tile functions have one}}
func.func @blocks(%a: tensor<4xf32>) -> tensor<4xf32> {
  cf.br ^bb1
^bb1:
  return %a : tensor<4xf32>
}

// -----

// expected-error @+1 {{'tile.constant' is outside a function of the module; convert-tile-to-affine lowers Tile ops in the bodies of top-level functions}}
%z = tile.constant dense<0.0> : tensor<f32>

// -----

// A Tile op in another op's region names that op and the function.
func.func @in_region(%a: tensor<2xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{'scf.execute_region' is not a Tile op}}
  %r = scf.execute_region -> tensor<2xf32> {
    // expected-error @+1 {{'tile.exp' is inside 'scf.execute_region' in function 'in_region'; Tile ops must be directly in the body of a function (a Tile program has no control flow ops)}}
    %y = tile.exp %a : tensor<2xf32>
    scf.yield %y : tensor<2xf32>
  }
  return %r : tensor<2xf32>
}

// -----

module {
  module @nested {
    func.func @f() -> tensor<f32> {
      // expected-error @+1 {{'tile.constant' is outside a function of the module}}
      %z = tile.constant dense<0.0> : tensor<f32>
      return %z : tensor<f32>
    }
  }
}
