// RUN: plaidml-opt %s -split-input-file -verify-diagnostics \
// RUN:   -plaidml-attach-target="cpu=x86-64 triple=x86_64-unknown-linux-gnu" -plaidml-emit-entry-points \
// RUN:   | FileCheck %s
// REQUIRES: host-x86_64

// Bare-pointer functions in, wrappers and the manifest out. A named CPU with
// no features records the ISA features that CPU implies.

// CHECK-LABEL: module attributes {llvm.target_triple = "x86_64-unknown-linux-gnu", plaidml.target = #plaidml.target<device = cpu, triple = "x86_64-unknown-linux-gnu", cpu = "x86-64">}
// CHECK:      llvm.func @_plaidml_entry_f(%[[BUFS:.*]]: !llvm.ptr) {
// CHECK-NEXT:   %[[S0:.*]] = llvm.getelementptr inbounds %[[BUFS]][0] : (!llvm.ptr) -> !llvm.ptr, !llvm.ptr
// CHECK-NEXT:   %[[B0:.*]] = llvm.load %[[S0]] : !llvm.ptr -> !llvm.ptr
// CHECK-NEXT:   %[[S1:.*]] = llvm.getelementptr inbounds %[[BUFS]][1] : (!llvm.ptr) -> !llvm.ptr, !llvm.ptr
// CHECK-NEXT:   %[[B1:.*]] = llvm.load %[[S1]] : !llvm.ptr -> !llvm.ptr
// CHECK-NEXT:   %[[S2:.*]] = llvm.getelementptr inbounds %[[BUFS]][2] : (!llvm.ptr) -> !llvm.ptr, !llvm.ptr
// CHECK-NEXT:   %[[B2:.*]] = llvm.load %[[S2]] : !llvm.ptr -> !llvm.ptr
// CHECK-NEXT:   llvm.call @f(%[[B0]], %[[B1]], %[[B2]]) : (!llvm.ptr, !llvm.ptr, !llvm.ptr) -> ()
// CHECK-NEXT:   llvm.return
// CHECK-NEXT: }
// The entry function itself is hidden and loses the plaidml.* attributes.
// CHECK:      llvm.func internal @f(%{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr) {
// CHECK:      llvm.func @helper(
// CHECK:      llvm.func @_plaidml_entry_g(%{{.*}}: !llvm.ptr) {
// CHECK-NEXT:   %[[GS0:.*]] = llvm.getelementptr inbounds %{{.*}}[0]
// CHECK-NEXT:   %[[GB0:.*]] = llvm.load %[[GS0]]
// CHECK-NEXT:   llvm.call @g(%[[GB0]]) : (!llvm.ptr) -> ()
// CHECK:      llvm.func internal @g(
// CHECK-NOT:  plaidml.
// CHECK:      llvm.mlir.global external constant @plaidml_manifest("plaidml-artifact 1\0Acompiler 0.1.0\0Adevice cpu\0Atriple x86_64-unknown-linux-gnu\0Acpu x86-64\0Afeatures +64bit,+cmov,+cx8,+fxsr,+mmx,+sse,+sse2\0Aentry f _plaidml_entry_f\0Ainput arg0 2x3xsi32\0Ainput arg1 3xf32\0Aoutput result0 i1\0Aentry g _plaidml_entry_g\0Aoutput result0 4xui8\0Aend\0A\00")
module {
  llvm.func @f(%a: !llvm.ptr, %b: !llvm.ptr, %c: !llvm.ptr)
      attributes {plaidml.entry,
                  plaidml.inputs = [tensor<2x3xsi32>, tensor<3xf32>],
                  plaidml.outputs = [tensor<i1>]} {
    llvm.return
  }
  // Not an entry point: left alone.
  llvm.func @helper(%a: !llvm.ptr) {
    llvm.return
  }
  // No inputs, one output.
  llvm.func @g(%out: !llvm.ptr)
      attributes {plaidml.entry, plaidml.inputs = [],
                  plaidml.outputs = [tensor<4xui8>]} {
    llvm.return
  }
}

