package dxgk_test

import (
	"bytes"
	"d3dsim/core/rules"
	"d3dsim/gpu/isa"
	"errors"
	"strings"
	"testing"

	"d3dsim/core/dxgk"
	"d3dsim/core/dxgkddi"
	"d3dsim/core/kmd"
	"d3dsim/core/sim"
	"d3dsim/core/trace"
	"d3dsim/gpu"
)

// These tests run Dxgkrnl over the real driver (core/kmd) and the real GPU,
// wired the way the scenario runner wires them.

type machine struct {
	s      *sim.Sim
	rec    *trace.Recorder
	g      *gpu.GPU
	k      *dxgk.Dxgkrnl
	frames []gpu.Frame
}

func newMachine(t testing.TB, vram uint64, bugs ...rules.ID) *machine {
	t.Helper()
	s := sim.New(1)
	rec := trace.NewRecorder(s.Now, s.Thread)
	g := gpu.New(gpu.Config{VRAM: vram, Aperture: 64 << 20}, s, rec)
	cfg := kmd.Config{Bugs: rules.Set{}}
	for _, b := range bugs {
		cfg.Bugs[b] = true
	}
	k := dxgk.New(s, rec, kmd.New(g, s, cfg), dxgk.Config{TDRDelay: 5_000_000})
	k.SetSegments(gpu.VRAMBase, vram, gpu.ApertureBase, 64<<20, g.Memory())
	g.ConnectInterrupt(k.Interrupt)
	m := &machine{s: s, rec: rec, g: g, k: k}
	g.OnScanout(func(f gpu.Frame) { m.frames = append(m.frames, f) })
	return m
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

func (m *machine) device(t testing.TB, name string) (dxgk.HDevice, dxgk.HContext) {
	d := must(m.k.CreateDevice(name))
	return d, must(m.k.CreateContext(d)).Context
}

// target makes a w x h RGBA8 surface.
func (m *machine) target(d dxgk.HDevice, w, h uint32, obj string) dxgk.HAllocation {
	return must(m.k.CreateAllocation(d, dxgk.AllocationDesc{Size: uint64(4 * w * h), Primary: true, Obj: obj,
		Surface: dxgkddi.SurfaceDesc{Width: w, Height: h, Pitch: 4 * w, Format: uint32(isa.FmtRGBA8)}}))
}

func la(i, off uint32) uint64 { return dxgkddi.ListAddress(i, off) }

func clear(w, h uint32, rgba [4]float32) []uint32 {
	var b isa.Builder
	b.ClearRT(la(0, 0), w, h, 4*w, isa.FmtRGBA8, rgba)
	return b.Words
}

func (m *machine) pixel(t testing.TB, d dxgk.HDevice, a dxgk.HAllocation, x, y, pitch int) []byte {
	t.Helper()
	ok(t, m.k.Idle())
	b := must(m.k.Lock(d, a))
	defer m.k.Unlock(d, a)
	return append([]byte(nil), b[y*pitch+4*x:y*pitch+4*x+4]...)
}

func ok(t testing.TB, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func names(events []trace.Event, kind trace.Kind, prefix string) []string {
	var out []string
	for _, e := range events {
		if e.Kind == kind && strings.HasPrefix(e.Name, prefix) {
			out = append(out, e.Name)
		}
	}
	return out
}

func TestGPUPresentFlow(t *testing.T) {
	m := newMachine(t, 16<<20)
	d, c := m.device(t, "dev")
	bb := m.target(d, 16, 16, "bb")
	mark := m.rec.Len()
	present := func(rgba [4]float32) uint64 {
		t.Helper()
		must(m.k.Render(c, clear(16, 16, rgba), []dxgk.AllocationListEntry{{Allocation: bb, Write: true}}))
		return must(m.k.Present(dxgk.PresentInfo{Context: c, Src: bb}))
	}
	f := present([4]float32{0, 1, 0, 1})
	ok(t, m.k.WaitForFence(c, f))
	got := strings.Join(names(m.rec.Since(uint64(mark)), trace.Call, "Dxgk"), " ")
	// The render, the redirection surface made for the first present, the
	// copy; each buffer paged in and patched; four interrupts (two paging
	// buffers, the render, the copy).
	intr := "DxgkDdiInterruptRoutine DxgkCbNotifyInterrupt DxgkCbQueueDpc DxgkDdiDpcRoutine DxgkCbNotifyDpc "
	want := "DxgkDdiRender DxgkDdiCreateAllocation DxgkDdiPresent " +
		"DxgkDdiBuildPagingBuffer DxgkDdiSubmitCommand DxgkDdiPatch DxgkDdiSubmitCommand " +
		"DxgkDdiBuildPagingBuffer DxgkDdiSubmitCommand DxgkDdiPatch DxgkDdiSubmitCommand " +
		strings.TrimSpace(strings.Repeat(intr, 4))
	if got != want {
		t.Fatalf("calls:\n%s\nwant\n%s", got, want)
	}
	if len(m.frames) != 1 || m.frames[0].Width != 16 || !bytes.Equal(m.frames[0].Pix[:4], []byte{0, 255, 0, 255}) {
		t.Fatalf("frames %d, first pixel %v", len(m.frames), m.frames[0].Pix[:4])
	}
	// Second frame: resident already, no paging.
	mark = m.rec.Len()
	f = present([4]float32{1, 0, 0, 1})
	ok(t, m.k.WaitForFence(c, f))
	if got := strings.Join(names(m.rec.Since(uint64(mark)), trace.Call, "DxgkDdi"), " "); strings.Contains(got, "BuildPagingBuffer") {
		t.Errorf("second frame paged: %s", got)
	}
	if len(m.frames) != 2 || !bytes.Equal(m.frames[1].Pix[:4], []byte{255, 0, 0, 255}) {
		t.Fatalf("second frame %v", m.frames[1].Pix[:4])
	}
	if fl := m.g.Faults(); len(fl) != 0 {
		t.Fatalf("GPU faults: %v", fl)
	}
}

func TestGPUValidation(t *testing.T) {
	var foreign isa.Builder
	foreign.Write(la(1, 0), []byte{0xef, 0xbe, 0xad, 0xde})
	var past isa.Builder
	past.Write(la(1, 62), []byte{1, 2, 3, 4})
	var outside isa.Builder
	outside.Write(la(9, 0), []byte{1, 2, 3, 4})
	var fence isa.Builder
	fence.Fence(1000)
	tests := []struct {
		desc    string
		cmd     []uint32
		foreign bool // list entry 1 is the other device's allocation
		code    dxgkddi.NTSTATUS
	}{
		{"foreign allocation", foreign.Words, true, dxgkddi.STATUS_INVALID_PARAMETER},
		{"offset past the end", past.Words, false, dxgkddi.STATUS_INVALID_PARAMETER},
		{"index outside the list", outside.Words, false, dxgkddi.STATUS_INVALID_PARAMETER},
		{"privileged opcode", fence.Words, false, dxgkddi.STATUS_ILLEGAL_INSTRUCTION},
		{"malformed buffer", []uint32{0xEE000001, 0}, false, dxgkddi.STATUS_INVALID_PARAMETER},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			for _, bug := range []bool{false, true} {
				var bugs []rules.ID
				if bug {
					bugs = append(bugs, kmd.RuleIsolate)
				}
				m := newMachine(t, 16<<20, bugs...)
				d, c := m.device(t, "app")
				d2, c2 := m.device(t, "victim")
				own := must(m.k.CreateAllocation(d, dxgk.AllocationDesc{Size: 64, Obj: "own"}))
				secret := must(m.k.CreateAllocation(d2, dxgk.AllocationDesc{Size: 64, Obj: "secret", InitialData: []byte("SECRET")}))
				// The victim uses its allocation once, so it is resident.
				ok(t, m.k.WaitForFence(c2, must(m.k.Render(c2, nil, []dxgk.AllocationListEntry{{Allocation: secret}}))))
				second := own
				if tt.foreign {
					second = secret
				}
				list := []dxgk.AllocationListEntry{{Allocation: own}, {Allocation: second, Write: true}}
				f, err := m.k.Render(c, tt.cmd, list)
				if !bug {
					if !errors.Is(err, tt.code) {
						t.Fatalf("err = %v, want %v", err, tt.code)
					}
					if m.k.SubmittedFence(c) != 0 || f != 0 {
						t.Errorf("a rejected buffer took fence %d", m.k.SubmittedFence(c))
					}
					ret := m.rec.Events()
					for i := len(ret) - 1; i >= 0; i-- {
						if ret[i].Name == "DxgkDdiRender" && ret[i].Kind == trace.Return {
							if ret[i].HR != tt.code.Name() || ret[i].Msg == "" {
								t.Errorf("return event %+v", ret[i])
							}
							break
						}
					}
					continue
				}
				if err != nil {
					t.Fatalf("with the bug switch: %v", err)
				}
				m.k.WaitForFence(c, f)
				if tt.foreign {
					// The breach the rule prevents: the victim's memory changed.
					if got := m.pixel(t, d2, secret, 0, 0, 0); !bytes.Equal(got, []byte{0xef, 0xbe, 0xad, 0xde}) {
						t.Errorf("victim's bytes %x: the foreign write did not land", got)
					}
				}
			}
		})
	}
}

