package gpu

import (
	"testing"

	"d3dsim/gpu/isa"
	"d3dsim/gpu/shader"
)

// The texture unit answers resinfo's question for a bound slot (its size,
// one mip level, no array), the zero TexInfo for an unbound one, and an
// error for a slot outside the unit.
func TestTexUnitInfo(t *testing.T) {
	var s state
	s.reset()
	s.tex[isa.StagePS][2] = surface{mem: make([]byte, 64*4*32), w: 64, h: 32, pitch: 256, bpp: 4}
	u := texUnit{st: &s, stage: isa.StagePS}
	tests := []struct {
		slot    int
		want    shader.TexInfo
		wantErr bool
	}{
		{slot: 2, want: shader.TexInfo{Width: 64, Height: 32, Mips: 1}},
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
}
