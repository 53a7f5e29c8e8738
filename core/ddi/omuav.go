package ddi

// The output merger's unordered access views. D3D11's pfnSetRenderTargets
// takes, beside the render target views and the depth-stencil view, the
// pixel stage's unordered access views: phUnorderedAccessView from slot
// UAVIndex (after the render targets: the two share the output merger's
// D3D11_PS_CS_UAV_REGISTER_COUNT slots) with pUAVInitialCounts. A driver
// that binds them implements OutputMergerUAVs beside Device; the runtime
// calls it, traced as pfnSetRenderTargets, for
// OMSetRenderTargetsAndUnorderedAccessViews (and for ClearState), and
// Device.SetRenderTargets for OMSetRenderTargets, which leaves the views
// bound.

// OutputMergerUAVs is pfnSetRenderTargets with its unordered access views.
type OutputMergerUAVs interface {
	// SetRenderTargetsAndUAVs binds rtvs (the other render target slots
	// unbound) and dsv, and views from slot uavStart (every other slot
	// unbound); counts are the UAVInitialCounts (NoInitialCount: keep the
	// view's hidden counter).
	SetRenderTargetsAndUAVs(h HDEVICE, rtvs []HRENDERTARGETVIEW, dsv HDEPTHSTENCILVIEW, uavStart uint32, uavs []HUNORDEREDACCESSVIEW, counts []uint32)
}

// KeepRenderTargetsAndDepthStencil and KeepUnorderedAccessViews are
// D3D11_KEEP_RENDER_TARGETS_AND_DEPTH_STENCIL and
// D3D11_KEEP_UNORDERED_ACCESS_VIEWS: NumRTVs and NumUAVs that leave the
// bound views as they are.
const (
	KeepRenderTargetsAndDepthStencil = ^uint32(0)
	KeepUnorderedAccessViews         = ^uint32(0)
)

// OMKeep flags are the scenario language's Keep= of
// OMSetRenderTargetsAndUnorderedAccessViews: which of NumRTVs and NumUAVs
// is its KEEP value.
const (
	OMKeepTargets uint32 = 1
	OMKeepViews   uint32 = 2
)

func init() {
	Enums["OMKeep"] = map[string]uint32{"RENDER_TARGETS_AND_DEPTH_STENCIL": OMKeepTargets, "UNORDERED_ACCESS_VIEWS": OMKeepViews}
}
