package dxgkddi

import (
	"errors"
	"fmt"
)

// NTSTATUS is the kernel's result code (ntstatus.h). Failures have the two
// top bits set (severity error); Error prints "NAME (0x...)" and errors.Is
// matches wrapped codes.
type NTSTATUS int32

// Real values from ntstatus.h.
const (
	STATUS_SUCCESS                                NTSTATUS = 0
	STATUS_TIMEOUT                                NTSTATUS = 0x00000102
	STATUS_PENDING                                NTSTATUS = 0x00000103
	STATUS_UNSUCCESSFUL                           NTSTATUS = -0x3fffffff // 0xC0000001
	STATUS_INVALID_HANDLE                         NTSTATUS = -0x3ffffff8 // 0xC0000008
	STATUS_INVALID_PARAMETER                      NTSTATUS = -0x3ffffff3 // 0xC000000D
	STATUS_NO_MEMORY                              NTSTATUS = -0x3fffffe9 // 0xC0000017
	STATUS_ILLEGAL_INSTRUCTION                    NTSTATUS = -0x3fffffe3 // 0xC000001D
	STATUS_NOT_SUPPORTED                          NTSTATUS = -0x3fffff45 // 0xC00000BB
	STATUS_INVALID_DEVICE_STATE                   NTSTATUS = -0x3ffffe7c // 0xC0000184
	STATUS_DEVICE_REMOVED                         NTSTATUS = -0x3ffffd4a // 0xC00002B6
	STATUS_GRAPHICS_INSUFFICIENT_DMA_BUFFER       NTSTATUS = -0x3fe1ffff // 0xC01E0001
	STATUS_GRAPHICS_ADAPTER_WAS_RESET             NTSTATUS = -0x3fe1fffd // 0xC01E0003
	STATUS_GRAPHICS_CANNOTCOLORCONVERT            NTSTATUS = -0x3fe1fff8 // 0xC01E0008
	STATUS_GRAPHICS_NO_VIDEO_MEMORY               NTSTATUS = -0x3fe1ff00 // 0xC01E0100
	STATUS_GRAPHICS_ALLOCATION_BUSY               NTSTATUS = -0x3fe1fefe // 0xC01E0102
	STATUS_GRAPHICS_ALLOCATION_INVALID            NTSTATUS = -0x3fe1fefa // 0xC01E0106
	STATUS_GRAPHICS_INVALID_ALLOCATION_HANDLE     NTSTATUS = -0x3fe1feec // 0xC01E0114
	STATUS_GRAPHICS_WRONG_ALLOCATION_DEVICE       NTSTATUS = -0x3fe1feeb // 0xC01E0115
	STATUS_GRAPHICS_GPU_EXCEPTION_ON_DEVICE       NTSTATUS = -0x3fe1fe00 // 0xC01E0200
	STATUS_GRAPHICS_CANT_RENDER_LOCKED_ALLOCATION NTSTATUS = -0x3fe1feef // 0xC01E0111
)

var statusNames = map[NTSTATUS]string{
	STATUS_SUCCESS:                                "STATUS_SUCCESS",
	STATUS_TIMEOUT:                                "STATUS_TIMEOUT",
	STATUS_PENDING:                                "STATUS_PENDING",
	STATUS_UNSUCCESSFUL:                           "STATUS_UNSUCCESSFUL",
	STATUS_INVALID_HANDLE:                         "STATUS_INVALID_HANDLE",
	STATUS_INVALID_PARAMETER:                      "STATUS_INVALID_PARAMETER",
	STATUS_NO_MEMORY:                              "STATUS_NO_MEMORY",
	STATUS_ILLEGAL_INSTRUCTION:                    "STATUS_ILLEGAL_INSTRUCTION",
	STATUS_NOT_SUPPORTED:                          "STATUS_NOT_SUPPORTED",
	STATUS_INVALID_DEVICE_STATE:                   "STATUS_INVALID_DEVICE_STATE",
	STATUS_DEVICE_REMOVED:                         "STATUS_DEVICE_REMOVED",
	STATUS_GRAPHICS_INSUFFICIENT_DMA_BUFFER:       "STATUS_GRAPHICS_INSUFFICIENT_DMA_BUFFER",
	STATUS_GRAPHICS_ADAPTER_WAS_RESET:             "STATUS_GRAPHICS_ADAPTER_WAS_RESET",
	STATUS_GRAPHICS_CANNOTCOLORCONVERT:            "STATUS_GRAPHICS_CANNOTCOLORCONVERT",
	STATUS_GRAPHICS_NO_VIDEO_MEMORY:               "STATUS_GRAPHICS_NO_VIDEO_MEMORY",
	STATUS_GRAPHICS_ALLOCATION_BUSY:               "STATUS_GRAPHICS_ALLOCATION_BUSY",
	STATUS_GRAPHICS_ALLOCATION_INVALID:            "STATUS_GRAPHICS_ALLOCATION_INVALID",
	STATUS_GRAPHICS_INVALID_ALLOCATION_HANDLE:     "STATUS_GRAPHICS_INVALID_ALLOCATION_HANDLE",
	STATUS_GRAPHICS_WRONG_ALLOCATION_DEVICE:       "STATUS_GRAPHICS_WRONG_ALLOCATION_DEVICE",
	STATUS_GRAPHICS_GPU_EXCEPTION_ON_DEVICE:       "STATUS_GRAPHICS_GPU_EXCEPTION_ON_DEVICE",
	STATUS_GRAPHICS_CANT_RENDER_LOCKED_ALLOCATION: "STATUS_GRAPHICS_CANT_RENDER_LOCKED_ALLOCATION",
}

// Name is the symbolic name, or NTSTATUS(0x...) for unknown codes.
func (s NTSTATUS) Name() string {
	if n, ok := statusNames[s]; ok {
		return n
	}
	return fmt.Sprintf("NTSTATUS(%#08x)", uint32(s))
}

// Error prints "NAME (0x...)".
func (s NTSTATUS) Error() string { return fmt.Sprintf("%s (%#08x)", s.Name(), uint32(s)) }

// Success is NT_SUCCESS: the code is not a warning or an error.
func (s NTSTATUS) Success() bool { return s >= 0 }

// Is lets errors.Is(err, dxgkddi.STATUS_DEVICE_REMOVED) match a wrapped code.
func (s NTSTATUS) Is(target error) bool {
	t, ok := target.(NTSTATUS)
	return ok && t == s
}

// Error is an NTSTATUS with a message naming what failed (the DDI, the
// packet, the allocation, the reason). It unwraps to its code, so both
// errors.Is(err, STATUS_X) and errors.As(err, &status) work.
type Error struct {
	Code NTSTATUS
	Msg  string
}

func (e *Error) Error() string { return e.Code.Name() + ": " + e.Msg }
func (e *Error) Unwrap() error { return e.Code }

// Errorf builds an *Error.
func Errorf(code NTSTATUS, format string, args ...any) error {
	return &Error{Code: code, Msg: fmt.Sprintf(format, args...)}
}

// StatusOf returns the NTSTATUS an error carries: STATUS_SUCCESS for nil,
// STATUS_UNSUCCESSFUL for an error that carries none.
func StatusOf(err error) NTSTATUS {
	if err == nil {
		return STATUS_SUCCESS
	}
	var s NTSTATUS
	if errors.As(err, &s) {
		return s
	}
	return STATUS_UNSUCCESSFUL
}

// Message is the text of an error without its code name ("" for nil).
func Message(err error) string {
	if err == nil {
		return ""
	}
	var e *Error
	if errors.As(err, &e) {
		return e.Msg
	}
	return err.Error()
}
