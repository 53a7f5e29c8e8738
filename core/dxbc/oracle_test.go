package dxbc

import (
	"d3dsim/core/internal/oracle"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

func kitchenSignatures() (in, out *Signature) {
	in = &Signature{Elements: []Element{
		{Name: "SV_Position", SystemValue: SVPosition, ComponentType: ComponentFloat32, Register: 0, Mask: XYZW, ReadWrite: X},
		{Name: "TEXCOORD", ComponentType: ComponentFloat32, Register: 1, Mask: XY, ReadWrite: XY},
		{Name: "TEXCOORD", Index: 1, ComponentType: ComponentFloat32, Register: 2, Mask: X, ReadWrite: X},
	}}
	out = &Signature{Elements: []Element{
		{Name: "SV_Target", ComponentType: ComponentFloat32, Register: 0, Mask: XYZW},
	}}
	return in, out
}

// TestVkd3dAcceptsShaders hands every fixture and every built shader to
// vkd3d-compiler (DXBC -> SPIR-V) and the result to spirv-val: an
// independent reader of the same format accepts what this package writes.
func TestVkd3dAcceptsShaders(t *testing.T) {
	vkd3d := oracle.Tool(t, "vkd3d-compiler")
	spirvVal := oracle.Tool(t, "spirv-val")
	blobs := map[string][]byte{}
	for _, f := range loadFixtures(t) {
		blobs[f.name] = f.bytes
	}
	build := func(name string, b *Builder, in, out *Signature) {
		blob, err := b.Build(in, out, nil)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		blobs[name] = blob
	}
	psIn, _ := ParseSignature("ISGN", fixtureChunk(t, "nuklear_d3d11_pixel_shader.h", "ISGN"))
	psOut, _ := ParseSignature("OSGN", fixtureChunk(t, "nuklear_d3d11_pixel_shader.h", "OSGN"))
	build("built nuklear ps", nuklearPS(), psIn, psOut)
	vsIn, _ := ParseSignature("ISGN", fixtureChunk(t, "sdl_D3D11_VertexShader.h", "ISGN"))
	vsOut, _ := ParseSignature("OSGN", fixtureChunk(t, "sdl_D3D11_VertexShader.h", "OSGN"))
	build("built sdl vs", sdlVS(), vsIn, vsOut)
	kIn, kOut := kitchenSignatures()
	build("built ps_5_0 kitchen", sm5Kitchen(), kIn, kOut)
	build("built every opcode", allOpcodesShader(false), kIn, kOut)

	dir := t.TempDir()
	for name, blob := range blobs {
		t.Run(name, func(t *testing.T) {
			if _, err := Validate(blob, map[bool]ProgramType{true: VertexShader, false: PixelShader}[isVertex(blob)]); err != nil {
				t.Fatal(err)
			}
			in := filepath.Join(dir, "in.dxbc")
			spv := filepath.Join(dir, "out.spv")
			if err := os.WriteFile(in, blob, 0o644); err != nil {
				t.Fatal(err)
			}
			if out, err := exec.Command(vkd3d, "-x", "dxbc-tpf", "-b", "spirv-binary", "-o", spv, in).CombinedOutput(); err != nil {
				t.Fatalf("vkd3d-compiler refused it: %v\n%s", err, out)
			}
			if out, err := exec.Command(spirvVal, spv).CombinedOutput(); err != nil {
				t.Fatalf("spirv-val refused vkd3d's translation: %v\n%s", err, out)
			}
		})
	}
}

func isVertex(blob []byte) bool {
	c, err := Parse(blob)
	if err != nil {
		return false
	}
	p, err := c.Program()
	return err == nil && p.Type == VertexShader
}
