package dxbc

import (
	"encoding/binary"
	"strings"
	"testing"
)

// TestShaderFeatures: an SFI0 chunk added after the code, read back by
// Validate, listed as fxc notes it, named; a chunk of the wrong size is
// refused.
func TestShaderFeatures(t *testing.T) {
	in, _ := ParseSignature("ISGN", fixtureChunk(t, "nuklear_d3d11_pixel_shader.h", "ISGN"))
	out, _ := ParseSignature("OSGN", fixtureChunk(t, "nuklear_d3d11_pixel_shader.h", "OSGN"))
	blob, err := nuklearPS().Build(in, out, nil)
	if err != nil {
		t.Fatal(err)
	}
	same, err := WithShaderFeatures(blob, 0)
	if err != nil || string(same) != string(blob) {
		t.Fatalf("no features: the container changed (%v)", err)
	}
	f := RequiresDoubles | Requires11_1DoubleExtensions | 1<<40
	withF, err := WithShaderFeatures(blob, f)
	if err != nil {
		t.Fatal(err)
	}
	s, err := Validate(withF, PixelShader)
	if err != nil {
		t.Fatal(err)
	}
	var order []string
	for _, ch := range s.Container.Chunks {
		order = append(order, ch.FourCC)
	}
	if s.Features != f || strings.Join(order, " ") != "ISGN OSGN SHDR SFI0" {
		t.Errorf("features %#x, chunks %v", s.Features, order)
	}
	if got := strings.Join(f.Names(), " "); got != "D3D_SHADER_REQUIRES_DOUBLES D3D_SHADER_REQUIRES_11_1_DOUBLE_EXTENSIONS 0x10000000000" {
		t.Errorf("names %s", got)
	}
	l, err := Listing(s.Container)
	if err != nil {
		t.Fatal(err)
	}
	want := "// Note: shader requires additional functionality:\n//       Double-precision floating point\n//       Double-precision extensions for 11.1\n//       unknown feature 0x10000000000\n"
	if !strings.Contains(l, want) {
		t.Errorf("listing:\n%s\nwant the note\n%s", l, want)
	}
	// Four bytes: refused by name.
	c, _ := Parse(withF)
	ch := c.Chunk("SFI0")
	ch.Data = binary.LittleEndian.AppendUint32(nil, 1)
	bad, err := c.Build()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Validate(bad, PixelShader); err == nil || !strings.Contains(err.Error(), "the SFI0 chunk is 4 bytes, not 8") {
		t.Errorf("a 4-byte SFI0: %v", err)
	}
}
