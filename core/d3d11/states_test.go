package d3d11

import (
	"slices"
	"testing"

	"d3dsim/core/ddi"
	"d3dsim/core/hresult"
)

func count(names []string, name string) int {
	n := 0
	for _, s := range names {
		if s == name {
			n++
		}
	}
	return n
}

// A descriptor equal to a live state object's gives that object back with
// one more reference, without a DDI; the last Release destroys it.
func TestIdenticalStateShared(t *testing.T) {
	f := mustStack(t, fakeOpts{})
	desc := ddi.DefaultBlendDesc()
	a, err := f.dev.CreateBlendState("a", desc)
	if err != nil {
		t.Fatal(err)
	}
	b, err := f.dev.CreateBlendState("b", desc)
	if err != nil {
		t.Fatal(err)
	}
	if a != b {
		t.Fatalf("equal descriptors gave two objects")
	}
	if n := a.refs.Load(); n != 2 {
		t.Errorf("refcount %d, want 2", n)
	}
	if n := count(f.log.names(""), "CreateBlendState"); n != 1 {
		t.Errorf("%d CreateBlendState DDIs, want 1", n)
	}
	if n := count(f.log.names(""), "CalcPrivateBlendStateSize"); n != 1 {
		t.Errorf("%d CalcPrivateBlendStateSize DDIs, want 1", n)
	}
	other := desc
	other.RenderTarget[0].BlendEnable = true
	c, err := f.dev.CreateBlendState("c", other)
	if err != nil || c == a {
		t.Fatalf("a different descriptor: %v, same object %v", err, c == a)
	}
	if n := b.Release(); n != 1 || !a.Alive() {
		t.Fatalf("first Release: %d, alive %v; want 1, alive", n, a.Alive())
	}
	if slices.Contains(f.log.names(""), "DestroyBlendState") {
		t.Fatalf("destroyed with a reference left")
	}
	if n := a.Release(); n != 0 || a.Alive() {
		t.Fatalf("last Release: %d, alive %v", n, a.Alive())
	}
	if n := count(f.log.names(""), "DestroyBlendState"); n != 1 {
		t.Fatalf("%d DestroyBlendState DDIs, want 1", n)
	}
	// Gone: the same descriptor makes a new object.
	d, err := f.dev.CreateBlendState("d", desc)
	if err != nil || d == a {
		t.Fatalf("after destruction: %v, same object %v", err, d == a)
	}
	if n := count(f.log.names(""), "CreateBlendState"); n != 3 {
		t.Errorf("%d CreateBlendState DDIs, want 3", n)
	}
	// The other kinds alike; kinds and devices never share.
	r1, _ := f.dev.CreateRasterizerState("r1", ddi.DefaultRasterizerDesc())
	r2, _ := f.dev.CreateRasterizerState("r2", ddi.DefaultRasterizerDesc())
	z1, _ := f.dev.CreateDepthStencilState("z1", ddi.DefaultDepthStencilDesc())
	z2, _ := f.dev.CreateDepthStencilState("z2", ddi.DefaultDepthStencilDesc())
	s1, _ := f.dev.CreateSamplerState("s1", ddi.DefaultSamplerDesc())
	s2, _ := f.dev.CreateSamplerState("s2", ddi.DefaultSamplerDesc())
	if r1 != r2 || z1 != z2 || s1 != s2 || r1 == nil || z1 == nil || s1 == nil {
		t.Errorf("rasterizer %v, depth-stencil %v, sampler %v: want shared", r1 == r2, z1 == z2, s1 == s2)
	}
	dev2, _, err := f.rt.D3D11CreateDevice("dev2", 0)
	if err != nil {
		t.Fatal(err)
	}
	o, err := dev2.CreateBlendState("o", desc)
	if err != nil || o == d || o.Device() != dev2 {
		t.Fatalf("another device: %v, shared %v", err, o == d)
	}
}

// A state object released while bound is still live: an equal descriptor
// gives it back.
func TestIdenticalStateBound(t *testing.T) {
	f := mustStack(t, fakeOpts{})
	a, _ := f.dev.CreateRasterizerState("a", ddi.DefaultRasterizerDesc())
	if err := f.ic.RSSetState(a); err != nil {
		t.Fatal(err)
	}
	a.Release()
	b, err := f.dev.CreateRasterizerState("b", ddi.DefaultRasterizerDesc())
	if err != nil || b != a {
		t.Fatalf("released while bound: %v, shared %v", err, b == a)
	}
	f.ic.ClearState()
	if !a.Alive() {
		t.Fatalf("unbinding destroyed an object the application holds")
	}
	b.Release()
	f.ic.Flush()
	if a.Alive() || count(f.log.names(""), "DestroyRasterizerState") != 1 {
		t.Fatalf("not destroyed after its last reference: alive %v", a.Alive())
	}
}

// At most MaxUniqueStates distinct state objects of each kind: one more
// fails with D3D11_ERROR_TOO_MANY_UNIQUE_STATE_OBJECTS and the debug layer names the limit; an equal
// descriptor, another kind and room made by a Release still succeed.
func TestUniqueStateLimit(t *testing.T) {
	f := mustStack(t, fakeOpts{debug: true})
	desc := func(i int) ddi.SamplerDesc {
		d := ddi.DefaultSamplerDesc()
		d.BorderColor[0] = float32(i)
		return d
	}
	var first *State
	for i := range MaxUniqueStates {
		s, err := f.dev.CreateSamplerState("s", desc(i))
		if err != nil {
			t.Fatalf("sampler %d: %v", i+1, err)
		}
		if i == 0 {
			first = s
		}
	}
	from := f.seq()
	if _, err := f.dev.CreateSamplerState("s", desc(MaxUniqueStates)); hresult.Of(err) != hresult.D3D11_ERROR_TOO_MANY_UNIQUE_STATE_OBJECTS {
		t.Fatalf("sampler %d: %v, want D3D11_ERROR_TOO_MANY_UNIQUE_STATE_OBJECTS", MaxUniqueStates+1, err)
	}
	if m := f.messages(from); len(m) != 1 || m[0].Name != "CreateSamplerState" {
		t.Errorf("debug messages %v, want one from CreateSamplerState", m)
	}
	if s, err := f.dev.CreateSamplerState("s", desc(7)); err != nil || s == nil {
		t.Errorf("an equal descriptor at the limit: %v", err)
	}
	if _, err := f.dev.CreateBlendState("b", ddi.DefaultBlendDesc()); err != nil {
		t.Errorf("another kind at the sampler limit: %v", err)
	}
	first.Release()
	if _, err := f.dev.CreateSamplerState("s", desc(MaxUniqueStates)); err != nil {
		t.Errorf("after a Release: %v", err)
	}
}
