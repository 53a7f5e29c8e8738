//go:build wasm

package gpu

import "unsafe"

// setPipe is *dst = *src for a cache hit, without a 1.7 KB copy's write
// barriers. While the collector marks, a copy of a struct with pointers
// enqueues every pointer word's old and new value (bulkBarrierPreWrite),
// and under WebAssembly marking lasts long (its worker runs only when the
// run yields): the hit's copy was 2-4% of node's profile of the draws
// scene. Here the pointer words that differ are assigned first, each with
// its own barrier (most are the same: the targets, the program, the
// scratch); then, every pointer word of dst being src's already, the
// bytes are copied as bytes, which writes no pointer the collector has
// not seen (natively, where marking runs beside the program and the copy
// is a memmove, setPipe is the plain assignment: pipecopy_native.go).
// alignPipePtrs must assign every pointer word of a pipe:
// TestAlignPipePtrs finds them by reflection and fails for one it misses.
func setPipe(dst, src *pipe) {
	alignPipePtrs(dst, src)
	*(*[unsafe.Sizeof(pipe{})]byte)(unsafe.Pointer(dst)) = *(*[unsafe.Sizeof(pipe{})]byte)(unsafe.Pointer(src))
}
