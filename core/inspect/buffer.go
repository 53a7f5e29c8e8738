package inspect

import (
	"encoding/binary"
	"fmt"
	"math"
	"strconv"
	"strings"

	"d3dsim/core/d3d11"
	"d3dsim/core/dxbc"
	"d3dsim/core/machine"
	"d3dsim/gpu/isa"
	"d3dsim/gpu/texel"
)

// Buffers as tables: by the input layout that reads them, by the cbuffer
// a shader reads them as, by a format, or as words.

// bindingsAt are the bindings of every context the journal knows as of
// call k, the immediate contexts first.
func (j *Journal) bindingsAt(k int) []*d3d11.Bindings {
	var out []*d3d11.Bindings
	for pass := range 2 {
		for ci, c := range j.ctxs {
			if (c == c.Device().ImmediateContext()) != (pass == 0) {
				continue
			}
			if si := j.stateAt(int16(ci), k); si >= 0 {
				out = append(out, j.states[si].b)
			}
		}
	}
	return out
}

// readBuffer lays a buffer's bytes out as a table.
func readBuffer(j *Journal, k int, res *d3d11.Resource, data []byte, o ResourceOptions) (*Buffer, error) {
	layout := o.Layout
	bs := j.bindingsAt(k)
	if layout == "" {
		switch {
		case o.As != "":
			layout = "format"
		case cbufferOf(bs, res) != nil:
			layout = "cbuffer"
		case vertexSlot(bs, res) != nil:
			layout = "vertex"
		default:
			layout = "words"
		}
	}
	switch layout {
	case "cbuffer":
		return cbufferTable(bs, res, data, o)
	case "vertex":
		return vertexTable(bs, res, data, o)
	case "format":
		if o.As == "" {
			return nil, fmt.Errorf("inspect: a buffer read as a format needs the format (As)")
		}
		f, ok := d3d11.Enum("Format")[o.As]
		if !ok {
			return nil, fmt.Errorf("inspect: %q is not a format", o.As)
		}
		g := machine.GPUFormat(d3d11.Format(f))
		if !g.Known() || g.Info().Block != 1 {
			return nil, fmt.Errorf("inspect: the GPU reads no elements of format %s", o.As)
		}
		n := int(g.Info().Bytes)
		stride := max(o.Stride, n)
		b := &Buffer{Layout: "format", Stride: stride, Columns: []string{"offset", o.As}}
		b.rows(data, stride, o, func(row []byte, off int) []string {
			return []string{strconv.Itoa(off), elementText(g, row[:n])}
		})
		return b, nil
	case "words":
		stride := o.Stride
		if stride <= 0 {
			stride = 16
		}
		stride = (stride + 3) &^ 3
		b := &Buffer{Layout: "words", Stride: stride, Columns: []string{"offset"}}
		for w := 0; w < stride/4; w++ {
			b.Columns = append(b.Columns, "+"+strconv.Itoa(4*w))
		}
		b.rows(data, stride, o, func(row []byte, off int) []string {
			cells := []string{strconv.Itoa(off)}
			for w := 0; w+4 <= len(row); w += 4 {
				x := binary.LittleEndian.Uint32(row[w:])
				cells = append(cells, fmt.Sprintf("%08x (%s)", x, strconv.FormatFloat(float64(math.Float32frombits(x)), 'g', 6, 32)))
			}
			return cells
		})
		return b, nil
	}
	return nil, fmt.Errorf("inspect: no buffer layout %q (vertex, cbuffer, format, words)", layout)
}

// rows fills the table's rows of stride bytes from o.Y (o.H of them, 16
// when 0).
func (b *Buffer) rows(data []byte, stride int, o ResourceOptions, cells func(row []byte, off int) []string) {
	b.Total = len(data) / stride
	n := o.H
	if n <= 0 {
		n = 16
	}
	b.First = max(o.Y, 0)
	for i := b.First; i < b.Total && i < b.First+n; i++ {
		off := i * stride
		b.Rows = append(b.Rows, cells(data[off:off+stride], off))
	}
}

// elementText is one element of format g as text, channel by channel.
func elementText(g isa.Format, b []byte) string {
	v := texel.Decode(g, b)
	info := g.Info()
	var parts []string
	for c := range max(1, min(int(info.Channels), 4)) {
		switch info.Number {
		case isa.NumUInt:
			parts = append(parts, strconv.FormatUint(uint64(v[c]), 10))
		case isa.NumSInt:
			parts = append(parts, strconv.FormatInt(int64(int32(v[c])), 10))
		default:
			parts = append(parts, strconv.FormatFloat(float64(math.Float32frombits(v[c])), 'g', 6, 32))
		}
	}
	return strings.Join(parts, " ")
}

// cbBinding is a constant-buffer binding of a resource.
type cbBinding struct {
	stage string
	slot  int
	sh    *d3d11.Shader
}

// cbufferOf finds where the resource is bound as a constant buffer.
func cbufferOf(bs []*d3d11.Bindings, res *d3d11.Resource) *cbBinding {
	for _, b := range bs {
		for i, r := range b.Stages[d3d11.StageVS].CB {
			if r == res {
				return &cbBinding{"vs", i, b.VS}
			}
		}
		for i, r := range b.Stages[d3d11.StagePS].CB {
			if r == res {
				return &cbBinding{"ps", i, b.PS}
			}
		}
	}
	return nil
}

// vbBinding is a vertex-buffer binding of a resource.
type vbBinding struct {
	slot           int
	stride, offset uint32
	layout         *d3d11.InputLayout
}

