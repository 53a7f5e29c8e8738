package inspect

import "testing"

// TestResourceMultisampled: a 4-sample texture is listed as its samples
// side by side (texel x*4+s is sample s of pixel x), after tutorial 34's
// draw: pixel 19 of row 30 has its second and fourth samples inside the
// triangle's left edge.
func TestResourceMultisampled(t *testing.T) {
	s, j := session(t, "assets/tutorials/34-multisampling.d3ds")
	draw := at(t, j, "ResolveSubresource")
	r, err := s.Resource(j, draw, "ms", ResourceOptions{X: 76, Y: 30, W: 4, H: 1})
	if err != nil {
		t.Fatal(err)
	}
	if r.Samples != 4 || r.Width != 256 {
		t.Fatalf("samples %d, width %d texels: want 4 and 256", r.Samples, r.Width)
	}
	want := []string{"000000ff", "ffffffff", "000000ff", "ffffffff"}
	for s, w := range want {
		if got := r.Texture.Texels[0][s].Hex; got != w {
			t.Errorf("sample %d of pixel (19, 30): %s, want %s", s, got, w)
		}
	}
}
