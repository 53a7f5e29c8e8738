package inspect

import (
	"strings"
	"testing"

	"d3dsim/core/scenario"
)

// TestStatePredication: the state view shows SetPredication's predicate and
// value beside the SET_PREDICATION packet the UMD sent before the next
// command, and none once it is turned off.
func TestStatePredication(t *testing.T) {
	src := `dev, imm = D3D11CreateDevice
t = dev.CreateTexture2D Width=8 Height=8 Format=R8G8B8A8_UNORM BindFlags=RENDER_TARGET
rtv = dev.CreateRenderTargetView t
seen = dev.CreatePredicate Query=OCCLUSION_PREDICATE
imm.Begin seen
imm.End seen
imm.SetPredication seen FALSE
imm.ClearRenderTargetView rtv 1 0 0 1
imm.SetPredication NULL
imm.ClearRenderTargetView rtv 0 1 0 1
`
	sc, err := scenario.Load("predication.d3ds", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	r, j := NewSession(sc, scenario.Overrides{}).Run()
	if sum := r.Summary(); !sum.OK() {
		t.Fatal(sum.Failures)
	}
	st, err := j.State(at(t, j, "ClearRenderTargetView#1"), "")
	if err != nil {
		t.Fatal(err)
	}
	p := row(t, st, "Predication", "predicate")
	if p.Object != "seen" || p.Value != "seen (OCCLUSION_PREDICATE): commands skipped while its data is FALSE" || len(p.Packets) != 1 ||
		!strings.HasPrefix(p.Packets[0].Text, "SET_PREDICATION addr=") || strings.HasSuffix(p.Packets[0].Text, "value=1") {
		t.Errorf("predicate at the first clear: %+v", p)
	}
	st, err = j.State(at(t, j, "ClearRenderTargetView#2"), "")
	if err != nil {
		t.Fatal(err)
	}
	if p := row(t, st, "Predication", "predicate"); p.Object != "" || !strings.HasPrefix(p.Value, "none") {
		t.Errorf("predicate at the second clear: %+v", p)
	}
}
