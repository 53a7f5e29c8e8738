package shaderisa

import (
	"slices"
	"strings"
	"testing"
)

// TestInterpRoundTrips: a pixel program's interpolation modes travel in the
// header (HeaderInterp and two words) and in the text form, before the
// immediate constant buffer, and come back from both.
func TestInterpRoundTrips(t *testing.T) {
	const text = `ps inputs=3 outputs=1 temps=1
interp v1 constant
interp v2 noperspective
icb 1, 2, 3, 4
mov r0, v1
add o0, r0, v2
`
	p := mustAsm(t, text)
	if p.Interp[0] != InterpPerspective || p.Interp[1] != InterpConstant || p.Interp[2] != InterpNoPerspective {
		t.Fatalf("modes %v", p.Interp[:3])
	}
	w := p.Encode()
	if w[1]&HeaderInterp == 0 || w[4] != 2<<2|1<<4 || w[5] != 0 || w[6] != 1 || p.HeaderLen() != HeaderWords+2+1+4 {
		t.Fatalf("header %#x, modes %#x %#x, icb length %d, header length %d", w[1], w[4], w[5], w[6], p.HeaderLen())
	}
	q, err := Decode(w)
	if err != nil {
		t.Fatal(err)
	}
	if q.Interp != p.Interp || q.ICB[0] != [4]uint32{1, 2, 3, 4} || !slices.Equal(q.Encode(), w) {
		t.Fatalf("decoded %v %v", q.Interp[:3], q.ICB)
	}
	if s := q.String(); s != text {
		t.Fatalf("text:\n%s\nwant\n%s", s, text)
	}
	if l := q.Listing(); !strings.Contains(l, "v1 constant; v2 linear noperspective;") || !strings.Contains(l, "icb[0]") {
		t.Errorf("listing:\n%s", l)
	}
	// Without modes the header is the first version's.
	if w := mustAsm(t, vertexColor).Encode(); w[1]&HeaderInterp != 0 {
		t.Errorf("header %#x", w[1])
	}
}

// TestInterpRefusals: modes on another stage or past the inputs are bad
// code; a bad interp line a syntax error. Mode 3 is centroid.
func TestInterpRefusals(t *testing.T) {
	p := mustAsm(t, "ps inputs=2 outputs=1 temps=0\ninterp v1 constant\nmov o0, v1\n")
	good := p.Encode()
	for name, edit := range map[string]func(w []uint32){
		"past the inputs": func(w []uint32) { w[4] |= 2 << 6 },
		"all linear":      func(w []uint32) { w[4] = 0 },
		"vertex stage":    func(w []uint32) { w[1] = w[1]&^(0xFF<<16) | uint32(StageVertex)<<16 },
		"short":           func(w []uint32) {},
	} {
		w := slices.Clone(good)
		if name == "short" {
			w = w[:HeaderWords+1]
		}
		edit(w)
		if _, err := Decode(w); err == nil {
			t.Errorf("%s: decoded", name)
		}
	}
	w := slices.Clone(good)
	w[4] |= 3 << 2 // v1: 2 (constant) | 3 = 3
	if q, err := Decode(w); err != nil || q.Interp[1] != InterpCentroid {
		t.Errorf("mode 3: %v, %v", q, err)
	}
	for _, line := range []string{"interp v1", "interp r1 constant", "interp v32 constant", "interp v1 flat"} {
		if _, err := Assemble("ps inputs=2 outputs=1 temps=0\n" + line + "\nmov o0, v1\n"); err == nil {
			t.Errorf("%q assembled", line)
		}
	}
}
