package dxbc

import "strconv"

// A gs_5_0 geometry shader's output signature (OSG5) names each element's
// stream. The listing prints it as the element's name prefixed "m#:"
// (m1:COLOR) when any element is past stream 0, and the assembler reads
// it back, writing OSG5 in place of OSGN.

// hasStreams reports whether an element is past stream 0.
func (s *Signature) hasStreams() bool {
	if s == nil {
		return false
	}
	for _, e := range s.Elements {
		if e.Stream != 0 {
			return true
		}
	}
	return false
}

// streamPrefix splits a listed "m1:COLOR" into its stream and name.
func streamPrefix(listed string) (uint32, string, bool) {
	if len(listed) < 4 || listed[0] != 'm' || listed[2] != ':' || listed[1] < '0' || listed[1] > '3' {
		return 0, listed, false
	}
	return uint32(listed[1] - '0'), listed[3:], true
}

// listedName is an element's name as the listing prints it.
func (e *Element) listedName(streams bool) string {
	if !streams {
		return e.Name
	}
	return "m" + strconv.Itoa(int(e.Stream)) + ":" + e.Name
}

// withOSG5 replaces the container's OSGN with out as OSG5.
func withOSG5(b []byte, out *Signature) ([]byte, error) {
	c, err := Parse(b)
	if err != nil {
		return nil, err
	}
	if ch := c.Chunk("OSGN"); ch != nil {
		ch.FourCC, ch.Data = "OSG5", out.StreamBytes()
	}
	return c.Build()
}

// StreamBytes writes the signature as an OSG5 chunk body, a gs_5_0
// geometry shader's output signature with each element's stream
// (Element.Stream, dcl_stream m#) before its 24-byte row, laid out as
// Bytes lays out OSGN.
func (s *Signature) StreamBytes() []byte {
	w := &writer{}
	w.put32(uint32(len(s.Elements)))
	w.put32(8)
	for _, e := range s.Elements {
		w.put32(e.Stream)
		w.put32(0) // name offset, patched below
		w.put32(e.Index)
		w.put32(uint32(e.SystemValue))
		w.put32(uint32(e.ComponentType))
		w.put32(e.Register)
		w.b = append(w.b, e.Mask, e.ReadWrite, 0, 0)
	}
	for i, e := range s.Elements {
		w.set32(8+28*i+4, w.str(e.Name))
	}
	w.align()
	return w.b
}
