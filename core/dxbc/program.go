package dxbc

import (
	"encoding/binary"
	"fmt"
)

// Opcode-token control bits, as bits of Instruction.Controls (the token's
// bits 11..23 shifted down by 11), named as in the DDK header.
const (
	ControlSaturate = 1 << 2 // D3D10_SB_INSTRUCTION_SATURATE_MASK, bit 13
	ControlTestNZ   = 1 << 7 // D3D10_SB_INSTRUCTION_TEST_BOOLEAN_MASK, bit 18
)

// Instruction is one decoded instruction or declaration.
type Instruction struct {
	Op Opcode
	// Controls are the opcode-specific bits 11..23 of the opcode token:
	// saturate, the test of if/breakc/discard, the interpolation mode of
	// dcl_input_ps, the dimension of dcl_resource, the global flags ...
	Controls uint32
	// Extended holds the extended opcode tokens (sample offsets, resource
	// dimension, resource return type), bit 31 cleared; the encoder chains them.
	Extended []uint32
	Operands []Operand
	// Extra is the literal words after the operands: dcl_temps' count,
	// dcl_resource's return types, a dcl_*_siv's system value, the three
	// words of dcl_indexableTemp.
	Extra []uint32
	// CustomClass and Data are customdata's class and payload (the
	// immediate constant buffer, class 3).
	CustomClass uint32
	Data        []uint32
}

// Saturate reports the _sat modifier.
func (in *Instruction) Saturate() bool { return in.Controls&ControlSaturate != 0 }

// Test is the condition of if/breakc/continuec/retc/callc/discard.
func (in *Instruction) Test() Test {
	if in.Controls&ControlTestNZ != 0 {
		return TestNonZero
	}
	return TestZero
}

// Program is a shader's token stream: the SHDR (shader model 4) or SHEX
// (shader model 5) chunk.
type Program struct {
	Type         ProgramType
	Major, Minor uint8
	Instructions []Instruction
}

// Profile is the listing's first line: "vs_5_0", "ps_4_0".
func (p *Program) Profile() string {
	return fmt.Sprintf("%s_%d_%d", p.Type.Prefix(), p.Major, p.Minor)
}

// MaxInstructions bounds the instructions a program may hold.
const MaxInstructions = 1 << 20

// ParseProgram reads a SHDR or SHEX chunk's data.
func ParseProgram(data []byte) (*Program, error) {
	if len(data)%4 != 0 {
		return nil, fmt.Errorf("dxbc: shader code is %d bytes, not whole words", len(data))
	}
	w := make([]uint32, len(data)/4)
	for i := range w {
		w[i] = binary.LittleEndian.Uint32(data[4*i:])
	}
	return DecodeProgram(w)
}

// DecodeProgram reads a token stream: the version token, the length token,
// then instructions until the length. Errors name the instruction's word
// offset and opcode.
func DecodeProgram(w []uint32) (*Program, error) {
	if len(w) < 2 {
		return nil, fmt.Errorf("dxbc: shader code of %d words lacks its version and length tokens", len(w))
	}
	p := &Program{
		Minor: uint8(w[0] & 0xf),
		Major: uint8(w[0] >> 4 & 0xf),
		Type:  ProgramType(w[0] >> 16),
	}
	if p.Type > ComputeShader {
		return nil, fmt.Errorf("dxbc: version token %#08x: program type %d is unknown", w[0], p.Type)
	}
	if p.Major < 4 || p.Major > 5 {
		return nil, fmt.Errorf("dxbc: version token %#08x: shader model %d.%d is not 4.x or 5.x", w[0], p.Major, p.Minor)
	}
	n := w[1]
	if uint64(n) > uint64(len(w)) || n < 2 {
		return nil, fmt.Errorf("dxbc: length token says %d words, the chunk holds %d", n, len(w))
	}
	w = w[:n]
	for pos := 2; pos < len(w); {
		if len(p.Instructions) >= MaxInstructions {
			return nil, fmt.Errorf("dxbc: more than %d instructions", MaxInstructions)
		}
		in, next, err := decodeInstruction(w, pos)
		if err != nil {
			return nil, fmt.Errorf("dxbc: word %d (%s): %w", pos, Opcode(w[pos]&0x7ff), err)
		}
		p.Instructions = append(p.Instructions, in)
		pos = next
	}
	return p, nil
}

