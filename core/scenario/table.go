package scenario

import (
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"

	"d3dsim/core/d3d11"
	"d3dsim/core/hresult"
)

// The API table: every method a scenario may call, its parameters (checked
// at load time, so a typo is a FILE:LINE:COL error before anything runs) and
// what it does.

type pkind uint8

const (
	pObj          pkind = iota + 1 // an object of one of types (or NULL when opt)
	pUint                          // non-negative integer
	pInt                           // integer
	pFloat                         // number
	pEnum                          // one name of d3d11.Enums[enum]
	pFlags                         // 0 or names of d3d11.Enums[enum] joined by |
	pData                          // f32[], u16[], u32[], mesh:, #colour
	pBuiltin                       // builtin:NAME, hlsl:NAME, fxc:NAME or bytes:HEX
	pWord                          // a name (hlsl's entry= and target=)
	pElem                          // elem[...]: one input element
	pBool                          // TRUE or FALSE
	pFloatOrColor                  // a number or a #RRGGBBAA colour
	pObjOrCode                     // pObj, or shader code as pBuiltin (CreateInputLayout's VS)
	pString                        // "text": a marker's text, a debug name
	pHLSLFlags                     // D3DCompile's flags (hlsl.ParseFlag) joined by |: hlsl's flags=
)

type param struct {
	name  string
	kind  pkind
	enum  string // pEnum, pFlags
	types string // pObj: allowed types separated by |
	opt   bool
	def   float64 // default for optional numbers
}

type method struct {
	pos     []param
	named   []param
	results []string // types of the names bound by =
	exec    func(x *call) error
}

// Object types a scenario names.
const (
	tDevice      = "device"
	tContext     = "context"
	tSwap        = "swapchain"
	tBuffer      = "buffer"
	tTexture     = "texture"
	tRTV         = "rtv"
	tSRV         = "srv"
	tDSV         = "dsv"
	tVS          = "vs"
	tPS          = "ps"
	tBlend       = "blend"
	tRaster      = "rasterizer"
	tDepth       = "depthstencil"
	tSampler     = "sampler"
	tQuery       = "query"
	tCommandList = "commandlist"
	tFence       = "fence"
	tLayout      = "inputlayout"
)

var allTypes = []string{tDevice, tContext, tSwap, tBuffer, tTexture, tRTV, tSRV, tDSV, tVS, tPS, tBlend, tRaster, tDepth, tSampler, tQuery, tCommandList, tFence, tLayout}

// shaderNamed are CreateVertexShader's and CreatePixelShader's options
// for hlsl:NAME: the entry point (default main), the target profile
// (default vs_5_0 or ps_5_0) and D3DCompile's flags (default none), fxc's
// /E, /T and /Gec.
var shaderNamed = []param{{name: "entry", kind: pWord, opt: true}, {name: "target", kind: pWord, opt: true}, {name: "flags", kind: pHLSLFlags, opt: true}}

// globals are calls with no target.
var globals = map[string]*method{
	"D3D11CreateDevice": {
		named:   []param{{name: "Flags", kind: pFlags, enum: "CreateDeviceFlags", opt: true}},
		results: []string{tDevice, tContext},
		exec:    execCreateDevice,
	},
	// The D3DPERF_* markers (annotation.go): functions, with no context.
	"D3DPERF_BeginEvent": {pos: markerParams, named: markerColor, exec: func(x *call) error {
		x.run.got = []string{fmt.Sprint(x.run.rt.PerfBeginEvent(x.str(0), x.d3dColor()))}
		return nil
	}},
	"D3DPERF_EndEvent": {exec: func(x *call) error {
		x.run.got = []string{fmt.Sprint(x.run.rt.PerfEndEvent())}
		return nil
	}},
	"D3DPERF_SetMarker": {pos: markerParams, named: markerColor, exec: func(x *call) error {
		x.run.rt.PerfSetMarker(x.str(0), x.d3dColor())
		return nil
	}},
	"D3DPERF_GetStatus": {exec: func(x *call) error {
		x.run.got = []string{fmt.Sprint(x.run.rt.PerfGetStatus())}
		return nil
	}},
}

