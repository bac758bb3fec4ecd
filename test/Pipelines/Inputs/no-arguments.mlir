// A function without arguments and results: nothing for the runtime to run
// (cpu-compile-errors.test).
func.func @nothing() {
  return
}
