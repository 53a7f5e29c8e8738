package apitrace

import (
	"strings"

	"d3dsim/core/d3d11"
	"d3dsim/core/scenario"
)

// OMSetRenderTargetsAndUnorderedAccessViews and its getter, with d3d11.h's
// signatures: NumRTVs and NumUAVs 0xFFFFFFFF are
// D3D11_KEEP_RENDER_TARGETS_AND_DEPTH_STENCIL and
// D3D11_KEEP_UNORDERED_ACCESS_VIEWS (the scenario's Keep=).

var (
	fnOMSetRTAndUAVs = method("ID3D11DeviceContext", "OMSetRenderTargetsAndUnorderedAccessViews", "NumRTVs", "ppRenderTargetViews",
		"pDepthStencilView", "UAVStartSlot", "NumUAVs", "ppUnorderedAccessViews", "pUAVInitialCounts")
	fnOMGetRTAndUAVs = method("ID3D11DeviceContext", "OMGetRenderTargetsAndUnorderedAccessViews", "NumRTVs", "ppRenderTargetViews",
		"ppDepthStencilView", "UAVStartSlot", "NumUAVs", "ppUnorderedAccessViews")
)

const omKeep = 0xFFFFFFFF

func omUAVRows() []*row {
	return []*row{
		custom(ctx, "OMSetRenderTargetsAndUnorderedAccessViews", "context", "OMSetRenderTargetsAndUnorderedAccessViews", fnOMSetRTAndUAVs, expOMSetRTAndUAVs, impOMSetRTAndUAVs),
		custom(ctx, "OMGetRenderTargetsAndUnorderedAccessViews", "context", "OMGetRenderTargetsAndUnorderedAccessViews", fnOMGetRTAndUAVs, expOMGetRTAndUAVs, impOMGetRTAndUAVs),
	}
}

// expOMSetRTAndUAVs splits the statement's views as the scenario does:
// render targets, the depth-stencil view, the unordered access views.
func expOMSetRTAndUAVs(e *Exporter, th uint64, r *scenario.CallRecord) {
	var rtvs, uavs []Value
	var dsv any
	part := 0
	objs := posObjects(r, "VIEW")
	if len(objs) == 1 && objs[0] == nil {
		objs = nil // (no view given: posObjects' one NULL)
	}
	for _, o := range objs {
		v, _ := o.(*d3d11.View)
		switch {
		case v != nil && v.ViewKind == d3d11.ViewDSV:
			dsv, part = o, 1
		case v != nil && v.ViewKind == d3d11.ViewUAV:
			uavs, part = append(uavs, e.obj(o)), 2
		case part == 0:
			rtvs = append(rtvs, e.obj(o))
		default:
			uavs = append(uavs, e.obj(o))
		}
	}
	numRTVs, numUAVs := uint64(len(rtvs)), uint64(len(uavs))
	keep := bitsArg(r, "Keep", 0)
	if keep&1 != 0 {
		numRTVs = omKeep
	}
	if keep&2 != 0 {
		numUAVs = omKeep
	}
	start := uint64(len(rtvs))
	if a := r.Arg("UAVStartSlot"); a != nil && a.Given {
		start = uint64(a.Num)
	}
	arr := func(vs []Value) Value {
		if len(vs) == 0 {
			return Null
		}
		return ArrayV(vs...)
	}
	counts := Null
	if a := r.Arg("UAVInitialCounts"); a != nil && a.Given && len(a.Value.U32) == len(uavs) {
		cs := make([]Value, len(uavs))
		for i, n := range a.Value.U32 {
			cs[i] = UintV(uint64(n))
		}
		counts = ArrayV(cs...)
	}
	e.write(th, fnOMSetRTAndUAVs, []Arg{e.this(r), {1, UintV(numRTVs)}, {2, arr(rtvs)}, {3, e.obj(dsv)}, {4, UintV(start)},
		{5, UintV(numUAVs)}, {6, arr(uavs)}, {7, counts}}, nil, nil, 0)
}

func impOMSetRTAndUAVs(m *importer, c *Call, ctx *object) error {
	nrt, err := m.uintOf(c, "NumRTVs")
	if err != nil {
		return err
	}
	nuav, err := m.uintOf(c, "NumUAVs")
	if err != nil {
		return err
	}
	start, err := m.uintOf(c, "UAVStartSlot")
	if err != nil {
		return err
	}
	keepRT, keepUAV := nrt == omKeep, nuav == omKeep
	switch {
	case !keepRT && nrt > 8:
		return skip("NumRTVs %d: D3D11 has 8 render-target slots", nrt)
	case !keepUAV && nuav > 8:
		return skip("NumUAVs %d: the output merger has 8 slots", nuav)
	}
	text := m.ref(ctx) + ".OMSetRenderTargetsAndUnorderedAccessViews"
	list := func(arg, typ string, n uint64) error {
		views := elems(c.Arg(arg))
		for i := uint64(0); i < n; i++ {
			var o *object
			if int(i) < len(views) {
				if o, err = m.objOf(&views[i]); err != nil {
					return err
				}
			}
			if o != nil && o.typ != typ {
				return skip("%s[%d] is a %s", arg, i, orKind(o))
			}
			text += " " + m.ref(o)
		}
		return nil
	}
	if !keepRT {
		if err := list("ppRenderTargetViews", "rtv", nrt); err != nil {
			return err
		}
		dsv, err := m.objArg(c, "pDepthStencilView", "dsv")
		if err != nil {
			return err
		}
		if dsv != nil {
			text += " " + m.ref(dsv)
		}
	}
	var flags []string
	if keepRT {
		flags = append(flags, "RENDER_TARGETS_AND_DEPTH_STENCIL")
	}
	if keepUAV {
		flags = append(flags, "UNORDERED_ACCESS_VIEWS")
	} else {
		if err := list("ppUnorderedAccessViews", "uav", nuav); err != nil {
			return err
		}
		if keepRT || start != nrt {
			text += " UAVStartSlot=" + fmtU(start)
		}
		keep := true
		var counts []string
		for i, v := range elems(c.Arg("pUAVInitialCounts")) {
			if uint64(i) >= nuav {
				break
			}
			k, _ := valInt(&v)
			counts = append(counts, fmtU(uint64(uint32(k))))
			keep = keep && uint32(k) == omKeep
		}
		if len(counts) == int(nuav) && !keep {
			text += " UAVInitialCounts=u32[" + strings.Join(counts, " ") + "]"
		}
	}
	if len(flags) > 0 {
		text += " Keep=" + strings.Join(flags, "|")
	}
	m.emit(c, text, "")
	return nil
}

func expOMGetRTAndUAVs(e *Exporter, th uint64, r *scenario.CallRecord) {
	e.write(th, fnOMGetRTAndUAVs, []Arg{e.this(r), {1, UintV(uintArg(r, "NUMRTVS"))}, {4, UintV(uintArg(r, "UAVSTARTSLOT"))},
		{5, UintV(uintArg(r, "NUMUAVS"))}}, nil, nil, 0)
}

func impOMGetRTAndUAVs(m *importer, c *Call, ctx *object) error {
	text := m.ref(ctx) + ".OMGetRenderTargetsAndUnorderedAccessViews"
	for _, a := range []string{"NumRTVs", "UAVStartSlot", "NumUAVs"} {
		n, err := m.uintOf(c, a)
		if err != nil {
			return err
		}
		text += " " + fmtU(n)
	}
	m.emit(c, text, "")
	return nil
}