func TestGPUHang(t *testing.T) {
	m := newMachine(t, 16<<20)
	d1, c1 := m.device(t, "hung")
	d2, c2 := m.device(t, "healthy")
	rt1 := m.target(d1, 8, 8, "rt1")
	rt2 := m.target(d2, 8, 8, "rt2")
	l1 := []dxgk.AllocationListEntry{{Allocation: rt1, Write: true}}
	l2 := []dxgk.AllocationListEntry{{Allocation: rt2, Write: true}}
	ok(t, m.k.WaitForFence(c1, must(m.k.Render(c1, clear(8, 8, [4]float32{0, 0, 0, 1}), l1))))
	ok(t, m.k.WaitForFence(c2, must(m.k.Render(c2, clear(8, 8, [4]float32{0, 0, 0, 1}), l2))))
	m.g.InjectHang()
	f1 := must(m.k.Render(c1, clear(8, 8, [4]float32{1, 1, 1, 1}), l1))
	f2 := must(m.k.Render(c2, clear(8, 8, [4]float32{0, 0, 1, 1}), l2))
	if err := m.k.WaitForFence(c1, f1); !errors.Is(err, dxgk.ErrDeviceRemoved) {
		t.Fatalf("wait on the hung device: %v", err)
	}
	if !m.k.Removed(d1) || m.k.Removed(d2) {
		t.Fatal("wrong device removed")
	}
	ok(t, m.k.WaitForFence(c2, f2))
	if got := m.pixel(t, d2, rt2, 3, 3, 32); !bytes.Equal(got, []byte{0, 0, 255, 255}) {
		t.Errorf("healthy device's pixel %v", got)
	}
	ok(t, m.k.WaitForFence(c2, must(m.k.Render(c2, clear(8, 8, [4]float32{0, 1, 0, 1}), l2))))
	if got := m.pixel(t, d2, rt2, 3, 3, 32); !bytes.Equal(got, []byte{0, 255, 0, 255}) {
		t.Errorf("healthy device after the TDR: pixel %v", got)
	}
	ok(t, m.k.DestroyDevice(d1))
	ok(t, m.k.DestroyDevice(d2))
	if a, b, c := m.k.Live(); a+b+c != 0 {
		t.Errorf("live %d %d %d", a, b, c)
	}
	if v, ap := m.g.Memory().Committed(); v+ap != 0 {
		t.Errorf("committed after destroying everything: vram %d aperture %d", v, ap)
	}
}

