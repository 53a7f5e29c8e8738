package scenario

import (
	"strconv"
	"strings"

	"d3dsim/core/d3d11"
)

// The geometry stage's calls (D3D11's names): CreateGeometryShader,
// GSSetShader, GSSetConstantBuffers, GSSetShaderResources, GSSetSamplers
// and the GSGet* getters; stream output's: CreateGeometryShaderWithStreamOutput
// (its declaration written as the Effects framework's stream-output
// strings), SOSetTargets, SOGetTargets and DrawAuto.

const tGS = "gs" // a geometry shader

func init() {
	allTypes = append(allTypes, tGS)
	dev, ctx := methods[tDevice], methods[tContext]
	dev["CreateGeometryShader"] = &method{pos: []param{{name: "PROGRAM", kind: pBuiltin, enum: "gs"}}, named: shaderNamed,
		results: []string{tGS}, exec: execCreateShader("gs")}
	ctx["GSSetShader"] = &method{pos: []param{{name: "SHADER", kind: pObj, types: tGS, opt: true}},
		exec: func(x *call) error { return x.ctx().GSSetShader(x.shader(0)) }}
	ctx["GSSetConstantBuffers"] = setCBs(d3d11.StageGS)
	ctx["GSSetShaderResources"] = setSRVs(d3d11.StageGS)
	ctx["GSSetSamplers"] = setSamplers(d3d11.StageGS)
	ctx["GSGetShader"] = &method{exec: func(x *call) error { return got(x, []*d3d11.Shader{x.ctx().GSGetShader()}, nil) }}
	ctx["GSGetConstantBuffers"] = getCBs(d3d11.StageGS)
	ctx["GSGetShaderResources"] = getSRVs(d3d11.StageGS)
	ctx["GSGetSamplers"] = getSamplers(d3d11.StageGS)
	dev["CreateGeometryShaderWithStreamOutput"] = &method{pos: []param{{name: "PROGRAM", kind: pBuiltin, enum: "gs"}},
		named: append([]param{{name: "Decl", kind: pString}, {name: "Decl1", kind: pString, opt: true}, {name: "Decl2", kind: pString, opt: true},
			{name: "Decl3", kind: pString, opt: true}, {name: "Strides", kind: pData, opt: true},
			{name: "RasterizedStream", kind: pUint, opt: true}}, shaderNamed...),
		results: []string{tGS}, exec: execCreateSOShader}
	ctx["SOSetTargets"] = &method{pos: []param{{name: "BUF", kind: pObj, types: tBuffer, opt: true}, {name: "BUF", kind: pObj, types: tBuffer, opt: true},
		{name: "BUF", kind: pObj, types: tBuffer, opt: true}, {name: "BUF", kind: pObj, types: tBuffer, opt: true}},
		named: []param{{name: "Offsets", kind: pData, opt: true}}, exec: execSOSetTargets}
	ctx["SOGetTargets"] = &method{pos: []param{{name: "COUNT", kind: pUint, opt: true, def: 1}}, exec: func(x *call) error {
		bufs, err := x.ctx().SOGetTargets(x.uint(0))
		return got(x, bufs, err)
	}}
	ctx["DrawAuto"] = &method{exec: func(x *call) error { return x.ctx().DrawAuto() }}
}

// execCreateSOShader is CreateGeometryShaderWithStreamOutput. Decl is
// the stream-0 declaration (Decl1..Decl3 streams 1..3's, as
// ConstructGSWithSO's OutputDecl1..3) as the Effects framework writes it:
// entries separated by ";", each "[SLOT:]SEMANTIC[INDEX][.MASK]" (the
// mask's components consecutive, xyzw when left out) or "[SLOT:]$SKIP.MASK"
// for a gap of as many components; Strides the buffers' strides in bytes
// (u32[...], each slot's entries packed when left out); RasterizedStream
// 0, or 4294967295 for D3D11_SO_NO_RASTERIZED_STREAM.
func execCreateSOShader(x *call) error {
	var decl []d3d11.SODeclarationEntry
	for n, name := range SODeclArgs {
		a, ok := x.namedArg(name)
		if !ok {
			continue
		}
		d, err := ParseSODecl(a.Value.Text)
		if err != nil {
			return x.bad("%s %q: %v", name, a.Value.Text, err)
		}
		for i := range d {
			d[i].Stream = uint32(n)
		}
		decl = append(decl, d...)
	}
	var strides []uint32
	if sa, ok := x.namedArg("Strides"); ok {
		if sa.Value.Kind != VU32 {
			return x.bad("Strides is u32[...]: a stride in bytes per buffer")
		}
		strides = sa.Value.U32
	}
	s, err := x.dev().CreateGeometryShaderWithStreamOutput(x.result(0), x.value(0).Bytes, decl, strides, x.uintNamed("RasterizedStream"))
	if err == nil {
		x.bind(0, s)
		x.run.noteShader(x, s)
	}
	return err
}

// SODeclArgs are CreateGeometryShaderWithStreamOutput's declarations,
// stream n's at n.
var SODeclArgs = [4]string{"Decl", "Decl1", "Decl2", "Decl3"}

// soError is a stream-output declaration that does not parse.
type soError string

func (e soError) Error() string { return string(e) }

// ParseSODecl reads an Effects-style stream-output declaration (the
// Decl of CreateGeometryShaderWithStreamOutput).
func ParseSODecl(text string) ([]d3d11.SODeclarationEntry, error) {
	var out []d3d11.SODeclarationEntry
	for _, part := range strings.Split(text, ";") {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		var e d3d11.SODeclarationEntry
		if slot, rest, ok := strings.Cut(part, ":"); ok {
			n, err := strconv.ParseUint(strings.TrimSpace(slot), 10, 8)
			if err != nil {
				return nil, soError("output slot " + strconv.Quote(slot) + ": a number 0..3")
			}
			e.OutputSlot, part = uint8(n), strings.TrimSpace(rest)
		}
		name, mask, hasMask := strings.Cut(part, ".")
		if !hasMask {
			mask = "xyzw"
		}
		start := strings.IndexByte("xyzw", mask[0])
		if start < 0 || len(mask) > 4 || !strings.HasPrefix("xyzw"[start:], mask) {
			return nil, soError("mask " + strconv.Quote(mask) + ": consecutive components of xyzw")
		}
		e.StartComponent, e.ComponentCount = uint8(start), uint8(len(mask))
		if name != "$SKIP" {
			i := len(name)
			for i > 0 && name[i-1] >= '0' && name[i-1] <= '9' {
				i--
			}
			if i == 0 {
				return nil, soError("entry " + strconv.Quote(part) + ": a semantic name")
			}
			if i < len(name) {
				n, _ := strconv.ParseUint(name[i:], 10, 32)
				e.SemanticIndex = uint32(n)
			}
			e.SemanticName = name[:i]
		} else {
			e.StartComponent = 0
		}
		out = append(out, e)
	}
	return out, nil
}

func execSOSetTargets(x *call) error {
	bufs := objects(x, 0, x.res)
	var offsets []uint32
	if a, ok := x.namedArg("Offsets"); ok {
		if a.Value.Kind != VU32 && a.Value.Kind != VI32 || len(a.Value.U32) != len(bufs) {
			return x.bad("Offsets is one offset per buffer: u32[...] (or i32[...], -1 appending) of %d", len(bufs))
		}
		offsets = a.Value.U32
	}
	return x.ctx().SOSetTargets(bufs, offsets)
}
