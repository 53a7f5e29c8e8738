package umd

import (
	"d3dsim/core/ddi"
	"d3dsim/core/umd/translate"
	"d3dsim/gpu/shaderisa"
)

// ShaderCode is what the driver made of one of its shaders: the program it
// translated from the bytecode and placed in its own allocation for
// SET_PROGRAM (built-in shaders included: they reach the driver as
// bytecode too). It is for tools that show a shader's path down to the GPU
// (the page's Shaders view); it is not a DDI, and the runtime never asks
// for it.
type ShaderCode struct {
	// Program is the translation: its Code is the words in the
	// allocation. Shared with the driver: read only.
	Program *translate.Shader
}

// ShaderCode answers what shader h is made of, false when the device has no
// such shader (never created, or destroyed since).
func (d *Device) ShaderCode(h ddi.HSHADER) (ShaderCode, bool) {
	d.mu.Lock()
	defer d.mu.Unlock()
	s := d.shaders[h]
	if s == nil || s.destroyed {
		return ShaderCode{}, false
	}
	// The driver keeps only what draws need: the whole translation is
	// made again from the bytecode (the same, translation being a
	// function of it).
	p, err := translate.Translate(s.bytecode, s.stage)
	if err != nil {
		return ShaderCode{}, false
	}
	return ShaderCode{Program: p}, true
}

// ISA is the translated program disassembled from the words the driver
// placed in its allocation ("" for none).
func (c ShaderCode) ISA() (string, error) {
	if c.Program == nil {
		return "", nil
	}
	return shaderisa.Disassemble(c.Program.Code)
}

// Translation is the translation listed DXBC instruction by DXBC
// instruction, each followed by the ISA instructions it became ("" for
// none).
func (c ShaderCode) Translation() string {
	if c.Program == nil {
		return ""
	}
	return c.Program.Listing()
}

// Steps is the stepping data: each ISA instruction with the DXBC
// instruction it came from (translate.Shader.Steps; nil for none).
func (c ShaderCode) Steps() []translate.Step {
	if c.Program == nil {
		return nil
	}
	return c.Program.Steps()
}

// Recording is where the immediate context's recording stands, for the
// inspector (core/inspect) to tell which packets an API call encoded: the
// GPU context it submits to (HCONTEXT), the command buffers it has handed
// to pfnRenderCb so far and the words of the one it is filling.
func (d *Device) Recording() (ctx ddi.HCONTEXT, submits uint64, words int) {
	return d.ctx, d.submits, len(d.cmd.Words)
}

// StepTexts is the translation instruction by instruction, for a debugger
// that steps through the program: per ISA instruction its text and the
// index of the DXBC instruction it came from, and the DXBC instructions'
// texts (declarations included, in bytecode order).
func (c ShaderCode) StepTexts() (isa []string, source []int, dxbc []string) {
	p := c.Program
	if p == nil || p.Program == nil {
		return nil, nil, nil
	}
	for i := range p.Program.Code {
		isa = append(isa, p.Program.Code[i].String())
	}
	return isa, p.Source, p.DXBCText()
}

// Pending is a copy of the immediate context's command buffer as it stands
// (not yet submitted): its words, whose address words are relative to the
// allocation list (low word: list index, high word: offset), and that list.
func (d *Device) Pending() ([]uint32, []ddi.AllocationListEntry) {
	return append([]uint32(nil), d.cmd.Words...), append([]ddi.AllocationListEntry(nil), d.list...)
}
