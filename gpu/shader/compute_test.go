package shader

import (
	"encoding/binary"
	"errors"
	"testing"

	. "d3dsim/gpu/shaderisa"
)

// runGroups runs a compute program over groups of its dcl_thread_group,
// filling v0..v3 as the GPU does (a one-dimensional dispatch).
func runGroups(t *testing.T, m *Machine, groups int) error {
	t.Helper()
	g := m.Program().ThreadGroup()
	n := int(g[0] * g[1] * g[2])
	for gid := range groups {
		shared := make([]uint32, m.SharedWords())
		_, err := m.RunGroup(n, shared, func(b int) {
			for l := range Lanes {
				idx := uint32(b*Lanes + l)
				tx, ty, tz := idx%g[0], idx/g[0]%g[1], idx/(g[0]*g[1])
				m.In(0)[0][l], m.In(0)[1][l], m.In(0)[2][l] = uint32(gid)*g[0]+tx, ty, tz
				m.In(1)[0][l], m.In(1)[1][l], m.In(1)[2][l] = uint32(gid), 0, 0
				m.In(2)[0][l], m.In(2)[1][l], m.In(2)[2][l] = tx, ty, tz
				m.In(3)[0][l] = idx
			}
		})
		if err != nil {
			return err
		}
	}
	return nil
}

func words(b []byte) []uint32 {
	out := make([]uint32, len(b)/4)
	for i := range out {
		out[i] = binary.LittleEndian.Uint32(b[4*i:])
	}
	return out
}

// An inclusive prefix sum over 256 threads (four blocks) in groupshared
// memory, with barriers inside a loop: the result is only right if every
// thread passes each barrier before any goes on.
const prefixSum = `cs inputs=4 outputs=0 temps=3
dcl_thread_group l(256, 1, 1, 0)
dcl_tgsm g0, l(1024, 0, 0, 0)
ishl r0.x, v3.x, l(2, 2, 2, 2)
iadd r1.x, v3.x, l(1, 1, 1, 1)
store_raw g0.x, r0.x, r1.x
sync_g_t
mov r2.x, l(1, 1, 1, 1)
loop
  uge r1.y, r2.x, l(256, 256, 256, 256)
  breakc_nz r1.y
  ld_raw r1.z, r0.x, g0.xxxx
  uge r1.w, v3.x, r2.x
  iadd r1.y, v3.x, -r2.x
  ishl r1.y, r1.y, l(2, 2, 2, 2)
  ld_raw r1.y, r1.y, g0.xxxx
  and r1.y, r1.y, r1.w
  iadd r1.z, r1.z, r1.y
  sync_g_t
  store_raw g0.x, r0.x, r1.z
  sync_g_t
  ishl r2.x, r2.x, l(1, 1, 1, 1)
endloop
ld_raw r1.x, r0.x, g0.xxxx
ishl r0.y, v0.x, l(2, 2, 2, 2)
store_raw u0.x, r0.y, r1.x
ret
`

func TestComputePrefixSumAcrossBlocks(t *testing.T) {
	m := NewMachine(mustAsm(t, prefixSum))
	out := make([]byte, 4*512)
	m.BindCompute([MaxUAVs]*UAV{0: {Kind: ViewRawBuffer, Mem: out, Elements: 512}})
	if err := runGroups(t, m, 2); err != nil {
		t.Fatal(err)
	}
	for i, v := range words(out) {
		tid := uint32(i % 256)
		if want := (tid + 1) * (tid + 2) / 2; v != want {
			t.Fatalf("element %d = %d, want %d", i, v, want)
		}
	}
}

