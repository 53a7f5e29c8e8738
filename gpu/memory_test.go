package gpu

import "testing"

func TestMemory(t *testing.T) {
	m := newMemory(1<<20, 1<<16)
	type step struct {
		desc   string
		commit [2]uint64 // addr, size (size 0: decommit addr)
		ok     bool
	}
	steps := []step{
		{"commit in VRAM", [2]uint64{VRAMBase + 4096, 8192}, true},
		{"commit in the aperture", [2]uint64{ApertureBase, 4096}, true},
		{"overlap at the start", [2]uint64{VRAMBase, 8192}, false},
		{"overlap at the end", [2]uint64{VRAMBase + 8192, 8192}, false},
		{"inside", [2]uint64{VRAMBase + 5000, 10}, false},
		{"covering", [2]uint64{VRAMBase, 1 << 16}, false},
		{"adjacent before", [2]uint64{VRAMBase, 4096}, true},
		{"adjacent after", [2]uint64{VRAMBase + 12288, 4096}, true},
		{"below VRAM", [2]uint64{VRAMBase - 4096, 4096}, false},
		{"past the end of VRAM", [2]uint64{VRAMBase + 1<<20 - 4096, 8192}, false},
		{"past the end of the aperture", [2]uint64{ApertureBase + 1<<16, 1}, false},
		{"between the segments", [2]uint64{VRAMBase + 1<<21, 4096}, false},
		{"wrapping around", [2]uint64{^uint64(0) - 10, 100}, false},
		{"empty", [2]uint64{VRAMBase + 1<<19, 0}, false},
	}
	for _, s := range steps {
		err := m.Commit(s.commit[0], s.commit[1])
		if (err == nil) != s.ok {
			t.Errorf("%s: Commit(%#x, %#x) = %v, want ok=%v", s.desc, s.commit[0], s.commit[1], err, s.ok)
		}
	}
	if v, a := m.Committed(); v != 16384 || a != 4096 {
		t.Errorf("Committed() = %d, %d; want 16384, 4096", v, a)
	}

	tests := []struct {
		desc string
		addr uint64
		n    uint64
		ok   bool
	}{
		{"whole extent", VRAMBase + 4096, 8192, true},
		{"inside", VRAMBase + 5000, 100, true},
		{"across two adjacent extents", VRAMBase + 4000, 200, false},
		{"past the end", VRAMBase + 12287, 2, false},
		{"uncommitted", VRAMBase + 1<<19, 1, false},
		{"empty inside", VRAMBase + 12287, 0, true},
		{"huge n", VRAMBase + 4096, ^uint64(0), false},
		{"null", 0, 4, false},
	}
	for _, tc := range tests {
		b, ok := m.Bytes(tc.addr, tc.n)
		if ok != tc.ok || (ok && uint64(len(b)) != tc.n) {
			t.Errorf("%s: Bytes(%#x, %d) = len %d, %v; want ok=%v", tc.desc, tc.addr, tc.n, len(b), ok, tc.ok)
		}
	}

	// Bytes aliases the store, zero-filled at commit.
	b, _ := m.Bytes(VRAMBase+4096, 4)
	if b[0] != 0 {
		t.Error("commit is not zero-filled")
	}
	b[0] = 42
	if c, _ := m.Bytes(VRAMBase+4096, 1); c[0] != 42 {
		t.Error("Bytes does not alias the backing store")
	}

	if err := m.Decommit(VRAMBase + 5000); err == nil {
		t.Error("Decommit in the middle of an extent succeeded")
	}
	if err := m.Decommit(VRAMBase + 4096); err != nil {
		t.Error(err)
	}
	if _, ok := m.Bytes(VRAMBase+4096, 1); ok {
		t.Error("decommitted memory is still there")
	}
	if err := m.Decommit(VRAMBase + 4096); err == nil {
		t.Error("double Decommit succeeded")
	}
	if v, a := m.Committed(); v != 8192 || a != 4096 {
		t.Errorf("Committed() = %d, %d; want 8192, 4096", v, a)
	}
	if err := m.Commit(VRAMBase+4096, 8192); err != nil {
		t.Errorf("recommit: %v", err)
	}
	if b, _ := m.Bytes(VRAMBase+4096, 1); b[0] != 0 {
		t.Error("recommitted memory kept old contents")
	}
}
