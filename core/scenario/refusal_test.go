package scenario

import (
	"encoding/hex"
	"strings"
	"testing"

	"d3dsim/core/dxbc"
	"d3dsim/core/trace"
)

// uavPixelShader is a ps_5_0 that writes a RWTexture2D (dcl_uav_typed, a
// pixel shader UAV of feature level 11_0): valid bytecode the runtime
// accepts and this GPU's driver refuses.
func uavPixelShader(t *testing.T) string {
	t.Helper()
	b := dxbc.NewBuilder(dxbc.PixelShader, 5, 0)
	b.Declare(dxbc.Instruction{Op: dxbc.OpDclUAVTyped, Controls: uint32(dxbc.DimTexture2D),
		Operands: []dxbc.Operand{{Type: dxbc.RegUAV, Indices: []dxbc.Index{{Imm: 1}}}}, Extra: []uint32{0x5555}})
	b.DclInputPSSIV(0, dxbc.XY, dxbc.InterpLinearNoPerspective, dxbc.SVPosition)
	b.DclOutput(0, dxbc.XYZW)
	b.Emit(dxbc.OpFtou, dxbc.Temp(0).Mask(dxbc.XY), dxbc.Input(0).Swz("xyxx"))
	u := dxbc.Operand{Type: dxbc.RegUAV, Components: 4, Mode: dxbc.SelectMask, WriteMask: dxbc.XYZW, Indices: []dxbc.Index{{Imm: 1}}}
	b.EmitInstruction(dxbc.Instruction{Op: dxbc.OpStoreUAVTyped, Operands: []dxbc.Operand{u, dxbc.Temp(0).Swz("xyxx"), dxbc.Imm(1, 0, 0, 1)}})
	b.Emit(dxbc.OpMov, dxbc.Output(0), dxbc.Imm(1, 0, 0, 1))
	b.Ret()
	in := &dxbc.Signature{Elements: []dxbc.Element{{Name: "SV_Position", SystemValue: dxbc.SVPosition, ComponentType: dxbc.ComponentFloat32, Mask: dxbc.XYZW, ReadWrite: dxbc.XY}}}
	out := &dxbc.Signature{Elements: []dxbc.Element{{Name: "SV_Target", ComponentType: dxbc.ComponentFloat32, Mask: dxbc.XYZW}}}
	blob, err := b.Build(in, out, nil)
	if err != nil {
		t.Fatal(err)
	}
	return "bytes:" + hex.EncodeToString(blob)
}

// TestRefusalNamesTheInstruction: a shader the driver cannot translate is
// refused with the driver's reason -- the DXBC instruction by its name
// and the feature -- in the pfnSetErrorCb event, the failed call's error,
// the debug layer's message and the run's failures.
func TestRefusalNamesTheInstruction(t *testing.T) {
	ps := uavPixelShader(t)
	const want = "dcl_uav_typed: unordered access views"
	for _, debug := range []bool{true, false} {
		flags := ""
		if debug {
			flags = " Flags=DEBUG"
		}
		src := "dev, imm = D3D11CreateDevice" + flags + "\nps = dev.CreatePixelShader " + ps + "\n"
		s, err := Load("uav.d3ds", []byte(src))
		if err != nil {
			t.Fatal(err)
		}
		r := NewRun(s, Overrides{})
		sum := r.Finish()
		if sum.Violations != 0 {
			t.Errorf("debug %v: %d violations: the debug layer must not blame the application for the driver's refusal (ERR-APP)", debug, sum.Violations)
		}
		if sum.OK() || !strings.Contains(strings.Join(sum.Failures, "\n"), want) || !strings.Contains(strings.Join(sum.Failures, "\n"), "pfnSetErrorCb") {
			t.Errorf("debug %v: failures %q do not name the instruction", debug, sum.Failures)
		}
		var cb, ret, layer bool
		for _, e := range r.Events() {
			switch {
			case e.Name == "pfnSetErrorCb" && e.Kind == trace.Call:
				cb = e.HR == "E_INVALIDARG" && strings.Contains(e.Msg, want)
			case e.Name == "CreatePixelShader" && e.Kind == trace.Return && e.Layer == trace.Runtime:
				ret = e.HR == "E_INVALIDARG" && strings.Contains(e.Msg, want)
			case e.Kind == trace.Message && strings.HasPrefix(e.Msg, "D3D11 CORRUPTION: CreatePixelShader(ps): the driver refused the shader"):
				layer = strings.Contains(e.Msg, want)
			}
		}
		if !cb || !ret || layer != debug {
			t.Errorf("debug %v: pfnSetErrorCb event %v, CreatePixelShader's error %v, debug layer message %v", debug, cb, ret, layer)
		}
	}
	// Expected, the failure passes.
	src := "dev, imm = D3D11CreateDevice\nps = dev.CreatePixelShader " + ps + "\nexpect hr == E_INVALIDARG\n"
	s, err := Load("uav.d3ds", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if sum := NewRun(s, Overrides{}).Finish(); !sum.OK() {
		t.Errorf("expected refusal fails: %q", sum.Failures)
	}
}
