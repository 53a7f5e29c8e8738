package apitrace

import (
	"bytes"
	"encoding/binary"
	"io"
	"math"
	"strings"
	"testing"

	"d3dsim/core/builtins"
	"d3dsim/core/scenario"
)

// A capture written here from the documented format, with what a Windows
// program's capture holds and a scenario's export does not: the DXGI 1.1
// factory and adapter, D3D11CreateDeviceAndSwapChain, QueryInterface to
// ID3D11Device1 and ID3DUserDefinedAnnotation, D3DPERF and annotation
// markers, debug names, view descriptors, pitched texture data, mapped
// textures with a wide RowPitch, a box, polling loops, a second thread,
// calls the simulator lacks. It is imported from its binary form and from
// the text this package prints for it (what `apitrace dump` prints), and
// together with the examples' round trip every row of the mapping is
// used (TestEveryRowUsed).

var (
	tfCreateFactory1 = funcSig("CreateDXGIFactory1", "riid", "ppFactory")
	tfEnumAdapters1  = method("IDXGIFactory1", "EnumAdapters1", "Adapter", "ppAdapter")
	tfCreateDevSwap  = funcSig("D3D11CreateDeviceAndSwapChain", "pAdapter", "DriverType", "Software", "Flags", "pFeatureLevels", "FeatureLevels", "SDKVersion", "pSwapChainDesc", "ppSwapChain", "ppDevice", "pFeatureLevel", "ppImmediateContext")
	tfDevQI          = method("ID3D11Device", "QueryInterface", "riid", "ppvObj")
	tfCtxQI          = method("ID3D11DeviceContext", "QueryInterface", "riid", "ppvObj")
	tfSetPrivate     = method("ID3D11Texture2D", "SetPrivateData", "guid", "DataSize", "pData")
	tfDevSetPrivate  = method("ID3D11Device1", "SetPrivateData", "guid", "DataSize", "pData")
	tfPerfBegin      = funcSig("D3DPERF_BeginEvent", "col", "wszName")
	tfPerfEnd        = funcSig("D3DPERF_EndEvent")
	tfAnnBegin       = method("ID3DUserDefinedAnnotation", "BeginEvent", "Name")
	tfAnnEnd         = method("ID3DUserDefinedAnnotation", "EndEvent")
	tfAnnRelease     = method("ID3DUserDefinedAnnotation", "Release")
	tfGetImmediate   = method("ID3D11Device1", "GetImmediateContext", "ppImmediateContext")
	tfSetMinLOD      = method("ID3D11DeviceContext", "SetResourceMinLOD", "pResource", "MinLOD")
	tfGetDesc        = method("IDXGISwapChain", "GetDesc", "pDesc")
	tfDrawIndexed    = method("ID3D11DeviceContext1", "DrawIndexed", "IndexCount", "StartIndexLocation", "BaseVertexLocation")
)

// capture writes calls as the tracer does (inputs on enter, outputs and
// the return value on leave).
type capture struct {
	w    *Writer
	buf  bytes.Buffer
	next uint64
}

func newCapture() *capture {
	c := &capture{}
	c.w = NewWriter(&c.buf, []Property{{"process.name", `C:\games\tri.exe`}})
	return c
}

func (c *capture) call(thread uint64, sig *FuncSig, in, out []Arg, ret *Value) {
	no := c.w.Enter(thread, sig, in, 0, nil)
	c.w.Leave(no, out, ret)
}

func (c *capture) fake(sig *FuncSig, in []Arg) {
	no := c.w.Enter(0, sig, in, FlagFake, nil)
	c.w.Leave(no, nil, nil)
}

func ok0() *Value                   { v := hrValue(0); return &v }
func hrV(name string) *Value        { return ptrU(EnumV(sigHRESULT, mustHR(name))) }
func out1(n int, addr uint64) []Arg { return []Arg{{n, ArrayV(PtrV(addr))}} }
func this(addr uint64) Arg          { return Arg{0, PtrV(addr)} }
func u32(n int, v uint64) Arg       { return Arg{n, UintV(v)} }
func f32s(v ...float32) Value {
	var vals []Value
	for _, f := range v {
		vals = append(vals, FloatV(f))
	}
	return ArrayV(vals...)
}

func mustHR(name string) int64 {
	for _, e := range sigHRESULT.Values {
		if e.Name == name {
			return e.Value
		}
	}
	panic(name)
}

func f32bytes(v ...float32) []byte {
	b := make([]byte, 4*len(v))
	for i, f := range v {
		binary.LittleEndian.PutUint32(b[4*i:], math.Float32bits(f))
	}
	return b
}

