package dxbc

import (
	"bytes"
	"testing"
)

func TestEmbedded(t *testing.T) {
	c, err := BuildShader(&Program{Type: PixelShader, Major: 4, Instructions: []Instruction{{Op: OpRet}}}, nil, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	short := c[:len(c)-4] // its size says 4 bytes more
	for _, tt := range []struct {
		desc string
		in   []byte
		want []byte
	}{
		{"the container alone", c, c},
		{"wrapped", append(append([]byte("FSH\x0b1234"), c...), "attrs"...), c},
		{"a cut one, then a whole one", append(append([]byte{}, short...), c...), c},
		{"only a cut one", short, nil},
		{"the magic alone", []byte("xxDXBC"), nil},
		{"a header that is not a container", append(append([]byte("DXBC"), make([]byte, 20)...), 40, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0), nil},
		{"nothing", []byte("not a shader"), nil},
	} {
		if got := Embedded(tt.in); !bytes.Equal(got, tt.want) {
			t.Errorf("%s: %d bytes, want %d", tt.desc, len(got), len(tt.want))
		}
	}
}