var methods = map[string]map[string]*method{
	tDevice: {
		"CreateSwapChain": {named: []param{{name: "Width", kind: pUint}, {name: "Height", kind: pUint}, {name: "BufferCount", kind: pUint, opt: true, def: 1},
			{name: "SwapEffect", kind: pEnum, enum: "SwapEffect", opt: true}, {name: "Format", kind: pEnum, enum: "Format", opt: true}},
			results: []string{tSwap}, exec: execCreateSwapChain},
		"CreateBuffer": {named: []param{{name: "ByteWidth", kind: pUint, opt: true}, {name: "Usage", kind: pEnum, enum: "Usage", opt: true},
			{name: "BindFlags", kind: pFlags, enum: "BindFlags", opt: true}, {name: "CPUAccessFlags", kind: pFlags, enum: "CPUAccessFlags", opt: true},
			{name: "MiscFlags", kind: pFlags, enum: "MiscFlags", opt: true}, {name: "StructureByteStride", kind: pUint, opt: true},
			{name: "Data", kind: pData, opt: true}}, results: []string{tBuffer}, exec: execCreateBuffer},
		"CreateTexture2D": {named: []param{{name: "Width", kind: pUint}, {name: "Height", kind: pUint}, {name: "Format", kind: pEnum, enum: "Format"},
			{name: "Usage", kind: pEnum, enum: "Usage", opt: true}, {name: "BindFlags", kind: pFlags, enum: "BindFlags", opt: true},
			{name: "CPUAccessFlags", kind: pFlags, enum: "CPUAccessFlags", opt: true}, {name: "MiscFlags", kind: pFlags, enum: "MiscFlags", opt: true},
			{name: "Data", kind: pData, opt: true}, {name: "MipLevels", kind: pUint, opt: true, def: 1}, {name: "ArraySize", kind: pUint, opt: true, def: 1},
			{name: "SampleCount", kind: pUint, opt: true, def: 1}, {name: "SampleQuality", kind: pUint, opt: true}},
			results: []string{tTexture}, exec: execCreateTexture},
		// CreateTexture1D and CreateTexture3D: textures.go.
		"CreateTexture1D": {named: texture1DNamed(), results: []string{tTexture}, exec: execCreateTexture1D},
		"CreateTexture3D": {named: texture3DNamed(), results: []string{tTexture}, exec: execCreateTexture3D},
		// OfferResources RES [RES ...] and ReclaimResources RES [RES ...]:
		// IDXGIDevice2's ("Video Memory Offer and Reclaim"); what
		// ReclaimResources returns (pDiscarded, TRUE or FALSE per resource)
		// goes to `expect got`.
		"OfferResources": {pos: resObjects("RES", 16), named: []param{{name: "Priority", kind: pEnum, enum: "OfferPriority", opt: true}},
			exec: func(x *call) error {
				return x.dev().OfferResources(objects(x, 0, x.res), d3d11.OfferPriority(x.enumNamed("Priority", 2)))
			}},
		"ReclaimResources": {pos: resObjects("RES", 16), exec: func(x *call) error {
			x.run.got = nil
			d, err := x.dev().ReclaimResources(objects(x, 0, x.res))
			for _, b := range d {
				x.run.got = append(x.run.got, map[bool]string{true: "TRUE", false: "FALSE"}[b])
			}
			return err
		}},
		// Escape is a driver-private call (a vendor's private API), not part
		// of D3D11: the UMD answers it with pfnEscapeCb.
		"Escape": {named: []param{{name: "Code", kind: pUint, opt: true, def: 1}}, exec: func(x *call) error {
			_, err := x.dev().Escape(x.uintNamed("Code"))
			return err
		}},
		"CreateRenderTargetView": {pos: []param{{name: "RES", kind: pObj, types: tTexture + "|" + tBuffer}}, named: viewNamed(false),
			results: []string{tRTV}, exec: execCreateView(d3d11.ViewRTV)},
		"CreateShaderResourceView": {pos: []param{{name: "RES", kind: pObj, types: tTexture + "|" + tBuffer}}, named: srvNamed(),
			results: []string{tSRV}, exec: execCreateView(d3d11.ViewSRV)},
		"CreateDepthStencilView": {pos: []param{{name: "RES", kind: pObj, types: tTexture}}, named: viewNamed(true),
			results: []string{tDSV}, exec: execCreateView(d3d11.ViewDSV)},
		"CreateVertexShader": {pos: []param{{name: "PROGRAM", kind: pBuiltin, enum: "vs"}}, named: shaderNamed,
			results: []string{tVS}, exec: execCreateShader("vs")},
		"CreatePixelShader": {pos: []param{{name: "PROGRAM", kind: pBuiltin, enum: "ps"}}, named: shaderNamed,
			results: []string{tPS}, exec: execCreateShader("ps")},
		"CreateInputLayout": {pos: layoutParams(), named: shaderNamed, results: []string{tLayout}, exec: execCreateInputLayout},
		"CreateBlendState":  {named: blendNamed(), results: []string{tBlend}, exec: execCreateBlend},
		"CreateRasterizerState": {named: []param{{name: "FillMode", kind: pEnum, enum: "FillMode", opt: true}, {name: "CullMode", kind: pEnum, enum: "CullMode", opt: true},
			{name: "FrontCounterClockwise", kind: pBool, opt: true}, {name: "DepthClipEnable", kind: pBool, opt: true},
			{name: "DepthBias", kind: pInt, opt: true}, {name: "DepthBiasClamp", kind: pFloat, opt: true}, {name: "SlopeScaledDepthBias", kind: pFloat, opt: true},
			{name: "ScissorEnable", kind: pBool, opt: true}, {name: "MultisampleEnable", kind: pBool, opt: true}, {name: "AntialiasedLineEnable", kind: pBool, opt: true}},
			results: []string{tRaster}, exec: execCreateRaster},
		"CreateDepthStencilState": {named: depthNamed(), results: []string{tDepth}, exec: execCreateDepth},
		"CreateSamplerState": {named: []param{{name: "Filter", kind: pEnum, enum: "Filter", opt: true}, {name: "AddressU", kind: pEnum, enum: "Address", opt: true},
			{name: "AddressV", kind: pEnum, enum: "Address", opt: true}, {name: "BorderColor", kind: pData, opt: true},
			{name: "AddressW", kind: pEnum, enum: "Address", opt: true}, {name: "MipLODBias", kind: pFloat, opt: true},
			{name: "MaxAnisotropy", kind: pUint, opt: true, def: 1}, {name: "ComparisonFunc", kind: pEnum, enum: "Comparison", opt: true},
			{name: "MinLOD", kind: pFloat, opt: true, def: -math.MaxFloat32}, {name: "MaxLOD", kind: pFloat, opt: true, def: math.MaxFloat32}},
			results: []string{tSampler}, exec: execCreateSampler},
		"CreateFence": {named: []param{{name: "InitialValue", kind: pUint, opt: true}}, results: []string{tFence}, exec: func(x *call) error {
			f, err := x.dev().CreateFence(x.result(0), uint64(x.numNamed("InitialValue")))
			if err == nil {
				x.bind(0, f)
			}
			return err
		}},
		"CreateQuery": {named: []param{{name: "Query", kind: pEnum, enum: "Query"}}, results: []string{tQuery}, exec: execCreateQuery},
		"CreatePredicate": {named: []param{{name: "Query", kind: pEnum, enum: "Query"}}, results: []string{tQuery}, exec: func(x *call) error {
			q, err := x.dev().CreatePredicate(x.result(0), d3d11.QueryType(x.enumNamed("Query", 0)))
			if err == nil {
				x.bind(0, q)
			}
			return err
		}},
		// CheckFormatSupport: the answer is in its return events' args
		// (support=...) and for `expect support has|lacks FLAGS`.
		"CheckFormatSupport": {pos: []param{{name: "FORMAT", kind: pEnum, enum: "Format"}}, exec: func(x *call) error {
			f := d3d11.Format(x.enum(0))
			s, err := x.dev().CheckFormatSupport(f)
			x.run.support.f, x.run.support.s, x.run.support.done = f, s, true
			return err
		}},
		"GetDeviceRemovedReason": {exec: func(x *call) error { return x.dev().GetDeviceRemovedReason() }},
		"SetMaximumFrameLatency": {pos: []param{{name: "N", kind: pUint}}, exec: func(x *call) error {
			return x.dev().SetMaximumFrameLatency(x.uint(0))
		}},
		"GetMaximumFrameLatency": {exec: func(x *call) error {
			x.run.lastData = uint64(x.dev().GetMaximumFrameLatency())
			return nil
		}},
		"CreateDeferredContext": {results: []string{tContext}, exec: func(x *call) error {
			c, err := x.dev().CreateDeferredContext(x.result(0))
			if err == nil {
				x.bind(0, c)
			}
			return err
		}},
	},
	tContext: {
		// IASetVertexBuffers SLOT BUF [BUF ...]: NumBuffers buffers from
		// StartSlot, each with Stride and Offset or its entry of Strides
		// and Offsets.
		"IASetVertexBuffers": {pos: slotObjects("BUF", tBuffer, 32),
			named: []param{{name: "Stride", kind: pUint, opt: true, def: 36}, {name: "Offset", kind: pUint, opt: true},
				{name: "Strides", kind: pData, opt: true}, {name: "Offsets", kind: pData, opt: true}},
			exec: execIASetVertexBuffers},
		"IASetIndexBuffer": {pos: []param{{name: "BUF", kind: pObj, types: tBuffer, opt: true}},
			named: []param{{name: "Format", kind: pEnum, enum: "Format", opt: true}, {name: "Offset", kind: pUint, opt: true}},
			exec: func(x *call) error {
				f := d3d11.Format(x.enumNamed("Format", uint32(d3d11.FormatR16Uint)))
				return x.ctx().IASetIndexBuffer(x.res(0), f, x.uintNamed("Offset"))
			}},
		"IASetPrimitiveTopology": {pos: []param{{name: "TOPOLOGY", kind: pEnum, enum: "Topology"}},
			exec: func(x *call) error { return x.ctx().IASetPrimitiveTopology(d3d11.Topology(x.enum(0))) }},
		"VSSetShader": {pos: []param{{name: "SHADER", kind: pObj, types: tVS, opt: true}},
			exec: func(x *call) error { return x.ctx().VSSetShader(x.shader(0)) }},
		"PSSetShader": {pos: []param{{name: "SHADER", kind: pObj, types: tPS, opt: true}},
			exec: func(x *call) error { return x.ctx().PSSetShader(x.shader(0)) }},
		// *SetConstantBuffers, *SetShaderResources, *SetSamplers SLOT OBJ
		// [OBJ ...]: a range from StartSlot (NULL unbinds).
		"VSSetConstantBuffers": setCBs(d3d11.StageVS),
		"PSSetConstantBuffers": setCBs(d3d11.StagePS),
		"VSSetShaderResources": setSRVs(d3d11.StageVS),
		"PSSetShaderResources": setSRVs(d3d11.StagePS),
		"VSSetSamplers":        setSamplers(d3d11.StageVS),
		"PSSetSamplers":        setSamplers(d3d11.StagePS),
		// The getters: what they return goes to `expect got`.
		"IAGetVertexBuffers": {pos: []param{{name: "SLOT", kind: pUint}, {name: "COUNT", kind: pUint, opt: true, def: 1}}, exec: func(x *call) error {
			vbs, _, _, err := x.ctx().IAGetVertexBuffers(x.uint(0), x.uint(1))
			return got(x, vbs, err)
		}},
		"IAGetIndexBuffer": {exec: func(x *call) error { ib, _, _ := x.ctx().IAGetIndexBuffer(); return got(x, []*d3d11.Resource{ib}, nil) }},
		"IAGetInputLayout": {exec: func(x *call) error { return got(x, []*d3d11.InputLayout{x.ctx().IAGetInputLayout()}, nil) }},
		"IAGetPrimitiveTopology": {exec: func(x *call) error {
			x.run.got = []string{d3d11.EnumName("Topology", uint32(x.ctx().IAGetPrimitiveTopology()))}
			return nil
		}},
		"VSGetShader":          {exec: func(x *call) error { return got(x, []*d3d11.Shader{x.ctx().GetShader(d3d11.StageVS)}, nil) }},
		"PSGetShader":          {exec: func(x *call) error { return got(x, []*d3d11.Shader{x.ctx().GetShader(d3d11.StagePS)}, nil) }},
		"VSGetConstantBuffers": getCBs(d3d11.StageVS),
		"PSGetConstantBuffers": getCBs(d3d11.StagePS),
		"VSGetShaderResources": getSRVs(d3d11.StageVS),
		"PSGetShaderResources": getSRVs(d3d11.StagePS),
		"VSGetSamplers":        getSamplers(d3d11.StageVS),
		"PSGetSamplers":        getSamplers(d3d11.StagePS),
		"OMGetRenderTargets": {pos: []param{{name: "COUNT", kind: pUint, opt: true, def: 1}}, exec: func(x *call) error {
			rtvs, dsv, err := x.ctx().OMGetRenderTargets(x.uint(0))
			if err != nil {
				return got(x, rtvs, err)
			}
			return got(x, append(rtvs, dsv), nil)
		}},
		"OMGetBlendState": {exec: func(x *call) error { s, _, _ := x.ctx().OMGetBlendState(); return got(x, []*d3d11.State{s}, nil) }},
		"OMGetDepthStencilState": {exec: func(x *call) error {
			s, ref := x.ctx().OMGetDepthStencilState()
			err := got(x, []*d3d11.State{s}, nil)
			x.run.got = append(x.run.got, fmt.Sprint(ref))
			return err
		}},
		"RSGetState": {exec: func(x *call) error { return got(x, []*d3d11.State{x.ctx().RSGetState()}, nil) }},
		"RSGetViewports": {exec: func(x *call) error {
			x.run.got = nil
			for _, v := range x.ctx().RSGetViewports() {
				x.run.got = append(x.run.got, fmt.Sprint(v.X), fmt.Sprint(v.Y), fmt.Sprint(v.Width), fmt.Sprint(v.Height))
			}
			return nil
		}},
		"RSGetScissorRects": {exec: func(x *call) error {
			x.run.got = nil
			for _, r := range x.ctx().RSGetScissorRects() {
				x.run.got = append(x.run.got, fmt.Sprint(r.Left), fmt.Sprint(r.Top), fmt.Sprint(r.Right), fmt.Sprint(r.Bottom))
			}
			return nil
		}},
		// OMSetRenderTargets RTV... [DSV]: render target views in slot
		// order (NULL: an empty slot), then the depth-stencil view.
		"OMSetRenderTargets": {pos: omTargets(), exec: execOMSetRenderTargets},
		"OMSetBlendState": {pos: []param{{name: "STATE", kind: pObj, types: tBlend, opt: true}},
			named: []param{{name: "BlendFactor", kind: pData, opt: true}, {name: "SampleMask", kind: pUint, opt: true, def: 0xFFFFFFFF}},
			exec: func(x *call) error {
				f := [4]float32{1, 1, 1, 1}
				if a, ok := x.namedArg("BlendFactor"); ok {
					if a.Value.Kind != VF32 || len(a.Value.F32) != 4 {
						return x.bad("BlendFactor is four floats: f32[r g b a]")
					}
					f = [4]float32(a.Value.F32)
				}
				return x.ctx().OMSetBlendState(x.state(0), f, x.uintNamed("SampleMask"))
			}},
		"OMSetDepthStencilState": {pos: []param{{name: "STATE", kind: pObj, types: tDepth, opt: true}, {name: "STENCILREF", kind: pUint, opt: true}},
			exec: func(x *call) error { return x.ctx().OMSetDepthStencilState(x.state(0), x.uint(1)) }},
		"RSSetState": {pos: []param{{name: "STATE", kind: pObj, types: tRaster, opt: true}},
			exec: func(x *call) error { return x.ctx().RSSetState(x.state(0)) }},
		// RSSetViewports X Y W H [X Y W H ...]: up to 16 viewports,
		// MinDepth and MaxDepth every one's.
		"RSSetViewports": {pos: rectParams("X", "Y", "W", "H", pFloat),
			named: []param{{name: "MinDepth", kind: pFloat, opt: true}, {name: "MaxDepth", kind: pFloat, opt: true, def: 1}},
			exec: func(x *call) error {
				n := x.groups(4)
				if n < 0 {
					return x.bad("viewports are four numbers each: X Y W H")
				}
				vps := make([]d3d11.Viewport, n)
				for i := range vps {
					vps[i] = d3d11.Viewport{X: x.f32(4 * i), Y: x.f32(4*i + 1), Width: x.f32(4*i + 2), Height: x.f32(4*i + 3),
						MinDepth: x.f32Named("MinDepth"), MaxDepth: x.f32Named("MaxDepth")}
				}
				return x.ctx().RSSetViewports(vps...)
			}},
		// RSSetScissorRects [LEFT TOP RIGHT BOTTOM ...]: up to 16
		// rectangles (none: NumRects 0).
		"RSSetScissorRects": {pos: rectParams("LEFT", "TOP", "RIGHT", "BOTTOM", pInt),
			exec: func(x *call) error {
				n := x.groups(4)
				if n < 0 {
					return x.bad("scissor rectangles are four numbers each: LEFT TOP RIGHT BOTTOM")
				}
				rs := make([]d3d11.Rect, n)
				for i := range rs {
					rs[i] = d3d11.Rect{Left: int32(x.num(4 * i)), Top: int32(x.num(4*i + 1)), Right: int32(x.num(4*i + 2)), Bottom: int32(x.num(4*i + 3))}
				}
				return x.ctx().RSSetScissorRects(rs...)
			}},
		"ClearRenderTargetView": {pos: []param{{name: "RTV", kind: pObj, types: tRTV}, {name: "R", kind: pFloatOrColor}, {name: "G", kind: pFloat, opt: true},
			{name: "B", kind: pFloat, opt: true}, {name: "A", kind: pFloat, opt: true}}, exec: execClearRTV},
		"ClearDepthStencilView": {pos: []param{{name: "DSV", kind: pObj, types: tDSV}, {name: "DEPTH", kind: pFloat}, {name: "STENCIL", kind: pUint, opt: true}},
			named: []param{{name: "Flags", kind: pFlags, enum: "ClearFlags", opt: true}},
			exec: func(x *call) error {
				def := uint32(d3d11.ClearDepth)
				if _, ok := x.posArg(2); ok {
					def |= uint32(d3d11.ClearStencil)
				}
				if x.uint(2) > 255 {
					return x.bad("STENCIL %d is outside 0..255", x.uint(2))
				}
				return x.ctx().ClearDepthStencilView(x.view(0), d3d11.ClearFlag(x.enumNamed("Flags", def)), x.f32(1), uint8(x.uint(2)))
			}},
		"Draw": {pos: []param{{name: "COUNT", kind: pUint}, {name: "START", kind: pUint, opt: true}},
			exec: func(x *call) error { return x.ctx().Draw(x.uint(0), x.uint(1)) }},
		"IASetInputLayout": {pos: []param{{name: "LAYOUT", kind: pObj, types: tLayout, opt: true}},
			exec: func(x *call) error { l, _ := x.obj(0).(*d3d11.InputLayout); return x.ctx().IASetInputLayout(l) }},
		"DrawInstanced": {pos: []param{{name: "COUNT", kind: pUint}, {name: "INSTANCES", kind: pUint}, {name: "START", kind: pUint, opt: true},
			{name: "STARTINSTANCE", kind: pUint, opt: true}},
			exec: func(x *call) error { return x.ctx().DrawInstanced(x.uint(0), x.uint(1), x.uint(2), x.uint(3)) }},
		"DrawInstancedIndirect": {pos: []param{{name: "BUF", kind: pObj, types: tBuffer, opt: true}, {name: "OFFSET", kind: pUint, opt: true}},
			exec: func(x *call) error { return x.ctx().DrawInstancedIndirect(x.res(0), x.uint(1)) }},
		"DrawIndexedInstancedIndirect": {pos: []param{{name: "BUF", kind: pObj, types: tBuffer, opt: true}, {name: "OFFSET", kind: pUint, opt: true}},
			exec: func(x *call) error { return x.ctx().DrawIndexedInstancedIndirect(x.res(0), x.uint(1)) }},
		"DrawIndexedInstanced": {pos: []param{{name: "COUNT", kind: pUint}, {name: "INSTANCES", kind: pUint}, {name: "START", kind: pUint, opt: true},
			{name: "BASE", kind: pInt, opt: true}, {name: "STARTINSTANCE", kind: pUint, opt: true}},
			exec: func(x *call) error {
				return x.ctx().DrawIndexedInstanced(x.uint(0), x.uint(1), x.uint(2), int32(x.num(3)), x.uint(4))
			}},
		"DrawIndexed": {pos: []param{{name: "COUNT", kind: pUint}, {name: "START", kind: pUint, opt: true}, {name: "BASE", kind: pInt, opt: true}},
			exec: func(x *call) error { return x.ctx().DrawIndexed(x.uint(0), x.uint(1), int32(x.num(2))) }},
		"CopyResource": {pos: []param{{name: "DST", kind: pObj, types: tBuffer + "|" + tTexture}, {name: "SRC", kind: pObj, types: tBuffer + "|" + tTexture}},
			exec: func(x *call) error { return x.ctx().CopyResource(x.res(0), x.res(1)) }},
		"UpdateSubresource": {pos: []param{{name: "RES", kind: pObj, types: tBuffer + "|" + tTexture}}, named: []param{{name: "Data", kind: pData},
			{name: "DstSubresource", kind: pUint, opt: true}}, exec: execUpdateSubresource},
		"GenerateMips": {pos: []param{{name: "SRV", kind: pObj, types: tSRV}}, exec: func(x *call) error { return x.ctx().GenerateMips(x.view(0)) }},
		"Map": {pos: []param{{name: "RES", kind: pObj, types: tBuffer + "|" + tTexture}, {name: "TYPE", kind: pEnum, enum: "MapType"}},
			named: []param{{name: "Flags", kind: pFlags, enum: "MapFlags", opt: true}},
			exec: func(x *call) error {
				_, err := x.ctx().Map(x.res(0), d3d11.MapType(x.enum(1)), d3d11.MapFlag(x.enumNamed("Flags", 0)))
				return err
			}},
		"Unmap": {pos: []param{{name: "RES", kind: pObj, types: tBuffer + "|" + tTexture}},
			exec: func(x *call) error { return x.ctx().Unmap(x.res(0)) }},
		"Begin": {pos: []param{{name: "QUERY", kind: pObj, types: tQuery}}, exec: func(x *call) error { return x.ctx().Begin(x.query(0)) }},
		"End": {pos: []param{{name: "QUERY", kind: pObj, types: tQuery}}, exec: func(x *call) error {
			err := x.ctx().End(x.query(0))
			if err == nil && x.query(0) != nil {
				x.run.queryEnded(x.query(0), x.st.Line)
			}
			return err
		}},
		"GetData": {pos: []param{{name: "QUERY", kind: pObj, types: tQuery}}, exec: func(x *call) error {
			v, hr, err := x.ctx().GetQueryData(x.query(0))
			x.run.lastData, x.run.lastQuery = v.Value(), v
			x.run.recordQuery(x, v, hr, err)
			if err != nil {
				return err
			}
			if hr != hresult.S_OK {
				return hr
			}
			return nil
		}},
		"Flush": {exec: func(x *call) error { return x.ctx().Flush() }},
		// ID3DUserDefinedAnnotation's markers (annotation.go): `expect
		// got` reads BeginEvent's and EndEvent's count and GetStatus's BOOL.
		"BeginEvent": {pos: markerParams, exec: func(x *call) error {
			x.run.got = []string{fmt.Sprint(x.ctx().BeginEvent(x.str(0), 0))}
			return nil
		}},
		"EndEvent": {exec: func(x *call) error {
			x.run.got = []string{fmt.Sprint(x.ctx().EndEvent())}
			return nil
		}},
		"SetMarker": {pos: markerParams, exec: func(x *call) error {
			x.ctx().SetMarker(x.str(0), 0)
			return nil
		}},
		"GetStatus": {exec: func(x *call) error {
			x.run.got = []string{map[bool]string{false: "FALSE", true: "TRUE"}[x.ctx().GetStatus()]}
			return nil
		}},
		// SetPredication PRED VALUE: the draws, clears, copies and
		// updates after it are skipped while PRED's data equals VALUE;
		// NULL turns predication off.
		"SetPredication": {pos: []param{{name: "PREDICATE", kind: pObj, types: tQuery, opt: true}, {name: "VALUE", kind: pBool, opt: true}},
			exec: func(x *call) error { return x.ctx().SetPredication(x.query(0), x.boolPos(1)) }},
		"GetPredication": {exec: func(x *call) error {
			q, v := x.ctx().GetPredication()
			err := got(x, []*d3d11.Query{q}, nil)
			x.run.got = append(x.run.got, map[bool]string{false: "FALSE", true: "TRUE"}[v])
			return err
		}},
		// Signal is ID3D11DeviceContext4::Signal: the driver's
		// pfnSignalSynchronizationObjectCb queues it behind the work
		// submitted so far.
		"Signal": {pos: []param{{name: "FENCE", kind: pObj, types: tFence}, {name: "VALUE", kind: pUint}}, exec: func(x *call) error {
			f, _ := x.obj(0).(*d3d11.Fence)
			return x.ctx().Signal(f, uint64(x.num(1)))
		}},
		// Wait is ID3D11DeviceContext4::Wait: the driver's
		// pfnWaitForSynchronizationObjectCb queues a GPU-side wait; the
		// context's later work runs once the fence reaches VALUE.
		"Wait": {pos: []param{{name: "FENCE", kind: pObj, types: tFence}, {name: "VALUE", kind: pUint}}, exec: func(x *call) error {
			f, _ := x.obj(0).(*d3d11.Fence)
			return x.ctx().Wait(f, uint64(x.num(1)))
		}},
		"ClearState": {exec: func(x *call) error { return x.ctx().ClearState() }},
		"FinishCommandList": {pos: []param{{name: "RESTORE", kind: pBool, opt: true}}, results: []string{tCommandList}, exec: func(x *call) error {
			l, err := x.ctx().FinishCommandList(x.result(0), x.boolPos(0))
			if err == nil {
				x.bind(0, l)
			}
			return err
		}},
		"ExecuteCommandList": {pos: []param{{name: "CL", kind: pObj, types: tCommandList}, {name: "RESTORE", kind: pBool, opt: true}}, exec: func(x *call) error {
			l, _ := x.obj(0).(*d3d11.CommandList)
			return x.ctx().ExecuteCommandList(l, x.boolPos(1))
		}},
	},
	tSwap: {
		"GetBuffer": {pos: []param{{name: "INDEX", kind: pUint}}, results: []string{tTexture}, exec: func(x *call) error {
			r, err := x.obj(-1).(*d3d11.SwapChain).GetBuffer(x.uint(0))
			if err == nil {
				x.bind(0, r)
			}
			return err
		}},
		// ResizeBuffers [BufferCount=0] [Width=0] [Height=0] [NewFormat=UNKNOWN]:
		// 0 and UNKNOWN keep what the swap chain has.
		"ResizeBuffers": {named: []param{{name: "BufferCount", kind: pUint, opt: true}, {name: "Width", kind: pUint, opt: true},
			{name: "Height", kind: pUint, opt: true}, {name: "NewFormat", kind: pEnum, enum: "Format", opt: true}},
			exec: func(x *call) error {
				return x.obj(-1).(*d3d11.SwapChain).ResizeBuffers(x.uintNamed("BufferCount"), x.uintNamed("Width"), x.uintNamed("Height"),
					d3d11.Format(x.enumNamed("NewFormat", 0)))
			}},
		// GetDesc gives `expect got` Width Height Format BufferCount
		// SwapEffect Windowed (IDXGISwapChain::GetDesc).
		"GetDesc": {exec: func(x *call) error {
			d, err := x.obj(-1).(*d3d11.SwapChain).GetDesc()
			x.run.got = nil
			if err == nil {
				x.run.got = []string{fmt.Sprint(d.Width), fmt.Sprint(d.Height), d3d11.FormatName(d.Format), fmt.Sprint(d.BufferCount),
					d3d11.EnumName("SwapEffect", uint32(d.SwapEffect)), map[bool]string{false: "FALSE", true: "TRUE"}[d.Windowed]}
			}
			return err
		}},
		"SetFullscreenState": {pos: []param{{name: "FULLSCREEN", kind: pBool}}, exec: func(x *call) error {
			return x.obj(-1).(*d3d11.SwapChain).SetFullscreenState(x.boolPos(0))
		}},
		"Present": {pos: []param{{name: "SYNCINTERVAL", kind: pUint, opt: true}},
			named: []param{{name: "Flags", kind: pFlags, enum: "PresentFlags", opt: true}},
			exec: func(x *call) error {
				return x.obj(-1).(*d3d11.SwapChain).PresentFlags(x.uint(0), d3d11.PresentFlag(x.enumNamed("Flags", 0)))
			}},
	},
	tFence: {
		"GetCompletedValue": {exec: func(x *call) error {
			x.run.lastData = x.obj(-1).(*d3d11.Fence).GetCompletedValue()
			return nil
		}},
		// The language has no event objects: the call waits until the
		// fence reaches VALUE (as ID3D12Fence's does with a NULL event).
		"SetEventOnCompletion": {pos: []param{{name: "VALUE", kind: pUint}}, exec: func(x *call) error {
			return x.obj(-1).(*d3d11.Fence).SetEventOnCompletion(uint64(x.num(0)))
		}},
	},
	tBuffer:  {"Write": writeMethod},
	tTexture: {"Write": writeMethod},
}

