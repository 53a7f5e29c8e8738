package umd

import (
	"crypto/sha256"
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

// createShader is CreateVertexShader and CreatePixelShader. The built-in
// shaders of a scenario (builtin:NAME) are bytecode too, compiled from
// HLSL before the runtime sees them: every shader takes this path.
func (d *Device) createShader(a *ddi.ShaderArgs, h ddi.HSHADER, stage uint32, ddiName string) error {
	if err := d.injectedErr(ddiName); err != nil {
		return err
	}
	want := dxbc.VertexShader
	switch stage {
	case isa.StagePS:
		want = dxbc.PixelShader
	case isa.StageCS:
		want = dxbc.ComputeShader
	case isa.StageGS:
		want = dxbc.GeometryShader
	case isa.StageHS:
		want = dxbc.HullShader
	case isa.StageDS:
		want = dxbc.DomainShader
	}
	prog, err := d.translated(a.Bytecode, want)
	if err != nil {
		return hresult.Errorf(hresult.E_INVALIDARG, "umd: %s: %v", ddiName, err)
	}
	s := &shader{prog: prog, words: uint32(len(prog.Code)), sysReg: isa.NoReg, clip: clipWord(prog, 0)}
	switch stage {
	case isa.StageCS:
		s.sysReg = 0
	case isa.StageGS:
		s.sysReg = gsSysReg(prog, 0) // stream 0 rasterized (stream.go: another)
	case isa.StageHS:
		s.sysReg = 0 // (the GPU reads none)
	case isa.StageDS:
		// SET_PROGRAM's system value: SV_Position's output register (a
		// domain shader without one feeds a geometry shader).
		for _, o := range prog.Outputs {
			if o.SystemValue == dxbc.SVPosition {
				s.sysReg = o.ISA
			}
		}
	case isa.StageVS:
		for _, o := range prog.Outputs {
			if o.SystemValue == dxbc.SVPosition {
				s.sysReg = o.ISA
			}
		}
		s.layout = builtinFetch(prog)
	default:
		// SET_PROGRAM's system values (isa's layout.go): SV_Position in
		// bits 0..7, SV_Depth's output + 1 in 8..15, SV_IsFrontFace's
		// input + 1 in 16..23.
		for _, in := range prog.Inputs {
			switch in.SystemValue {
			case dxbc.SVPosition:
				s.sysReg = s.sysReg&^0xFF | in.ISA
			case dxbc.SVIsFrontFace:
				s.sysReg |= (in.ISA + 1) << 16
			}
		}
		for _, o := range prog.Outputs {
			switch o.SystemValue {
			case dxbc.SVDepth:
				s.sysReg |= (o.ISA + 1) << 8
			case dxbc.SVDepthGreaterEqual:
				s.sysReg |= (o.ISA+1)<<8 | isa.DepthOutGE<<isa.DepthOutShift
			case dxbc.SVDepthLessEqual:
				s.sysReg |= (o.ISA+1)<<8 | isa.DepthOutLE<<isa.DepthOutShift
			}
			if o.SystemValue == dxbc.SVCoverage {
				s.sysReg |= 1 << 31 // oMask in shaderisa.CoverageOutput (translate's coverage.go)
			}
		}
		s.sysReg |= prog.SampleCountReg << 24 // the rasterizer's values' input + 1 (msaa.go, coverage.go)
		if prog.PerSample {
			s.sysReg |= 1 << 30 // once a covered sample (translate's persample.go)
		}
		if prog.EarlyDepthStencil {
			s.sysReg |= isa.EarlyDepthStencil // the tests before the program (gpu's early.go)
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
	// What a draw needs is the tables and the words; the decoded DXBC and
	// the checked program (about 60 bytes a byte of bytecode) are made
	// again from the bytecode when a tool asks (ShaderCode), so a live
	// shader holds its bytecode, its words and its tables.
	light := s.stub()
	light.destroyed, light.bytecode, light.stage = false, a.Bytecode, want
	d.mu.Lock()
	d.shaders[h] = light
	d.mu.Unlock()
	return nil
}

// destroyShader is DestroyShader: like DestroyQuery, the shader and its
// code allocation go once a submission follows the last use (rule
// DD-ORDER).
func (d *Device) destroyShader(h ddi.HSHADER) {
	// What the driver still needs of a destroyed shader until the
	// destruction finishes is its code allocation and what a draw reads
	// to bind it: the translation's decoded DXBC and checked program
	// (most of its memory, hundreds of KB for a long shader) go now, so
	// a loop of creations and releases holds only the allocations
	// waiting for a submission (ID3D11DeviceContext::Flush: "Direct3D 11
	// defers the destruction of objects").
	d.mu.Lock()
	if s := d.shaders[h]; s != nil && !s.destroyed {
		st := s.stub()
		st.bytecode = nil // (nothing lists a destroyed shader again)
		d.shaders[h] = st
	}
	d.mu.Unlock()
	d.deferDestroy(func() {
		d.mu.Lock()
		s := d.shaders[h]
		delete(d.shaders, h)
		d.mu.Unlock()
		if s != nil {
			d.cb.PfnDeallocateCb(d.rt, &ddi.DeallocateCb{Allocations: []ddi.HALLOCATION{s.code.alloc}, Obj: s.code.args.Obj})
		}
	})
}

// translated is the translation of bytecode for stage, through the
// device's shader cache (keyed by the bytecode's hash and the stage, as a
// driver's shader cache is): the same bytecode translates to the same
// program, and an application that creates one shader again and again (a
// loop of CreatePixelShader and Release, 10,000 shaders of one block)
// pays its translation once. It keeps the light translation (tables and
// words, what draws read), at most maxCachedShaders of them and
// maxCachedShaderBytes of words, the oldest going first.
func (d *Device) translated(bytecode []byte, stage dxbc.ProgramType) (*translate.Shader, error) {
	k := shaderKey{sum: sha256.Sum256(bytecode), stage: stage}
	d.mu.Lock()
	p := d.trCache[k]
	d.mu.Unlock()
	if p != nil {
		return p, nil
	}
	full, err := translate.Translate(bytecode, stage)
	if err == nil {
		err = checkVaryings(full) // (varyings.go)
	}
	if err != nil {
		return nil, err
	}
	p = &translate.Shader{Stage: full.Stage, Code: full.Code, Inputs: full.Inputs, Outputs: full.Outputs,
		ConstantBuffers: full.ConstantBuffers, Textures: full.Textures, Samplers: full.Samplers, SampleCountReg: full.SampleCountReg,
		PerSample: full.PerSample, EarlyDepthStencil: full.EarlyDepthStencil}
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.trCache == nil {
		d.trCache = map[shaderKey]*translate.Shader{}
	}
	if _, ok := d.trCache[k]; !ok {
		d.trCache[k] = p
		d.trOrder = append(d.trOrder, k)
		d.trBytes += 4 * len(p.Code)
		for len(d.trOrder) > maxCachedShaders || d.trBytes > maxCachedShaderBytes {
			old := d.trOrder[0]
			d.trOrder = d.trOrder[1:]
			d.trBytes -= 4 * len(d.trCache[old].Code)
			delete(d.trCache, old)
		}
	}
	return p, nil
}

// shaderKey names a translation in the shader cache.
type shaderKey struct {
	sum   [32]byte
	stage dxbc.ProgramType
}

// The shader cache's bounds.
const (
	maxCachedShaders     = 64
	maxCachedShaderBytes = 16 << 20
)

// stub is what a destroyed shader keeps until its destruction finishes:
// its allocation and the tables a draw binding it reads, not the decoded
// programs.
func (s *shader) stub() *shader {
	p := s.prog
	light := &translate.Shader{Stage: p.Stage, Inputs: p.Inputs, Outputs: p.Outputs,
		ConstantBuffers: p.ConstantBuffers, Textures: p.Textures, Samplers: p.Samplers}
	return &shader{prog: light, words: s.words, code: s.code, sysReg: s.sysReg, clip: s.clip, layout: s.layout, destroyed: true,
		bytecode: s.bytecode, stage: s.stage, so: s.so}
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

// emitPrograms binds the pipeline's shaders with SET_PROGRAM, the vertex
// fetch with SET_LAYOUT (the input layout's, or the built-in vertex's
// without one). A stage left without a shader is unbound with SET_PROGRAM
// of no address: no pixel shader, no colour written.
func (c *context) emitPrograms(rec recorder, vs, ps *shader, layout *elementLayout) {
	b := &c.cmd
	g := &c.onGPU
	if vs != nil {
		if layout != nil {
			b.SetLayout(layout.fetch(vs.prog))
		} else {
			b.SetLayout(vs.layout)
		}
		b.SetProgram(isa.StageVS, rec.ref(vs.code, false, 0), vs.words, vs.sysReg)
		g.vs = true
	} else if g.vs {
		b.SetProgram(isa.StageVS, isa.NullAddress, 0, isa.NoReg)
		g.vs = false
	}
	if ps != nil {
		b.SetProgram(isa.StagePS, rec.ref(ps.code, false, 0), ps.words, ps.sysReg)
		g.ps = true
	} else if g.ps {
		b.SetProgram(isa.StagePS, isa.NullAddress, 0, isa.NoReg)
		g.ps = false
	}
}
