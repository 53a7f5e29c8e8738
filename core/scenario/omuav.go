package scenario

import "d3dsim/core/d3d11"

// The output merger's unordered access views:
// OMSetRenderTargetsAndUnorderedAccessViews and its getter.
//
//	ctx.OMSetRenderTargetsAndUnorderedAccessViews [RTV...] [DSV] [UAV...] [UAVStartSlot=N]
//	    [UAVInitialCounts=u32[...]] [Keep=RENDER_TARGETS_AND_DEPTH_STENCIL|UNORDERED_ACCESS_VIEWS]
//
// The render target views come first (NULL an empty slot), then the
// depth-stencil view, then the unordered access views (NULL an empty slot
// between two), each told apart by its type; UAVStartSlot is the number of
// render target views given unless named. Keep is NumRTVs
// D3D11_KEEP_RENDER_TARGETS_AND_DEPTH_STENCIL and NumUAVs
// D3D11_KEEP_UNORDERED_ACCESS_VIEWS.

func init() {
	ctx := methods[tContext]
	var pos []param
	for range 17 {
		pos = append(pos, param{name: "VIEW", kind: pObj, types: tRTV + "|" + tDSV + "|" + tUAV, opt: true})
	}
	ctx["OMSetRenderTargetsAndUnorderedAccessViews"] = &method{pos: pos,
		named: []param{{name: "UAVStartSlot", kind: pUint, opt: true}, {name: "UAVInitialCounts", kind: pData, opt: true},
			{name: "Keep", kind: pFlags, enum: "OMKeep", opt: true}},
		exec: execOMSetRTAndUAVs}
	ctx["OMGetRenderTargetsAndUnorderedAccessViews"] = &method{pos: []param{{name: "NUMRTVS", kind: pUint},
		{name: "UAVSTARTSLOT", kind: pUint, opt: true}, {name: "NUMUAVS", kind: pUint, opt: true}},
		exec: func(x *call) error {
			rtvs, dsv, uavs, err := x.ctx().OMGetRenderTargetsAndUnorderedAccessViews(x.uint(0), x.uint(1), x.uint(2))
			if err != nil {
				return got(x, rtvs, err)
			}
			return got(x, append(append(rtvs, dsv), uavs...), nil)
		}}
}

func execOMSetRTAndUAVs(x *call) error {
	n := 0
	for i := range 17 {
		if _, ok := x.posArg(i); ok {
			n = i + 1
		}
	}
	var rtvs, uavs []*d3d11.View
	var dsv *d3d11.View
	part := 0 // 0 render targets, 1 after the depth-stencil view, 2 views
	for i := range n {
		v := x.view(i)
		switch {
		case v != nil && v.ViewKind == d3d11.ViewDSV:
			if part > 0 {
				return x.bad("the depth stencil view comes after the render target views and before the unordered access views")
			}
			dsv, part = v, 1
		case v != nil && v.ViewKind == d3d11.ViewUAV:
			uavs, part = append(uavs, v), 2
		case v != nil && v.ViewKind != d3d11.ViewRTV:
			return x.bad("argument %d is neither a render target, a depth stencil nor an unordered access view", i+1)
		case part == 0:
			rtvs = append(rtvs, v)
		case part == 2:
			uavs = append(uavs, v)
		default:
			return x.bad("a NULL after the depth stencil view: render target slots come before it")
		}
	}
	numRTVs, numUAVs := uint32(len(rtvs)), uint32(len(uavs))
	keep := x.enumNamed("Keep", 0)
	if keep&d3d11.OMKeepTargets != 0 {
		if len(rtvs) > 0 || dsv != nil {
			return x.bad("Keep=RENDER_TARGETS_AND_DEPTH_STENCIL takes no render target or depth stencil view")
		}
		numRTVs = d3d11.KeepRenderTargetsAndDepthStencil
	}
	if keep&d3d11.OMKeepViews != 0 {
		if len(uavs) > 0 {
			return x.bad("Keep=UNORDERED_ACCESS_VIEWS takes no unordered access view")
		}
		numUAVs = d3d11.KeepUnorderedAccessViews
	}
	start := uint32(len(rtvs))
	if x.hasNamed("UAVStartSlot") {
		start = x.uintNamed("UAVStartSlot")
	}
	var counts []uint32
	if a, ok := x.namedArg("UAVInitialCounts"); ok {
		if a.Value.Kind != VU32 && a.Value.Kind != VI32 || len(a.Value.U32) != len(uavs) {
			return x.bad("UAVInitialCounts is one count per view: u32[...] (or i32[...], -1 keeping the counter) of %d", len(uavs))
		}
		counts = a.Value.U32
	}
	return x.ctx().OMSetRenderTargetsAndUnorderedAccessViews(numRTVs, rtvs, dsv, start, numUAVs, uavs, counts)
}
