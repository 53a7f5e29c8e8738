package d3d11

import (
	"strings"
	"testing"

	"d3dsim/core/dxbc"
	"d3dsim/core/hresult"
)

// TestShaderFeatureCheck: a shader whose SFI0 chunk needs doubles is
// refused by a driver that does not report D3D11DDICAPS_SHADER_DOUBLES
// (the fake one reports no caps), naming the feature; a later runtime's
// feature is refused on any device; early depth-stencil, minimum
// precision and level 9 comparison filtering are feature level 11_0's;
// the shader without the chunk is created. The refused shaders never
// reach the driver.
func TestShaderFeatureCheck(t *testing.T) {
	f := mustStack(t, fakeOpts{})
	code := builtinCode(t, "ps_vertexcolor")
	for _, c := range []struct {
		feat dxbc.ShaderFeatures
		want string // "" created
	}{
		{0, ""},
		{dxbc.RequiresEarlyDepthStencil | dxbc.RequiresMinimumPrecision | dxbc.RequiresLevel9ComparisonFiltering, ""},
		{dxbc.RequiresDoubles, "the shader needs Double-precision floating point (D3D_SHADER_REQUIRES_DOUBLES): the driver does not report D3D11DDICAPS_SHADER_DOUBLES"},
		{dxbc.RequiresROVs, "the shader needs Raster Ordered UAVs (D3D_SHADER_REQUIRES_ROVS), a feature of a later runtime"},
		{dxbc.RequiresTypedUAVLoadAdditionalFormats, "Typed UAV Load Additional Formats (D3D_SHADER_REQUIRES_TYPED_UAV_LOAD_ADDITIONAL_FORMATS)"},
		{1 << 50, "the shader needs unknown feature 0x4000000000000 (0x4000000000000)"},
	} {
		blob, err := dxbc.WithShaderFeatures(code, c.feat)
		if err != nil {
			t.Fatal(err)
		}
		before := len(f.ddiEvents(0))
		_, err = f.dev.CreateShaderBytecode("ps", "ps", blob)
		reached := len(f.ddiEvents(0)) > before
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%#x: %v", c.feat, err)
		case c.want != "" && (hresult.Of(err) != hresult.E_INVALIDARG || !strings.Contains(err.Error(), c.want)):
			t.Errorf("%#x: err %v, want E_INVALIDARG with %q", c.feat, err, c.want)
		case c.want != "" && reached && c.feat != dxbc.RequiresDoubles:
			t.Errorf("%#x: the refused shader reached the driver", c.feat)
		}
	}
}
