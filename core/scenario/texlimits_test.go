package scenario

import (
	"strings"
	"testing"
)

// TestTextureSizeAndFormatNames: a 16384x16384 texture, inside the
// runtime's range at feature level 11_0, is not the driver's "internal
// error" (D3D11 CORRUPTION) but the device's memory running out; a
// format the device lacks is named, not numbered.
func TestTextureSizeAndFormatNames(t *testing.T) {
	src := `dev, imm = D3D11CreateDevice Flags=DEBUG
t = dev.CreateTexture2D Width=16 Height=16 Format=R1_UNORM BindFlags=SHADER_RESOURCE
expect hr == E_INVALIDARG
big = dev.CreateTexture2D Width=16384 Height=16384 Format=R8G8B8A8_UNORM BindFlags=SHADER_RESOURCE
expect hr == E_OUTOFMEMORY
wide = dev.CreateTexture2D Width=16384 Height=1024 Format=R8G8B8A8_UNORM BindFlags=RENDER_TARGET
expect violations == 0
`
	r := runSource(t, src)
	s := r.Summary()
	if !s.OK() {
		t.Fatalf("%s", strings.Join(s.Failures, "\n"))
	}
	all := strings.Join(s.Messages, "\n")
	if strings.Contains(all, "CORRUPTION") || strings.Contains(all, "format 2 ") {
		t.Errorf("messages:\n%s", all)
	}
	for _, want := range []string{"format R1_UNORM is not a supported texture format", "1073741824 more bytes would pass the memory limit"} {
		if !strings.Contains(all, want) {
			t.Errorf("no message %q in:\n%s", want, all)
		}
	}
}
