package umd

import "testing"

// BenchmarkDraw is the UMD's share of the draw path: Draw on the immediate
// context with the state bound, the command buffer submitting by itself.
func BenchmarkDraw(b *testing.B) { benchDraw(b, false) }

// BenchmarkDrawStateChange re-emits the whole state with every draw (a
// binding changes between draws).
func BenchmarkDrawStateChange(b *testing.B) { benchDraw(b, true) }

func benchDraw(b *testing.B, rebind bool) {
	f := newFakeRuntime()
	d := newDevice(b, f, Config{})
	scene(b, d, d)
	b.ResetTimer()
	for i := range b.N {
		if rebind {
			d.IaSetTopology(hDev, 4)
		}
		d.Draw(hDev, 3, uint32(i))
		if len(f.renders) > 64 {
			f.renders, f.calls = f.renders[:0], f.calls[:0]
		}
	}
}
