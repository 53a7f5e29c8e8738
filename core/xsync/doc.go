// Package xsync is the simulator's locks and atomics on its hot paths
// (every trace event, every clock charge, every draw), shaped for Go's
// WebAssembly port.
//
// Natively they are the standard library's: Mutex is sync.Mutex, Int64,
// Int32, Uint64, Bool and Pointer are sync/atomic's (aliases, so nothing
// changes there).
// Under WebAssembly Go runs every goroutine on one thread, and a goroutine
// is switched only where it calls a function that may block or yield:
// there sync.Mutex's compare-and-swap and sync/atomic's loads and adds
// are not instructions but calls into the runtime (no intrinsic), about
// 7% of a Draw's time in node's profile. Here they are plain loads and
// stores in line, which is atomic on that port because nothing can run
// between a load and the store after it that makes no call.
package xsync
