package dxbc

import (
	"bytes"
	"encoding/binary"
)

// Embedded returns the first DXBC container inside b that parses (its size,
// the header's total at byte 24, fits in what follows it), or nil: engines
// ship compiled shaders wrapped in files of their own (bgfx's .bin files put
// a header of uniforms before the container and the vertex attributes after
// it), and the container inside is what fxc wrote.
func Embedded(b []byte) []byte {
	for off := 0; ; {
		i := bytes.Index(b[off:], []byte("DXBC"))
		if i < 0 {
			return nil
		}
		i += off
		if i+32 <= len(b) {
			n := int(binary.LittleEndian.Uint32(b[i+24:]))
			if n >= 32 && n <= len(b)-i {
				if _, err := Parse(b[i : i+n]); err == nil {
					return b[i : i+n]
				}
			}
		}
		off = i + 1
	}
}
