package isa

import "fmt"

// Multisampling. A multisampled surface keeps its samples side by side:
// sample s of pixel (x, y) is texel (x*samples + s, y) of a surface
// samples times as wide, so the packets that see a surface as bytes
// (CLEAR_RT, CLEAR_DS, COPY, the KMD's bounds) take it as that wider
// surface, and only the rasterizer and RESOLVE need to know the count.

// SET_SAMPLES count: the output merger's targets (SET_RT, SET_RT_SLOT,
// SET_DS) have count samples a pixel, 1, 2 or 4, and are described as
// count times as wide; the rasterizer tests coverage and depth at the
// standard sample positions (SamplePositions) and runs the pixel program
// once a pixel. Later state: a buffer that draws at one sample never
// carries it.
const OpSetSamples Opcode = 0x60

// RESOLVE dst(2) src(2) width height dstPitch srcPitch format samples:
// each pixel of dst (width x height of format) is the average of the
// samples of src's pixel (ResolveSubresource), computed in floats and
// written in format.
const OpResolve Opcode = 0x61

// SetSamples encodes SET_SAMPLES.
func (b *Builder) SetSamples(count uint32) {
	b.header(OpSetSamples, 1)
	b.Words = append(b.Words, count)
}

// Resolve encodes RESOLVE; it returns the word offset of the destination
// address (the source's is 2 words after it).
func (b *Builder) Resolve(dst, src uint64, w, h, dstPitch, srcPitch uint32, fm Format, samples uint32) int {
	b.header(OpResolve, 10)
	at := b.addr(dst)
	b.addr(src)
	b.Words = append(b.Words, w, h, dstPitch, srcPitch, uint32(fm), samples)
	return at
}

// MaxSamples is the most samples a pixel this GPU renders has.
const MaxSamples = 4

// SampleCountOK reports whether the GPU renders at n samples a pixel.
func SampleCountOK(n uint32) bool { return n == 1 || n == 2 || n == 4 }

// SamplePositions are the standard sample positions of n samples
// ("D3D11_STANDARD_MULTISAMPLE_QUALITY_LEVELS enumeration": the pattern
// of the Direct3D 11 functional specification), in sixteenths of a pixel
// from its centre, x then y (y down).
func SamplePositions(n uint32) [][2]int32 {
	switch n {
	case 2:
		return [][2]int32{{4, 4}, {-4, -4}}
	case 4:
		return [][2]int32{{-2, -6}, {6, -2}, {-6, 2}, {2, 6}}
	}
	return [][2]int32{{0, 0}}
}

// A multisampled shader-resource view (TEXTURE2DMS, TEXTURE2DMSARRAY) is
// a SET_VIEW of kind ViewTex2D or ViewTex2DArray over the samples side by
// side (width: pixels x samples) whose kind word carries the samples a
// pixel in bits 8..15 (ViewWord): the texture unit gives the count to the
// programs that read the view (sampleinfo, and through it Load(xy, s),
// GetSamplePosition and GetDimensions), as Direct3D 11 takes a
// Texture2DMS's count from the bound resource and not from the shader's
// declaration. Bits 8..15 zero (every other view): one sample, the words
// SET_VIEW always had.
const viewSamplesShift = 8

// ViewWord is SET_VIEW's kind word of a view of kind with samples a pixel
// (0 or 1: one).
func ViewWord(kind, samples uint32) uint32 {
	if samples <= 1 {
		return kind
	}
	return kind | samples<<viewSamplesShift
}

// SplitViewWord undoes ViewWord: the kind and the samples a pixel (1 for
// a view of one sample).
func SplitViewWord(w uint32) (kind, samples uint32) {
	kind, samples = w&(1<<viewSamplesShift-1), w>>viewSamplesShift
	return kind, max(samples, 1)
}

func msaaString(p Packet) string {
	a := p.Args
	if p.Op == OpSetSamples {
		return fmt.Sprintf("%v %d", p.Op, a[0])
	}
	return fmt.Sprintf("%v dst=%#x src=%#x %dx%d dstPitch=%d srcPitch=%d fmt=%d samples=%d",
		p.Op, p.Addr(0), p.Addr(2), a[4], a[5], a[6], a[7], a[8], a[9])
}