// -----

// A module without entry points still gets a (valid, empty) manifest.
// CHECK-LABEL: module
// CHECK: llvm.mlir.global external constant @plaidml_manifest("plaidml-artifact 1\0Acompiler 0.1.0\0Adevice cpu\0Atriple x86_64-unknown-linux-gnu\0Acpu x86-64\0Afeatures +64bit,+cmov,+cx8,+fxsr,+mmx,+sse,+sse2\0Aend\0A\00")
module {
}

// -----

// Signless integers are recorded as signed, as in the Tile dialect.
// CHECK-LABEL: module
// CHECK: input arg0 si32\0Ainput arg1 2xsi64\0Aoutput result0 si8
module {
  llvm.func @signless(%a: !llvm.ptr, %b: !llvm.ptr, %c: !llvm.ptr)
      attributes {plaidml.entry, plaidml.inputs = [tensor<i32>, tensor<2xi64>],
                  plaidml.outputs = [tensor<i8>]} {
    llvm.return
  }
}

// -----

module {
  // expected-error @+1 {{entry function @f must be a definition taking one pointer per buffer (1 inputs, 1 outputs) and returning nothing; got '!llvm.func<void (ptr)>' (lower it with the bare-pointer calling convention)}}
  llvm.func @f(%a: !llvm.ptr)
      attributes {plaidml.entry, plaidml.inputs = [tensor<2xf32>],
                  plaidml.outputs = [tensor<2xf32>]} {
    llvm.return
  }
}

// -----

module {
  // expected-error @+1 {{entry function @f has no 'plaidml.outputs' array of tensor types}}
  llvm.func @f(%a: !llvm.ptr)
      attributes {plaidml.entry, plaidml.inputs = [tensor<2xf32>]} {
    llvm.return
  }
}

// -----

module {
  // expected-error @+1 {{'llvm.func' op 'plaidml.inputs' must hold static tensor types, not tensor<?xf32>}}
  llvm.func @f(%a: !llvm.ptr, %b: !llvm.ptr)
      attributes {plaidml.entry, plaidml.inputs = [tensor<?xf32>],
                  plaidml.outputs = [tensor<2xf32>]} {
    llvm.return
  }
}

// -----

module {
  // expected-error @+1 {{entry function @f: 'plaidml.outputs' holds tensor<2xi4>, not a static tensor type of a supported element type}}
  llvm.func @f(%a: !llvm.ptr, %b: !llvm.ptr)
      attributes {plaidml.entry, plaidml.inputs = [tensor<2xf32>],
                  plaidml.outputs = [tensor<2xi4>]} {
    llvm.return
  }
}

// -----

module {
  // expected-error @+1 {{entry function @f must be a definition}}
  llvm.func @f(!llvm.ptr, !llvm.ptr)
      attributes {plaidml.entry, plaidml.inputs = [tensor<2xf32>],
                  plaidml.outputs = [tensor<2xf32>]}
}

// -----

module {
  // expected-error @+1 {{entry function @f: symbol @_plaidml_entry_f already exists}}
  llvm.func @f(%a: !llvm.ptr)
      attributes {plaidml.entry, plaidml.inputs = [],
                  plaidml.outputs = [tensor<2xf32>]} {
    llvm.return
  }
  llvm.func @_plaidml_entry_f() {
    llvm.return
  }
}

// -----

module {
  // expected-error @+1 {{plaidml-emit-entry-points runs on llvm.func; lower this entry function to the LLVM dialect (convert-func-to-llvm) first}}
  func.func @f(%a: memref<2xf32>)
      attributes {plaidml.entry, plaidml.inputs = [],
                  plaidml.outputs = [tensor<2xf32>]} {
    return
  }
}

// -----

module {
  // expected-error @+1 {{entry function name 'two words' must be printable and without spaces (it is recorded in the manifest)}}
  llvm.func @"two words"(%a: !llvm.ptr)
      attributes {plaidml.entry, plaidml.inputs = [],
                  plaidml.outputs = [tensor<2xf32>]} {
    llvm.return
  }
}

