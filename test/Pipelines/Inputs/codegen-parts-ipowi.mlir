// For cpu-codegen-parts.test: an integer power, which convert-math-to-funcs
// outlines into a linkonce_odr helper that another part than its caller
// may hold.
func.func @ipow(%a: memref<16xi32>, %e: memref<16xi32>, %out: memref<16xi32>)
    attributes {plaidml.entry, plaidml.inputs = [tensor<16xi32>, tensor<16xi32>],
                plaidml.outputs = [tensor<16xi32>]} {
  affine.for %i = 0 to 16 {
    %x = affine.load %a[%i] : memref<16xi32>
    %y = affine.load %e[%i] : memref<16xi32>
    %z = math.ipowi %x, %y : i32
    affine.store %z, %out[%i] : memref<16xi32>
  }
  return
}