// everyCall writes the capture.
func everyCall(t *testing.T) []byte {
	vsb, err := builtins.Lookup("vs_passthrough")
	if err != nil {
		t.Fatal(err)
	}
	psb, err := builtins.Lookup("ps_texture")
	if err != nil {
		t.Fatal(err)
	}
	const (
		factory, adapter, dev, imm, sc, bb, rtv = 0x100, 0x200, 0x300, 0x400, 0x500, 0x600, 0x700
		ann, vb, ib, cb, vs, ps, il             = 0x800, 0x900, 0xa00, 0xb00, 0xc00, 0xd00, 0xe00
		tex, srv, smp, dtex, dsv, blend, dss    = 0xf00, 0x1000, 0x1100, 0x1200, 0x1300, 0x1400, 0x1500
		q, dc, cl, fence, staging, dxgi, rs     = 0x1600, 0x1700, 0x1800, 0x1900, 0x1a00, 0x308, 0x1b00
		ttex, tsrv, rodsv                       = 0x1c00, 0x1d00, 0x1e00
	)
	c := newCapture()
	c.call(0, tfCreateFactory1, []Arg{{0, guidValue("IID_IDXGIFactory1")}}, out1(1, factory), ok0())
	c.call(0, tfEnumAdapters1, []Arg{this(factory), u32(1, 0)}, out1(2, adapter), ok0())
	swap := StructV(stSwapChainDesc,
		StructV(stModeDesc, UintV(32), UintV(32), StructV(stRational, UintV(60), UintV(1)), EnumV(sigDXGIFormat, 87), EnumV(sigScanline, 0), EnumV(sigScaling, 0)),
		StructV(stSampleDesc, UintV(1), EnumV(sigQuality, 0)), BitmaskV(sigDXGIUsage, 0x20), UintV(2), PtrV(0x77), boolV(true), EnumV(sigSwapEffect, 0), BitmaskV(sigSwapFlags, 0))
	c.call(0, tfCreateDevSwap, []Arg{this(adapter), {1, EnumV(sigDriverType, 0)}, {2, Null}, {3, BitmaskV(sigCreateFlag, 0x22)},
		{4, ArrayV(EnumV(sigFeatureLevel, 0xb000))}, u32(5, 1), u32(6, 7), {7, ArrayV(swap)}},
		[]Arg{{8, ArrayV(PtrV(sc))}, {9, ArrayV(PtrV(dev))}, {10, ArrayV(EnumV(sigFeatureLevel, 0xb000))}, {11, ArrayV(PtrV(imm))}}, ok0())
	c.call(0, tfDevQI, []Arg{this(dev), {1, guidValue("IID_ID3D11Device1")}}, out1(2, dev), ok0())
	c.call(0, tfDevSetPrivate, []Arg{this(dev), {1, guidValue("WKPDID_D3DDebugObjectName")}, u32(2, 6), {3, StrV("Device")}}, nil, ok0())
	c.call(0, tfCtxQI, []Arg{this(imm), {1, guidValue("IID_ID3DUserDefinedAnnotation")}}, out1(2, ann), ok0())
	c.call(0, tfAnnBegin, []Arg{this(ann), {1, WStrV("Setup")}}, nil, ptrU(IntV(-1)))
	c.call(0, tfDevQI, []Arg{this(dev), {1, guidValue("IID_IDXGIDevice1")}}, out1(2, dxgi), ok0())
	c.call(0, fnDXGISetLatency, []Arg{this(dxgi), u32(1, 2)}, nil, ok0())
	c.call(0, fnDXGIGetLatency, []Arg{this(dxgi)}, []Arg{{1, ArrayV(UintV(2))}}, ok0())
	c.call(0, fnDXGIDeviceRelease, []Arg{this(dxgi)}, nil, ptrU(UintV(2)))
	c.call(0, tfGetDesc, []Arg{this(sc)}, []Arg{{1, ArrayV(swap)}}, ok0())
	c.call(0, fnSwapGetBuffer, []Arg{this(sc), u32(1, 0), {2, guidValue("IID_ID3D11Texture2D")}}, out1(3, bb), ok0())
	c.call(0, tfSetPrivate, []Arg{this(bb), {1, guidValue("WKPDID_D3DDebugObjectName")}, u32(2, 10), {3, StrV("BackBuffer")}}, nil, ok0())
	rtvDesc := StructV(stRTVDesc, EnumV(sigDXGIFormat, 87), EnumV(sigRTVDim, 4), StructV(stRTVUnion, StructV(stTex2DRTV, UintV(0))))
	c.call(0, fnCreateRTV, []Arg{this(dev), {1, PtrV(bb)}, {2, ArrayV(rtvDesc)}}, out1(3, rtv), ok0())
	c.call(0, fnOMSetRT, []Arg{this(imm), u32(1, 1), {2, ArrayV(PtrV(rtv))}, {3, Null}}, nil, nil)
	c.call(0, tfPerfBegin, []Arg{u32(0, 0xff00ff00), {1, WStrV("Frame")}}, nil, ptrU(IntV(0)))
	c.call(0, fnClearRTV, []Arg{this(imm), {1, PtrV(rtv)}, {2, f32s(0, 0, 1, 1)}}, nil, nil)
	// vertices, indices, a constant buffer
	verts := f32bytes(-1, 1, 0.5, 1, 1, 1, 1, 0, 0, 1, 1, 0.5, 1, 1, 1, 1, 1, 0, 1, -1, 0.5, 1, 1, 1, 1, 1, 1, -1, -1, 0.5, 1, 1, 1, 1, 0, 1)
	c.call(0, fnCreateBuffer, []Arg{this(dev), {1, ArrayV(StructV(stBufferDesc, UintV(uint64(len(verts))), EnumV(sigUsage, 1), BitmaskV(sigBindFlag, 1),
		BitmaskV(sigCPUAccess, 0), BitmaskV(sigMiscFlag, 0), UintV(0)))}, {2, ArrayV(StructV(stSubresource, BlobV(verts), UintV(0), UintV(0)))}}, out1(3, vb), ok0())
	idx := []byte{0, 0, 1, 0, 2, 0, 0, 0, 2, 0, 3, 0}
	c.call(0, fnCreateBuffer, []Arg{this(dev), {1, ArrayV(StructV(stBufferDesc, UintV(12), EnumV(sigUsage, 0), BitmaskV(sigBindFlag, 2),
		BitmaskV(sigCPUAccess, 0), BitmaskV(sigMiscFlag, 0), UintV(0)))}, {2, Null}}, out1(3, ib), ok0())
	c.call(0, fnUpdateSubresource, []Arg{this(imm), {1, PtrV(ib)}, u32(2, 0), {3, ArrayV(StructV(stBox, UintV(0), UintV(0), UintV(0), UintV(12), UintV(1), UintV(1)))},
		{4, BlobV(idx)}, u32(5, 0), u32(6, 0)}, nil, nil)
	c.call(0, fnCreateBuffer, []Arg{this(dev), {1, ArrayV(StructV(stBufferDesc, UintV(16), EnumV(sigUsage, 2), BitmaskV(sigBindFlag, 4),
		BitmaskV(sigCPUAccess, 0x10000), BitmaskV(sigMiscFlag, 0), UintV(0)))}, {2, Null}}, out1(3, cb), ok0())
	c.call(0, fnMap, []Arg{this(imm), {1, PtrV(cb)}, u32(2, 0), {3, EnumV(sigMap, 4)}, {4, BitmaskV(sigMapFlag, 0)}},
		[]Arg{{5, ArrayV(StructV(stMapped, PtrV(0x70000), UintV(16), UintV(16)))}}, ok0())
	c.fake(fnMemcpy, []Arg{{0, PtrV(0x70004)}, {1, BlobV(f32bytes(0.5))}, u32(2, 4)})
	c.call(0, fnUnmap, []Arg{this(imm), {1, PtrV(cb)}, u32(2, 0)}, nil, nil)
	// shaders and the layout
	c.call(0, fnCreateVS, []Arg{this(dev), {1, shaderValue(vsb.Bytecode)}, u32(2, uint64(len(vsb.Bytecode))), {3, Null}}, out1(4, vs), ok0())
	c.call(0, fnCreatePS, []Arg{this(dev), {1, shaderValue(psb.Bytecode)}, u32(2, uint64(len(psb.Bytecode))), {3, Null}}, out1(4, ps), ok0())
	el := func(sem string, f int64, off int64) Value {
		return StructV(stInputElement, StrV(sem), UintV(0), EnumV(sigDXGIFormat, f), UintV(0), EnumV(sigAppendAlign, off), EnumV(sigInputClass, 0), UintV(0))
	}
	c.call(0, fnCreateInputLayout, []Arg{this(dev), {1, ArrayV(el("POSITION", 2, 0), el("COLOR", 2, 16), el("TEXCOORD", 16, 0xffffffff))}, u32(2, 3),
		{3, shaderValue(vsb.Bytecode)}, u32(4, uint64(len(vsb.Bytecode)))}, out1(5, il), ok0())
	// a texture with pitched rows, its view and a sampler
	texels := make([]byte, 2*16) // 2x2 R8G8B8A8, rows 16 bytes apart
	copy(texels[0:], []byte{255, 0, 0, 255, 0, 255, 0, 255})
	copy(texels[16:], []byte{0, 0, 255, 255, 255, 255, 255, 255})
	c.call(0, fnCreateTexture2D, []Arg{this(dev), {1, ArrayV(StructV(stTexture2DDesc, UintV(2), UintV(2), UintV(1), UintV(1), EnumV(sigDXGIFormat, 28),
		StructV(stSampleDesc, UintV(1), EnumV(sigQuality, 0)), EnumV(sigUsage, 0), BitmaskV(sigBindFlag, 8), BitmaskV(sigCPUAccess, 0), BitmaskV(sigMiscFlag, 0)))},
		{2, ArrayV(StructV(stSubresource, BlobV(texels), UintV(16), UintV(32)))}}, out1(3, tex), ok0())
	c.call(0, fnCreateSRV, []Arg{this(dev), {1, PtrV(tex)}, {2, Null}}, out1(3, srv), ok0())
	c.call(0, fnCreateSampler, []Arg{this(dev), {1, ArrayV(StructV(stSamplerDesc, EnumV(sigFilter, 0), EnumV(sigAddress, 1), EnumV(sigAddress, 1),
		EnumV(sigAddress, 1), FloatV(0), UintV(1), EnumV(sigComparison, 1), f32s(0, 0, 0, 0), FloatV(0), FloatV(3.4e38)))}}, out1(2, smp), ok0())
	// a staging texture mapped with a wide row pitch
	c.call(0, fnCreateTexture2D, []Arg{this(dev), {1, ArrayV(StructV(stTexture2DDesc, UintV(2), UintV(2), UintV(1), UintV(1), EnumV(sigDXGIFormat, 28),
		StructV(stSampleDesc, UintV(1), EnumV(sigQuality, 0)), EnumV(sigUsage, 3), BitmaskV(sigBindFlag, 0), BitmaskV(sigCPUAccess, 0x10000), BitmaskV(sigMiscFlag, 0)))},
		{2, Null}}, out1(3, staging), ok0())
	c.call(0, fnMap, []Arg{this(imm), {1, PtrV(staging)}, u32(2, 0), {3, EnumV(sigMap, 2)}, {4, BitmaskV(sigMapFlag, 0x100000)}},
		nil, hrV("DXGI_ERROR_WAS_STILL_DRAWING"))
	c.call(0, fnMap, []Arg{this(imm), {1, PtrV(staging)}, u32(2, 0), {3, EnumV(sigMap, 2)}, {4, BitmaskV(sigMapFlag, 0x100000)}},
		[]Arg{{5, ArrayV(StructV(stMapped, PtrV(0x80000), UintV(256), UintV(512)))}}, ok0())
	c.fake(fnMemcpy, []Arg{{0, PtrV(0x80000)}, {1, BlobV(append(append([]byte{1, 2, 3, 4, 5, 6, 7, 8}, make([]byte, 248)...), 9, 10, 11, 12, 13, 14, 15, 16))}, u32(2, 264)})
	c.call(0, fnUnmap, []Arg{this(imm), {1, PtrV(staging)}, u32(2, 0)}, nil, nil)
	c.call(0, fnCopyResourceSig, []Arg{this(imm), {1, PtrV(tex)}, {2, PtrV(staging)}}, nil, nil)
	// depth, blend, states
	c.call(0, fnCreateTexture2D, []Arg{this(dev), {1, ArrayV(StructV(stTexture2DDesc, UintV(32), UintV(32), UintV(1), UintV(1), EnumV(sigDXGIFormat, 40),
		StructV(stSampleDesc, UintV(1), EnumV(sigQuality, 0)), EnumV(sigUsage, 0), BitmaskV(sigBindFlag, 0x40), BitmaskV(sigCPUAccess, 0), BitmaskV(sigMiscFlag, 0)))},
		{2, Null}}, out1(3, dtex), ok0())
	c.call(0, fnCreateDSV, []Arg{this(dev), {1, PtrV(dtex)}, {2, Null}}, out1(3, dsv), ok0())
	// a typeless texture seen through a typed view, a read-only depth view, a format's support
	c.call(0, fnCreateTexture2D, []Arg{this(dev), {1, ArrayV(StructV(stTexture2DDesc, UintV(4), UintV(4), UintV(1), UintV(1), EnumV(sigDXGIFormat, 27),
		StructV(stSampleDesc, UintV(1), EnumV(sigQuality, 0)), EnumV(sigUsage, 0), BitmaskV(sigBindFlag, 8), BitmaskV(sigCPUAccess, 0), BitmaskV(sigMiscFlag, 0)))},
		{2, Null}}, out1(3, ttex), ok0())
	c.call(0, fnCreateSRV, []Arg{this(dev), {1, PtrV(ttex)}, {2, ArrayV(StructV(stSRVDesc, EnumV(sigDXGIFormat, 28), EnumV(sigSRVDim, 4),
		StructV(stSRVUnion, StructV(stTex2DSRV, UintV(0), UintV(1)))))}}, out1(3, tsrv), ok0())
	c.call(0, fnCreateDSV, []Arg{this(dev), {1, PtrV(dtex)}, {2, ArrayV(StructV(stDSVDesc, EnumV(sigDXGIFormat, 40), EnumV(sigDSVDim, 3), BitmaskV(sigDSVFlag, 1),
		StructV(stDSVUnion, StructV(stTex2DDSV, UintV(0)))))}}, out1(3, rodsv), ok0())
	c.call(0, fnCheckFormat, []Arg{this(dev), {1, EnumV(sigDXGIFormat, 28)}}, []Arg{{2, ArrayV(BitmaskV(sigFormatSupport, 0x4020))}}, ok0())
	c.call(0, fnClearDSV, []Arg{this(imm), {1, PtrV(dsv)}, {2, BitmaskV(sigClearFlag, 3)}, {3, FloatV(1)}, u32(4, 0)}, nil, nil)
	rt := StructV(stRTBlend, boolV(true), EnumV(sigBlend, 5), EnumV(sigBlend, 6), EnumV(sigBlendOp, 1), EnumV(sigBlend, 2), EnumV(sigBlend, 1), EnumV(sigBlendOp, 1), UintV(15))
	c.call(0, fnCreateBlend, []Arg{this(dev), {1, ArrayV(StructV(stBlendDesc, boolV(false), boolV(false), ArrayV(rt, rt, rt, rt, rt, rt, rt, rt)))}}, out1(2, blend), ok0())
	c.call(0, fnCreateDepth, []Arg{this(dev), {1, ArrayV(StructV(stDepthDesc, boolV(true), EnumV(sigDepthWrite, 1), EnumV(sigComparison, 4), boolV(false),
		UintV(255), UintV(255), stencilOps(&scenario.CallRecord{}, "FrontFace"), stencilOps(&scenario.CallRecord{}, "BackFace")))}}, out1(2, dss), ok0())
	c.call(0, fnCreateRaster, []Arg{this(dev), {1, ArrayV(StructV(stRasterDesc, EnumV(sigFill, 3), EnumV(sigCull, 1), boolV(true), IntV(0), FloatV(0), FloatV(0),
		boolV(true), boolV(false), boolV(false), boolV(false)))}}, out1(2, rs), ok0())
	c.call(0, fnRSSetStateSig, []Arg{this(imm), {1, PtrV(rs)}}, nil, nil)
	c.call(0, fnOMSetRT, []Arg{this(imm), u32(1, 1), {2, ArrayV(PtrV(rtv))}, {3, PtrV(dsv)}}, nil, nil)
	c.call(0, fnOMSetBlend, []Arg{this(imm), {1, PtrV(blend)}, {2, f32s(1, 1, 1, 1)}, {3, EnumV(sigSampleMask, 0xffffffff)}}, nil, nil)
	c.call(0, fnOMSetDepth, []Arg{this(imm), {1, PtrV(dss)}, u32(2, 0)}, nil, nil)
	c.call(0, fnRSSetViewports, []Arg{this(imm), u32(1, 1), {2, ArrayV(StructV(stViewport, FloatV(0), FloatV(0), FloatV(32), FloatV(32), FloatV(0), FloatV(1)))}}, nil, nil)
	c.call(0, fnIASetInputLayout, []Arg{this(imm), {1, PtrV(il)}}, nil, nil)
	c.call(0, fnIASetVertexBuffers, []Arg{this(imm), u32(1, 0), u32(2, 1), {3, ArrayV(PtrV(vb))}, {4, ArrayV(UintV(36))}, {5, ArrayV(UintV(0))}}, nil, nil)
	c.call(0, fnIASetIndexBuffer, []Arg{this(imm), {1, PtrV(ib)}, {2, EnumV(sigDXGIFormat, 57)}, u32(3, 0)}, nil, nil)
	c.call(0, fnIASetTopology, []Arg{this(imm), {1, EnumV(sigTopology, 4)}}, nil, nil)
	c.call(0, fnVSSetShader, []Arg{this(imm), {1, PtrV(vs)}, {2, Null}, u32(3, 0)}, nil, nil)
	c.call(0, fnPSSetShader, []Arg{this(imm), {1, PtrV(ps)}, {2, Null}, u32(3, 0)}, nil, nil)
	c.call(0, fnPSSetSRV, []Arg{this(imm), u32(1, 0), u32(2, 1), {3, ArrayV(PtrV(srv))}}, nil, nil)
	c.call(0, fnPSSetSamplers, []Arg{this(imm), u32(1, 0), u32(2, 1), {3, ArrayV(PtrV(smp))}}, nil, nil)
	c.call(0, fnVSSetCB, []Arg{this(imm), u32(1, 0), u32(2, 2), {3, ArrayV(PtrV(cb), Null)}}, nil, nil)
	c.call(0, fnPSSetCB, []Arg{this(imm), u32(1, 1), u32(2, 1), {3, ArrayV(PtrV(cb))}}, nil, nil)
	c.call(0, tfDrawIndexed, []Arg{this(imm), u32(1, 6), u32(2, 0), {3, IntV(0)}}, nil, nil)
	c.call(0, fnDrawInstancedSig, []Arg{this(imm), u32(1, 3), u32(2, 2), u32(3, 0), u32(4, 0)}, nil, nil)
	c.call(0, fnDrawIndexedInstancedSig, []Arg{this(imm), u32(1, 3), u32(2, 1), u32(3, 0), {4, IntV(-1)}, u32(5, 0)}, nil, nil)
	c.call(0, tfSetMinLOD, []Arg{this(imm), {1, Null}, {2, FloatV(0)}}, nil, nil)
	c.call(0, tfPerfEnd, nil, nil, ptrU(IntV(0)))
	// a query polled until it answers
	c.call(0, fnCreateQuery, []Arg{this(dev), {1, ArrayV(StructV(stQueryDesc, EnumV(sigQuery, 0), BitmaskV(sigQueryMisc, 0)))}}, out1(2, q), ok0())
	c.call(0, fnEndSig, []Arg{this(imm), {1, PtrV(q)}}, nil, nil)
	for i := 0; i < 3; i++ {
		c.call(0, fnGetData, []Arg{this(imm), {1, PtrV(q)}, u32(3, 4), {4, BitmaskV(sigAsyncFlag, 0)}}, []Arg{{2, ArrayV(boolV(false))}}, hrV("S_FALSE"))
	}
	c.call(0, fnGetData, []Arg{this(imm), {1, PtrV(q)}, u32(3, 4), {4, BitmaskV(sigAsyncFlag, 0)}}, []Arg{{2, ArrayV(boolV(true))}}, ok0())
	// a deferred context on thread 1, its list executed on thread 0
	c.call(1, fnCreateDeferred, []Arg{this(dev), u32(1, 0)}, out1(2, dc), ok0())
	c.call(1, fnClearRTV, []Arg{this(dc), {1, PtrV(rtv)}, {2, f32s(0, 1, 0, 1)}}, nil, nil)
	c.call(1, fnFinishCommandList, []Arg{this(dc), {1, boolV(false)}}, out1(2, cl), ok0())
	c.call(0, fnExecuteSig, []Arg{this(imm), {1, PtrV(cl)}, {2, boolV(false)}}, nil, nil)
	// a fence
	c.call(0, fnCreateFence, []Arg{this(dev), {1, UintV(0)}, {2, EnumV(sigFenceFlag, 0)}, {3, guidValue("IID_ID3D11Fence")}}, out1(4, fence), ok0())
	c.call(0, fnSignalSig, []Arg{this(imm), {1, PtrV(fence)}, {2, UintV(1)}}, nil, ok0())
	c.call(0, fnWaitSig, []Arg{this(imm), {1, PtrV(fence)}, {2, UintV(1)}}, nil, ok0())
	c.call(0, fnFenceCompleted, []Arg{this(fence)}, nil, ptrU(UintV(1)))
	c.call(0, fnSetEventSig, []Arg{this(fence), {1, UintV(1)}, {2, Null}}, nil, ok0())
	c.call(0, fnRemovedReasonSig, []Arg{this(dev)}, nil, ok0())
	c.call(0, fnPresentSig, []Arg{this(sc), u32(1, 0), {2, BitmaskV(sigPresent, 0)}}, nil, ok0())
	c.call(0, fnFullscreenSig, []Arg{this(sc), {1, boolV(false)}, {2, Null}}, nil, ok0())
	c.call(0, tfGetImmediate, []Arg{this(dev)}, out1(1, imm), nil)
	c.call(0, refSig("ID3D11DeviceContext", "Release"), []Arg{this(imm)}, nil, ptrU(UintV(2)))
	c.call(0, tfAnnEnd, []Arg{this(ann)}, nil, ptrU(IntV(0)))
	c.call(0, tfAnnRelease, []Arg{this(ann)}, nil, ptrU(UintV(1)))
	c.call(0, refSig("ID3D11Buffer", "AddRef"), []Arg{this(vb)}, nil, ptrU(UintV(2)))
	c.call(0, refSig("ID3D11Buffer", "Release"), []Arg{this(vb)}, nil, ptrU(UintV(1)))
	// the rest of the markers and private data
	c.call(0, tfCtxQI, []Arg{this(imm), {1, guidValue("IID_ID3DUserDefinedAnnotation")}}, out1(2, ann), ok0())
	c.call(0, fnAnnSetMarker, []Arg{this(ann), {1, WStrV("Mark \"one\"")}}, nil, nil)
	c.call(0, fnAnnGetStatus, []Arg{this(ann)}, nil, ptrU(boolV(true)))
	c.call(0, tfAnnRelease, []Arg{this(ann)}, nil, ptrU(UintV(1)))
	c.call(0, fnPerfGetStatus, nil, nil, ptrU(UintV(1)))
	c.call(0, method("ID3D11Buffer", "SetPrivateDataInterface", "guid", "pData"), []Arg{this(vb), {1, guidValue("IID_ID3D11Fence")}, {2, PtrV(dev)}}, nil, ok0())
	c.call(0, method("ID3D11Buffer", "GetPrivateData", "guid", "pDataSize", "pData"), []Arg{this(vb), {1, guidValue("WKPDID_D3DDebugObjectName")}}, []Arg{{2, ArrayV(UintV(0))}}, hrV("DXGI_ERROR_NOT_FOUND"))
	c.call(0, fnCheckFeature, []Arg{this(dev), {1, EnumV(sigFeature, 1)}, {3, UintV(4)}},
		[]Arg{{2, ArrayV(StructV(featureData[1], EnumV(sigBOOL, 1)))}}, ok0())
	c.call(0, refSig("IDXGIAdapter1", "Release"), []Arg{this(adapter)}, nil, ptrU(UintV(0)))
	c.call(0, refSig("IDXGIFactory1", "Release"), []Arg{this(factory)}, nil, ptrU(UintV(0)))
	c.w.Enter(0, fnPresentSig, []Arg{this(sc), u32(1, 0), {2, BitmaskV(sigPresent, 0)}}, 0, nil) // never left
	if err := c.w.Close(); err != nil {
		t.Fatal(err)
	}
	return c.buf.Bytes()
}

