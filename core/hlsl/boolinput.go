package hlsl

// A bool input that a user semantic names (a vertex element, or what the
// previous stage wrote) holds whatever 32 bits arrived, true when they are
// not zero: vkd3d's bool-semantics case, run on Direct3D 11 hardware, reads
// 0x80000000 as true. In registers true is all bits set, and a bool becomes
// an int or float by an `and` with 1, so such an input is read once through
// `ine t, v, 0` into a temp, as a bool of a constant buffer is (gen.go).
// System values (SV_IsFrontFace) arrive as all bits set or zero already.

// noteBoolInput marks v, an input element of a user semantic, when it is a
// bool.
func (g *gen) noteBoolInput(v *value) {
	if v.t.Base != Bool || !v.t.numeric() {
		return
	}
	if g.boolIns == nil {
		g.boolIns = map[*value]bool{}
	}
	g.boolIns[v] = true
}

// hasBoolInput reports whether v, an entry point's input, has such a bool
// in it.
func (g *gen) hasBoolInput(v *value) bool {
	if g.boolIns[v] {
		return true
	}
	for _, f := range v.fields {
		if g.hasBoolInput(f) {
			return true
		}
	}
	for _, e := range v.elems {
		if g.hasBoolInput(e) {
			return true
		}
	}
	return false
}

// boolInputsRead is v with each such bool read through `ine`; called once
// the input registers are placed.
func (g *gen) boolInputsRead(v *value) *value {
	if !g.hasBoolInput(v) {
		return v
	}
	if g.boolIns[v] {
		return &value{t: v.t, c: g.op(OpIne, len(v.c), v.c, []Operand{immU(0)}), ro: true}
	}
	n := *v
	n.fields, n.elems = nil, nil
	for _, f := range v.fields {
		n.fields = append(n.fields, g.boolInputsRead(f))
	}
	for _, e := range v.elems {
		n.elems = append(n.elems, g.boolInputsRead(e))
	}
	return &n
}
