package apitrace

import (
	"d3dsim/core/scenario"
)

// ClearUnorderedAccessViewUint, ClearUnorderedAccessViewFloat and
// CopyStructureCount with d3d11.h's signatures.

var (
	fnClearUAVUint  = method("ID3D11DeviceContext", "ClearUnorderedAccessViewUint", "pUnorderedAccessView", "Values")
	fnClearUAVFloat = method("ID3D11DeviceContext", "ClearUnorderedAccessViewFloat", "pUnorderedAccessView", "Values")
)

func clearUAVRows() []*row {
	return []*row{
		custom(ctx, "ClearUnorderedAccessViewUint", "context", "ClearUnorderedAccessViewUint", fnClearUAVUint, expClearUAV(fnClearUAVUint, false), impClearUAV(false)),
		custom(ctx, "ClearUnorderedAccessViewFloat", "context", "ClearUnorderedAccessViewFloat", fnClearUAVFloat, expClearUAV(fnClearUAVFloat, true), impClearUAV(true)),
		simple(ctx, "CopyStructureCount", "context", "CopyStructureCount", false, o("pDstBuffer", "BUF"), u("DstAlignedByteOffset", "OFFSET"), o("pSrcView", "UAV")),
	}
}

// expClearUAV writes the four values (the statement's first and the ones
// it gives, 0 for the others).
func expClearUAV(sig *FuncSig, float bool) func(*Exporter, uint64, *scenario.CallRecord) {
	names := [4]string{"V0", "V1", "V2", "V3"}
	if float {
		names = [4]string{"R", "G", "B", "A"}
	}
	return func(e *Exporter, th uint64, r *scenario.CallRecord) {
		vals := make([]Value, 4)
		for i, n := range names {
			if float {
				vals[i] = FloatV(floatArg(r, n))
			} else {
				vals[i] = UintV(uintArg(r, n))
			}
		}
		e.write(th, sig, []Arg{e.this(r), {1, e.obj(objArg(r, "UAV"))}, {2, ArrayV(vals...)}}, nil, nil, 0)
	}
}

func impClearUAV(float bool) func(*importer, *Call, *object) error {
	return func(m *importer, c *Call, ctx *object) error {
		v, err := m.objArg(c, "pUnorderedAccessView", "uav")
		if err != nil {
			return err
		}
		vals := elems(c.Arg("Values"))
		if len(vals) != 4 {
			return skip("Values holds %d values", len(vals))
		}
		name := "ClearUnorderedAccessViewUint"
		if float {
			name = "ClearUnorderedAccessViewFloat"
		}
		text := m.ref(ctx) + "." + name + " " + m.ref(v)
		for i := range vals {
			if float {
				f, err := m.floatOf(&vals[i], "Values")
				if err != nil {
					return err
				}
				text += " " + floatText(f)
				continue
			}
			k, ok := valInt(&vals[i])
			if !ok {
				return skip("Values[%d] is not an integer", i)
			}
			text += " " + fmtU(uint64(uint32(k)))
		}
		m.emit(c, text, "")
		return nil
	}
}