var writeMethod = &method{pos: []param{{name: "DATA", kind: pData}}, named: []param{{name: "Offset", kind: pUint, opt: true}},
	exec: func(x *call) error {
		d, _ := dataBytes(x.value(0))
		return x.res(-1).Write(d, x.uintNamed("Offset"))
	}}

// Methods every object has.
var common = map[string]*method{
	"Release": {exec: func(x *call) error { x.target().Release(); return nil }},
	"AddRef":  {exec: func(x *call) error { x.target().AddRef(); return nil }},
	// Private data (privatedata.go): GUID is WKPDID_D3DDebugObjectName
	// (the debug name, a string), WKPDID_D3DDebugObjectNameW, or a name
	// of the application's own; no data removes the entry.
	"SetPrivateData": {pos: []param{{name: "GUID", kind: pWord}, {name: "TEXT", kind: pString, opt: true}},
		named: []param{{name: "Data", kind: pData, opt: true}}, exec: execSetPrivateData},
	"SetPrivateDataInterface": {pos: []param{{name: "GUID", kind: pWord}, {name: "OBJ", kind: pObj, types: strings.Join(allTypes, "|"), opt: true}},
		exec: func(x *call) error {
			o, _ := x.obj(1).(d3d11.Object)
			return d3d11.SetPrivateDataInterface(x.target(), x.word(0), o)
		}},
	"GetPrivateData": {pos: []param{{name: "GUID", kind: pWord}}, exec: execGetPrivateData},
}

