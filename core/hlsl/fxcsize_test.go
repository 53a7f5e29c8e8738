package hlsl

import (
	"os"
	"regexp"
	"strings"
	"testing"

	"d3dsim/core/dxbc"
)

// fxcSources are the shaders of core/dxbc/testdata with fxc's compile of
// them: source, entry, the profile d3dsim compiles (fxc's _level_9_x
// profiles are their 4_0 base here), the header.
var fxcSources = []struct{ src, entry, target, header string }{
	{"sdl_D3D11_VertexShader.hlsl", "main", "vs_4_0", "sdl_D3D11_VertexShader.h"},
	{"sdl_D3D11_PixelShader_Colors.hlsl", "main", "ps_4_0", "sdl_D3D11_PixelShader_Colors.h"},
	{"sdl_D3D11_PixelShader_Textures.hlsl", "main", "ps_4_0", "sdl_D3D11_PixelShader_Textures.h"},
	{"sdl_D3D11_PixelShader_Advanced.hlsl", "main", "ps_5_0", "sdl_D3D11_PixelShader_Advanced.h"},
	{"sdl_D3D11_PixelShader_Textures_PQ.hlsl", "main", "ps_5_0", "sdl_D3D11_PixelShader_Textures_PQ.h"},
	{"nuklear_d3d11.hlsl", "vs", "vs_4_0", "nuklear_d3d11_vertex_shader.h"},
	{"nuklear_d3d11.hlsl", "ps", "ps_4_0", "nuklear_d3d11_pixel_shader.h"},
}

var includeRe = regexp.MustCompile(`(?m)^#include "([^"]+)"`)

// readFxcSource reads a source of core/dxbc/testdata, its #include of a
// file beside it written in place (d3dsim compiles one file).
func readFxcSource(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile("../dxbc/testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	return includeRe.ReplaceAllStringFunc(string(b), func(m string) string {
		inc := includeRe.FindStringSubmatch(m)[1]
		b, err := os.ReadFile("../dxbc/testdata/sdl_" + inc)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	})
}

// TestCodeSizeAgainstFxc: on the sources whose fxc output the tests hold,
// d3dsim's code is at most 1.25 times fxc's (instructions, declarations
// left out), in all and for each shader.
func TestCodeSizeAgainstFxc(t *testing.T) {
	ours, theirs := 0, 0
	for _, s := range fxcSources {
		hdr, err := os.ReadFile("../dxbc/testdata/" + s.header)
		if err != nil {
			t.Fatal(err)
		}
		blob, err := dxbc.ParseFxcHeader(string(hdr))
		if err != nil {
			t.Fatal(err)
		}
		c, err := dxbc.Parse(blob)
		if err != nil {
			t.Fatal(err)
		}
		fxcProg, err := dxbc.ParseProgram(progChunk(c))
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for _, in := range fxcProg.Instructions {
			if !strings.HasPrefix(in.Op.String(), "dcl_") && in.Op != dxbc.OpCustomData {
				n++
			}
		}
		r, err := Compile([]byte(readFxcSource(t, s.src)), s.src, s.entry, s.target)
		if err != nil {
			t.Errorf("%s/%s: %v", s.src, s.entry, err)
			continue
		}
		m := len(r.Program.Code)
		t.Logf("%-40s %-3s fxc %3d  d3dsim %3d  %.2fx", s.src, s.entry, n, m, float64(m)/float64(n))
		if float64(m) > 1.25*float64(n)+1 {
			t.Errorf("%s/%s: %d instructions, fxc's %d", s.src, s.entry, m, n)
		}
		ours += m
		theirs += n
	}
	t.Logf("in all: fxc %d, d3dsim %d instructions: %.2fx", theirs, ours, float64(ours)/float64(theirs))
	if float64(ours) > 1.25*float64(theirs) {
		t.Errorf("in all %d instructions, fxc's %d", ours, theirs)
	}
}

func progChunk(c *dxbc.Container) []byte {
	if ch := c.Chunk("SHEX"); ch != nil {
		return ch.Data
	}
	return c.Chunk("SHDR").Data
}
