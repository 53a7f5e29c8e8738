package dxbc

import "strconv"

// A gs_5_0 geometry shader's output signature (OSG5) names each element's
// stream. The listing prints it as the element's name prefixed "m#:"
// (m1:COLOR) when any element is past stream 0, and the assembler reads
// it back (a gs_5_0 shader's output signature is OSG5: BuildShaderGeometry).

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
