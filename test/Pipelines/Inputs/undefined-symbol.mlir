// An entry point that calls a function nobody defines: the link fails.
func.func private @nosuchfunction(memref<2xf32>)
func.func @f(%out: memref<2xf32>)
    attributes {plaidml.entry, plaidml.inputs = [],
                plaidml.outputs = [tensor<2xf32>]} {
  func.call @nosuchfunction(%out) : (memref<2xf32>) -> ()
  return
}