// markerParams is a marker's text; markerColor D3DPERF's colour.
var (
	markerParams = []param{{name: "TEXT", kind: pString, opt: true}}
	markerColor  = []param{{name: "Color", kind: pFloatOrColor, opt: true}}
)

// str is positional argument i's string ("" when absent).
func (x *call) str(i int) string {
	if a := x.posArgP(i); a != nil && a.Value.Kind == VString {
		return a.Value.Text
	}
	return ""
}

// word is positional argument i's name.
func (x *call) word(i int) string {
	if a := x.posArgP(i); a != nil {
		return a.Value.Ident
	}
	return ""
}

// d3dColor is Color= as a D3DCOLOR, 0xAARRGGBB (0 when absent).
func (x *call) d3dColor() uint32 {
	a, ok := x.namedArg("Color")
	if !ok {
		return 0
	}
	if a.Value.Kind != VColor {
		return uint32(a.Value.Num)
	}
	c := a.Value.Color
	return uint32(c[3])<<24 | uint32(c[0])<<16 | uint32(c[1])<<8 | uint32(c[2])
}

func execSetPrivateData(x *call) error {
	if a := x.posArgP(1); a != nil && a.Value.Kind == VString {
		return d3d11.SetPrivateData(x.target(), x.word(0), []byte(a.Value.Text), true)
	}
	var data []byte
	if a, ok := x.namedArg("Data"); ok {
		data, _ = dataBytes(a.Value)
	}
	return d3d11.SetPrivateData(x.target(), x.word(0), data, false)
}

