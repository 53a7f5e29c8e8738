package hresult

import "fmt"

// HRESULT is a COM result code. Failures are negative.
type HRESULT int32

// Real values from winerror.h, dxgi.h and d3dukmdt.h (D3DDDIERR_* are
// MAKE_D3DHRESULT(code) = 0x88760000 | code).
const (
	S_OK                         HRESULT = 0
	S_FALSE                      HRESULT = 1
	E_NOTIMPL                    HRESULT = -0x7fffbfff // 0x80004001
	E_FAIL                       HRESULT = -0x7fffbffb // 0x80004005
	E_OUTOFMEMORY                HRESULT = -0x7ff8fff2 // 0x8007000E
	E_INVALIDARG                 HRESULT = -0x7ff8ffa9 // 0x80070057
	DXGI_ERROR_INVALID_CALL      HRESULT = -0x7785ffff // 0x887A0001
	DXGI_ERROR_NOT_FOUND         HRESULT = -0x7785fffe // 0x887A0002
	DXGI_ERROR_DEVICE_REMOVED    HRESULT = -0x7785fffb // 0x887A0005
	DXGI_ERROR_DEVICE_HUNG       HRESULT = -0x7785fffa // 0x887A0006
	DXGI_ERROR_DEVICE_RESET      HRESULT = -0x7785fff9 // 0x887A0007
	DXGI_ERROR_WAS_STILL_DRAWING HRESULT = -0x7785fff6 // 0x887A000A
	DXGI_ERROR_UNSUPPORTED       HRESULT = -0x7785fffc // 0x887A0004
	D3DDDIERR_WASSTILLDRAWING    HRESULT = -0x7789fde4 // 0x8876021C
	// DXGI_DDI_ERR_WASSTILLDRAWING is what a D3D10/11 UMD passes to
	// pfnSetErrorCb for a map with D3D10_DDI_MAP_FLAG_DONOTWAIT that would
	// wait, and for a query not finished yet ("PFND3D10DDI_RESOURCEMAP",
	// "PFND3D10DDI_QUERYGETDATA").
	DXGI_DDI_ERR_WASSTILLDRAWING              HRESULT = -0x7784ffff // 0x887B0001
	D3DDDIERR_DEVICEREMOVED                   HRESULT = -0x7789f790 // 0x88760870
	D3DDDIERR_APPLICATIONERROR                HRESULT = -0x7789f77b // 0x88760885
	D3D11_ERROR_TOO_MANY_UNIQUE_STATE_OBJECTS HRESULT = -0x7783ffff // 0x887C0001
	// D3D11_ERROR_DEFERRED_CONTEXT_MAP_WITHOUT_INITIAL_DISCARD: the first
	// Map of a resource on a deferred context, per command list, was not
	// WRITE_DISCARD ("D3D11 Return Codes").
	D3D11_ERROR_DEFERRED_CONTEXT_MAP_WITHOUT_INITIAL_DISCARD HRESULT = -0x7783fffc // 0x887C0004
)

var names = map[HRESULT]string{
	S_OK:                         "S_OK",
	S_FALSE:                      "S_FALSE",
	E_NOTIMPL:                    "E_NOTIMPL",
	E_FAIL:                       "E_FAIL",
	E_OUTOFMEMORY:                "E_OUTOFMEMORY",
	E_INVALIDARG:                 "E_INVALIDARG",
	DXGI_ERROR_INVALID_CALL:      "DXGI_ERROR_INVALID_CALL",
	DXGI_ERROR_NOT_FOUND:         "DXGI_ERROR_NOT_FOUND",
	DXGI_ERROR_DEVICE_REMOVED:    "DXGI_ERROR_DEVICE_REMOVED",
	DXGI_ERROR_DEVICE_HUNG:       "DXGI_ERROR_DEVICE_HUNG",
	DXGI_ERROR_DEVICE_RESET:      "DXGI_ERROR_DEVICE_RESET",
	DXGI_ERROR_WAS_STILL_DRAWING: "DXGI_ERROR_WAS_STILL_DRAWING",
	DXGI_ERROR_UNSUPPORTED:       "DXGI_ERROR_UNSUPPORTED",
	D3DDDIERR_WASSTILLDRAWING:    "D3DDDIERR_WASSTILLDRAWING",
	DXGI_DDI_ERR_WASSTILLDRAWING: "DXGI_DDI_ERR_WASSTILLDRAWING",
	D3DDDIERR_DEVICEREMOVED:      "D3DDDIERR_DEVICEREMOVED",
	D3DDDIERR_APPLICATIONERROR:   "D3DDDIERR_APPLICATIONERROR",
	D3D11_ERROR_TOO_MANY_UNIQUE_STATE_OBJECTS:                "D3D11_ERROR_TOO_MANY_UNIQUE_STATE_OBJECTS",
	D3D11_ERROR_DEFERRED_CONTEXT_MAP_WITHOUT_INITIAL_DISCARD: "D3D11_ERROR_DEFERRED_CONTEXT_MAP_WITHOUT_INITIAL_DISCARD",
}

var byName = func() map[string]HRESULT {
	m := make(map[string]HRESULT, len(names))
	for k, v := range names {
		m[v] = k
	}
	return m
}()

// Name is the symbolic name, or the hex value for unknown codes.
func (h HRESULT) Name() string {
	if h == S_OK {
		return "S_OK" // nearly every call returns it: no map look-up
	}
	if s, ok := names[h]; ok {
		return s
	}
	return fmt.Sprintf("HRESULT(%#08x)", uint32(h))
}

// Error prints "NAME (0x...)".
func (h HRESULT) Error() string { return fmt.Sprintf("%s (%#08x)", h.Name(), uint32(h)) }

// Failed reports whether h is a failure code.
func (h HRESULT) Failed() bool { return h < 0 }

// Is lets errors.Is(err, hresult.E_INVALIDARG) match a wrapped code.
func (h HRESULT) Is(target error) bool {
	t, ok := target.(HRESULT)
	return ok && t == h
}

// Parse looks up a name (as written in scenarios: "E_INVALIDARG").
func Parse(name string) (HRESULT, bool) {
	h, ok := byName[name]
	return h, ok
}

// Names lists every known name (for error messages), in no particular order.
func Names() []string {
	out := make([]string, 0, len(byName))
	for n := range byName {
		out = append(out, n)
	}
	return out
}

// Of returns the HRESULT an error carries (S_OK for nil, E_FAIL for an error
// that carries none).
func Of(err error) HRESULT {
	if err == nil {
		return S_OK
	}
	var h HRESULT
	if asHRESULT(err, &h) {
		return h
	}
	return E_FAIL
}

func asHRESULT(err error, h *HRESULT) bool {
	for err != nil {
		if v, ok := err.(HRESULT); ok {
			*h = v
			return true
		}
		if v, ok := err.(*Error); ok {
			*h = v.Code
			return true
		}
		u, ok := err.(interface{ Unwrap() error })
		if !ok {
			return false
		}
		err = u.Unwrap()
	}
	return false
}

// Error is an HRESULT with a message saying what went wrong (which object,
// which call, which rule).
type Error struct {
	Code HRESULT
	Msg  string
}

func (e *Error) Error() string { return e.Code.Name() + ": " + e.Msg }
func (e *Error) Unwrap() error { return e.Code }

// Errorf builds an *Error.
func Errorf(code HRESULT, format string, args ...any) error {
	return &Error{Code: code, Msg: fmt.Sprintf(format, args...)}
}