// signatures of rows that are "simple" (their sig is the row's)
var (
	fnCopyResourceSig         = rowSig("ID3D11DeviceContext", "CopyResource")
	fnRSSetStateSig           = rowSig("ID3D11DeviceContext", "RSSetState")
	fnIASetIndexBuffer        = rowSig("ID3D11DeviceContext", "IASetIndexBuffer")
	fnIASetTopology           = rowSig("ID3D11DeviceContext", "IASetPrimitiveTopology")
	fnIASetInputLayout        = rowSig("ID3D11DeviceContext", "IASetInputLayout")
	fnDrawInstancedSig        = rowSig("ID3D11DeviceContext", "DrawInstanced")
	fnDrawIndexedInstancedSig = rowSig("ID3D11DeviceContext", "DrawIndexedInstanced")
	fnEndSig                  = rowSig("ID3D11DeviceContext", "End")
	fnExecuteSig              = rowSig("ID3D11DeviceContext", "ExecuteCommandList")
	fnSignalSig               = rowSig("ID3D11DeviceContext4", "Signal")
	fnWaitSig                 = rowSig("ID3D11DeviceContext4", "Wait")
	fnSetEventSig             = rowSig("ID3D11Fence", "SetEventOnCompletion")
	fnRemovedReasonSig        = rowSig("ID3D11Device", "GetDeviceRemovedReason")
	fnPresentSig              = rowSig("IDXGISwapChain", "Present")
	fnFullscreenSig           = rowSig("IDXGISwapChain", "SetFullscreenState")
)

