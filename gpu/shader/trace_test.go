package shader

import (
	"math"
	"testing"
)

// A traced run keeps, for its quad, every instruction with the lanes that
// ran it and the registers it changed: replaying the writes gives the
// registers at any step, and a discarded lane and an untaken branch show.
func TestTraceSteps(t *testing.T) {
	p := mustAsm(t, `ps inputs=1 outputs=1 temps=1
		mul r0, v0, l(0.5, 0.5, 0.5, 1.0)
		lt r0.w, v0.x, l(1.0, 1.0, 1.0, 1.0)
		if_nz r0.w
		  discard_nz r0.w
		endif
		deriv_rtx o0.x, v0.x
		mov o0.yzw, r0.yyz`)
	m := NewMachine(p)
	// v0.x is the pixel's x within the block: quad 0's lanes 0 and 2
	// (x = 0) are discarded, lanes 1 and 3 (x = 1) survive.
	for y := range 8 {
		for x := range 8 {
			l := QuadLane(x, y)
			m.In(0).F(0)[l] = float32(x)
			m.In(0).F(1)[l] = float32(y)
			m.In(0).F(2)[l] = 4
			m.In(0).F(3)[l] = 1
		}
	}
	tr := &Trace{Quad: 0}
	m.SetTrace(tr)
	alive, err := m.Run(AllLanes)
	tr.Finish(m)
	m.SetTrace(nil)
	if err != nil {
		t.Fatal(err)
	}
	if alive&0xF != 0b1010 {
		t.Fatalf("quad 0 alive %04b, want lanes 1 and 3 (x = 1)", alive&0xF)
	}
	var pcs []int
	for _, s := range tr.Steps {
		pcs = append(pcs, s.PC)
	}
	if want := []int{0, 1, 2, 3, 4, 5, 6}; !equalInts(pcs, want) {
		t.Fatalf("steps ran pcs %v, want %v", pcs, want)
	}
	// discard_nz ran on the lanes with x < 1 (lanes 0 and 2 of quad 0).
	if s := tr.Steps[3]; s.Active != 0b0101 {
		t.Errorf("discard_nz active lanes %04b, want 0101", s.Active)
	}
	if s := tr.Steps[5]; s.Alive != 0b1010 {
		t.Errorf("after the discard alive %04b, want 1010", s.Alive)
	}
	// r0 = v0 * 0.5 after step 0: lane 1 is x = 1, y = 0.
	r0 := tr.Inputs + tr.Outputs
	regs := tr.At(1)
	if got := math.Float32frombits(regs[Index(r0, 0, 1)]); got != 0.5 {
		t.Errorf("r0.x of lane 1 after mul = %v, want 0.5", got)
	}
	if got := math.Float32frombits(regs[Index(r0, 2, 1)]); got != 2 {
		t.Errorf("r0.z of lane 1 after mul = %v, want 2", got)
	}
	// deriv_rtx of x is 1; the end state has it in o0.x of the lanes
	// still running (the discarded ones stopped before).
	end := tr.At(len(tr.Steps))
	for _, l := range []int{1, 3} {
		if got := math.Float32frombits(end[Index(tr.Inputs, 0, l)]); got != 1 {
			t.Errorf("o0.x lane %d = %v, want 1", l, got)
		}
	}
	// A write that leaves a value as it was is no change: r0.x of the x
	// = 0 lanes and r0.y of the y = 0 lanes stay 0.
	if len(tr.Steps[0].Writes) != 12 {
		t.Errorf("mul r0 changed %d components of the quad, want 12", len(tr.Steps[0].Writes))
	}
}

// A trace stops at its Limit and says so.
func TestTraceLimit(t *testing.T) {
	p := mustAsm(t, `ps inputs=0 outputs=1 temps=1
		mov r0.x, l(0, 0, 0, 0)
		loop
		  iadd r0.x, r0.x, l(1, 1, 1, 1)
		  uge r0.y, r0.x, l(100, 100, 100, 100)
		  breakc_nz r0.y
		endloop
		mov o0, r0`)
	m := NewMachine(p)
	tr := &Trace{Quad: 3, Limit: 50}
	m.SetTrace(tr)
	if _, err := m.Run(AllLanes); err != nil {
		t.Fatal(err)
	}
	tr.Finish(m)
	if !tr.Truncated || len(tr.Steps) != 50 {
		t.Fatalf("truncated %v with %d steps, want true with 50", tr.Truncated, len(tr.Steps))
	}
}

func equalInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