// -----

// A workspace (plaidml-cpu-plan-workspace) is the pointer after the outputs,
// and a `workspace` line right after the `entry` line.
// CHECK-LABEL: module
// CHECK:      llvm.func @_plaidml_entry_w(%[[WBUFS:.*]]: !llvm.ptr) {
// CHECK:        %[[WS:.*]] = llvm.getelementptr inbounds %[[WBUFS]][2] : (!llvm.ptr) -> !llvm.ptr, !llvm.ptr
// CHECK-NEXT:   %[[WB:.*]] = llvm.load %[[WS]] : !llvm.ptr -> !llvm.ptr
// CHECK-NEXT:   llvm.call @w(%{{.*}}, %{{.*}}, %[[WB]]) : (!llvm.ptr, !llvm.ptr, !llvm.ptr) -> ()
// CHECK:      entry w _plaidml_entry_w\0Aworkspace 4096\0Ainput arg0 4xf32\0Aoutput result0 4xf32\0Aend
module {
  llvm.func @w(%a: !llvm.ptr, %o: !llvm.ptr, %ws: !llvm.ptr)
      attributes {plaidml.entry, plaidml.inputs = [tensor<4xf32>],
                  plaidml.outputs = [tensor<4xf32>], plaidml.workspace = 4096 : i64} {
    llvm.return
  }
}

// -----

module {
  // expected-error @+1 {{'llvm.func' op 'plaidml.workspace' must be a positive i64 number of bytes on a function}}
  llvm.func @w(%a: !llvm.ptr, %o: !llvm.ptr, %ws: !llvm.ptr)
      attributes {plaidml.entry, plaidml.inputs = [tensor<4xf32>],
                  plaidml.outputs = [tensor<4xf32>], plaidml.workspace = 0 : i64} {
    llvm.return
  }
}

// -----

// A preparation (plaidml-cpu-split-prepare): its wrapper takes the inputs
// and the prepared buffer; the entry's wrapper passes the prepared buffer
// after the outputs and before the workspace; the manifest has a `prepare`
// line after the workspace and marks the inputs it reads `param`.
// CHECK-LABEL: module
// CHECK:      llvm.func @_plaidml_prepare_p(%[[PBUFS:.*]]: !llvm.ptr) {
// CHECK:        llvm.getelementptr inbounds %[[PBUFS]][2]
// CHECK-NEXT:   %[[PB2:.*]] = llvm.load
// CHECK-NEXT:   llvm.call @p_prepare(%{{.*}}, %{{.*}}, %[[PB2]]) : (!llvm.ptr, !llvm.ptr, !llvm.ptr) -> ()
// CHECK:      llvm.func internal @p_prepare(
// CHECK:      llvm.func @_plaidml_entry_p(%[[EBUFS:.*]]: !llvm.ptr) {
// CHECK:        llvm.getelementptr inbounds %[[EBUFS]][4]
// CHECK-NEXT:   %[[EB4:.*]] = llvm.load
// CHECK-NEXT:   llvm.call @p(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %[[EB4]]) : (!llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr) -> ()
// CHECK:      llvm.func internal @p(
// CHECK-NOT:  plaidml.
// CHECK:      entry p _plaidml_entry_p\0Aworkspace 64\0Aprepare _plaidml_prepare_p 128\0Ainput arg0 4xf32\0Ainput arg1 4x4xf32 param\0Aoutput result0 4xf32\0Aend
module {
  llvm.func @p_prepare(%a: !llvm.ptr, %w: !llvm.ptr, %prepared: !llvm.ptr) {
    llvm.return
  }
  llvm.func @p(%a: !llvm.ptr, %w: !llvm.ptr {plaidml.param}, %o: !llvm.ptr, %prepared: !llvm.ptr, %ws: !llvm.ptr)
      attributes {plaidml.entry, plaidml.inputs = [tensor<4xf32>, tensor<4x4xf32>],
                  plaidml.outputs = [tensor<4xf32>], plaidml.workspace = 64 : i64,
                  plaidml.prepare = @p_prepare, plaidml.prepared = 128 : i64,
                  plaidml.prepare_inputs = array<i64: 1>} {
    llvm.return
  }
}