// execGetPrivateData gives `expect got` what is kept: the string, the
// object's name, or the bytes as numbers.
func execGetPrivateData(x *call) error {
	data, text, iface, err := d3d11.GetPrivateData(x.target(), x.word(0))
	x.run.got = nil
	switch {
	case err != nil:
	case iface != nil:
		err = got(x, []d3d11.Object{iface}, nil)
	case text:
		x.run.got = []string{string(data)}
	default:
		for _, b := range data {
			x.run.got = append(x.run.got, fmt.Sprint(b))
		}
	}
	return err
}

func lookupMethod(typ, name string) *method {
	if m := methods[typ][name]; m != nil {
		return m
	}
	return common[name]
}

func methodNames(typ string) string {
	var out []string
	for n := range methods[typ] {
		out = append(out, n)
	}
	for n := range common {
		out = append(out, n)
	}
	sort.Strings(out)
	return strings.Join(out, ", ")
}

func clampF32(v float64) float32 {
	if math.IsNaN(v) {
		return 0
	}
	if v > math.MaxFloat32 {
		return math.MaxFloat32
	}
	if v < -math.MaxFloat32 {
		return -math.MaxFloat32
	}
	return float32(v)
}

func fmtTypes(types string) string { return strings.ReplaceAll(types, "|", " or ") }

