//go:build !wasm

package gpu

// setPipe is *dst = *src for a cache hit. Under WebAssembly it avoids the
// copy's write barriers (pipecopy_wasm.go); natively the plain copy is
// cheaper: the byte copy and its pointer checks cost about 200
// instructions a Draw of the draws scene (valgrind, 2026-11-29).
func setPipe(dst, src *pipe) { *dst = *src }