// -----

// A preparation needs all three attributes and a function of the right
// signature.
module {
  // expected-error @+1 {{entry function @p: a preparation needs 'plaidml.prepare' (a function taking one pointer per input and the prepared buffer), 'plaidml.prepared' (a positive number of bytes) and 'plaidml.prepare_inputs' (input positions, ascending)}}
  llvm.func @p(%a: !llvm.ptr, %o: !llvm.ptr, %prepared: !llvm.ptr)
      attributes {plaidml.entry, plaidml.inputs = [tensor<4xf32>],
                  plaidml.outputs = [tensor<4xf32>], plaidml.prepared = 128 : i64,
                  plaidml.prepare_inputs = array<i64: 0>} {
    llvm.return
  }
}

// -----

module {
  llvm.func @p_prepare(%a: !llvm.ptr) {
    llvm.return
  }
  // expected-error @+1 {{entry function @p: a preparation needs}}
  llvm.func @p(%a: !llvm.ptr, %o: !llvm.ptr, %prepared: !llvm.ptr)
      attributes {plaidml.entry, plaidml.inputs = [tensor<4xf32>],
                  plaidml.outputs = [tensor<4xf32>], plaidml.prepare = @p_prepare,
                  plaidml.prepared = 128 : i64, plaidml.prepare_inputs = array<i64: 0>} {
    llvm.return
  }
}

// -----

module {
  llvm.func @p_prepare(%a: !llvm.ptr, %prepared: !llvm.ptr) {
    llvm.return
  }
  // An input position past the inputs.
  // expected-error @+1 {{entry function @p: a preparation needs}}
  llvm.func @p(%a: !llvm.ptr, %o: !llvm.ptr, %prepared: !llvm.ptr)
      attributes {plaidml.entry, plaidml.inputs = [tensor<4xf32>],
                  plaidml.outputs = [tensor<4xf32>], plaidml.prepare = @p_prepare,
                  plaidml.prepared = 128 : i64, plaidml.prepare_inputs = array<i64: 1>} {
    llvm.return
  }
}

// -----

module {
  // expected-error @+1 {{'llvm.func' op 'plaidml.prepare_inputs' must be an array<i64: ...> of ascending input positions on a function}}
  llvm.func @p(%a: !llvm.ptr, %o: !llvm.ptr, %prepared: !llvm.ptr)
      attributes {plaidml.prepare_inputs = array<i64: 1, 0>} {
    llvm.return
  }
}

// -----

module {
  llvm.func @p_prepare(%a: !llvm.ptr, %prepared: !llvm.ptr) {
    llvm.return
  }
  // The entry itself must take the prepared buffer.
  // expected-error @+1 {{entry function @p must be a definition taking one pointer per buffer (1 inputs, 1 outputs, the prepared buffer) and returning nothing}}
  llvm.func @p(%a: !llvm.ptr, %o: !llvm.ptr)
      attributes {plaidml.entry, plaidml.inputs = [tensor<4xf32>],
                  plaidml.outputs = [tensor<4xf32>], plaidml.prepare = @p_prepare,
                  plaidml.prepared = 128 : i64, plaidml.prepare_inputs = array<i64: 0>} {
    llvm.return
  }
}

// -----

module {
  // expected-error @+1 {{entry function @w must be a definition taking one pointer per buffer (1 inputs, 1 outputs, the workspace) and returning nothing}}
  llvm.func @w(%a: !llvm.ptr, %o: !llvm.ptr)
      attributes {plaidml.entry, plaidml.inputs = [tensor<4xf32>],
                  plaidml.outputs = [tensor<4xf32>], plaidml.workspace = 64 : i64} {
    llvm.return
  }
}
