package apitrace

import (
	"strings"

	"d3dsim/core/scenario"
)

// The geometry stage's calls, with d3d11.h's signatures and apitrace's
// argument names: CreateGeometryShader, GSSetShader, the GS*Set*
// bindings and the GSGet* getters.

var (
	fnCreateGS      = method("ID3D11Device", "CreateGeometryShader", "pShaderBytecode", "BytecodeLength", "pClassLinkage", "ppGeometryShader")
	fnGSSetShader   = method("ID3D11DeviceContext", "GSSetShader", "pShader", "ppClassInstances", "NumClassInstances")
	fnGSSetCB       = method("ID3D11DeviceContext", "GSSetConstantBuffers", "StartSlot", "NumBuffers", "ppConstantBuffers")
	fnGSSetSRV      = method("ID3D11DeviceContext", "GSSetShaderResources", "StartSlot", "NumViews", "ppShaderResourceViews")
	fnGSSetSamplers = method("ID3D11DeviceContext", "GSSetSamplers", "StartSlot", "NumSamplers", "ppSamplers")
	fnGSGetShader   = method("ID3D11DeviceContext", "GSGetShader", "ppGeometryShader", "ppClassInstances", "pNumClassInstances")
	fnGSGetCB       = method("ID3D11DeviceContext", "GSGetConstantBuffers", "StartSlot", "NumBuffers", "ppConstantBuffers")
	fnGSGetSRV      = method("ID3D11DeviceContext", "GSGetShaderResources", "StartSlot", "NumViews", "ppShaderResourceViews")
	fnGSGetSamplers = method("ID3D11DeviceContext", "GSGetSamplers", "StartSlot", "NumSamplers", "ppSamplers")
)

func geometryRows() []*row {
	return []*row{
		custom(dev, "CreateGeometryShader", "device", "CreateGeometryShader", fnCreateGS, expCreateShader(fnCreateGS), impCreateShader("gs")),
		custom(ctx, "GSSetShader", "context", "GSSetShader", fnGSSetShader, expSetShader(fnGSSetShader), impSetShader),
		custom(ctx, "GSSetConstantBuffers", "context", "GSSetConstantBuffers", fnGSSetCB, expSlots(fnGSSetCB, "BUF"), impSlots("BUF")),
		custom(ctx, "GSSetShaderResources", "context", "GSSetShaderResources", fnGSSetSRV, expSlots(fnGSSetSRV, "SRV"), impSlots("SRV")),
		custom(ctx, "GSSetSamplers", "context", "GSSetSamplers", fnGSSetSamplers, expSlots(fnGSSetSamplers, "SAMPLER"), impSlots("SAMPLER")),
		getter("GSGetShader", fnGSGetShader),
		getter("GSGetConstantBuffers", fnGSGetCB, "SLOT", "COUNT"),
		getter("GSGetShaderResources", fnGSGetSRV, "SLOT", "COUNT"),
		getter("GSGetSamplers", fnGSGetSamplers, "SLOT", "COUNT"),
	}
}

// Stream output: CreateGeometryShaderWithStreamOutput writes its
// D3D11_SO_DECLARATION_ENTRY array, strides and RasterizedStream;
// SOSetTargets its pOffsets.
var (
	stSODecl       = structSig("D3D11_SO_DECLARATION_ENTRY", "Stream", "SemanticName", "SemanticIndex", "StartComponent", "ComponentCount", "OutputSlot")
	fnCreateGSSO   = method("ID3D11Device", "CreateGeometryShaderWithStreamOutput", "pShaderBytecode", "BytecodeLength", "pSODeclaration", "NumEntries", "pBufferStrides", "NumStrides", "RasterizedStream", "pClassLinkage", "ppGeometryShader")
	fnSOSetTargets = method("ID3D11DeviceContext", "SOSetTargets", "NumBuffers", "ppSOTargets", "pOffsets")
	fnSOGetTargets = method("ID3D11DeviceContext", "SOGetTargets", "NumBuffers", "ppSOTargets")
)

func streamRows() []*row {
	return []*row{
		custom(dev, "CreateGeometryShaderWithStreamOutput", "device", "CreateGeometryShaderWithStreamOutput", fnCreateGSSO, expCreateGSSO, impCreateGSSO),
		custom(ctx, "SOSetTargets", "context", "SOSetTargets", fnSOSetTargets, expSOSetTargets, impSOSetTargets),
		getter("SOGetTargets", fnSOGetTargets, "COUNT"),
		simple(ctx, "DrawAuto", "context", "DrawAuto", false),
	}
}

func expCreateGSSO(e *Exporter, th uint64, r *scenario.CallRecord) {
	code := r.Arg("PROGRAM").Bytes
	out := e.outObj(r, 9, 0)
	if out != nil {
		e.code[r.Results[0]] = code
	}
	var decl []Value
	for n, arg := range scenario.SODeclArgs {
		a := r.Arg(arg)
		if a == nil || !a.Given && n > 0 {
			continue
		}
		entries, _ := scenario.ParseSODecl(a.Value.Text)
		for _, d := range entries {
			name := Null
			if d.SemanticName != "" {
				name = StrV(d.SemanticName)
			}
			decl = append(decl, StructV(stSODecl, UintV(uint64(n)), name, UintV(uint64(d.SemanticIndex)),
				UintV(uint64(d.StartComponent)), UintV(uint64(d.ComponentCount)), UintV(uint64(d.OutputSlot))))
		}
	}
	strides := Null
	var ns uint64
	if a := r.Arg("Strides"); a != nil && a.Given {
		vs := make([]Value, len(a.Value.U32))
		for i, s := range a.Value.U32 {
			vs[i] = UintV(uint64(s))
		}
		strides, ns = ArrayV(vs...), uint64(len(vs))
	}
	e.write(th, fnCreateGSSO, []Arg{e.this(r), {1, shaderValue(code)}, {2, UintV(uint64(len(code)))}, {3, ArrayV(decl...)},
		{4, UintV(uint64(len(decl)))}, {5, strides}, {6, UintV(ns)}, {7, UintV(uintArg(r, "RasterizedStream"))}, {8, Null}}, out, hr(r), 0)
}