// rectParams are 16 groups of four numbers (viewports, scissor
// rectangles): the first group required for a pFloat (a viewport), none
// for a pInt (a call may set no rectangle).
// got keeps what a getter returned for `expect got`: each object's name
// (NULL for none), and releases the references the getter added, as an
// application must.
func got[T d3d11.Object](x *call, objs []T, err error) error {
	x.run.got = nil
	if err != nil {
		return err
	}
	for _, o := range objs {
		if isNilObject(o) {
			x.run.got = append(x.run.got, "NULL")
			continue
		}
		name := x.run.names[o]
		if name == "" {
			name = o.Name()
		}
		x.run.got = append(x.run.got, name)
		o.Release()
	}
	return nil
}

// slotObjects is SLOT then up to n objects of types (the first may be
// NULL or left out: one NULL).
// resObjects are a list of 1 to n resources.
func resObjects(name string, n int) []param {
	ps := []param{{name: name, kind: pObj, types: tTexture + "|" + tBuffer}}
	for range n - 1 {
		ps = append(ps, param{name: name, kind: pObj, types: tTexture + "|" + tBuffer, opt: true})
	}
	return ps
}

func slotObjects(name, types string, n int) []param {
	ps := []param{{name: "SLOT", kind: pUint}}
	for range n {
		ps = append(ps, param{name: name, kind: pObj, types: types, opt: true})
	}
	return ps
}

