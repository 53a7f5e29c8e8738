//go:build !unix

package hlsl

// cpuTime is not known here (WebAssembly in node runs one thread: its
// wall clock per op is its CPU time, less what the machine's load takes).
func cpuTime() (int64, bool) { return 0, false }
