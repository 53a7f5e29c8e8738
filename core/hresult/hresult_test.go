package hresult

import (
	"errors"
	"fmt"
	"testing"
)

func TestValues(t *testing.T) {
	tests := []struct {
		h    HRESULT
		want uint32
	}{
		{S_OK, 0}, {S_FALSE, 1},
		{E_NOTIMPL, 0x80004001}, {E_FAIL, 0x80004005}, {E_OUTOFMEMORY, 0x8007000E}, {E_INVALIDARG, 0x80070057},
		{DXGI_ERROR_INVALID_CALL, 0x887A0001}, {DXGI_ERROR_NOT_FOUND, 0x887A0002}, {DXGI_ERROR_UNSUPPORTED, 0x887A0004},
		{DXGI_ERROR_DEVICE_REMOVED, 0x887A0005}, {DXGI_ERROR_DEVICE_HUNG, 0x887A0006},
		{DXGI_ERROR_DEVICE_RESET, 0x887A0007}, {DXGI_ERROR_WAS_STILL_DRAWING, 0x887A000A},
		{D3D11_ERROR_DEFERRED_CONTEXT_MAP_WITHOUT_INITIAL_DISCARD, 0x887C0004},
		{D3DDDIERR_WASSTILLDRAWING, 0x8876021C}, {DXGI_DDI_ERR_WASSTILLDRAWING, 0x887B0001}, {D3DDDIERR_DEVICEREMOVED, 0x88760870},
		{D3DDDIERR_APPLICATIONERROR, 0x88760885}, {D3D11_ERROR_TOO_MANY_UNIQUE_STATE_OBJECTS, 0x887C0001},
	}
	for _, tt := range tests {
		if uint32(tt.h) != tt.want {
			t.Errorf("%s = %#08x, want %#08x", tt.h.Name(), uint32(tt.h), tt.want)
		}
		if h, ok := Parse(tt.h.Name()); !ok || h != tt.h {
			t.Errorf("Parse(%q) = %v, %v", tt.h.Name(), h, ok)
		}
	}
	if len(names) != len(tests) {
		t.Errorf("%d names, %d tested", len(names), len(tests))
	}
}

func TestIsAndOf(t *testing.T) {
	err := fmt.Errorf("d3d11: CreateBuffer(vb): %w", Errorf(E_INVALIDARG, "ByteWidth is 0"))
	if !errors.Is(err, E_INVALIDARG) || errors.Is(err, E_OUTOFMEMORY) {
		t.Fatalf("errors.Is mismatch for %v", err)
	}
	if Of(err) != E_INVALIDARG || Of(nil) != S_OK || Of(errors.New("x")) != E_FAIL {
		t.Fatal("Of")
	}
	if got := E_INVALIDARG.Error(); got != "E_INVALIDARG (0x80070057)" {
		t.Fatalf("Error() = %q", got)
	}
}
