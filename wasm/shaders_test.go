//go:build !js

package main

import (
	"encoding/json"
	"strings"
	"testing"

	"d3dsim/assets"
)

func loadAsset(t *testing.T, a *app, name string) {
	t.Helper()
	src, ok := assets.Scenario(name)
	if !ok {
		t.Fatalf("no scenario %s", name)
	}
	if err := a.load(src); err != nil {
		t.Fatal(err)
	}
}

func shaderListOf(t *testing.T, a *app, have string) shaderList {
	t.Helper()
	b := a.shadersJSON(have)
	if b == nil {
		t.Fatalf("shaders(%q): null", have)
	}
	var l shaderList
	if err := json.Unmarshal(b, &l); err != nil {
		t.Fatal(err)
	}
	return l
}

func shaderTextsOf(t *testing.T, a *app, i int) shaderTexts {
	t.Helper()
	var x shaderTexts
	if err := json.Unmarshal(a.shaderCode(i), &x); err != nil {
		t.Fatal(err)
	}
	return x
}

// The Shaders view of the HLSL example: both shaders, their three columns
// and the one draw, which names the Draw event of the trace the page holds.
func TestShadersViewHLSL(t *testing.T) {
	a := &app{}
	loadAsset(t, a, "hlsl-textured")
	if l := shaderListOf(t, a, ""); len(l.Shaders) != 0 {
		t.Fatalf("before the run: %+v", l)
	}
	runToEnd(t, a)
	l := shaderListOf(t, a, "")
	if len(l.Shaders) != 2 || l.Dropped != 0 {
		t.Fatalf("%+v", l)
	}
	var evs []map[string]any
	if err := json.Unmarshal(a.eventsJSON(0, maxEvents), &evs); err != nil {
		t.Fatal(err)
	}
	for i, want := range []struct{ obj, stage, hlsl, listing, isa string }{
		{"vs", "vs", "vsmain", "vs_4_0", "vs inputs="},
		{"ps", "ps", "Texture2D", "sample", "sample r0, v2.xyxx, t0, s0"},
	} {
		s := l.Shaders[i]
		if s.Index != i || s.Obj != want.obj || s.Stage != want.stage || s.Source != "hlsl" || s.Block != "imgui" || s.DrawCount != 1 {
			t.Fatalf("shader %d: %+v", i, s)
		}
		var draws []shaderUse
		if err := json.Unmarshal(a.shaderDraws(i), &draws); err != nil || len(draws) != 1 {
			t.Fatalf("%s's draws: %v (%v)", s.Obj, draws, err)
		}
		d := draws[0]
		if d.Name != "Draw" || d.Ctx != "IC" || d.Line != 59 {
			t.Errorf("%s's draw: %+v", s.Obj, d)
		}
		if e := evs[d.Seq-1]; e["name"] != "Draw" || e["from"] != "app" || e["kind"] != "call" {
			t.Errorf("%s's draw #%d is %v", s.Obj, d.Seq, e)
		}
		x := shaderTextsOf(t, a, i)
		if !strings.Contains(x.HLSL, want.hlsl) || !strings.Contains(x.Listing, want.listing) || !strings.Contains(x.ISA, want.isa) ||
			x.HLSLNote != "" || x.ListingNote != "" || x.ISANote != "" || !strings.HasPrefix(x.Translation, "// ") {
			t.Errorf("%s's texts: %+v", s.Obj, x)
		}
	}
	// Polled again with nothing new: nothing is encoded.
	if b := a.shadersJSON(l.Version); b != nil {
		t.Errorf("same version %q answered %s", l.Version, b)
	}
	if string(a.shaderCode(2)) != "null" || string(a.shaderCode(-1)) != "null" || string(a.shaderDraws(2)) != "null" {
		t.Error("a shader that does not exist has texts")
	}
	// A new load starts over.
	if err := a.load([]byte(a.source())); err != nil {
		t.Fatal(err)
	}
	if l2 := shaderListOf(t, a, l.Version); len(l2.Shaders) != 0 || l2.Version == l.Version {
		t.Errorf("after a reload: %+v", l2)
	}
}

// Built-in shaders: listed with their HLSL (assets/shaders), the DXBC it
// compiled to and the UMD's translation, like an hlsl block.
func TestShadersViewBuiltin(t *testing.T) {
	a := &app{}
	loadAsset(t, a, "hello-triangle")
	runToEnd(t, a)
	l := shaderListOf(t, a, "")
	if len(l.Shaders) != 2 {
		t.Fatalf("%+v", l)
	}
	for i, s := range l.Shaders {
		if s.Source != "builtin" || s.Builtin == "" || s.DrawCount == 0 {
			t.Errorf("shader %d: %+v", i, s)
		}
		x := shaderTextsOf(t, a, i)
		if x.HLSL == "" || x.HLSLNote != "" || x.Listing == "" || x.ListingNote != "" || x.ISA == "" || x.ISANote != "" || x.Translation == "" {
			t.Errorf("%s's texts: %+v", s.Obj, x)
		}
	}
}
