package inspect

import (
	"fmt"
	"reflect"
	"sort"
	"strconv"
	"strings"

	"d3dsim/core/ddi"
	"d3dsim/core/dxbc"
)

// Words for the values the state shows: enumerations by their D3D11 names,
// descriptors field by field, constant buffers by their reflection.

// enumKinds maps the DDI's enumeration types to their tables in ddi.Enums.
var enumKinds = map[reflect.Type]string{
	reflect.TypeOf(ddi.Topology(0)):       "Topology",
	reflect.TypeOf(ddi.Blend(0)):          "Blend",
	reflect.TypeOf(ddi.StencilOp(0)):      "StencilOp",
	reflect.TypeOf(ddi.BlendOp(0)):        "BlendOp",
	reflect.TypeOf(ddi.CullMode(0)):       "CullMode",
	reflect.TypeOf(ddi.FillMode(0)):       "FillMode",
	reflect.TypeOf(ddi.ComparisonFunc(0)): "Comparison",
	reflect.TypeOf(ddi.Filter(0)):         "Filter",
	reflect.TypeOf(ddi.AddressMode(0)):    "Address",
}

// enumName is value v of enumeration kind by its name (the number when
// the table has none; of several names for one value, the first in order).
func enumName(kind string, v uint32) string {
	var names []string
	for n, x := range ddi.Enums[kind] {
		if x == v {
			names = append(names, n)
		}
	}
	if len(names) == 0 {
		return strconv.FormatUint(uint64(v), 10)
	}
	sort.Strings(names)
	return names[0]
}

// descFields lists a descriptor's fields (a blend, rasterizer,
// depth-stencil or sampler descriptor) and sums it up in a few words.
func descFields(desc any) (summary string, fields []Field) {
	v := reflect.ValueOf(desc)
	if !v.IsValid() {
		return "", nil
	}
	walkFields("", v, &fields)
	switch d := desc.(type) {
	case ddi.BlendDesc:
		rt := d.RenderTarget[0]
		if !rt.BlendEnable {
			summary = "blending off"
		} else {
			summary = fmt.Sprintf("%s * src %s %s * dst", enumName("Blend", uint32(rt.SrcBlend)), enumName("BlendOp", uint32(rt.BlendOp)), enumName("Blend", uint32(rt.DestBlend)))
		}
		summary += fmt.Sprintf(", write mask %#x", rt.RenderTargetWriteMask)
		if d.IndependentBlendEnable {
			summary += ", independent per target"
		}
		// Targets past the first that are the first's (without
		// IndependentBlendEnable) are left out.
		if !d.IndependentBlendEnable {
			var kept []Field
			for _, f := range fields {
				if !strings.HasPrefix(f.Name, "RenderTarget[") || strings.HasPrefix(f.Name, "RenderTarget[0]") {
					kept = append(kept, f)
				}
			}
			fields = kept
		}
	case ddi.RasterizerDesc:
		summary = fmt.Sprintf("fill %s, cull %s", enumName("FillMode", uint32(d.FillMode)), enumName("CullMode", uint32(d.CullMode)))
	case ddi.DepthStencilDesc:
		if d.DepthEnable {
			summary = "depth " + enumName("Comparison", uint32(d.DepthFunc))
			if !d.DepthWriteMask {
				summary += " (no write)"
			}
		} else {
			summary = "depth off"
		}
		if d.StencilEnable {
			summary += ", stencil on"
		}
	case ddi.SamplerDesc:
		summary = fmt.Sprintf("%s, %s/%s", enumName("Filter", uint32(d.Filter)), enumName("Address", uint32(d.AddressU)), enumName("Address", uint32(d.AddressV)))
	}
	return summary, fields
}

// walkFields appends v's fields, named by their path.
func walkFields(prefix string, v reflect.Value, out *[]Field) {
	t := v.Type()
	switch v.Kind() {
	case reflect.Struct:
		for i := range t.NumField() {
			if !t.Field(i).IsExported() {
				continue
			}
			name := t.Field(i).Name
			if prefix != "" {
				name = prefix + "." + name
			}
			walkFields(name, v.Field(i), out)
		}
		return
	case reflect.Array:
		if t.Elem().Kind() == reflect.Float32 {
			var parts []string
			for i := range v.Len() {
				parts = append(parts, strconv.FormatFloat(v.Index(i).Float(), 'g', -1, 32))
			}
			*out = append(*out, Field{prefix, strings.Join(parts, " ")})
			return
		}
		for i := range v.Len() {
			walkFields(fmt.Sprintf("%s[%d]", prefix, i), v.Index(i), out)
		}
		return
	}
	if kind, ok := enumKinds[t]; ok {
		*out = append(*out, Field{prefix, enumName(kind, uint32(v.Uint()))})
		return
	}
	switch v.Kind() {
	case reflect.Bool:
		*out = append(*out, Field{prefix, strings.ToUpper(strconv.FormatBool(v.Bool()))})
	case reflect.Uint8:
		*out = append(*out, Field{prefix, fmt.Sprintf("%#x", v.Uint())})
	case reflect.Uint16, reflect.Uint32, reflect.Uint64:
		*out = append(*out, Field{prefix, strconv.FormatUint(v.Uint(), 10)})
	case reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64, reflect.Int:
		*out = append(*out, Field{prefix, strconv.FormatInt(v.Int(), 10)})
	case reflect.Float32, reflect.Float64:
		*out = append(*out, Field{prefix, strconv.FormatFloat(v.Float(), 'g', -1, 32)})
	default:
		*out = append(*out, Field{prefix, fmt.Sprint(v.Interface())})
	}
}