func TestGPUEvictionKeepsContent(t *testing.T) {
	m := newMachine(t, 8192) // two pages of VRAM
	d, c := m.device(t, "dev")
	var hs []dxgk.HAllocation
	for i := 0; i < 4; i++ {
		h := must(m.k.CreateAllocation(d, dxgk.AllocationDesc{Size: 4096, Obj: string(rune('a' + i))}))
		var b isa.Builder
		b.Write(la(0, 100), []byte{byte('A' + i), byte('A' + i)})
		ok(t, m.k.WaitForFence(c, must(m.k.Render(c, b.Words, []dxgk.AllocationListEntry{{Allocation: h, Write: true}}))))
		hs = append(hs, h)
	}
	evictions := 0
	for _, e := range m.rec.Events() {
		if e.Name == "DxgkDdiBuildPagingBuffer" && e.Kind == trace.Call && strings.Contains(e.Args.String(), "vram->system") {
			evictions++
		}
	}
	if evictions != 2 {
		t.Errorf("%d evictions, want 2", evictions)
	}
	// Use them all again, in reverse, and read them back.
	for i := len(hs) - 1; i >= 0; i-- {
		var b isa.Builder
		b.Copy(la(0, 200), la(0, 100), 2)
		ok(t, m.k.WaitForFence(c, must(m.k.Render(c, b.Words, []dxgk.AllocationListEntry{{Allocation: hs[i], Write: true}}))))
	}
	ok(t, m.k.Idle())
	for i, h := range hs {
		got := must(m.k.Lock(d, h))
		if want := []byte{byte('A' + i), byte('A' + i)}; !bytes.Equal(got[100:102], want) || !bytes.Equal(got[200:202], want) {
			t.Errorf("%v: %q %q, want %q", h, got[100:102], got[200:202], want)
		}
		ok(t, m.k.Unlock(d, h))
	}
	if fl := m.g.Faults(); len(fl) != 0 {
		t.Fatalf("GPU faults: %v", fl)
	}
	ok(t, m.k.DestroyDevice(d))
}
