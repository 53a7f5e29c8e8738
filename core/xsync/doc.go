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
//
// A package that uses them imports sync and sync/atomic itself (blank, if
// it needs nothing else of them; core/sim does): Go 1.26's compiler inlines
// the standard library's Lock, Unlock and atomic methods through these
// aliases only into a package that imports theirs, and otherwise calls
// them. core/sim, whose clocks every API call, DDI and trace event reads,
// had 72 such calls, core/dxgk 56 through sim's functions inlined in it
// (about 50 instructions a Draw).
package xsync
