package gpu

import (
	"fmt"
	"sort"

	"d3dsim/core/xsync"
)

// Memory is the GPU's view of physical memory: an MMU-like sparse model of two
// segments, local video memory [VRAMBase, VRAMBase+VRAM) and the system-memory
// aperture [ApertureBase, ApertureBase+Aperture). Dxgkrnl commits ranges
// (extents) inside them; only committed bytes exist, zero-filled on commit.
// Any GPU access that is not fully inside one committed extent is a page fault
// of the packet that made it.
//
// Memory is safe for concurrent use: Dxgkrnl may commit from the free-threaded
// D3D11 creation paths while the GPU runs. The slices returned by Bytes alias
// the backing store; whoever writes through them orders those writes with the
// GPU the way a driver would (fences).
type Memory struct {
	mu       xsync.Mutex
	vramSize uint64
	apSize   uint64
	ext      []extent // sorted by addr, non-overlapping
	vram, ap uint64   // committed bytes per segment
}

type extent struct {
	addr uint64
	data []byte
}

func (e *extent) end() uint64 { return e.addr + uint64(len(e.data)) }

func newMemory(vram, aperture uint64) *Memory {
	// The VRAM segment must not run into the aperture.
	if vram > ApertureBase-VRAMBase {
		vram = ApertureBase - VRAMBase
	}
	if aperture > ^uint64(0)-ApertureBase {
		aperture = ^uint64(0) - ApertureBase
	}
	return &Memory{vramSize: vram, apSize: aperture}
}

// segment says which segment [addr, addr+size) lies in: 1 VRAM, 2 aperture,
// 0 neither (or straddling).
func (m *Memory) segment(addr, size uint64) int {
	if size == 0 || addr+size < addr {
		return 0
	}
	end := addr + size
	switch {
	case addr >= VRAMBase && end <= VRAMBase+m.vramSize:
		return 1
	case addr >= ApertureBase && end <= ApertureBase+m.apSize:
		return 2
	}
	return 0
}

// find returns the index of the extent containing addr, or -1.
func (m *Memory) find(addr uint64) int {
	// First extent starting after addr; the one before it may contain addr.
	i := sort.Search(len(m.ext), func(i int) bool { return m.ext[i].addr > addr })
	if i > 0 && addr < m.ext[i-1].end() {
		return i - 1
	}
	return -1
}

// Commit makes [addr, addr+size) exist, zero-filled. It fails if the range is
// empty, not inside one segment, or overlaps a committed extent.
func (m *Memory) Commit(addr, size uint64) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	seg := m.segment(addr, size)
	if seg == 0 {
		return fmt.Errorf("gpu: commit [%#x, +%#x) is not inside the VRAM or aperture segment", addr, size)
	}
	i := sort.Search(len(m.ext), func(i int) bool { return m.ext[i].addr >= addr })
	if i > 0 && m.ext[i-1].end() > addr {
		return fmt.Errorf("gpu: commit [%#x, +%#x) overlaps the extent at %#x", addr, size, m.ext[i-1].addr)
	}
	if i < len(m.ext) && m.ext[i].addr < addr+size {
		return fmt.Errorf("gpu: commit [%#x, +%#x) overlaps the extent at %#x", addr, size, m.ext[i].addr)
	}
	m.ext = append(m.ext, extent{})
	copy(m.ext[i+1:], m.ext[i:])
	m.ext[i] = extent{addr: addr, data: make([]byte, size)}
	if seg == 1 {
		m.vram += size
	} else {
		m.ap += size
	}
	return nil
}

// Decommit removes the extent that starts at addr; its bytes are gone.
func (m *Memory) Decommit(addr uint64) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	i := m.find(addr)
	if i < 0 || m.ext[i].addr != addr {
		return fmt.Errorf("gpu: decommit %#x: no committed extent starts there", addr)
	}
	size := uint64(len(m.ext[i].data))
	if m.segment(addr, size) == 1 {
		m.vram -= size
	} else {
		m.ap -= size
	}
	m.ext = append(m.ext[:i], m.ext[i+1:]...)
	return nil
}

// Bytes returns the n bytes at addr, aliasing the backing store. ok is false
// unless [addr, addr+n) is fully inside one committed extent (n == 0 needs
// addr inside an extent).
func (m *Memory) Bytes(addr, n uint64) ([]byte, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	i := m.find(addr)
	if i < 0 {
		return nil, false
	}
	e := &m.ext[i]
	off := addr - e.addr
	if n > uint64(len(e.data))-off {
		return nil, false
	}
	return e.data[off : off+n : off+n], true
}

// Committed returns the committed bytes in each segment.
func (m *Memory) Committed() (vram, aperture uint64) {
	m.mu.Lock()
	v, a := m.vram, m.ap // (no defer: every statement reads it, for the budgets)
	m.mu.Unlock()
	return v, a
}