// objects are the call's positional objects from i on, up to the last
// given (at least one: a missing first is NULL).
func objects[T any](x *call, from int, get func(int) T) []T {
	n := from + 1
	for i := from; ; i++ {
		if _, ok := x.posArg(i); !ok {
			break
		}
		n = i + 1
	}
	out := make([]T, 0, n-from)
	for i := from; i < n; i++ {
		out = append(out, get(i))
	}
	return out
}

func execIASetVertexBuffers(x *call) error {
	vbs := objects(x, 1, x.res)
	strides, offsets := make([]uint32, len(vbs)), make([]uint32, len(vbs))
	for i := range vbs {
		strides[i], offsets[i] = x.uintNamed("Stride"), x.uintNamed("Offset")
	}
	for _, l := range []struct {
		key string
		to  []uint32
	}{{"Strides", strides}, {"Offsets", offsets}} {
		a, ok := x.namedArg(l.key)
		if !ok {
			continue
		}
		if a.Value.Kind != VU32 || len(a.Value.U32) != len(vbs) {
			return x.bad("%s is one u32 per buffer: u32[...] of %d", l.key, len(vbs))
		}
		copy(l.to, a.Value.U32)
	}
	return x.ctx().IASetVertexBuffersRange(x.uint(0), vbs, strides, offsets)
}

func setCBs(st d3d11.Stage) *method {
	return &method{pos: slotObjects("BUF", tBuffer, 14), exec: func(x *call) error {
		return x.ctx().SetConstantBuffers(st, x.uint(0), objects(x, 1, x.res))
	}}
}

func setSRVs(st d3d11.Stage) *method {
	return &method{pos: slotObjects("SRV", tSRV, 128), exec: func(x *call) error {
		return x.ctx().SetShaderResources(st, x.uint(0), objects(x, 1, x.view))
	}}
}

func setSamplers(st d3d11.Stage) *method {
	return &method{pos: slotObjects("SAMPLER", tSampler, 16), exec: func(x *call) error {
		return x.ctx().SetSamplers(st, x.uint(0), objects(x, 1, x.state))
	}}
}

var getRange = []param{{name: "SLOT", kind: pUint}, {name: "COUNT", kind: pUint, opt: true, def: 1}}

func getCBs(st d3d11.Stage) *method {
	return &method{pos: getRange, exec: func(x *call) error {
		bufs, err := x.ctx().GetConstantBuffers(st, x.uint(0), x.uint(1))
		return got(x, bufs, err)
	}}
}