func vertexSlot(bs []*d3d11.Bindings, res *d3d11.Resource) *vbBinding {
	for _, b := range bs {
		for i, r := range b.VB {
			if r == res && b.Layout != nil {
				return &vbBinding{i, b.VBStride[i], b.VBOffset[i], b.Layout}
			}
		}
	}
	return nil
}

func cbufferTable(bs []*d3d11.Bindings, res *d3d11.Resource, data []byte, o ResourceOptions) (*Buffer, error) {
	cb := cbufferOf(bs, res)
	if cb == nil {
		return nil, fmt.Errorf("inspect: %s is not bound as a constant buffer at this event", res.Name())
	}
	var lay *CBufferLayout
	if cb.sh != nil {
		lay = reflectShader(cb.sh.Bytecode()).cbuffer(cb.slot)
	}
	if lay == nil {
		return nil, fmt.Errorf("inspect: the %s shader bound at this event declares no cbuffer at slot %d", strings.ToUpper(cb.stage), cb.slot)
	}
	b := &Buffer{Layout: "cbuffer", Columns: []string{"variable", "type", "offset", "value"},
		Note: fmt.Sprintf("cbuffer %s of %s (%s, slot %d), %d bytes", lay.Name, cb.sh.Name(), strings.ToUpper(cb.stage), cb.slot, lay.Size)}
	for _, v := range lay.Variables {
		b.Rows = append(b.Rows, []string{v.Name, v.Type, strconv.Itoa(int(v.Offset)), variableText(&v, data)})
	}
	b.Total = len(b.Rows)
	return b, nil
}

// variableText reads a cbuffer variable from the buffer's bytes (packing:
// each row of a matrix or element of an array starts a 16-byte register).
func variableText(v *Variable, data []byte) string {
	comp := func(off int) string {
		if off+4 > len(data) {
			return "?"
		}
		x := binary.LittleEndian.Uint32(data[off:])
		switch v.base {
		case dxbc.TypeInt:
			return strconv.FormatInt(int64(int32(x)), 10)
		case dxbc.TypeUint:
			return strconv.FormatUint(uint64(x), 10)
		case dxbc.TypeBool:
			if x != 0 {
				return "true"
			}
			return "false"
		}
		return strconv.FormatFloat(float64(math.Float32frombits(x)), 'g', 6, 32)
	}
	vec := func(off, n int) string {
		var parts []string
		for c := range n {
			parts = append(parts, comp(off+4*c))
		}
		if n == 1 {
			return parts[0]
		}
		return "(" + strings.Join(parts, ", ") + ")"
	}
	rows, cols := max(v.rows, 1), max(v.cols, 1)
	one := func(off int) string {
		switch v.class {
		case dxbc.ClassMatrixRows: // a register per row
			var r []string
			for i := range rows {
				r = append(r, vec(off+16*i, cols))
			}
			return "[" + strings.Join(r, " ") + "]"
		case dxbc.ClassMatrixColumns: // a register per column
			var r []string
			for i := range rows {
				var parts []string
				for c := range cols {
					parts = append(parts, comp(off+16*c+4*i))
				}
				r = append(r, "("+strings.Join(parts, ", ")+")")
			}
			return "[" + strings.Join(r, " ") + "]"
		}
		return vec(off, cols)
	}
	if v.elems <= 0 {
		return one(int(v.Offset))
	}
	regs := 1
	switch v.class {
	case dxbc.ClassMatrixRows:
		regs = rows
	case dxbc.ClassMatrixColumns:
		regs = cols
	}
	var parts []string
	for e := range min(v.elems, 64) {
		parts = append(parts, one(int(v.Offset)+16*regs*e))
	}
	return "{" + strings.Join(parts, ", ") + "}"
}

func vertexTable(bs []*d3d11.Bindings, res *d3d11.Resource, data []byte, o ResourceOptions) (*Buffer, error) {
	vb := vertexSlot(bs, res)
	if vb == nil {
		return nil, fmt.Errorf("inspect: %s is not bound as a vertex buffer with an input layout at this event", res.Name())
	}
	type col struct {
		name string
		off  int
		g    isa.Format
	}
	var cols []col
	next := 0
	for _, e := range vb.layout.Elements {
		if int(e.InputSlot) != vb.slot {
			continue
		}
		g := machine.GPUFormat(e.Format)
		off := int(e.AlignedByteOffset)
		if e.AlignedByteOffset == d3d11.AppendAlignedElement {
			off = next
		}
		next = off + int(g.Info().Bytes)
		cols = append(cols, col{fmt.Sprintf("%s%d (%s)", e.SemanticName, e.SemanticIndex, d3d11.FormatName(e.Format)), off, g})
	}
	stride := int(vb.stride)
	if stride <= 0 {
		return nil, fmt.Errorf("inspect: vertex-buffer slot %d has stride 0", vb.slot)
	}
	b := &Buffer{Layout: "vertex", Stride: stride, Columns: []string{"vertex"},
		Note: fmt.Sprintf("slot %d of input layout %s, stride %d, offset %d", vb.slot, vb.layout.Name(), vb.stride, vb.offset)}
	for _, c := range cols {
		b.Columns = append(b.Columns, c.name)
	}
	body := data[min(int(vb.offset), len(data)):]
	b.rows(body, stride, o, func(row []byte, off int) []string {
		cells := []string{strconv.Itoa(off / stride)}
		for _, c := range cols {
			n := int(c.g.Info().Bytes)
			if c.off+n > len(row) || !c.g.Known() {
				cells = append(cells, "?")
				continue
			}
			cells = append(cells, elementText(c.g, row[c.off:c.off+n]))
		}
		return cells
	})
	return b, nil
}
