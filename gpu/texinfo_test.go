package gpu

import (
	"testing"

	"d3dsim/gpu/isa"
	"d3dsim/gpu/shader"
	"d3dsim/gpu/shaderisa"
)

// The texture unit answers resinfo's question for a bound slot (its size,
// one mip level, no array, one sample), the zero TexInfo for an unbound
// one, and an error for a slot outside the unit. A multisampled view
// (SET_VIEW's samples: isa.ViewWord) gives its count, and resinfo its
// width in pixels: 16 texels of 4 samples are 4 pixels.
func TestTexUnitInfo(t *testing.T) {
	var s state
	s.reset()
	s.tex[isa.StagePS][2] = surface{mem: make([]byte, 64*4*32), w: 64, h: 32, pitch: 256, bpp: 4}
	subs, size, err := isa.Subresources(isa.FmtRGBA8, 16, 2, 1, 1, 1)
	if err != nil {
		t.Fatal(err)
	}
	s.view[isa.StagePS][3] = &texView{kind: isa.ViewTex2D, fm: isa.FmtRGBA8, mem: make([]byte, size), subs: subs, mips: 1, w: 16, h: 2, d: 1,
		slices: 1, nmips: 1, nslice: 1, samples: 4}
	u := texUnit{st: &s, stage: isa.StagePS}
	tests := []struct {
		slot    int
		want    shader.TexInfo
		wantErr bool
	}{
		{slot: 2, want: shader.TexInfo{Width: 64, Height: 32, Mips: 1, Samples: 1}},
		{slot: 3, want: shader.TexInfo{Width: 16, Height: 2, Mips: 1, Kind: isa.ViewTex2D, Samples: 4}},
		{slot: 0, want: shader.TexInfo{}},
		{slot: numTex, wantErr: true},
		{slot: -1, wantErr: true},
	}
	for _, tt := range tests {
		got, err := u.Info(tt.slot)
		if (err != nil) != tt.wantErr || got != tt.want {
			t.Errorf("Info(%d) = %+v, %v; want %+v, error %v", tt.slot, got, err, tt.want, tt.wantErr)
		}
	}
	ms, _ := u.Info(3)
	if got, want := shader.ResInfo(shaderisa.OpResInfoUint, ms, 0), [4]uint32{4, 2, 0, 1}; got != want {
		t.Errorf("resinfo_uint of the 4-sample view: %v, want %v", got, want)
	}
}