// A histogram with atomics on a raw view, a groupshared counter returned
// by imm_atomic_iadd (each thread a distinct slot), compare-exchange, and
// structured and typed stores.
const histogram = `cs inputs=4 outputs=0 temps=2
dcl_thread_group l(100, 1, 1, 0)
dcl_tgsm g0, l(4, 0, 0, 0)
ishl r0.x, v0.x, l(2, 2, 2, 2)
ld_raw r0.y, r0.x, u0.xxxx
and r0.y, r0.y, l(7, 7, 7, 7)
ishl r0.y, r0.y, l(2, 2, 2, 2)
atomic_iadd u1, r0.y, l(1, 1, 1, 1)
imm_atomic_iadd r1.x, g0, l(0, 0, 0, 0), l(1, 1, 1, 1)
store_structured u2.xy, r1.x, l(0, 0, 0, 0), v0.xxxx
imm_atomic_cmp_exch r1.y, u3, l(0, 0, 0, 0), l(0, 0, 0, 0), v0.x
atomic_umax u3, l(4, 4, 4, 4), v0.x
store_uav_typed u4.xyzw, v0.xxxx, r1.xxxx
ret
`

type r32 struct{}

func (r32) Load(b []byte) [4]uint32     { return [4]uint32{binary.LittleEndian.Uint32(b), 0, 0, 1} }
func (r32) Store(b []byte, v [4]uint32) { binary.LittleEndian.PutUint32(b, v[0]) }

func TestComputeAtomicHistogram(t *testing.T) {
	m := NewMachine(mustAsm(t, histogram))
	in := make([]byte, 4*100)
	want := make([]uint32, 8)
	for i := range 100 {
		v := uint32(i*i*7 + 3)
		binary.LittleEndian.PutUint32(in[4*i:], v)
		want[v&7]++
	}
	hist := make([]byte, 4*8)
	structs := make([]byte, 8*100)
	first := make([]byte, 8)
	binary.LittleEndian.PutUint32(first, 0)
	typed := make([]byte, 4*100)
	m.BindCompute([MaxUAVs]*UAV{
		0: {Kind: ViewRawBuffer, Mem: in},
		1: {Kind: ViewRawBuffer, Mem: hist},
		2: {Kind: ViewStructured, Mem: structs, Stride: 8, Elements: 100},
		3: {Kind: ViewRawBuffer, Mem: first},
		4: {Kind: ViewBuffer, Mem: typed, Stride: 4, Elements: 99, Typed: r32{}},
	})
	if err := runGroups(t, m, 1); err != nil {
		t.Fatal(err)
	}
	for i, v := range words(hist) {
		if v != want[i] {
			t.Fatalf("bin %d = %d, want %d (all %v, want %v)", i, v, want[i], words(hist), want)
		}
	}
	// Thread i took slot i (lanes in order), wrote (i, i) there.
	for i, v := range words(structs) {
		if v != uint32(i/2) {
			t.Fatalf("structured word %d = %d, want %d", i, v, i/2)
		}
	}
	// cmp_exch with 0 succeeds for thread 0 (writes 0), then 1 writes 1 (0
	// == 0 again)... each thread whose comparand matches: 0 then 1 and no
	// more; umax leaves 99 in the second word.
	if got := words(first); got[0] != 1 || got[1] != 99 {
		t.Fatalf("cmp_exch, umax = %v, want [1 99]", got)
	}
	// The typed view has 99 elements: thread 99's store is dropped.
	for i, v := range words(typed) {
		want := uint32(i)
		if i == 99 {
			want = 0
		}
		if v != want {
			t.Fatalf("typed element %d = %d, want %d", i, v, want)
		}
	}
}

// A group that loops forever faults at the step limit, multi-block or not.
func TestComputeEndlessLoopFaults(t *testing.T) {
	for _, n := range []int{64, 200} {
		src := "cs inputs=4 outputs=0 temps=1\ndcl_thread_group l(" + itoa(n) + ", 1, 1, 0)\nloop\nsync_g_t\nendloop\nret\n"
		m := NewMachine(mustAsm(t, src))
		m.StepLimit = 1000
		err := runGroups(t, m, 1)
		if !errors.Is(err, ErrStepLimit) {
			t.Fatalf("%d threads: %v, want the step limit", n, err)
		}
	}
}
