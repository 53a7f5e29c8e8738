package translate

import (
	"d3dsim/core/dxbc"
	"d3dsim/gpu/shaderisa"
)

// uavResinfo translates resinfo of a u# (GetDimensions of a RWTexture*):
// the ISA's resinfo on the view, which reads its width, height and slices
// (a view has one mip level).
func (t *translator) uavResinfo(in *dxbc.Instruction) error {
	ops := in.Operands
	if t.out.Stage != shaderisa.StageCompute && t.out.Stage != shaderisa.StagePixel {
		return t.refuse(dxbc.OpDclUAVTyped)
	}
	m, err := t.memOperand(&ops[2], false)
	if err != nil {
		return err
	}
	if dim := t.uavs[m.Index]; !typedUAVDims[dim] || dim == dxbc.DimBuffer {
		return t.fail("resinfo of u%d, a %s view: GetDimensions of a RWTexture view (a buffer view's is bufinfo)", m.Index, dim)
	}
	x := shaderisa.Inst{Op: shaderisa.OpResInfo, Sat: in.Saturate()}
	switch in.Controls & 3 {
	case dxbc.ResinfoFloat:
	case dxbc.ResinfoRcpFloat:
		x.Op = shaderisa.OpResInfoRcp
	case dxbc.ResinfoUint:
		x.Op = shaderisa.OpResInfoUint
		if x.Sat {
			return t.fail("resinfo_uint with _sat")
		}
	default:
		return t.fail("resinfo with return type %d", in.Controls&3)
	}
	mip, err := t.src(&ops[1])
	if err != nil {
		return err
	}
	if mip.Neg || mip.Abs {
		return t.fail("a modifier on resinfo's mip level")
	}
	d, ok, err := t.dst(&ops[0])
	if err != nil || !ok {
		return err
	}
	x.Dst, x.Src = d, []shaderisa.Operand{mip, m}
	t.emit(x)
	return nil
}
