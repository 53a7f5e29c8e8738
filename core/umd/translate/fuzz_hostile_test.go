package translate

import (
	"testing"

	"d3dsim/core/dxbc"
	"d3dsim/core/memlimit"
)

// hostileProgram builds a program dxbc.Validate accepts whose shape is
// hostile, from the fuzzer's bytes: control flow nested thousands deep,
// 4,096 temps, long straight runs and loops around them, relative
// constant-buffer reads. The translator must take it or refuse it with its
// reason, within its heap ceiling (a crasher on such a program hid behind
// the checksum in FuzzTranslate and behind decoding in
// FuzzTranslateTokens).
func hostileProgram(b []byte, pixel bool) []byte {
	stage := dxbc.VertexShader
	if pixel {
		stage = dxbc.PixelShader
	}
	pos := 0
	next := func(n int) int {
		if len(b) == 0 || n <= 0 {
			return 0
		}
		v := int(b[pos%len(b)])<<8 | int(b[(pos+1)%len(b)])
		pos += 2
		return v % n
	}
	p := dxbc.NewBuilder(stage, 5, 0)
	p.DclConstantBuffer(0, 4096, true)
	if pixel {
		p.DclInputPS(0, dxbc.XYZW, dxbc.InterpLinear)
		p.DclOutput(0, dxbc.XYZW)
	} else {
		p.DclInput(0, dxbc.XYZW)
		p.DclOutputSIV(0, dxbc.XYZW, dxbc.SVPosition)
	}
	temps := uint32(1 + next(4096))
	p.Emit(dxbc.OpMov, dxbc.Temp(0), dxbc.Input(0))
	p.Emit(dxbc.OpMov, dxbc.Temp(temps-1), dxbc.Imm(1, 2, 3, 4))
	var open []dxbc.Opcode // the constructs to close, innermost last
	// At most 5,000 steps: Go's fuzzing worker stops itself when one input
	// runs 10 s of wall clock, and a loaded machine (a load of 30 on two
	// cores) took a 14,641-step program past that, a crasher of the machine's
	// load, not of the code ("testing: fuzz reports spurious 'process hung or
	// terminated unexpectedly' errors", golang/go). TestTranslateDeepNesting
	// translates 20,000 nested blocks outside the fuzzer.
	steps := 1 + next(5_000)
	for i := 0; i < steps; i++ {
		r := dxbc.Temp(uint32(next(int(temps))))
		switch k := next(10); {
		case k == 0 && len(open) < 20_000:
			p.EmitTest(dxbc.OpIf, dxbc.TestNonZero, r.Select(uint8(next(4))))
			open = append(open, dxbc.OpEndif)
		case k == 1 && len(open) < 20_000:
			p.Emit(dxbc.OpLoop)
			p.EmitTest(dxbc.OpBreakc, dxbc.TestZero, r.Select(0))
			open = append(open, dxbc.OpEndloop)
		case k == 2 && len(open) > 0:
			p.Emit(open[len(open)-1])
			open = open[:len(open)-1]
		case k == 3:
			p.Emit(dxbc.OpMov, r, dxbc.CB(0, uint32(next(4096))).Rel(dxbc.Temp(0).Select(0)))
		case k == 4:
			p.Emit(dxbc.OpMad, r, dxbc.Temp(uint32(next(int(temps)))), dxbc.Temp(0), dxbc.Imm(0.5, 0.5, 0.5, 0.5))
		default:
			p.Emit(dxbc.OpAdd, r, r, dxbc.Temp(0))
		}
	}
	for len(open) > 0 {
		p.Emit(open[len(open)-1])
		open = open[:len(open)-1]
	}
	p.Emit(dxbc.OpMov, dxbc.Output(0), dxbc.Temp(temps-1))
	p.Ret()
	name := "POSITION"
	in := &dxbc.Signature{Elements: []dxbc.Element{{Name: name, ComponentType: dxbc.ComponentFloat32, Register: 0, Mask: dxbc.XYZW, ReadWrite: dxbc.XYZW}}}
	out := &dxbc.Signature{Elements: []dxbc.Element{{Name: "SV_Position", SystemValue: dxbc.SVPosition, ComponentType: dxbc.ComponentFloat32, Register: 0, Mask: dxbc.XYZW}}}
	if pixel {
		in.Elements[0].Name = "COLOR"
		out.Elements[0] = dxbc.Element{Name: "SV_Target", ComponentType: dxbc.ComponentFloat32, Register: 0, Mask: dxbc.XYZW}
	}
	blob, err := p.Build(in, out, nil)
	if err != nil {
		return nil
	}
	return blob
}

