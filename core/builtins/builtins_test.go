package builtins

import (
	"d3dsim/core/internal/oracle"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"d3dsim/core/dxbc"
)

// TestBuiltinsCompile: every built-in compiles to bytecode the runtime
// accepts for its stage, with the signatures the built-in vertex and the
// linkage between the built-ins need, and keeps its HLSL reachable by name.
func TestBuiltinsCompile(t *testing.T) {
	want := []string{"ps_fault", "ps_solid", "ps_texture", "ps_vertexcolor", "vs_passthrough", "vs_transform"}
	if got := Names(""); !slices.Equal(got, want) {
		t.Fatalf("Names() = %v, want %v", got, want)
	}
	if got := Names("vs"); !slices.Equal(got, want[4:]) {
		t.Errorf("Names(vs) = %v", got)
	}
	outs := map[string]*dxbc.Signature{}
	for _, n := range want {
		s, err := Lookup(n)
		if err != nil {
			t.Fatal(err)
		}
		pt := map[string]dxbc.ProgramType{"vs": dxbc.VertexShader, "ps": dxbc.PixelShader}[s.Stage]
		sh, err := dxbc.Validate(s.Bytecode, pt)
		if err != nil {
			t.Fatalf("%s: %v", n, err)
		}
		if s.Name != n || s.Target != s.Stage+"_4_0" || !strings.Contains(s.HLSL, "builtin:"+n) {
			t.Errorf("%s: name %q target %q, or its HLSL does not say what it is", n, s.Name, s.Target)
		}
		if s.Stage == "vs" {
			var in []string
			for _, e := range sh.Inputs.Elements {
				in = append(in, e.Name)
			}
			if !slices.Equal(in, []string{"POSITION", "COLOR", "TEXCOORD"}) {
				t.Errorf("%s reads %v, want the built-in vertex", n, in)
			}
			outs[n] = sh.Outputs
		}
	}
	// Every built-in pixel shader links with every built-in vertex shader.
	for _, p := range want[:4] {
		s, _ := Lookup(p)
		sh, _ := dxbc.Validate(s.Bytecode, dxbc.PixelShader)
		for v, out := range outs {
			if err := dxbc.Link(out, sh.Inputs); err != nil {
				t.Errorf("%s -> %s: %v", v, p, err)
			}
		}
	}
}

// TestLookupErrors: an unknown name is an error naming the known ones, and
// the bytecode handed out is the caller's to keep.
func TestLookupErrors(t *testing.T) {
	if _, err := Lookup("vs_magic"); err == nil || !strings.Contains(err.Error(), "vs_passthrough") {
		t.Errorf("unknown name: %v", err)
	}
	a, _ := Lookup("ps_solid")
	a.Bytecode[0] ^= 0xFF
	b, _ := Lookup("ps_solid")
	if b.Bytecode[0] == a.Bytecode[0] {
		t.Error("a caller's change to the bytecode reached the next Lookup")
	}
}

// TestBuiltinsOracle hands every built-in's bytecode to vkd3d-compiler
// (DXBC to SPIR-V) and its output to spirv-val: an independent reader
// accepts them, ps_fault's loop that never ends included. Skipped without
// the tools, except under CI=true.
func TestBuiltinsOracle(t *testing.T) {
	vkd3d, spirvVal := oracle.Tool(t, "vkd3d-compiler"), oracle.Tool(t, "spirv-val")
	dir := t.TempDir()
	for _, n := range Names("") {
		s, err := Lookup(n)
		if err != nil {
			t.Fatal(err)
		}
		in, spv := filepath.Join(dir, n+".dxbc"), filepath.Join(dir, n+".spv")
		if err := os.WriteFile(in, s.Bytecode, 0o644); err != nil {
			t.Fatal(err)
		}
		if out, err := exec.Command(vkd3d, "-x", "dxbc-tpf", "-b", "spirv-binary", "-o", spv, in).CombinedOutput(); err != nil {
			t.Errorf("%s: vkd3d-compiler refused it: %v\n%s", n, err, out)
			continue
		}
		if out, err := exec.Command(spirvVal, spv).CombinedOutput(); err != nil {
			t.Errorf("%s: spirv-val refused vkd3d's translation: %v\n%s", n, err, out)
		}
	}
}
