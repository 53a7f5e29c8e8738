package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestDxbcVerb(t *testing.T) {
	dir := t.TempDir()
	header := filepath.Join("..", "..", "core", "dxbc", "testdata", "sdl_D3D11_PixelShader_Textures.h")
	text, err := os.ReadFile(header)
	if err != nil {
		t.Fatal(err)
	}
	// The same shader as a compiled blob: the bytes of the header's array.
	blob := filepath.Join(dir, "ps.cso")
	_, out, _ := runCLI("dxbc", header)
	if !strings.Contains(out, "sample r0.xyzw, v1.xyxx, t0.xyzw, s0") {
		t.Fatalf("listing lacks the sample:\n%s", out)
	}
	raw := headerBytes(t, string(text))
	os.WriteFile(blob, raw, 0o644)
	bad := append([]byte{}, raw...)
	bad[len(bad)-1] ^= 1
	badPath := filepath.Join(dir, "bad.cso")
	os.WriteFile(badPath, bad, 0o644)
	for _, tc := range []struct {
		desc string
		args []string
		code int
		want string
	}{
		{"header", []string{"dxbc", header}, 0, "// SV_TARGET                0   xyzw        0   TARGET   float   xyzw"},
		{"blob", []string{"dxbc", blob}, 0, "dcl_resource_texture2d (float,float,float,float) t0"},
		{"valid stage", []string{"dxbc", blob, "--stage", "ps"}, 0, "// valid ps shader"},
		{"wrong stage", []string{"dxbc", blob, "--stage", "vs"}, 1, "is a pixel shader (ps_4_0), not the vertex shader"},
		{"bad stage", []string{"dxbc", blob, "--stage", "xs"}, 2, `--stage "xs": must be vs, ps, gs, hs, ds or cs`},
		{"other stage", []string{"dxbc", blob, "--stage", "cs"}, 1, "is a pixel shader (ps_4_0), not the compute shader"},
		{"checksum", []string{"dxbc", badPath}, 2, "DXBC checksum mismatch"},
		{"not a shader", []string{"dxbc", header + ".missing"}, 2, "no such file"},
		{"no file", []string{"dxbc"}, 2, "give one FILE"},
	} {
		code, out, errOut := runCLI(tc.args...)
		if code != tc.code || !strings.Contains(out+errOut, tc.want) {
			t.Errorf("%s: exit %d, output %q%q; want exit %d containing %q", tc.desc, code, out, errOut, tc.code, tc.want)
		}
	}
}

// headerBytes reads the numbers of the header's array, without the
// package under test.
func headerBytes(t *testing.T, text string) []byte {
	t.Helper()
	_, arr, ok := strings.Cut(text, "g_main[] =")
	if !ok {
		t.Fatal("no array")
	}
	arr, _, _ = strings.Cut(arr, "}")
	var out []byte
	for _, f := range strings.FieldsFunc(arr, func(r rune) bool { return r == ',' || r == '{' || r == ' ' || r == '\n' || r == '\r' || r == '\t' }) {
		var v int
		for _, c := range f {
			v = v*10 + int(c-'0')
		}
		out = append(out, byte(v))
	}
	return out
}
