package dxgk

// AllocationAt names the allocation the GPU reaches at addr (in VRAM while
// resident, else its backing store through the aperture): its object and
// its device's name. For reports (a draw the GPU stopped at a budget names
// the shaders whose code its programs are); not a DDI. Allocations never
// overlap where the GPU reaches them, so the answer is unique.
func (k *Dxgkrnl) AllocationAt(addr uint64) (obj, device string, ok bool) {
	k.mu.Lock()
	defer k.mu.Unlock()
	for _, a := range k.allocs {
		_, base := a.location()
		if addr >= base && addr-base < max(a.region, a.size) {
			dev := ""
			if a.dev != nil {
				dev = a.dev.name
			}
			return a.obj, dev, true
		}
	}
	return "", "", false
}

// TimeoutAfter is how long a DMA buffer may run from the moment it could
// start before timeout detection resets its engine: the delay before the
// scheduler asks to preempt it (DxgkDdiPreemptCommand) and the TDR delay
// after that request (wait.go).
func (k *Dxgkrnl) TimeoutAfter() int64 { return k.cfg.PreemptAfter + k.cfg.TDRDelay }

// PreemptAfter is how long a buffer runs before the scheduler asks to
// preempt it (Config.PreemptAfter).
func (k *Dxgkrnl) PreemptAfter() int64 { return k.cfg.PreemptAfter }
