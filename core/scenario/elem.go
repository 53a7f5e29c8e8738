package scenario

import (
	"fmt"
	"math"

	"d3dsim/core/d3d11"
)

// elemDesc reads elem[SemanticName SemanticIndex Format [InputSlot
// [AlignedByteOffset [InputSlotClass [InstanceDataStepRate]]]]], the fields
// of D3D11_INPUT_ELEMENT_DESC in its order (the defaults: slot 0,
// APPEND_ALIGNED, PER_VERTEX, 0). msg says what is wrong, "" if nothing.
func elemDesc(v Value) (d d3d11.InputElementDesc, msg string) {
	if v.Kind != VElem {
		return d, "an input element is elem[SemanticName SemanticIndex Format InputSlot AlignedByteOffset InputSlotClass InstanceDataStepRate]"
	}
	f := v.Elem
	if len(f) < 3 {
		return d, fmt.Sprintf("%s: an element needs at least SemanticName, SemanticIndex and Format", v.Text)
	}
	uintField := func(i int, name string) (uint32, string) {
		if f[i].Kind != VNumber || f[i].Num < 0 || f[i].Num > math.MaxUint32 || f[i].Num != math.Trunc(f[i].Num) {
			return 0, fmt.Sprintf("%s: %s must be an unsigned integer, found %s", v.Text, name, f[i].Text)
		}
		return uint32(f[i].Num), ""
	}
	if f[0].Kind != VIdent {
		return d, fmt.Sprintf("%s: SemanticName must be a name, found %s", v.Text, f[0].Text)
	}
	d.SemanticName = f[0].Ident
	if d.SemanticIndex, msg = uintField(1, "SemanticIndex"); msg != "" {
		return d, msg
	}
	fm, ok := d3d11.Enum("Format")[f[2].Ident]
	if f[2].Kind != VIdent || !ok {
		return d, fmt.Sprintf("%s: unknown Format %s", v.Text, f[2].Text)
	}
	d.Format = d3d11.Format(fm)
	d.AlignedByteOffset = d3d11.AppendAlignedElement
	if len(f) > 3 {
		if d.InputSlot, msg = uintField(3, "InputSlot"); msg != "" {
			return d, msg
		}
	}
	if len(f) > 4 {
		if f[4].Kind == VIdent && f[4].Ident == "APPEND_ALIGNED" {
			d.AlignedByteOffset = d3d11.AppendAlignedElement
		} else if d.AlignedByteOffset, msg = uintField(4, "AlignedByteOffset (or APPEND_ALIGNED)"); msg != "" {
			return d, msg
		}
	}
	if len(f) > 5 {
		c, ok := d3d11.Enum("InputClassification")[f[5].Ident]
		if f[5].Kind != VIdent || !ok {
			return d, fmt.Sprintf("%s: InputSlotClass must be PER_VERTEX or PER_INSTANCE, found %s", v.Text, f[5].Text)
		}
		d.PerInstance = c == 1
	}
	if len(f) > 6 {
		if d.InstanceDataStepRate, msg = uintField(6, "InstanceDataStepRate"); msg != "" {
			return d, msg
		}
	}
	return d, ""
}

func execCreateInputLayout(x *call) error {
	var elems []d3d11.InputElementDesc
	for i := 1; x.has(i); i++ {
		d, _ := elemDesc(x.value(i))
		elems = append(elems, d)
	}
	var l *d3d11.InputLayout
	var err error
	if v := x.value(0); v.Kind != VIdent {
		// The bytecode the real call takes (pShaderBytecodeWithInputSignature).
		l, err = x.dev().CreateInputLayoutBytecode(x.result(0), elems, v.Bytes)
	} else {
		l, err = x.dev().CreateInputLayout(x.result(0), elems, x.shader(0))
	}
	if err == nil {
		x.bind(0, l)
	}
	return err
}
