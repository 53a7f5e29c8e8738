//go:build unix

package hlsl

import "syscall"

// cpuTime is the process's user and system CPU time so far (ns), and
// whether it is known: a benchmark on a loaded machine reports it beside
// the wall clock.
func cpuTime() (int64, bool) {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0, false
	}
	return ru.Utime.Nano() + ru.Stime.Nano(), true
}