func decodeInstruction(w []uint32, pos int) (Instruction, int, error) {
	t := w[pos]
	in := Instruction{Op: Opcode(t & 0x7ff)}
	info, ok := opTable[in.Op]
	if !ok {
		return in, 0, fmt.Errorf("opcode %d is not an instruction of shader model 4 or 5", uint32(in.Op))
	}
	if in.Op == OpCustomData {
		in.CustomClass = t >> 11
		if pos+1 >= len(w) {
			return in, 0, fmt.Errorf("customdata length missing")
		}
		n := w[pos+1]
		if n < 2 || uint64(pos)+uint64(n) > uint64(len(w)) {
			return in, 0, fmt.Errorf("customdata of %d words does not fit the %d left", n, len(w)-pos)
		}
		in.Data = append([]uint32(nil), w[pos+2:pos+int(n)]...)
		return in, pos + int(n), nil
	}
	length := int(t >> 24 & 0x7f)
	if length == 0 || pos+length > len(w) {
		return in, 0, fmt.Errorf("length %d does not fit the %d words left", length, len(w)-pos)
	}
	end := pos + length
	in.Controls = t >> 11 & 0x1fff
	body := w[:end]
	p := pos + 1
	ext := t>>31 != 0
	for ext {
		if p >= end {
			return in, 0, fmt.Errorf("extended opcode token missing")
		}
		e := body[p]
		p++
		ext = e>>31 != 0
		if k := e & 0x3f; k == 0 || k > 3 {
			return in, 0, fmt.Errorf("extended opcode token %#08x: type %d is unknown", e, k)
		}
		if len(in.Extended) >= 4 {
			return in, 0, fmt.Errorf("more than 4 extended opcode tokens")
		}
		in.Extended = append(in.Extended, e&^(1<<31))
	}
	lead := leadExtra[in.Op]
	if lead > 0 {
		if end-p < lead {
			return in, 0, fmt.Errorf("%d words after the opcode, want at least %d", end-p, lead)
		}
		in.Extra = append([]uint32(nil), body[p:p+lead]...)
		p += lead
	}
	for i := 0; i < info.dst+info.src; i++ {
		op, err := decodeOperand(body, &p, 0)
		if err != nil {
			return in, 0, fmt.Errorf("operand %d: %w", i+1, err)
		}
		in.Operands = append(in.Operands, op)
	}
	switch {
	case varExtra[in.Op]:
		in.Extra = append([]uint32(nil), body[p:end]...)
	case end-p != info.extra-lead:
		return in, 0, fmt.Errorf("%d words after the operands, want %d", end-p, info.extra-lead)
	case info.extra > lead:
		in.Extra = append(in.Extra, body[p:end]...)
	}
	return in, end, nil
}

// Encode appends the instruction's tokens to out.
func (in *Instruction) Encode(out []uint32) ([]uint32, error) {
	info, ok := opTable[in.Op]
	if !ok {
		return out, fmt.Errorf("dxbc: cannot encode unknown opcode %d", uint32(in.Op))
	}
	if in.Op == OpCustomData {
		if uint64(len(in.Data))+2 > MaxSize/4 {
			return out, fmt.Errorf("dxbc: customdata of %d words is too long", len(in.Data))
		}
		out = append(out, uint32(OpCustomData)|in.CustomClass<<11, uint32(len(in.Data)+2))
		return append(out, in.Data...), nil
	}
	if len(in.Operands) != info.dst+info.src {
		return out, fmt.Errorf("dxbc: %s takes %d operands, has %d", info.name, info.dst+info.src, len(in.Operands))
	}
	if len(in.Extra) != info.extra && !varExtra[in.Op] {
		return out, fmt.Errorf("dxbc: %s takes %d literal words, has %d", info.name, info.extra, len(in.Extra))
	}
	lead := leadExtra[in.Op]
	start := len(out)
	tok := uint32(in.Op) | (in.Controls&0x1fff)<<11
	if len(in.Extended) > 0 {
		tok |= 1 << 31
	}
	out = append(out, tok)
	for i, e := range in.Extended {
		e &^= 1 << 31
		if i+1 < len(in.Extended) {
			e |= 1 << 31
		}
		out = append(out, e)
	}
	out = append(out, in.Extra[:lead]...)
	for i := range in.Operands {
		var err error
		if out, err = in.Operands[i].encode(out, 0); err != nil {
			return out, fmt.Errorf("dxbc: %s operand %d: %w", info.name, i+1, err)
		}
	}
	out = append(out, in.Extra[lead:]...)
	n := len(out) - start
	if n > 0x7f {
		return out, fmt.Errorf("dxbc: %s is %d words, over the 127 an opcode token can say", info.name, n)
	}
	out[start] |= uint32(n) << 24
	return out, nil
}

// Words encodes the program as its token stream.
func (p *Program) Words() ([]uint32, error) {
	out := []uint32{uint32(p.Type)<<16 | uint32(p.Major&0xf)<<4 | uint32(p.Minor&0xf), 0}
	for i := range p.Instructions {
		var err error
		if out, err = p.Instructions[i].Encode(out); err != nil {
			return nil, fmt.Errorf("instruction %d: %w", i, err)
		}
	}
	out[1] = uint32(len(out))
	return out, nil
}

// Bytes encodes the program as a SHDR/SHEX chunk's data.
func (p *Program) Bytes() ([]byte, error) {
	w, err := p.Words()
	if err != nil {
		return nil, err
	}
	b := make([]byte, 4*len(w))
	for i, v := range w {
		binary.LittleEndian.PutUint32(b[4*i:], v)
	}
	return b, nil
}

// FourCC is the chunk a program belongs in: SHEX for shader model 5,
// SHDR for 4.
func (p *Program) FourCC() string {
	if p.Major >= 5 {
		return "SHEX"
	}
	return "SHDR"
}
