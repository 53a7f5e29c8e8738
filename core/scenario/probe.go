package scenario

import (
	"encoding/binary"
	"fmt"
	"math"
	"strconv"
	"strings"

	"d3dsim/core/d3d11"
)

// A texel layout `expect probe` can read: channels of 32 bits (float,
// unsigned or signed) or of 8-bit UNORM, by DXGI_FORMAT value ("DXGI_FORMAT
// enumeration").
type texelLayout struct {
	channels int
	kind     byte // 'f' float32, 'u' uint32, 's' int32, 'n' 8-bit unorm
}

var texelLayouts = map[uint32]texelLayout{
	2: {4, 'f'}, 3: {4, 'u'}, 4: {4, 's'}, // R32G32B32A32_FLOAT, _UINT, _SINT
	6: {3, 'f'}, 7: {3, 'u'}, 8: {3, 's'}, // R32G32B32
	16: {2, 'f'}, 17: {2, 'u'}, 18: {2, 's'}, // R32G32
	40: {1, 'f'},                             // D32_FLOAT
	41: {1, 'f'}, 42: {1, 'u'}, 43: {1, 's'}, // R32
	28: {4, 'n'}, 87: {4, 'n'}, // R8G8B8A8_UNORM, B8G8R8A8_UNORM (read back as RGBA)
}

// texelBytes is the size of a texel of format f (4 for formats expect
// probe does not know, as expect pixel reads them).
func texelBytes(f d3d11.Format) int {
	l, ok := texelLayouts[uint32(f)]
	if !ok || l.kind == 'n' {
		return 4
	}
	return 4 * l.channels
}

// probe checks `expect probe`: every texel of the rectangle, read in its
// format, against the expected channels. The failure names the first
// texel that differs, what it holds and how far it is.
func (r *Run) probe(e *Expect) {
	data, w, h, ok := r.readback(e)
	if !ok {
		return
	}
	v := r.vars[e.Name]
	if sc, isSC := v.(*d3d11.SwapChain); isSC {
		v = sc.Buffers[0]
	}
	res := v.(*d3d11.Resource)
	if res.Kind == d3d11.KindBuffer {
		r.probeWords(e, data)
		return
	}
	lay, known := texelLayouts[uint32(res.Desc.Format)]
	if !known {
		r.failf(e.Pos, "expect probe cannot read %s: format %d is not one of R32G32B32A32, R32G32B32, R32G32, R32 (FLOAT, UINT, SINT), D32_FLOAT, R8G8B8A8_UNORM, B8G8R8A8_UNORM", e.Name, res.Desc.Format)
		return
	}
	pr := e.Probe
	if pr.Right > w || pr.Bottom > h {
		r.failf(e.Pos, "probe rectangle (%d, %d)..(%d, %d) is outside %s (%dx%d)", e.X, e.Y, pr.Right, pr.Bottom, e.Name, w, h)
		return
	}
	n := len(pr.Values)
	if n > lay.channels {
		r.failf(e.Pos, "expect probe compares %d channels, and %s has %d", n, e.Name, lay.channels)
		return
	}
	size := texelBytes(res.Desc.Format)
	bad, first := 0, ""
	for y := e.Y; y < pr.Bottom; y++ {
		for x := e.X; x < pr.Right; x++ {
			off := (y*w + x) * size
			if off+size > len(data) {
				r.failf(e.Pos, "%s holds %d bytes, fewer than its %dx%d texels", e.Name, len(data), w, h)
				return
			}
			got := make([]uint32, n)
			for c := 0; c < n; c++ {
				if lay.kind == 'n' {
					got[c] = math.Float32bits(float32(data[off+c]) / 255)
				} else {
					got[c] = binary.LittleEndian.Uint32(data[off+4*c:])
				}
			}
			if probeMatches(pr, got) {
				continue
			}
			if bad == 0 {
				first = fmt.Sprintf("(%d, %d) is %s", x, y, probeString(pr.Kind, got))
			}
			bad++
		}
	}
	if bad > 0 {
		tol := ""
		if pr.Kind == VF32 {
			tol = fmt.Sprintf(" within %d ulps", pr.Ulps)
		}
		r.failf(e.Pos, "probe of %s: texel %s, expected %s%s (%d of %d texels differ)", e.Name, first, probeString(pr.Kind, pr.Values), tol,
			bad, (pr.Right-e.X)*(pr.Bottom-e.Y))
	}
}

// probeMatches compares as vkd3d's tests do: floats by the distance of
// their sign-magnitude bit patterns (units in the last place), integers
// exactly.
func probeMatches(pr *Probe, got []uint32) bool {
	for i, want := range pr.Values {
		if pr.Kind != VF32 {
			if got[i] != want {
				return false
			}
			continue
		}
		a, b := ulpKey(got[i]), ulpKey(want)
		d := a - b
		if d < 0 {
			d = -d
		}
		if d > int64(pr.Ulps) {
			return false
		}
	}
	return true
}

// ulpKey orders float bit patterns so that neighbours differ by one.
func ulpKey(u uint32) int64 {
	if int32(u) < 0 {
		return -int64(u & 0x7fffffff)
	}
	return int64(u)
}

func probeString(kind ValueKind, v []uint32) string {
	parts := make([]string, len(v))
	for i, x := range v {
		switch kind {
		case VF32:
			parts[i] = strconv.FormatFloat(float64(math.Float32frombits(x)), 'g', -1, 32)
		case VI32:
			parts[i] = strconv.Itoa(int(int32(x)))
		default:
			parts[i] = strconv.FormatUint(uint64(x), 10)
		}
	}
	return map[ValueKind]string{VF32: "f32", VU32: "u32", VI32: "i32"}[kind] + "[" + strings.Join(parts, " ") + "]"
}

// probeWords checks `expect probe BUF WORD 0 == LIST`: the buffer's 32-bit
// words from WORD against the list, as the probe of a texture compares a
// texel's channels (floats within the ulps, integers exactly).
func (r *Run) probeWords(e *Expect, data []byte) {
	pr := e.Probe
	if (e.X+len(pr.Values))*4 > len(data) {
		r.failf(e.Pos, "probe of %s: words %d..%d are past its %d bytes", e.Name, e.X, e.X+len(pr.Values)-1, len(data))
		return
	}
	bad, first := 0, ""
	for i, want := range pr.Values {
		got := binary.LittleEndian.Uint32(data[4*(e.X+i):])
		one := &Probe{Kind: pr.Kind, Values: []uint32{want}, Ulps: pr.Ulps}
		if probeMatches(one, []uint32{got}) {
			continue
		}
		if bad == 0 {
			first = fmt.Sprintf("word %d is %s, expected %s", e.X+i, probeString(pr.Kind, []uint32{got}), probeString(pr.Kind, []uint32{want}))
		}
		bad++
	}
	if bad > 0 {
		r.failf(e.Pos, "probe of %s: %s (%d of %d words differ)", e.Name, first, bad, len(pr.Values))
	}
}