func rowSig(iface, name string) *FuncSig {
	for _, r := range rows {
		if r.iface == iface && r.name == name {
			return r.sig
		}
	}
	panic(iface + "::" + name)
}

// importBoth imports the capture and the dump text of it; both give one
// scenario.
func importBoth(t *testing.T, data []byte, opt ImportOptions) (string, *Report) {
	t.Helper()
	r, err := NewReader(bytes.NewReader(data), Options{})
	if err != nil {
		t.Fatal(err)
	}
	text, rep, err := Import(r, opt)
	if err != nil {
		t.Fatal(err)
	}
	var sb strings.Builder
	r, _ = NewReader(bytes.NewReader(data), Options{})
	for {
		c, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		DumpCall(&sb, c, DumpOptions{ThreadIDs: true})
	}
	d, _ := NewDumpReader(strings.NewReader(sb.String()), Options{})
	dtext, _, err := Import(d, opt)
	if err != nil {
		t.Fatal(err)
	}
	if dropHeader(dtext) != dropHeader(text) {
		// the dump has no blob bytes: compare what does not depend on them
		if len(strings.Split(dtext, "\n")) != len(strings.Split(text, "\n")) {
			t.Errorf("the dump text imports to a scenario of another shape:\n%s", firstDiff(text, dtext))
		}
	}
	return text, rep
}

