package umd

import (
	"encoding/binary"
	"testing"

	"d3dsim/core/builtins"
	"d3dsim/core/ddi"
	"d3dsim/core/hlsl"
	"d3dsim/core/hresult"
	"d3dsim/gpu/isa"
)

const shaderSrc = `struct VSIn  { float3 pos : POSITION; float4 col : COLOR; };
struct VSOut { float4 pos : SV_Position; float4 col : COLOR; };
VSOut vsmain(VSIn i) { VSOut o; o.pos = float4(i.pos, 1); o.col = i.col; return o; }
float4 psmain(VSOut i) : SV_Target { return i.col; }`

// builtinCode is the bytecode of built-in shader name (builtin:NAME).
func builtinCode(t testing.TB, name string) []byte {
	t.Helper()
	s, err := builtins.Lookup(name)
	if err != nil {
		t.Fatal(err)
	}
	return s.Bytecode
}

func compile(t *testing.T, entry, target string) []byte {
	t.Helper()
	r, err := hlsl.Compile([]byte(shaderSrc), "t.hlsl", entry, target)
	if err != nil {
		t.Fatal(err)
	}
	return r.Bytecode
}

// TestShaderFromBytecode: the UMD translates bytecode into a GPU-visible
// allocation of its own (the ISA words as initial data), binds it at the
// draw with SET_PROGRAM through the allocation list, with SET_LAYOUT from
// the element layout; DestroyShader frees the allocation after the
// submission. Bytecode it cannot translate is E_INVALIDARG through
// pfnSetErrorCb.
func TestShaderFromBytecode(t *testing.T) {
	f, d := immediateScene(t)
	const hvs, hps, hil = ddi.HSHADER(40), ddi.HSHADER(41), ddi.HELEMENTLAYOUT(42)
	before := len(f.allocs)
	d.CreateVertexShader(hDev, &ddi.ShaderArgs{Bytecode: compile(t, "vsmain", "vs_5_0"), Obj: "vs"}, hvs, uint32(hvs))
	d.CreatePixelShader(hDev, &ddi.ShaderArgs{Bytecode: compile(t, "psmain", "ps_5_0"), Obj: "ps"}, hps, uint32(hps))
	if n := len(f.allocs) - before; n != 2 {
		t.Fatalf("%d allocations for two shaders, want 2", n)
	}
	code := f.allocs[before].Allocations[0]
	sc, ok := d.ShaderCode(hvs) // (the driver keeps the words in the allocation; ShaderCode translates again)
	if !ok || d.shaders[hvs].words != uint32(len(sc.Program.Code)) {
		t.Fatalf("ShaderCode: %v, %d words kept", ok, d.shaders[hvs].words)
	}
	words := sc.Program.Code
	if len(code.InitData) != 4*len(words) || binary.LittleEndian.Uint32(code.InitData) != words[0] {
		t.Fatalf("the code allocation's initial data (%d bytes) is not the %d ISA words", len(code.InitData), len(words))
	}
	d.CreateElementLayout(hDev, &ddi.CreateElementLayoutArgs{Elements: []ddi.ElementDesc{
		{Format: ddi.FormatR32G32B32Float, InputRegister: 0}, {Format: ddi.FormatR32G32B32A32Float, AlignedByteOffset: 12, InputRegister: 1}}}, hil, uint32(hil))
	d.VsSetShader(hDev, hvs)
	d.PsSetShader(hDev, hps)
	d.IaSetInputLayout(hDev, hil)
	d.DrawInstanced(hDev, 3, 2, 0, 0)
	d.Flush(hDev)
	r := f.renders[len(f.renders)-1]
	pkts := decode(t, r.Commands)
	progs, layouts := 0, 0
	for _, p := range pkts {
		switch p.Op {
		case isa.OpSetProgram:
			progs++
			if e := r.AllocationList[p.Args[1]]; e.Allocation != f.allocs[before+int(p.Args[0])].Allocations[0].Allocation || e.WriteOperation {
				t.Errorf("SET_PROGRAM stage %d names list entry %+v, not its code allocation (read only)", p.Args[0], e)
			}
		case isa.OpSetLayout:
			layouts++
			l, err := isa.ParseLayout(p.Args)
			if err != nil || len(l.Elements) != 2 || l.Elements[1].Offset != 12 || l.Elements[1].Reg != 1 {
				t.Errorf("SET_LAYOUT %v (%v), want the two elements", l, err)
			}
		}
	}
	if progs != 2 || layouts != 1 || countOp(pkts, isa.OpDrawInstanced) != 1 {
		t.Fatalf("packets %v: want two SET_PROGRAMs, a SET_LAYOUT and DRAW_INSTANCED", ops(pkts))
	}
	d.VsSetShader(hDev, 0)
	d.DestroyShader(hDev, hvs)
	d.Flush(hDev)
	freed := false
	for _, a := range f.freed {
		freed = freed || a == code.Allocation
	}
	if !freed {
		t.Errorf("DestroyShader did not free the code allocation")
	}

	bad := compile(t, "psmain", "ps_5_0")
	bad[len(bad)-1] ^= 0xFF
	if err := createErr(d, func() { d.CreatePixelShader(hDev, &ddi.ShaderArgs{Bytecode: bad}, 43, 43) }); !hresultIs(err, hresult.E_INVALIDARG) {
		t.Errorf("bad bytecode: %v, want E_INVALIDARG", err)
	}
}

func hresultIs(err error, hr hresult.HRESULT) bool { return err != nil && hresult.Of(err) == hr }