// CBufferLayout is a constant buffer as a shader's reflection lays it out.
type CBufferLayout struct {
	Name      string     `json:"name"`
	Size      uint32     `json:"size"`
	Variables []Variable `json:"variables"`
}

// Variable is one variable of a constant buffer.
type Variable struct {
	Name   string `json:"name"`
	Offset uint32 `json:"offset"`
	Size   uint32 `json:"size"`
	Type   string `json:"type"` // float4, float4x4, uint, ...
	// base, rows, cols, elems: how to read it (decodeVariable)
	base       dxbc.VariableType
	class      dxbc.VariableClass
	rows, cols int
	elems      int
}

// reflection is the part of a shader's RDEF the state needs.
type reflection struct {
	cbs map[uint32]*CBufferLayout // by bind point
}

// reflectShader reads a shader's reflection (nil when it has none).
func reflectShader(code []byte) *reflection {
	if len(code) == 0 {
		return nil
	}
	c, err := dxbc.ParseNoChecksum(code)
	if err != nil {
		return nil
	}
	chunk := c.Chunk("RDEF")
	if chunk == nil {
		return nil
	}
	rd, err := dxbc.ParseRDEF(chunk.Data)
	if err != nil {
		return nil
	}
	r := &reflection{cbs: map[uint32]*CBufferLayout{}}
	byName := map[string]*dxbc.ConstantBuffer{}
	for i := range rd.ConstantBuffers {
		byName[rd.ConstantBuffers[i].Name] = &rd.ConstantBuffers[i]
	}
	for _, b := range rd.Bindings {
		if b.Type != dxbc.InputCBuffer {
			continue
		}
		cb := byName[b.Name]
		if cb == nil {
			continue
		}
		l := &CBufferLayout{Name: cb.Name, Size: cb.Size}
		for _, v := range cb.Variables {
			l.Variables = append(l.Variables, variable(v.Name, v.Offset, v.Size, v.Type)...)
		}
		r.cbs[b.BindPoint] = l
	}
	return r
}

// variable is a reflected variable as the rows to decode: a struct's
// members become variables of their own.
func variable(name string, off, size uint32, t *dxbc.Type) []Variable {
	if t == nil {
		return nil
	}
	if t.Class == dxbc.ClassStruct {
		var out []Variable
		for _, m := range t.Members {
			out = append(out, variable(name+"."+m.Name, off+m.Offset, 0, m.Type)...)
		}
		return out
	}
	v := Variable{Name: name, Offset: off, Size: size, base: t.Base, class: t.Class, rows: int(t.Rows), cols: int(t.Columns), elems: int(t.Elements)}
	v.Type = typeName(t)
	return []Variable{v}
}

func typeName(t *dxbc.Type) string {
	if t.Name != "" {
		return t.Name
	}
	base := map[dxbc.VariableType]string{dxbc.TypeFloat: "float", dxbc.TypeInt: "int", dxbc.TypeUint: "uint", dxbc.TypeBool: "bool"}[t.Base]
	if base == "" {
		base = "type" + strconv.Itoa(int(t.Base))
	}
	switch t.Class {
	case dxbc.ClassVector:
		base += strconv.Itoa(int(t.Columns))
	case dxbc.ClassMatrixRows, dxbc.ClassMatrixColumns:
		base += fmt.Sprintf("%dx%d", t.Rows, t.Columns)
	}
	if t.Elements > 0 {
		base += fmt.Sprintf("[%d]", t.Elements)
	}
	return base
}

// cbuffer is the layout of the cbuffer at bind point slot (nil: none).
func (r *reflection) cbuffer(slot int) *CBufferLayout {
	if r == nil {
		return nil
	}
	return r.cbs[uint32(slot)]
}
