//go:build linux || darwin

package gpu

import "syscall"

// cpuSeconds is the process's user and system CPU time: the benchmarks
// report pixels per CPU-second too, which a shared, loaded machine
// distorts less than pixels per wall-clock second.
func cpuSeconds() float64 {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	tv := func(t syscall.Timeval) float64 { return float64(t.Sec) + float64(t.Usec)/1e6 }
	return tv(ru.Utime) + tv(ru.Stime)
}
