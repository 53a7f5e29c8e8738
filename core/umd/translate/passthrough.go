package translate

import "d3dsim/core/dxbc"

// signatureRegisters is one past the highest register of a signature's
// elements (0 for none). A hull shader without a control-point phase
// passes its input control points through whole: fxc declares none of
// their registers (no phase reads them) and gives it an output signature
// equal to its input one, so the points' size is its input signature's,
// which the domain shader after it reads ("Hull-Shader Stage": with no
// control-point function the points pass through unmodified).
func signatureRegisters(sig *dxbc.Signature) uint32 {
	var n uint32
	if sig == nil {
		return 0
	}
	for _, e := range sig.Elements {
		if e.Register != 0xffffffff {
			n = max(n, e.Register+1)
		}
	}
	return n
}
