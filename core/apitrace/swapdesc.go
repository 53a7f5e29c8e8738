package apitrace

import (
	"d3dsim/core/d3d11"
	"d3dsim/core/scenario"
)

// IDXGISwapChain::GetDesc: the capture holds the description the run's
// swap chain had (DXGI_SWAP_CHAIN_DESC); the import gives the statement
// back, whose answer `expect got` reads.

var fnSwapGetDesc = method("IDXGISwapChain", "GetDesc", "pDesc")

func expSwapGetDesc(e *Exporter, th uint64, r *scenario.CallRecord) {
	var out []Arg
	if sc, ok := r.Target.(*d3d11.SwapChain); ok && succeeded(r) {
		f := uint32(28) // R8G8B8A8_UNORM
		if len(sc.Buffers) > 0 {
			f = uint32(sc.Buffers[0].Desc.Format)
		}
		desc := StructV(stSwapChainDesc,
			StructV(stModeDesc, UintV(uint64(sc.Width)), UintV(uint64(sc.Height)), StructV(stRational, UintV(60), UintV(1)),
				EnumV(sigDXGIFormat, int64(f)), EnumV(sigScanline, 0), EnumV(sigScaling, 0)),
			StructV(stSampleDesc, UintV(1), EnumV(sigQuality, 0)),
			BitmaskV(sigDXGIUsage, 0x20), UintV(uint64(len(sc.Buffers))), Null, boolV(!sc.Fullscreen),
			EnumV(sigSwapEffect, int64(sc.SwapEffect)), BitmaskV(sigSwapFlags, 0))
		out = []Arg{{1, ArrayV(desc)}}
	}
	e.write(th, fnSwapGetDesc, []Arg{e.this(r)}, out, hr(r), 0)
}

func impSwapGetDesc(m *importer, c *Call, sc *object) error {
	m.emit(c, m.ref(sc)+".GetDesc", hrOf(c))
	return nil
}

// IDXGISwapChain::ResizeBuffers: BufferCount, Width, Height and NewFormat
// both ways (0 and UNKNOWN keep what the swap chain has); SwapChainFlags
// other than 0 are not simulated.
var fnSwapResize = method("IDXGISwapChain", "ResizeBuffers", "BufferCount", "Width", "Height", "NewFormat", "SwapChainFlags")

func expSwapResize(e *Exporter, th uint64, r *scenario.CallRecord) {
	e.write(th, fnSwapResize, []Arg{e.this(r), {1, UintV(uintArg(r, "BufferCount"))}, {2, UintV(uintArg(r, "Width"))},
		{3, UintV(uintArg(r, "Height"))}, {4, EnumV(sigDXGIFormat, int64(bitsArg(r, "NewFormat", 0)))}, {5, UintV(0)}}, nil, hr(r), 0)
}

func impSwapResize(m *importer, c *Call, sc *object) error {
	if f, _ := m.uintOf(c, "SwapChainFlags"); f != 0 {
		return skip("SwapChainFlags %#x: the simulator's swap chains take none", f)
	}
	vals := map[string]string{}
	for _, n := range []string{"BufferCount", "Width", "Height"} {
		v, err := m.uintOf(c, n)
		if err != nil {
			return err
		}
		if v != 0 {
			vals[n] = fmtU(v)
		}
	}
	s, n, err := m.scenarioEnumArg(c.Arg("NewFormat"), sigDXGIFormat, "Format", "NewFormat")
	if err != nil {
		return err
	}
	if n != 0 {
		vals["NewFormat"] = s
	}
	m.emit(c, m.callText(sc, "ResizeBuffers", vals), hrOf(c))
	return nil
}
