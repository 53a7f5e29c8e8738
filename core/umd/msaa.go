package umd

import (
	"d3dsim/core/ddi"
	"d3dsim/core/hresult"
	"d3dsim/gpu/isa"
)

// Multisampling in the driver. A texture of SampleCount 2 or 4 is one
// allocation of samples x pixels: the samples of a pixel side by side, a
// surface SampleCount times as wide (isa.OpSetSamples), so that clears,
// copies and the KMD's bounds see the samples as texels. SET_SAMPLES
// tells the GPU's rasterizer the count of the output merger's targets
// before a draw (later state: sent only when it is not one), and
// ResolveSubresource (pfnResolveSubresource) is a RESOLVE packet. The
// answers of pfnCheckMultisampleQualityLevels come from the format table
// (ddi.MultisampleQualityLevels) and the GPU's formats.

var (
	_ ddi.Multisample       = (*immediateContext)(nil)
	_ ddi.Multisample       = (*deferredContext)(nil)
	_ ddi.MultisampleLevels = (*immediateContext)(nil)
)

// samples is the resource's samples a pixel (1 for one and for buffers).
func (r *resource) samples() uint32 { return max(r.args.SampleCount, 1) }

// texels is the width of the resource's surface: its pixels times its
// samples.
func (r *resource) texels() uint32 { return r.args.Width * r.samples() }

// CheckMultisampleQualityLevels is pfnCheckMultisampleQualityLevels: one
// level (the standard pattern) at 1, 2 and 4 samples for a format this GPU
// renders to with multisampling, none otherwise.
func (c *context) CheckMultisampleQualityLevels(_ ddi.HDEVICE, f ddi.Format, count uint32) uint32 {
	if gpuFormat(f) == isa.FmtNone && !ddi.Describe(f).Typeless {
		return 0
	}
	if count > 1 && !isa.SampleCountOK(count) {
		return 0
	}
	return ddi.MultisampleQualityLevels(f, count)
}

// checkMultisample is the driver's own check of a multisampled resource
// at CreateResource: a sample count this GPU renders at.
func checkMultisample(a *ddi.CreateResourceArgs) error {
	if n := a.SampleCount; n > 1 && !isa.SampleCountOK(n) {
		return hresult.Errorf(hresult.E_INVALIDARG, "umd: %d samples: this GPU renders at 1, 2 or 4 samples a pixel", n)
	}
	return nil
}

// emitSamples sends SET_SAMPLES when n, the count of the output merger's
// targets (the runtime checks they agree), is not what the GPU has.
func (c *context) emitSamples(n uint32) {
	g := &c.onGPU
	if have := max(uint32(g.samples), 1); have != n {
		c.cmd.SetSamples(n)
		g.samples = uint8(n)
		if n == 1 {
			g.samples = 0
		}
	}
}

func (d *immediateContext) ResolveSubresource(_ ddi.HDEVICE, dst ddi.HRESOURCE, dstSub uint32, src ddi.HRESOURCE, srcSub uint32, f ddi.Format) {
	d.busy()
	d.resolve(d, d.resource(dst), dstSub, d.resource(src), srcSub, f)
}

func (c *deferredContext) ResolveSubresource(_ ddi.HDEVICE, dst ddi.HRESOURCE, dstSub uint32, src ddi.HRESOURCE, srcSub uint32, f ddi.Format) {
	if !c.stopped("ResolveSubresource") {
		c.resolve(c, c.resource(ddi.HRESOURCE(c.icHandle(uint32(dst)))), dstSub, c.resource(ddi.HRESOURCE(c.icHandle(uint32(src)))), srcSub, f)
	}
}

// resolve encodes RESOLVE of src's subresource srcSub (a slice of a
// multisampled array) into dst's dstSub (a level or slice) in format f
// (the runtime checked the sizes, counts and format).
func (c *context) resolve(rec recorder, dst *resource, dstSub uint32, src *resource, srcSub uint32, f ddi.Format) {
	if dst == nil || src == nil {
		return
	}
	ds, ok1 := dst.subresourceAt(dstSub)
	ss, ok2 := src.subresourceAt(srcSub)
	if !ok1 || !ok2 {
		return
	}
	fm := gpuFormat(f)
	rec.ensure(11, 2)
	c.cmd.Resolve(rec.ref(dst, true, uint32(ds.Offset)), rec.ref(src, false, uint32(ss.Offset)), ds.W, ds.H, ds.RowPitch, ss.RowPitch, fm, src.samples())
}

// msViewDims are the multisampled shader-resource view dimensions as the
// texture unit sees them: the samples side by side in a 2D texture (the
// first slice) or a 2D array (a range of slices), bound with SET_VIEW
// whose kind word carries the resource's samples a pixel (isa.ViewWord):
// the GPU gives that count to the shader's Load(xy, s), GetSamplePosition
// and GetDimensions, whatever count the shader declared.
var msViewDims = map[ddi.SRVDimension]ddi.SRVDimension{ddi.SRVDimTexture2DMS: ddi.SRVDimTexture2D, ddi.SRVDimTexture2DMSArray: ddi.SRVDimTexture2DArray}