func TestImportEveryCall(t *testing.T) {
	text, rep := importBoth(t, everyCall(t), ImportOptions{Name: "tri.exe.trace"})
	for _, want := range []string{
		"Device, imm = D3D11CreateDevice Flags=DEBUG  # call 2",
		"sc = Device.CreateSwapChain Width=32 Height=32 BufferCount=2 Format=B8G8R8A8_UNORM  # call 2",
		"Device.AddRef  # call 3", "imm.AddRef  # call 5",
		`imm.BeginEvent "Setup"  # call 6`, `Device.SetPrivateData WKPDID_D3DDebugObjectName "Device"  # call 4`,
		"Device.SetMaximumFrameLatency 2  # call 8", "Device.GetMaximumFrameLatency  # call 9",
		"BackBuffer = sc.GetBuffer 0  # call 12",
		"rtv = Device.CreateRenderTargetView BackBuffer  # call 14",
		"imm.OMSetRenderTargets rtv  # call 15",
		`D3DPERF_BeginEvent "Frame" Color=#00ff00ff  # call 16`,
		"imm.ClearRenderTargetView rtv #0000ffff  # call 17",
		"buf = Device.CreateBuffer Usage=IMMUTABLE BindFlags=VERTEX_BUFFER Data=f32[-1 1 0.5 1 1 1 1 0 0 1 1 0.5",
		"buf2 = Device.CreateBuffer ByteWidth=12 BindFlags=INDEX_BUFFER  # call 19",
		"imm.UpdateSubresource buf2 Data=u32[0x10000 2 0x30002]  # call 20",
		"imm.Map buf3 WRITE_DISCARD  # call 22", "buf3.Write f32[0.5] Offset=4  # call 23",
		"vs = Device.CreateVertexShader fxc:vs1  # call 25", "ps = Device.CreatePixelShader fxc:ps1  # call 26",
		"il = Device.CreateInputLayout fxc:vs1 elem[POSITION 0 R32G32B32A32_FLOAT 0 0 PER_VERTEX 0] elem[COLOR 0 R32G32B32A32_FLOAT 0 16 PER_VERTEX 0] elem[TEXCOORD 0 R32G32_FLOAT 0 APPEND_ALIGNED PER_VERTEX 0]  # call 27",
		"tex = Device.CreateTexture2D Width=2 Height=2 Format=R8G8B8A8_UNORM BindFlags=SHADER_RESOURCE Data=u32[0xff0000ff 0xff00ff00 0xffff0000 0xffffffff]  # call 28",
		"srv = Device.CreateShaderResourceView tex  # call 29",
		"smp = Device.CreateSamplerState Filter=MIN_MAG_MIP_POINT AddressU=WRAP AddressV=WRAP AddressW=WRAP MinLOD=0  # call 30",
		"until hr != DXGI_ERROR_WAS_STILL_DRAWING max 1000 {  # calls 32-33 (2 polls)\n  imm.Map tex2 WRITE Flags=DO_NOT_WAIT\n}",
		"tex2.Write u32[0x4030201 0x8070605 0xc0b0a09 0x100f0e0d]  # call 34",
		"imm.CopyResource tex tex2  # call 36",
		"tex4 = Device.CreateTexture2D Width=4 Height=4 Format=R8G8B8A8_TYPELESS BindFlags=SHADER_RESOURCE  # call 39",
		"srv2 = Device.CreateShaderResourceView tex4 Format=R8G8B8A8_UNORM  # call 40",
		"dsv2 = Device.CreateDepthStencilView tex3 Flags=READ_ONLY_DEPTH  # call 41",
		"Device.CheckFormatSupport R8G8B8A8_UNORM  # call 42",
		"imm.ClearDepthStencilView dsv 1  # call 43",
		"blend = Device.CreateBlendState BlendEnable=TRUE SrcBlend=SRC_ALPHA DestBlend=INV_SRC_ALPHA  # call 44",
		"dss = Device.CreateDepthStencilState DepthFunc=LESS_EQUAL  # call 45",
		"rs = Device.CreateRasterizerState CullMode=NONE FrontCounterClockwise=TRUE  # call 46", "imm.RSSetState rs  # call 47",
		"imm.OMSetRenderTargets rtv dsv  # call 48",
		"imm.VSSetConstantBuffers 0 buf3 NULL  # call 60",
		"imm.PSSetConstantBuffers 1 buf3  # call 61",
		"imm.DrawIndexed 6  # call 62", "imm.DrawInstanced 3 2  # call 63", "imm.DrawIndexedInstanced 3 1 0 -1  # call 64",
		"# call 65: ID3D11DeviceContext::SetResourceMinLOD: not simulated: the scenario language has no SetResourceMinLOD",
		"until hr != S_FALSE max 1000 {  # calls 69-72 (4 polls)\n  imm.GetData q\n}",
		"thread t1 {\n  wait c73\n  dc = Device.CreateDeferredContext  # call 73\n  dc.ClearRenderTargetView rtv #00ff00ff  # call 74\n  cl = dc.FinishCommandList  # call 75\n  signal c76\n}\nsignal c73\nwait c76\nimm.ExecuteCommandList cl  # call 76",
		"fence = Device.CreateFence  # call 77", "imm.Signal fence 1  # call 78", "imm.Wait fence 1  # call 79",
		"fence.GetCompletedValue  # call 80", "fence.SetEventOnCompletion 1  # call 81", "Device.GetDeviceRemovedReason  # call 82",
		"sc.Present  # call 83", "sc.SetFullscreenState FALSE  # call 84", "imm.AddRef  # call 85", "imm.Release  # call 86",
		"imm.EndEvent  # call 87", "imm.Release  # call 88", "buf.AddRef  # call 89", "buf.Release  # call 90",
		`imm.SetMarker "Mark \"one\""  # call 92`, "imm.GetStatus  # call 93", "D3DPERF_GetStatus  # call 95",
		"buf.SetPrivateDataInterface IID_ID3D11Fence Device  # call 96", "buf.GetPrivateData WKPDID_D3DDebugObjectName  # call 97\nexpect hr == DXGI_ERROR_NOT_FOUND",
		"Device.CheckFeatureSupport DOUBLES  # call 98",
		"# call 101: IDXGISwapChain::Present: never returned (the capture ends inside it)",
	} {
		if !strings.Contains(text, want+"\n") && !strings.Contains(text, want) {
			t.Errorf("the scenario lacks %q", want)
		}
	}
	if t.Failed() {
		t.Log(numbered(text))
	}
	if len(rep.Unsupported) != 1 || rep.Unsupported[0].Name != "ID3D11DeviceContext::SetResourceMinLOD" || rep.Unsupported[0].First != 65 {
		t.Errorf("unsupported: %+v", rep.Unsupported)
	}
	for _, n := range []string{"BGRA_SUPPORT", "CLEAR_STENCIL"} {
		if !strings.Contains(rep.String(), n) {
			t.Errorf("the report lacks a notice about %s:\n%s", n, rep)
		}
	}
	s, err := scenario.Load("every", []byte(text))
	if err != nil {
		t.Fatalf("%v\n%s", err, numbered(text))
	}
	sum := scenario.NewRun(s, scenario.Overrides{}).Finish()
	if !sum.OK() || sum.Frames != 1 {
		t.Errorf("the run: %d frames, failures %v", sum.Frames, sum.Failures)
	}
}