// FuzzTranslateHostile: valid-but-hostile programs (hostileProgram) through
// dxbc.Validate and the translator.
func FuzzTranslateHostile(f *testing.F) {
	f.Add([]byte{0, 0, 0, 0}, true)
	f.Add([]byte{255, 255, 0, 1, 0, 0, 0, 1}, false)
	f.Add([]byte{0x4e, 0x20, 0, 0, 0, 0, 0, 0}, true) // 20,000 steps, nested ifs
	f.Add([]byte("loops inside ifs inside loops"), false)
	f.Fuzz(func(t *testing.T, b []byte, pixel bool) {
		blob := hostileProgram(b, pixel)
		if blob == nil {
			return
		}
		stage := dxbc.VertexShader
		if pixel {
			stage = dxbc.PixelShader
		}
		if _, err := dxbc.Validate(blob, stage); err != nil {
			return // the generator's program broke a rule: not the translator's input
		}
		memlimit.Check(t, 512<<20, "FuzzTranslateHostile", func() {
			checkResult(t, func() (*Shader, error) { return Translate(blob, stage) })
		})
	})
}

// TestTranslateDeepNesting: 20,000 nested ifs and loops translate or are
// refused with the translator's reason, never a panic, in bounded memory.
func TestTranslateDeepNesting(t *testing.T) {
	for _, op := range []dxbc.Opcode{dxbc.OpIf, dxbc.OpLoop} {
		p := dxbc.NewBuilder(dxbc.PixelShader, 5, 0)
		p.DclInputPS(0, dxbc.XYZW, dxbc.InterpLinear)
		p.DclOutput(0, dxbc.XYZW)
		p.Emit(dxbc.OpMov, dxbc.Temp(0), dxbc.Input(0))
		for range 20_000 {
			if op == dxbc.OpIf {
				p.EmitTest(dxbc.OpIf, dxbc.TestNonZero, dxbc.Temp(0).Select(0))
			} else {
				p.Emit(dxbc.OpLoop)
				p.EmitTest(dxbc.OpBreakc, dxbc.TestZero, dxbc.Temp(0).Select(1))
			}
		}
		end := dxbc.OpEndif
		if op == dxbc.OpLoop {
			end = dxbc.OpEndloop
		}
		for range 20_000 {
			p.Emit(end)
		}
		p.Emit(dxbc.OpMov, dxbc.Output(0), dxbc.Temp(0))
		p.Ret()
		blob, err := p.Build(&dxbc.Signature{Elements: []dxbc.Element{{Name: "COLOR", ComponentType: dxbc.ComponentFloat32, Register: 0, Mask: dxbc.XYZW, ReadWrite: dxbc.XYZW}}},
			&dxbc.Signature{Elements: []dxbc.Element{{Name: "SV_Target", ComponentType: dxbc.ComponentFloat32, Register: 0, Mask: dxbc.XYZW}}}, nil)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := dxbc.Validate(blob, dxbc.PixelShader); err != nil {
			t.Fatalf("%s: %v", op, err)
		}
		memlimit.Check(t, 512<<20, "20,000 nested", func() {
			checkResult(t, func() (*Shader, error) { return Translate(blob, dxbc.PixelShader) })
		})
	}
}
