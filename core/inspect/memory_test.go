package inspect

import (
	"fmt"
	"strings"
	"testing"

	"d3dsim/core/scenario"
)

// TestMemory: memory-pressure's three 512 KiB textures in a 1 MiB VRAM
// segment: a and b are made resident with a FILL, c's residency evicts a
// (the least recently used) by a TRANSFER vram->system first; the bytes in
// use never pass the segment's size.
func TestMemory(t *testing.T) {
	ev, _ := runEvents(t, "assets/scenarios/memory-pressure.d3ds")
	evs := Memory(Events(ev))
	var got []string
	for _, e := range evs {
		if e.Segment == "vram" {
			got = append(got, fmt.Sprintf("%s %s(%s) %s %d", e.What, e.Allocation, e.Obj, e.Op, e.Used>>10))
			if e.Used > 1<<20 {
				t.Errorf("%d bytes of VRAM in use: more than the segment", e.Used)
			}
			if e.DMA == 0 || e.For == 0 || e.Why == "" {
				t.Errorf("a paging event without its buffers: %+v", e)
			}
		}
	}
	want := []string{"resident a2(a) FILL 512", "resident a3(b) FILL 1024", "evicted a2(a) TRANSFER 512", "resident a4(c) FILL 1024"}
	if strings.Join(got, "; ") != strings.Join(want, "; ") {
		t.Errorf("VRAM events:\n got %q\nwant %q", got, want)
	}
	created := 0
	for _, e := range evs {
		if e.What == "created" {
			created++
			if e.Device != "kd1" || e.Size == 0 {
				t.Errorf("created: %+v", e)
			}
		}
	}
	if created != 4 { // the back buffer and the three textures
		t.Errorf("%d allocations created, want 4", created)
	}
	text := MemoryText(evs)
	if !strings.Contains(text, "vram        evicted    a2 (a) 512 KiB; 512 KiB in use; TRANSFER by paging buffer 6 for DMA buffer 4") {
		t.Errorf("text:\n%s", text)
	}
	// Fed one event at a time, the tracker has the same events.
	m := NewMemoryTracker()
	for i := range ev {
		m.Feed(&ev[i])
	}
	if fmt.Sprint(m.Events) != fmt.Sprint(evs) {
		t.Error("fed one at a time, the events differ")
	}
}

// TestMemoryDestroyed: a destroyed allocation leaves its segment and the
// device's count.
func TestMemoryDestroyed(t *testing.T) {
	ev, _ := runEvents(t, "assets/scenarios/sync-destroy.d3ds")
	evs := Memory(Events(ev))
	live := map[string]bool{}
	for _, e := range evs {
		switch e.What {
		case "created":
			live[e.Allocation] = true
		case "destroyed":
			if !live[e.Allocation] {
				t.Errorf("%s destroyed but not created", e.Allocation)
			}
			delete(live, e.Allocation)
		}
	}
	destroyed := strings.Count(MemoryText(evs), " destroyed ")
	if destroyed == 0 {
		t.Fatalf("sync-destroy destroys nothing:\n%s", MemoryText(evs))
	}
	for _, c := range []struct{ text, op, src, dst string }{
		{"op=TRANSFER a2 vram->system 524288B for=4", "TRANSFER", "vram", "system"},
		{"op=FILL a2 vram 524288B pattern=0x0 for=1", "FILL", "", "vram"},
		{"op=MAP_APERTURE_SEGMENT a5 system->aperture 524288B for=3", "MAP_APERTURE_SEGMENT", "system", "aperture"},
		{"op=DISCARD_CONTENT a3 vram 524288B for=2", "DISCARD_CONTENT", "", "vram"},
	} {
		op, src, dst, size, ok := pagingOp(c.text)
		if !ok || op != c.op || src != c.src || dst != c.dst || size != 524288 {
			t.Errorf("pagingOp(%q) = %q %q %q %d %v", c.text, op, src, dst, size, ok)
		}
	}
	for _, bad := range []string{"op=", "op=X a1 vram", "op=FILL a1 vram xB"} {
		if _, _, _, _, ok := pagingOp(bad); ok {
			t.Errorf("pagingOp(%q) read an operation", bad)
		}
	}
}

// TestMemoryAperture: with VRAM full and nothing to evict, the video
// memory manager maps the allocations into the aperture segment.
func TestMemoryAperture(t *testing.T) {
	sc, err := scenario.Load("aperture.d3ds", []byte(`dev, imm = D3D11CreateDevice
a = dev.CreateTexture2D Width=64 Height=64 Format=R8G8B8A8_UNORM BindFlags=RENDER_TARGET
b = dev.CreateTexture2D Width=64 Height=64 Format=R8G8B8A8_UNORM BindFlags=RENDER_TARGET
arv = dev.CreateRenderTargetView a
imm.ClearRenderTargetView arv 1 0 0 1
imm.Flush
inject vram.full
imm.CopyResource b a
imm.Flush
expect pixel b 1 1 == #ff0000ff
`))
	if err != nil {
		t.Fatal(err)
	}
	r, _ := NewSession(sc, scenario.Overrides{}).Run()
	var got []string
	for _, e := range Memory(r.Recorder()) {
		if e.Segment != "" {
			got = append(got, fmt.Sprintf("%s %s %s %s %d", e.What, e.Segment, e.Allocation, e.Op, e.Used>>10))
		}
	}
	want := "mapped aperture a1 MAP_APERTURE_SEGMENT 16; mapped aperture a2 MAP_APERTURE_SEGMENT 32"
	if strings.Join(got, "; ") != want {
		t.Errorf("got  %s\nwant %s", strings.Join(got, "; "), want)
	}
}