// d3dsimOnly are the scenario's calls D3D11 has no call for: a capture
// carries them as d3dsim: markers.
var d3dsimOnly = map[string]bool{"device.Escape": true}

// TestEveryScenarioMethodMapped: every method of the scenario language has
// a row in the mapping (mapping.go), so its export is the D3D11 call and
// its import the statement.
func TestEveryScenarioMethodMapped(t *testing.T) {
	n := 0
	for _, typ := range scenario.Types() {
		for _, m := range scenario.Methods(typ) {
			n++
			if exportMappings[typ+"."+m] == nil && exportMappings["."+m] == nil && !d3dsimOnly[typ+"."+m] {
				t.Errorf("the scenario's %s.%s has no row in core/apitrace/mapping.go: add one (the D3D11 call it is, its export and import)", typ, m)
			}
		}
	}
	t.Logf("%d methods", n)
}

// TestImportStrict: a strict import stops at the first call the simulator
// cannot make, naming it.
func TestImportStrict(t *testing.T) {
	r, _ := NewReader(bytes.NewReader(everyCall(t)), Options{})
	_, _, err := Import(r, ImportOptions{Strict: true})
	var ue *UnsupportedError
	if err == nil || !strings.Contains(err.Error(), "call 65: ID3D11DeviceContext::SetResourceMinLOD") || !asUnsupported(err, &ue) {
		t.Fatalf("got %v", err)
	}
}

func asUnsupported(err error, ue **UnsupportedError) bool {
	u, ok := err.(*UnsupportedError)
	*ue = u
	return ok
}

// TestEveryRowUsed: the examples' and tutorials' captures and everyCall's
// use every row of the mapping: each mapped call is imported by a test.
func TestEveryRowUsed(t *testing.T) {
	used := map[*row]int{}
	add := func(rep *Report) {
		for r, n := range rep.rows {
			used[r] += n
		}
	}
	_, rep := importBoth(t, everyCall(t), ImportOptions{})
	add(rep)
	for _, a := range allAssets(t) {
		var capture bytes.Buffer
		runText(t, a.name, a.src, &capture)
		_, rep := importTrace(t, a.name, capture.Bytes())
		add(rep)
	}
	_, qrep := importTrace(t, "queries", queriesCapture(t))
	add(qrep)
	for _, r := range rows {
		if r.imp != nil && used[r] == 0 {
			t.Errorf("no test imports %s::%s", r.iface, r.name)
		}
	}
	t.Logf("%d rows, each used", len(rows))
}