func impCreateGSSO(m *importer, c *Call, d *object) error {
	if o, err := m.objOf(c.Arg("pClassLinkage")); err != nil || o != nil {
		return skip("a class linkage: the simulator has no dynamic shader linkage")
	}
	code, err := m.shaderArg(c.Arg("pShaderBytecode"), "gs")
	if err != nil {
		return err
	}
	var parts [4][]string // each stream's entries (Decl, Decl1..Decl3)
	for i, e := range elems(c.Arg("pSODeclaration")) {
		stream, err := m.uintMember(&e, "Stream")
		if err != nil {
			return err
		}
		if stream > 3 {
			return skip("pSODeclaration[%d].Stream %d: streams are 0..3", i, stream)
		}
		idx, _ := m.uintMember(&e, "SemanticIndex")
		start, _ := m.uintMember(&e, "StartComponent")
		count, _ := m.uintMember(&e, "ComponentCount")
		slot, _ := m.uintMember(&e, "OutputSlot")
		if start+count > 4 || count == 0 {
			return skip("pSODeclaration[%d]: components %d..%d", i, start, start+count)
		}
		mask := "xyzw"[start : start+count]
		text := ""
		if slot != 0 {
			text = fmtU(slot) + ":"
		}
		sem := m.member(&e, "SemanticName")
		switch {
		case sem == nil || sem.Kind == KNull:
			text += "$SKIP." + "xyzw"[:count]
		case sem.Kind == KString && sanitize(sem.Str) == sem.Str && !strings.ContainsAny(sem.Str, ";.:\" "):
			text += sem.Str
			if idx != 0 {
				text += fmtU(idx)
			}
			text += "." + mask
		default:
			return skip("pSODeclaration[%d].SemanticName is %s", i, describe(sem))
		}
		parts[stream] = append(parts[stream], text)
	}
	s := m.out(c, "ppGeometryShader", "gs", "gs")
	if s != nil {
		s.dev = d
	}
	line := m.bind(s) + m.ref(d) + ".CreateGeometryShaderWithStreamOutput " + code + ` Decl="` + strings.Join(parts[0], "; ") + `"`
	for n := 1; n < 4; n++ {
		if len(parts[n]) > 0 {
			line += " " + scenario.SODeclArgs[n] + `="` + strings.Join(parts[n], "; ") + `"`
		}
	}
	if st := elems(c.Arg("pBufferStrides")); len(st) > 0 {
		var ws []string
		for _, v := range st {
			k, _ := valInt(&v)
			ws = append(ws, fmtU(uint64(uint32(k))))
		}
		line += " Strides=u32[" + strings.Join(ws, " ") + "]"
	}
	if rs, err := m.uintOf(c, "RasterizedStream"); err == nil && rs != 0 {
		line += " RasterizedStream=" + fmtU(uint64(uint32(rs)))
	}
	m.emit(c, line, hrOf(c))
	return nil
}

func expSOSetTargets(e *Exporter, th uint64, r *scenario.CallRecord) {
	objs := posObjects(r, "BUF")
	vals := make([]Value, len(objs))
	offs := make([]Value, len(objs))
	a := r.Arg("Offsets")
	for i, o := range objs {
		vals[i] = e.obj(o)
		offs[i] = UintV(0)
		if a != nil && a.Given && i < len(a.Value.U32) {
			offs[i] = UintV(uint64(a.Value.U32[i]))
		}
	}
	e.write(th, fnSOSetTargets, []Arg{e.this(r), {1, UintV(uint64(len(objs)))}, {2, ArrayV(vals...)}, {3, ArrayV(offs...)}}, nil, nil, 0)
}

func impSOSetTargets(m *importer, c *Call, ctx *object) error {
	n, err := m.uintOf(c, "NumBuffers")
	if err != nil {
		return err
	}
	if n > 4 {
		return skip("NumBuffers %d: stream output has 4 slots", n)
	}
	objs := elems(c.Arg("ppSOTargets"))
	text := m.ref(ctx) + ".SOSetTargets"
	for i := uint64(0); i < n; i++ {
		ref := "NULL"
		if int(i) < len(objs) {
			o, err := m.objOf(&objs[i])
			if err != nil {
				return err
			}
			if o != nil && o.typ != "buffer" {
				return skip("ppSOTargets[%d] is a %s", i, orKind(o))
			}
			ref = m.ref(o)
		}
		text += " " + ref
	}
	var offs []string
	zero := true
	for i, v := range elems(c.Arg("pOffsets")) {
		if uint64(i) >= n {
			break
		}
		k, _ := valInt(&v)
		offs = append(offs, fmtU(uint64(uint32(k))))
		zero = zero && k == 0
	}
	if len(offs) == int(n) && !zero {
		text += " Offsets=u32[" + strings.Join(offs, " ") + "]"
	}
	m.emit(c, text, "")
	return nil
}
