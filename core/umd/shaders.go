package umd

import (
	"encoding/binary"
	"fmt"
	"strings"

	"d3dsim/core/ddi"
	"d3dsim/core/dxbc"
	"d3dsim/core/hresult"
	"d3dsim/core/umd/translate"
	"d3dsim/gpu/isa"
)

// Shaders from bytecode. CreateVertexShader and CreatePixelShader hand the
// driver the DXBC the runtime validated (D3D11DDIARG_CREATEVERTEXSHADER's
// pShaderCode); the driver compiles it to its GPU's instruction set
// (package translate), places the words in a GPU-visible allocation of its
// own (pfnAllocateCb, the allocation's initial data) and, at a draw, binds
// it with SET_PROGRAM, whose address goes through the allocation list like
// every other binding: the KMD patches it and paging may move it.

// createCodeShader is createShader for bytecode.
func (d *Device) createCodeShader(a *ddi.ShaderArgs, h ddi.HSHADER, stage uint32, ddiName string) error {
	if d.injected(ddiName) {
		return hresult.E_OUTOFMEMORY
	}
	want := dxbc.VertexShader
	if stage == isa.StagePS {
		want = dxbc.PixelShader
	}
	prog, err := translate.Translate(a.Bytecode, want)
	if err != nil {
		return hresult.Errorf(hresult.E_INVALIDARG, "umd: %s: %v", ddiName, err)
	}
	s := &shader{Builtin: isa.Builtin{Stage: stage}, prog: prog, sysReg: isa.NoReg}
	if stage == isa.StageVS {
		for _, o := range prog.Outputs {
			if o.SystemValue == dxbc.SVPosition {
				s.sysReg = o.ISA
			}
		}
		s.layout = builtinFetch(prog)
	} else {
		for _, in := range prog.Inputs {
			if in.SystemValue == dxbc.SVPosition {
				s.sysReg = in.ISA
			}
		}
	}
	data := make([]byte, 4*len(prog.Code))
	for i, w := range prog.Code {
		binary.LittleEndian.PutUint32(data[4*i:], w)
	}
	obj := a.Obj
	if obj == "" {
		obj = fmt.Sprintf("shader%d", h)
	}
	size := uint32(len(data))
	cb := ddi.AllocateCb{Allocations: []ddi.AllocationInfo{{Size: uint64(size), Width: size, Height: 1, Pitch: size, InitData: data, Obj: obj}}}
	if err := d.cb.PfnAllocateCb(d.rt, &cb); err != nil {
		return err
	}
	s.code = &resource{args: ddi.CreateResourceArgs{Dimension: ddi.DimBuffer, Width: size, Obj: obj}, alloc: cb.Allocations[0].Allocation, size: uint64(size), pitch: size}
	d.mu.Lock()
	d.shaders[h] = s
	d.codeShaders++
	d.mu.Unlock()
	return nil
}

// destroyShader is DestroyShader: like DestroyQuery, the shader and its
// code allocation go once a submission follows the last use (rule
// DD-ORDER).
func (d *Device) destroyShader(h ddi.HSHADER) {
	d.deferDestroy(func() {
		d.mu.Lock()
		s := d.shaders[h]
		delete(d.shaders, h)
		if s != nil && s.code != nil {
			d.codeShaders--
		}
		d.mu.Unlock()
		if s != nil && s.code != nil {
			d.cb.PfnDeallocateCb(d.rt, &ddi.DeallocateCb{Allocations: []ddi.HALLOCATION{s.code.alloc}, Obj: s.code.args.Obj})
		}
	})
}

// builtinFetch is the vertex fetch of a vertex shader drawn without an
// input layout: its inputs read the built-in 36-byte vertex from slot 0 by
// semantic (POSITION, COLOR, TEXCOORD as isa.BuiltinLayout has them),
// SV_VertexID and SV_InstanceID from the input assembler. An input of
// another semantic reads zeros, as an input no element feeds does.
func builtinFetch(p *translate.Shader) isa.Layout {
	l := isa.Layout{VertexIDReg: isa.NoReg, InstanceIDReg: isa.NoReg}
	b := isa.BuiltinLayout()
	for _, in := range p.Inputs {
		switch in.SystemValue {
		case dxbc.SVVertexID:
			l.VertexIDReg = uint8(in.ISA)
			continue
		case dxbc.SVInstanceID:
			l.InstanceIDReg = uint8(in.ISA)
			continue
		}
		i := -1
		switch strings.ToUpper(in.Semantic) {
		case "POSITION":
			i = 0
		case "COLOR":
			i = 1
		case "TEXCOORD":
			i = 2
		}
		if i < 0 || in.SemanticIndex != 0 {
			continue
		}
		e := b.Elements[i]
		e.Reg = uint8(in.ISA)
		l.Elements = append(l.Elements, e)
	}
	return l
}

// emitPrograms binds the pipeline's shaders: built-in programs with
// SET_SHADER, programs from bytecode with SET_PROGRAM (and the vertex
// fetch with SET_LAYOUT). The GPU runs a pixel program from memory only
// behind a vertex program from memory, and the runtime draws no such mix
// (it has no signatures to link), so only matching pairs reach here.
func (c *context) emitPrograms(rec recorder, vs, ps *shader, layout *elementLayout) {
	b := &c.cmd
	g := &c.onGPU
	if vs != nil && vs.prog != nil {
		if layout != nil {
			b.SetLayout(layout.fetch(vs.prog))
		} else {
			b.SetLayout(vs.layout)
		}
		b.SetProgram(isa.StageVS, rec.ref(vs.code, false, 0), uint32(len(vs.prog.Code)), vs.sysReg)
		g.vs = true
	} else if vs != nil {
		b.SetShader(isa.StageVS, vs.Program)
		g.vs = true
	} else if g.vs {
		b.SetShader(isa.StageVS, isa.ProgNone)
		g.vs = false
	}
	if ps != nil && ps.prog != nil {
		b.SetProgram(isa.StagePS, rec.ref(ps.code, false, 0), uint32(len(ps.prog.Code)), ps.sysReg)
		g.ps = true
	} else if ps != nil {
		b.SetShader(isa.StagePS, ps.Program)
		g.ps = true
	} else if g.ps {
		b.SetShader(isa.StagePS, isa.ProgNone) // no pixel shader: no colour written
		g.ps = false
	}
}

// Room for a draw's programs from bytecode: SET_LAYOUT at its largest,
// two SET_PROGRAMs and vertex-buffer slots 1..15 (SET_VB), reserved only
// while the device has such a shader (so the buffers of built-in draws
// split where they always did).
const (
	programWords  = 2 + 3*isa.MaxVertexElements + 2*6 + (iaSlots-1)*8
	programAllocs = 2 + iaSlots - 1
)

// drawRoom is what ensure must find free for one draw.
func (c *context) drawRoom() (words, allocs int) {
	c.dev.mu.Lock()
	n := c.dev.codeShaders
	c.dev.mu.Unlock()
	if n > 0 {
		return drawWords + programWords, drawAllocs + programAllocs
	}
	return drawWords, drawAllocs
}
