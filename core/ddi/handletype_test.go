package ddi

import "testing"

// TestHandleTypeValues pins D3D11DDI_HANDLETYPE's values as the
// "D3D11DDI_HANDLETYPE enumeration" page lists them: the runtime passes the
// number to CalcDeferredContextHandleSize and the driver's
// CheckDeferredContextHandleSizes array carries it, so a driver written
// against the header must read the same numbers.
func TestHandleTypeValues(t *testing.T) {
	tests := []struct {
		ht   HandleType
		want uint32
		name string
	}{
		{HTResource, 0, "D3D10DDI_HT_RESOURCE"},
		{HTShaderResourceView, 1, "D3D10DDI_HT_SHADERRESOURCEVIEW"},
		{HTRenderTargetView, 2, "D3D10DDI_HT_RENDERTARGETVIEW"},
		{HTDepthStencilView, 3, "D3D10DDI_HT_DEPTHSTENCILVIEW"},
		{HTShader, 4, "D3D10DDI_HT_SHADER"},
		{HTElementLayout, 5, "D3D10DDI_HT_ELEMENTLAYOUT"},
		{HTBlendState, 6, "D3D10DDI_HT_BLENDSTATE"},
		{HTDepthStencilState, 7, "D3D10DDI_HT_DEPTHSTENCILSTATE"},
		{HTRasterizerState, 8, "D3D10DDI_HT_RASTERIZERSTATE"},
		{HTSamplerState, 9, "D3D10DDI_HT_SAMPLERSTATE"},
		{HTQuery, 10, "D3D10DDI_HT_QUERY"},
		{HTCommandList, 11, "D3D11DDI_HT_COMMANDLIST"},
		{HTUnorderedAccessView, 12, "D3D11DDI_HT_UNORDEREDACCESSVIEW"},
	}
	for _, tt := range tests {
		if uint32(tt.ht) != tt.want || tt.ht.String() != tt.name {
			t.Errorf("%s = %d (%s), want %d", tt.name, uint32(tt.ht), tt.ht, tt.want)
		}
	}
	if s := HandleType(99).String(); s != "D3D11DDI_HT_?" {
		t.Errorf("HandleType(99) = %q", s)
	}
}
