package scenario

import (
	"strings"
	"testing"
)

// TestProbe: expect probe reads texels in their format and compares
// floats within ulps, integers exactly; a failure names the first texel.
func TestProbe(t *testing.T) {
	const setup = `dev, imm = D3D11CreateDevice
t = dev.CreateTexture2D Width=4 Height=2 Format=R8G8B8A8_UNORM BindFlags=RENDER_TARGET
rtv = dev.CreateRenderTargetView t
imm.ClearRenderTargetView rtv 1 0.2 0 1
r = dev.CreateTexture2D Width=2 Height=1 Format=R32_FLOAT BindFlags=SHADER_RESOURCE Data=u32[7 0xfffffffd]
`
	for _, c := range []struct{ probe, fail string }{
		{"expect probe t 0 0 4 2 == f32[1 0.2 0 1]", ""},
		{"expect probe t 1 1 == f32[1]", ""},
		{"expect probe t 0 0 4 2 == f32[1 0.2 0 0.5]", "probe of t: texel (0, 0) is f32[1 0.2 0 1], expected f32[1 0.2 0 0.5] within 0 ulps (8 of 8 texels differ)"},
		{"expect probe t 0 0 == f32[1 0.20000003]", "texel (0, 0) is f32[1 0.2]"},
		{"expect probe t 0 0 == f32[1 0.20000003] ulps=2", ""},
		{"expect probe r 0 0 == u32[7]", ""},
		{"expect probe r 1 0 == i32[-3]", ""},
		{"expect probe r 1 0 == u32[3]", "texel (1, 0) is u32[4294967293], expected u32[3]"},
		{"expect probe r 0 0 2 1 == u32[7]", "1 of 2 texels differ"},
		{"expect probe r 0 0 == u32[7 0]", "compares 2 channels, and r has 1"},
		{"expect probe t 3 0 5 1 == f32[1]", "outside t (4x2)"},
	} {
		r := runText(t, setup+c.probe+"\n", Overrides{})
		s := r.Summary()
		got := strings.Join(s.Failures, "\n")
		if c.fail == "" && got != "" || c.fail != "" && !strings.Contains(got, c.fail) {
			t.Errorf("%s: failures %q, want %q", c.probe, got, c.fail)
		}
	}
}

func TestProbeParseErrors(t *testing.T) {
	for _, c := range []struct{ src, want string }{
		{"expect probe t 1 == f32[1]", "expected X Y or LEFT TOP RIGHT BOTTOM"},
		{"expect probe t 2 2 1 1 == f32[1]", "empty probe rectangle"},
		{"expect probe t 0 0 == u16[1]", "expected f32[...], u32[...] or i32[...]"},
		{"expect probe t 0 0 == u32[1] ulps=3", "ulps= goes with an f32[...] probe"},
		{"expect probe t 0 0 f32[1]", "expected '=='"},
		{"expect probe t 0 0 == i32[3000000000]", "out of range"},
	} {
		_, err := Parse("x", []byte(c.src))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", c.src, err, c.want)
		}
	}
	// A texture's texel has at most four channels (a buffer's words are
	// any number): the checker says so at load.
	_, err5 := Load("x", []byte("dev, imm = D3D11CreateDevice\nt = dev.CreateTexture2D Width=1 Height=1 Format=R32G32B32A32_FLOAT\nexpect probe t 0 0 == f32[1 2 3 4 5]\n"))
	if err5 == nil || !strings.Contains(err5.Error(), "a probe of a texture compares 1 to 4 channels") {
		t.Errorf("five channels of a texture: %v", err5)
	}
	// Names must be resources: the checker says so at load.
	_, err := Load("x", []byte("dev, imm = D3D11CreateDevice\nexpect probe dev 0 0 == f32[1]\n"))
	if err == nil || !strings.Contains(err.Error(), "expect probe needs a resource") {
		t.Errorf("probe of a device: %v", err)
	}
}

// TestF32Infinities: an f32 list takes inf, -inf and nan.
func TestF32Infinities(t *testing.T) {
	s, err := Parse("x", []byte("dev, imm = D3D11CreateDevice\nb = dev.CreateBuffer BindFlags=VERTEX_BUFFER Data=f32[inf -inf nan 1]\n"))
	if err != nil {
		t.Fatal(err)
	}
	v := s.Stmts[1].(*Call).Args[1].Value.F32
	if len(v) != 4 || !(v[0] > 3e38) || !(v[1] < -3e38) || v[2] == v[2] || v[3] != 1 {
		t.Errorf("values %v", v)
	}
}
