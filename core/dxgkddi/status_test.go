package dxgkddi

import (
	"errors"
	"fmt"
	"testing"
)

func TestNTSTATUS(t *testing.T) {
	tests := []struct {
		desc  string
		s     NTSTATUS
		name  string
		value uint32
	}{
		{"success", STATUS_SUCCESS, "STATUS_SUCCESS", 0},
		{"invalid parameter", STATUS_INVALID_PARAMETER, "STATUS_INVALID_PARAMETER", 0xC000000D},
		{"no memory", STATUS_NO_MEMORY, "STATUS_NO_MEMORY", 0xC0000017},
		{"illegal instruction", STATUS_ILLEGAL_INSTRUCTION, "STATUS_ILLEGAL_INSTRUCTION", 0xC000001D},
		{"device removed", STATUS_DEVICE_REMOVED, "STATUS_DEVICE_REMOVED", 0xC00002B6},
		{"insufficient DMA buffer", STATUS_GRAPHICS_INSUFFICIENT_DMA_BUFFER, "STATUS_GRAPHICS_INSUFFICIENT_DMA_BUFFER", 0xC01E0001},
		{"invalid allocation handle", STATUS_GRAPHICS_INVALID_ALLOCATION_HANDLE, "STATUS_GRAPHICS_INVALID_ALLOCATION_HANDLE", 0xC01E0114},
		{"wrong allocation device", STATUS_GRAPHICS_WRONG_ALLOCATION_DEVICE, "STATUS_GRAPHICS_WRONG_ALLOCATION_DEVICE", 0xC01E0115},
		{"GPU exception", STATUS_GRAPHICS_GPU_EXCEPTION_ON_DEVICE, "STATUS_GRAPHICS_GPU_EXCEPTION_ON_DEVICE", 0xC01E0200},
		{"cannot color convert", STATUS_GRAPHICS_CANNOTCOLORCONVERT, "STATUS_GRAPHICS_CANNOTCOLORCONVERT", 0xC01E0008},
		{"no video memory", STATUS_GRAPHICS_NO_VIDEO_MEMORY, "STATUS_GRAPHICS_NO_VIDEO_MEMORY", 0xC01E0100},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			if uint32(tt.s) != tt.value {
				t.Errorf("value %#x, want %#x", uint32(tt.s), tt.value)
			}
			if tt.s.Name() != tt.name {
				t.Errorf("Name() = %q, want %q", tt.s.Name(), tt.name)
			}
			if want := fmt.Sprintf("%s (%#08x)", tt.name, tt.value); tt.s.Error() != want {
				t.Errorf("Error() = %q, want %q", tt.s.Error(), want)
			}
			if tt.s.Success() != (tt.value == 0) {
				t.Errorf("Success() = %v", tt.s.Success())
			}
		})
	}
	if got := NTSTATUS(-1).Name(); got != "NTSTATUS(0xffffffff)" {
		t.Errorf("unknown code name %q", got)
	}
}

func TestErrorWrapping(t *testing.T) {
	err := fmt.Errorf("dxgk: Render: %w", Errorf(STATUS_DEVICE_REMOVED, "device kd1 was removed by a TDR"))
	if !errors.Is(err, STATUS_DEVICE_REMOVED) {
		t.Fatal("errors.Is does not see the wrapped code")
	}
	if errors.Is(err, STATUS_INVALID_PARAMETER) {
		t.Fatal("errors.Is matches a different code")
	}
	var st NTSTATUS
	if !errors.As(err, &st) || st != STATUS_DEVICE_REMOVED {
		t.Fatalf("errors.As gives %v", st)
	}
	if StatusOf(err) != STATUS_DEVICE_REMOVED || StatusOf(nil) != STATUS_SUCCESS || StatusOf(errors.New("x")) != STATUS_UNSUCCESSFUL {
		t.Fatal("StatusOf")
	}
	if Message(err) != "device kd1 was removed by a TDR" {
		t.Fatalf("Message = %q", Message(err))
	}
}

func TestHandles(t *testing.T) {
	if HDevice(1).String() != "kd1" || HContext(12).String() != "kc12" || HAllocation(5).String() != "a5" {
		t.Fatal("handle names")
	}
	i, off := SplitListAddress(ListAddress(3, 4096))
	if i != 3 || off != 4096 {
		t.Fatalf("SplitListAddress = %d, %d", i, off)
	}
	a := BuildPagingBufferArgs{Operation: PagingTransfer, Allocation: 5, Size: 4096,
		Source: SegmentAddress{Segment: SegmentAperture}, Destination: SegmentAddress{Segment: SegmentVRAM}}
	if got := a.String(); got != "op=TRANSFER a5 aperture->vram 4096B" {
		t.Fatalf("paging args %q", got)
	}
}
