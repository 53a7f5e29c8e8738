package d3d11

import (
	"errors"
	"math"
	"strings"
	"testing"

	"d3dsim/core/ddi"
	"d3dsim/core/hresult"
)

// TestDescriptorValidation: every new descriptor field the runtime checks
// is refused with E_INVALIDARG naming it, before any DDI.
func TestDescriptorValidation(t *testing.T) {
	f := mustStack(t, fakeOpts{})
	blend := func(mod func(*ddi.BlendDesc)) error {
		d := ddi.DefaultBlendDesc()
		mod(&d)
		_, err := f.dev.CreateBlendState("b", d)
		return err
	}
	depth := func(mod func(*ddi.DepthStencilDesc)) error {
		d := ddi.DefaultDepthStencilDesc()
		mod(&d)
		_, err := f.dev.CreateDepthStencilState("d", d)
		return err
	}
	raster := func(mod func(*ddi.RasterizerDesc)) error {
		d := ddi.DefaultRasterizerDesc()
		mod(&d)
		_, err := f.dev.CreateRasterizerState("r", d)
		return err
	}
	nan := float32(math.NaN())
	for _, c := range []struct {
		name string
		err  error
		want string
	}{
		{"blend factor", blend(func(d *ddi.BlendDesc) { d.RenderTarget[0].SrcBlend = 12 }), "RenderTarget[0].SrcBlend 12 is not a D3D11_BLEND value"},
		{"alpha colour factor", blend(func(d *ddi.BlendDesc) { d.RenderTarget[0].DestBlendAlpha = ddi.BlendDestColor }), "DestBlendAlpha is D3D11_BLEND_DEST_COLOR"},
		{"blend op", blend(func(d *ddi.BlendDesc) { d.RenderTarget[0].BlendOpAlpha = 6 }), "RenderTarget[0].BlendOpAlpha 6 is not a D3D11_BLEND_OP value"},
		{"write mask", blend(func(d *ddi.BlendDesc) { d.RenderTarget[0].RenderTargetWriteMask = 0x1F }), "RenderTargetWriteMask 0x1f"},
		{"independent target", blend(func(d *ddi.BlendDesc) { d.IndependentBlendEnable = true; d.RenderTarget[5].SrcBlend = 0 }), "RenderTarget[5].SrcBlend 0"},
		{"depth func", depth(func(d *ddi.DepthStencilDesc) { d.DepthFunc = 9 }), "DepthFunc 9 is not a D3D11_COMPARISON_FUNC value"},
		{"stencil func", depth(func(d *ddi.DepthStencilDesc) { d.BackFace.StencilFunc = 0 }), "BackFace.StencilFunc 0"},
		{"stencil op", depth(func(d *ddi.DepthStencilDesc) { d.FrontFace.StencilDepthFailOp = 9 }), "FrontFace.StencilDepthFailOp 9 is not a D3D11_STENCIL_OP value"},
		{"fill mode", raster(func(d *ddi.RasterizerDesc) { d.FillMode = 1 }), "FillMode 1 is not a D3D11_FILL_MODE value"},
		{"cull mode", raster(func(d *ddi.RasterizerDesc) { d.CullMode = 0 }), "CullMode 0 is not a D3D11_CULL_MODE value"},
		{"bias clamp", raster(func(d *ddi.RasterizerDesc) { d.DepthBiasClamp = nan }), "DepthBiasClamp NaN is not a number"},
		{"slope bias", raster(func(d *ddi.RasterizerDesc) { d.SlopeScaledDepthBias = float32(math.Inf(1)) }), "SlopeScaledDepthBias +Inf is not a number"},
	} {
		if !errors.Is(c.err, hresult.E_INVALIDARG) || !strings.Contains(c.err.Error(), c.want) {
			t.Errorf("%s: %v, want E_INVALIDARG saying %q", c.name, c.err, c.want)
		}
	}
	if n := count(f.log.names(""), "CreateBlendState") + count(f.log.names(""), "CreateDepthStencilState") + count(f.log.names(""), "CreateRasterizerState"); n != 0 {
		t.Errorf("%d create DDIs for refused descriptors", n)
	}
	// The context's calls: a topology that is no D3D11_PRIMITIVE_TOPOLOGY,
	// a patch list, 17 viewports, a bad viewport, a bad scissor rectangle.
	ic := f.dev.ImmediateContext()
	for _, c := range []struct {
		err  error
		want string
	}{
		{ic.IASetPrimitiveTopology(7), "Topology 7 is not a D3D11_PRIMITIVE_TOPOLOGY value"},
		{ic.IASetPrimitiveTopology(65), "Topology 65 is not a D3D11_PRIMITIVE_TOPOLOGY value"},
		{ic.RSSetViewports(make([]ddi.Viewport, 17)...), "NumViewports 17"},
		{ic.RSSetViewports(ddi.Viewport{Width: -1}), "pViewports[0]: Width -1"},
		{ic.RSSetViewports(ddi.Viewport{}, ddi.Viewport{MaxDepth: 2}), "pViewports[1]: MinDepth 0 and MaxDepth 2"},
		{ic.RSSetViewports(ddi.Viewport{X: 32760, Width: 100}), "outside D3D11_VIEWPORT_BOUNDS_MIN..MAX"},
		{ic.RSSetScissorRects(ddi.Rect{Left: 5, Right: 4}), "pRects[0]: left 5"},
		{ic.RSSetScissorRects(make([]ddi.Rect, 17)...), "NumRects 17"},
	} {
		if !errors.Is(c.err, hresult.E_INVALIDARG) || !strings.Contains(c.err.Error(), c.want) {
			t.Errorf("%v, want E_INVALIDARG saying %q", c.err, c.want)
		}
	}
}
