package machine

import (
	"errors"
	"fmt"

	"d3dsim/core/d3d11"
	"d3dsim/core/dxgk"
	"d3dsim/core/umd"
	"d3dsim/gpu/isa"
	"d3dsim/gpu/texel"
)

// ErrNoMemory is ReadBack's error for a resource that has no allocation.
var ErrNoMemory = errors.New("the resource has no memory")

// ReadBack returns a copy of a resource's bytes as its memory holds them
// now: the newest allocation of the resource (a renamed dynamic resource has
// several), locked through Dxgkrnl the way LockCb locks it. The caller
// flushes the device and waits for the GPU (Idle) first when it wants what
// the GPU left there.
func (m *Machine) ReadBack(res *d3d11.Resource) ([]byte, error) {
	dev := res.Device()
	allocs := dev.Allocations(res)
	if len(allocs) == 0 {
		return nil, ErrNoMemory
	}
	h := dxgk.HAllocation(allocs[len(allocs)-1])
	mem, err := m.kernel.Lock(dev.KernelDevice(), h)
	if err != nil {
		return nil, err
	}
	data := append([]byte(nil), mem...)
	m.kernel.Unlock(dev.KernelDevice(), h)
	return data, nil
}

// Live counts what is still alive in each layer.
type Live struct {
	APIObjects        int // the runtime's objects, every device's
	DriverObjects     int // the UMD's objects, every live device's
	Allocations       int // the runtime's allocations, every device's
	KernelDevices     int // Dxgkrnl's devices
	KernelContexts    int // and contexts
	KernelAllocations int // and allocations
}

// Total is the sum of the counts.
func (l Live) Total() int {
	return l.APIObjects + l.DriverObjects + l.Allocations + l.KernelDevices + l.KernelContexts + l.KernelAllocations
}

func (l Live) String() string {
	return fmt.Sprintf("API objects %d, driver objects %d, allocations %d, kernel devices %d, contexts %d, allocations %d",
		l.APIObjects, l.DriverObjects, l.Allocations, l.KernelDevices, l.KernelContexts, l.KernelAllocations)
}

// Live counts the objects, allocations and handles alive in every layer.
func (m *Machine) Live() Live {
	var l Live
	for _, d := range m.rt.Devices() {
		l.APIObjects += d.LiveObjects()
		if d.Alive() {
			if u, ok := d.UMD().(interface{ Live() int }); ok {
				l.DriverObjects += u.Live()
			}
		}
		l.Allocations += d.LiveAllocations()
	}
	l.KernelDevices, l.KernelContexts, l.KernelAllocations = m.kernel.Live()
	return l
}

// Texel is one texel of a texture as ReadTexel decodes it.
type Texel struct {
	// Bits is the texel as a shader reads it: float bits, or integers for
	// an integer format (Int; Signed for SINT).
	Bits        [4]uint32
	Int, Signed bool
	// RGBA8 is the texel as 8-bit codes, red, green, blue, alpha: the
	// stored bytes of an 8-bit UNORM or sRGB format (B8G8R8A8's reordered),
	// for every other format its value written as R8G8B8A8_UNORM would
	// store it (missing channels 0, 0, 0, 0xff).
	RGBA8 [4]byte
}

// ReadTexel decodes texel (x, y) of data, what ReadBack returned for the
// 2D texture res, as format as (the texture's own, or a format of its
// typeless family) through the GPU's format of it (package gpu/texel, the
// decoder the texture unit uses). ok is false for a format the GPU has no
// texels for or a texel outside the texture.
func (m *Machine) ReadTexel(res *d3d11.Resource, as d3d11.Format, data []byte, x, y int) (t Texel, ok bool) {
	f := umd.GPUFormat(as)
	if f.Info().Bytes != umd.GPUFormat(res.Desc.Format).Info().Bytes {
		return Texel{}, false
	}
	w, h := int(res.Desc.Width), int(res.Desc.Height)
	pitch := int(f.RowBytes(uint32(w)))
	if !f.Known() || x < 0 || y < 0 || x >= w || y >= h || len(data) < pitch*int(f.Rows(uint32(h))) {
		return Texel{}, false
	}
	t.Bits = texel.Load(f, data, pitch, x, y)
	n := f.Info().Number
	t.Int, t.Signed = n == isa.NumUInt || n == isa.NumSInt, n == isa.NumSInt
	switch {
	case f == isa.FmtRGBA8 || f == isa.FmtRGBA8SRGB:
		o := y*pitch + 4*x
		copy(t.RGBA8[:], data[o:o+4])
	case f == isa.FmtBGRA8 || f == isa.FmtBGRA8SRGB:
		o := y*pitch + 4*x
		t.RGBA8 = [4]byte{data[o+2], data[o+1], data[o], data[o+3]}
	default:
		v := t.Bits
		if t.Int {
			// integers: their values, clamped to 0..255
			for c := range v {
				x := v[c]
				if t.Signed && int32(x) < 0 {
					x = 0
				}
				t.RGBA8[c] = byte(min(x, 255))
			}
			break
		}
		var b [4]byte
		texel.Encode(isa.FmtRGBA8, v, 0xF, b[:])
		t.RGBA8 = b
	}
	return t, true
}
