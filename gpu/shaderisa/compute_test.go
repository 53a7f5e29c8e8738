package shaderisa

import (
	"errors"
	"strings"
	"testing"
)

// A compute program with every compute-only op and form.
const computeAll = `cs inputs=4 outputs=0 temps=2
dcl_thread_group l(64, 2, 1, 0)
dcl_tgsm g0, l(512, 0, 0, 0)
dcl_tgsm g1, l(256, 16, 0, 0)
ld_uav_typed r0, v0.xyxx, u0.x
store_uav_typed u1.xyzw, v0.xyxx, r0
store_raw g0.xy, v3.x, r0.xyxx
ld_raw r1.xy, v3.x, g0.xyxx
ld_structured r1.x, v0.x, l(4, 0, 0, 0), u2.yxzw
store_structured u3.x, v0.x, l(0, 0, 0, 0), r1.x
sync_g_t
atomic_iadd u4, v0.x, l(1, 0, 0, 0)
atomic_cmp_store g1, v2.xyxx, l(0, 0, 0, 0), r1.x
imm_atomic_iadd r0.x, g0, v3.x, l(1, 0, 0, 0)
imm_atomic_cmp_exch r0.y, u5, v0.x, r1.x, r1.y
imm_atomic_alloc r0.z, u6
imm_atomic_consume r0.w, u7
imm_atomic_umax r1.x, u0, v0.xyxx, r0.x
ret
`

func TestComputeProgramRoundTrips(t *testing.T) {
	p, err := Assemble(computeAll)
	if err != nil {
		t.Fatal(err)
	}
	if p.Stage != StageCompute || p.ThreadGroup() != [3]uint32{64, 2, 1} {
		t.Fatalf("stage %v group %v", p.Stage, p.ThreadGroup())
	}
	sh, words := p.Shared()
	if len(sh) != 2 || sh[1] != (SharedDecl{Bytes: 256, Stride: 16, Word: 128}) || words != 192 {
		t.Fatalf("shared %+v, %d words", sh, words)
	}
	w := p.Encode()
	q, err := Decode(w)
	if err != nil {
		t.Fatal(err)
	}
	if got := q.String(); got != p.String() {
		t.Fatalf("round trip:\n%s\nwant\n%s", got, p.String())
	}
}

func TestComputeProgramRefusals(t *testing.T) {
	for _, c := range []struct{ text, want string }{
		{"cs inputs=4 temps=1\nret\n", "one dcl_thread_group, this one 0"},
		{"cs inputs=4 temps=1\ndcl_thread_group l(1025, 1, 1, 0)\nret\n", "at most 1024 threads"},
		{"cs inputs=4 temps=1\ndcl_thread_group l(32, 32, 2, 0)\nret\n", "at most 1024 threads"},
		{"cs inputs=4 temps=1\ndcl_thread_group l(1, 1, 65, 0)\nret\n", "z 1..64"},
		{"cs inputs=4 temps=1\ndcl_thread_group l(1, 1, 1, 0)\nstore_raw g0.x, v0.x, v0.x\nret\n", "before its dcl_tgsm"},
		{"cs inputs=4 temps=1\ndcl_thread_group l(1, 1, 1, 0)\ndcl_tgsm g0, l(6, 0, 0, 0)\nret\n", "multiple of 4"},
		{"cs inputs=4 temps=1\ndcl_thread_group l(1, 1, 1, 0)\ndcl_tgsm g0, l(32768, 0, 0, 0)\ndcl_tgsm g1, l(4, 0, 0, 0)\nret\n", "past 32768 bytes"},
		{"cs inputs=4 temps=1\ndcl_thread_group l(1, 1, 1, 0)\nstore_raw r0.x, v0.x, v0.x\nret\n", "want u# or g#"},
		{"cs inputs=4 temps=1\ndcl_thread_group l(1, 1, 1, 0)\nmov u0.x, v0.x\nret\n", "destination in register file u"},
		{"cs inputs=4 temps=1\ndcl_thread_group l(1, 1, 1, 0)\nld_uav_typed r0, v0, u8\nret\n", "u8 out of range"},
		{"ps inputs=1 outputs=1 temps=1\nsync_g_t\nret\n", "compute stage only"},
		{"vs inputs=1 outputs=1 temps=1\nstore_raw u0.x, v0.x, v0.x\nret\n", "compute stage only"},
	} {
		p, err := Assemble(c.text)
		if err == nil {
			_, err = p.Check()
		}
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: %v, want %q", c.text, err, c.want)
			continue
		}
		if !errors.Is(err, ErrBadCode) && !strings.Contains(err.Error(), "line") {
			t.Errorf("%q: %v does not wrap ErrBadCode", c.text, err)
		}
	}
}
