package gpu

import (
	"encoding/binary"
	"testing"

	"d3dsim/gpu/isa"
)

// TestPixelUAVCounterWrittenBack: a pixel program's append view (its hidden
// counter, imm_atomic_alloc) counts every pixel of a draw, and the counter
// reaches its memory after the draw (endPixelUAVs), draw after draw, also
// for draws after one with no view bound.
func TestPixelUAVCounterWrittenBack(t *testing.T) {
	r := newRig(t)
	a := r.target(8, 4, isa.FmtRGBA8)
	b := r.scene(a, "ps_vertexcolor", nil)
	r.quad(b, a) // no view: nothing to write back
	r.omProgram(b, "ps inputs=2 outputs=1 temps=1\nimm_atomic_alloc r0.x, u1\nmov o0, l(1.0, 0, 0, 1.0)", 0)
	counter := r.buffer(make([]byte, 8))
	list := r.buffer(make([]byte, 4*64))
	b.SetUAV(isa.UAVStageSlot(isa.StagePS, 1), list, isa.ViewRawBuffer, 0, 4*64, 4, 64, 0, 0, counter+4)
	r.quad(b, a)
	r.quad(b, a)
	r.mustExec(b)
	if got := binary.LittleEndian.Uint32(r.mem(counter+4, 4)); got != 2*8*4 {
		t.Fatalf("the append counter is %d after two draws of 32 pixels, want 64", got)
	}
}
