package gpu

import (
	"encoding/binary"

	"d3dsim/gpu/isa"
	tfmt "d3dsim/gpu/texel"
)

// clearUAV runs CLEAR_UAV: every element of the view gets the value,
// bit-precise (ClearUnorderedAccessViewUint: a raw or structured view's
// every word v0, a typed view's channels their low bits) or converted from
// float to the view's format (ClearUnorderedAccessViewFloat, typed views
// only). Charged as a clear of as many pixels as the view has elements.
func (ex *executor) clearUAV(p isa.Packet) {
	a := p.Args
	kind, fm := a[2], isa.Format(a[3])
	v, ok := ex.uavLayout(p.Addr(0), kind, fm, a[4], a[5], a[6], a[7], a[8])
	if !ok {
		return
	}
	if !ex.uavSlices(&v, a[14], a[15]) {
		return
	}
	mode, val := a[9], [4]uint32{a[10], a[11], a[12], a[13]}
	var px []byte
	switch {
	case mode != isa.ClearUAVUint && mode != isa.ClearUAVFloat:
		ex.fault("mode %d: CLEAR_UAV clears bit-precise (0) or from floats (1)", mode)
		return
	case kind == isa.ViewRawBuffer || kind == isa.ViewStructured:
		if mode != isa.ClearUAVUint {
			ex.fault("a float clear of a %s view: only typed views convert", isa.ViewKindName(kind))
			return
		}
		px = binary.LittleEndian.AppendUint32(nil, val[0])
	case mode == isa.ClearUAVUint:
		px = make([]byte, fm.Info().Bytes)
		tfmt.EncodeBits(fm, val, px)
	default:
		if n := fm.Info().Number; n == isa.NumUInt || n == isa.NumSInt {
			ex.fault("a float clear of an integer view (format %v)", fm)
			return
		}
		px = make([]byte, fm.Info().Bytes)
		tfmt.Encode(fm, val, 0xF, px)
	}
	if v.Width > 0 {
		for z := range max(v.Depth, 1) {
			s := surface{mem: v.Mem[uint64(z)*uint64(v.SlicePitch):], w: int(v.Width), h: int(v.Height), pitch: int(v.Pitch)}
			fillRect(&s, px)
			ex.chargeClear(s.w, s.h)
		}
		return
	}
	n := len(v.Mem) / len(px) * len(px)
	if kind == isa.ViewBuffer {
		n = int(v.Elements) * len(px)
	}
	row := v.Mem[:n]
	copy(row, px)
	for i := len(px); i < len(row); i *= 2 {
		copy(row[i:], row[:i])
	}
	ex.chargeClear(n/len(px), 1)
}