func getSRVs(st d3d11.Stage) *method {
	return &method{pos: getRange, exec: func(x *call) error {
		views, err := x.ctx().GetShaderResources(st, x.uint(0), x.uint(1))
		return got(x, views, err)
	}}
}

func getSamplers(st d3d11.Stage) *method {
	return &method{pos: getRange, exec: func(x *call) error {
		ss, err := x.ctx().GetSamplers(st, x.uint(0), x.uint(1))
		return got(x, ss, err)
	}}
}

func rectParams(a, b, c, d string, kind pkind) []param {
	var ps []param
	for i := range 16 {
		for _, n := range []string{a, b, c, d} {
			ps = append(ps, param{name: n, kind: kind, opt: i > 0 || kind == pInt})
		}
	}
	return ps
}

// blendNamed are CreateBlendState's fields: RenderTarget[0]'s without a
// suffix, RenderTarget[i]'s ending in i.
func blendNamed() []param {
	ps := []param{{name: "AlphaToCoverageEnable", kind: pBool, opt: true}, {name: "IndependentBlendEnable", kind: pBool, opt: true}}
	for i := range 8 {
		sfx := ""
		if i > 0 {
			sfx = strconv.Itoa(i)
		}
		ps = append(ps, param{name: "BlendEnable" + sfx, kind: pBool, opt: true}, param{name: "SrcBlend" + sfx, kind: pEnum, enum: "Blend", opt: true},
			param{name: "DestBlend" + sfx, kind: pEnum, enum: "Blend", opt: true}, param{name: "BlendOp" + sfx, kind: pEnum, enum: "BlendOp", opt: true},
			param{name: "SrcBlendAlpha" + sfx, kind: pEnum, enum: "Blend", opt: true}, param{name: "DestBlendAlpha" + sfx, kind: pEnum, enum: "Blend", opt: true},
			param{name: "BlendOpAlpha" + sfx, kind: pEnum, enum: "BlendOp", opt: true}, param{name: "RenderTargetWriteMask" + sfx, kind: pUint, opt: true, def: 15})
	}
	return ps
}

// depthNamed are CreateDepthStencilState's fields (FrontFace.StencilFailOp
// written FrontFaceStencilFailOp).
func depthNamed() []param {
	ps := []param{{name: "DepthEnable", kind: pBool, opt: true}, {name: "DepthWriteMask", kind: pEnum, enum: "DepthWriteMask", opt: true},
		{name: "DepthFunc", kind: pEnum, enum: "Comparison", opt: true}, {name: "StencilEnable", kind: pBool, opt: true},
		{name: "StencilReadMask", kind: pUint, opt: true, def: 0xFF}, {name: "StencilWriteMask", kind: pUint, opt: true, def: 0xFF}}
	for _, f := range []string{"FrontFace", "BackFace"} {
		ps = append(ps, param{name: f + "StencilFailOp", kind: pEnum, enum: "StencilOp", opt: true},
			param{name: f + "StencilDepthFailOp", kind: pEnum, enum: "StencilOp", opt: true},
			param{name: f + "StencilPassOp", kind: pEnum, enum: "StencilOp", opt: true},
			param{name: f + "StencilFunc", kind: pEnum, enum: "Comparison", opt: true})
	}
	return ps
}

// omTargets are OMSetRenderTargets' arguments: up to eight render target
// views and a depth-stencil view.
func omTargets() []param {
	var ps []param
	for range 9 {
		ps = append(ps, param{name: "VIEW", kind: pObj, types: tRTV + "|" + tDSV, opt: true})
	}
	return ps
}

// execOMSetRenderTargets splits the arguments: render target views in slot
// order (NULL an empty slot), the last argument the depth-stencil view
// when it is one.
func execOMSetRenderTargets(x *call) error {
	var rtvs []*d3d11.View
	var dsv *d3d11.View
	n := 0
	for i := range 9 {
		if _, ok := x.posArg(i); ok {
			n = i + 1
		}
	}
	for i := range n {
		v := x.view(i)
		switch {
		case v != nil && v.ViewKind == d3d11.ViewDSV && i == n-1:
			dsv = v
		case v != nil && v.ViewKind == d3d11.ViewDSV:
			return x.bad("a depth stencil view comes last, after the render target views")
		case i == n-1 && i > 0 && v == nil && n == 2:
			// RTV NULL: no depth stencil view (the form of one target)
		default:
			rtvs = append(rtvs, v)
		}
	}
	if len(rtvs) == 0 {
		rtvs = []*d3d11.View{nil}
	}
	return x.ctx().OMSetRenderTargets(rtvs, dsv)
}

// viewNamed are a view's description (D3D11_*_VIEW_DESC): its Format, and
// a depth-stencil view's Flags.
func viewNamed(dsv bool) []param {
	ps := []param{{name: "Format", kind: pEnum, enum: "Format", opt: true}}
	if dsv {
		ps = append(ps, param{name: "Flags", kind: pFlags, enum: "DSVFlags", opt: true})
	}
	return append(ps, targetNamed(dsv)...) // (rtvdesc.go)
}

// layoutParams are CreateInputLayout's: the vertex shader whose input
// signature the layout matches (a shader object, or its bytecode as the
// real call takes it: builtin:, hlsl:, fxc: or bytes:), then its elements.
func layoutParams() []param {
	ps := []param{{name: "VS", kind: pObjOrCode, types: tVS, enum: "vs"}}
	for i := 0; i < d3d11.MaxInputElements; i++ {
		ps = append(ps, param{name: "ELEMENT", kind: pElem, opt: i > 0})
	}
	return ps
}

// isNilObject reports a nil object of any kind.
func isNilObject(o d3d11.Object) bool {
	switch v := o.(type) {
	case nil:
		return true
	case *d3d11.Resource:
		return v == nil
	case *d3d11.View:
		return v == nil
	case *d3d11.State:
		return v == nil
	case *d3d11.Shader:
		return v == nil
	case *d3d11.InputLayout:
		return v == nil
	case *d3d11.Query:
		return v == nil
	}
	return false
}
