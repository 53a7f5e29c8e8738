//go:build js

package hlsl

import "syscall/js"

// cpuTime is node's process.cpuUsage() (user and system, ns) under
// WebAssembly: the wall clock of a benchmark on a loaded machine also
// counts the other processes' turns.
func cpuTime() (int64, bool) {
	p := js.Global().Get("process")
	if p.IsUndefined() || p.Get("cpuUsage").IsUndefined() {
		return 0, false
	}
	u := p.Call("cpuUsage")
	return int64(u.Get("user").Float()+u.Get("system").Float()) * 1000, true
}
