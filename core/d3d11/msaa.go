package d3d11

import (
	"fmt"

	"d3dsim/core/ddi"
	"d3dsim/core/trace"
)

// Multisampling in the runtime: DXGI_SAMPLE_DESC of a 2D texture
// (Texture2DDesc.SampleDesc) checked as "D3D11_TEXTURE2D_DESC structure"
// and "DXGI_SAMPLE_DESC structure" state it, CheckMultisampleQualityLevels,
// the sample count of the output merger's targets, and
// ResolveSubresource, each through its DDI.

// SampleDesc mirrors DXGI_SAMPLE_DESC: Count 0 and 1 are both one sample
// (the zero value: a texture as it always was).
type SampleDesc struct {
	Count, Quality uint32
}

// StandardMultisamplePattern is D3D11_STANDARD_MULTISAMPLE_PATTERN, a
// Quality that asks for the standard sample positions.
const StandardMultisamplePattern = ddi.StandardMultisamplePattern

// CheckMultisampleQualityLevels is ID3D11Device::CheckMultisampleQualityLevels
// (pfnCheckMultisampleQualityLevels): the number of quality levels of
// format f at count samples, 0 when the device cannot multisample it so.
// Count must be 1..32 (D3D11_MAX_MULTISAMPLE_SAMPLE_COUNT).
func (d *Device) CheckMultisampleQualityLevels(f ddi.Format, count uint32) (levels uint32, err error) {
	done := d.api("CheckMultisampleQualityLevels", d.name, "")
	defer func() {
		var b trace.ArgBuilder
		done.ev.Args = b.Str(trace.KeyFmt, formatName(f)).Str(trace.KeyCount, fmt.Sprint(count)).Str(trace.KeySupport, fmt.Sprintf("%d quality level(s)", levels)).Args()
		done.end(err)
	}()
	if err := d.removedHR(); err != nil {
		return 0, err
	}
	if count == 0 || count > 32 {
		return 0, d.invalid("CheckMultisampleQualityLevels", d.name, "SampleCount %d is outside 1..32 (D3D11_MAX_MULTISAMPLE_SAMPLE_COUNT)", count)
	}
	if ddi.Describe(f).Name == "" {
		return 0, d.invalid("CheckMultisampleQualityLevels", d.name, "Format %s is not a DXGI format", formatName(f))
	}
	return d.ddiIC().with(d.name, handleName(uint32(d.hDev)), strArg(trace.KeyFmt, formatName(f))).CheckMultisampleQualityLevels(d.hDev, f, count), nil
}

func (w ddiCall) CheckMultisampleQualityLevels(h ddi.HDEVICE, f ddi.Format, count uint32) uint32 {
	sp := w.enter("CheckMultisampleQualityLevels")
	var n uint32
	if u, ok := w.umd.(ddi.MultisampleLevels); ok {
		n = u.CheckMultisampleQualityLevels(h, f, count)
	} else if count == 1 {
		n = 1 // a driver without the entry: one sample only
	}
	sp.end(nil)
	return n
}

// checkSampleDesc validates a texture's SampleDesc; it returns the count
// (1 for one sample).
func (d *Device) checkSampleDesc(call, name string, t *texDesc) error {
	n, q := max(t.samples, 1), t.quality
	if n == 1 {
		if q != 0 {
			return d.invalid(call, name, "SampleDesc.Quality %d: one sample has quality level 0 only", q)
		}
		return nil
	}
	if t.kind != KindTexture2D {
		return d.invalid(call, name, "SampleDesc.Count %d: only a 2D texture is multisampled", n)
	}
	levels := uint32(0)
	if u, ok := d.ddiIC().umd.(ddi.MultisampleLevels); ok {
		levels = u.CheckMultisampleQualityLevels(d.hDev, t.format, n)
	}
	switch {
	case n > 32:
		return d.invalid(call, name, "SampleDesc.Count %d is outside 1..32", n)
	case levels == 0:
		return d.invalid(call, name, "SampleDesc.Count %d: the device has no quality level of %s at %d samples (CheckMultisampleQualityLevels answers 0)", n, formatName(t.format), n)
	case q != StandardMultisamplePattern && q >= levels:
		return d.invalid(call, name, "SampleDesc.Quality %d: %s at %d samples has %d quality level(s) (or D3D11_STANDARD_MULTISAMPLE_PATTERN)", q, formatName(t.format), n, levels)
	case t.mips != 1:
		return d.invalid(call, name, "MipLevels %d: a multisampled texture has one level (MipLevels 1)", t.mips)
	case t.usage != ddi.UsageDefault:
		return d.invalid(call, name, "Usage: a multisampled texture is DEFAULT (the CPU cannot read or write samples)")
	case t.cpu != 0:
		return d.invalid(call, name, "CPUAccessFlags %#x: a multisampled texture has no CPU access", uint32(t.cpu))
	case t.bind.Has(ddi.BindUnorderedAccess):
		return d.invalid(call, name, "BindFlags UNORDERED_ACCESS: a multisampled texture cannot be an unordered access view")
	case t.misc.Has(ddi.ResourceMiscGenerateMips | ddi.ResourceMiscTextureCube):
		return d.invalid(call, name, "MiscFlags: GENERATE_MIPS and TEXTURECUBE are not for a multisampled texture")
	}
	return nil
}

// samples is a resource's samples a pixel (1 for one, and for buffers).
func (r *Resource) samples() uint32 { return max(r.Desc.SampleCount, 1) }

// checkTargetSamples is OMSetRenderTargets' rule that every render target
// and the depth-stencil view have the same sample count ("Multisample
// anti-aliasing": the output merger writes one pattern).
func checkTargetSamples(rtvs []*View, dsv *View) string {
	var first *View = dsv
	for i, v := range rtvs {
		if v == nil {
			continue
		}
		if first == nil {
			first = v
			continue
		}
		if v.Res.samples() != first.Res.samples() {
			return fmt.Sprintf("ppRenderTargetViews[%d] (%s) has %d sample(s) and %s %d: the output merger's targets have one sample count",
				i, v.name, v.Res.samples(), first.name, first.Res.samples())
		}
	}
	return ""
}

// ResolveSubresource averages the samples of src's subresource srcSub into
// dst's dstSub, in format f ("ID3D11DeviceContext::ResolveSubresource"):
// src multisampled, dst one sample, the same size; f a format that
// resolves (FLOAT, UNORM, SNORM, sRGB); each resource either of format f
// or typeless of its family.
func (c *DeviceContext) ResolveSubresource(dst *Resource, dstSub uint32, src *Resource, srcSub uint32, f ddi.Format) error {
	const call = "ResolveSubresource"
	if stop, err := c.checkArgs(call, dst, src); stop {
		return err
	}
	dc, err := c.omContext(call, objName(dst))
	if err != nil {
		return err
	}
	if msg := resolveError(dst, dstSub, src, srcSub, f); msg != "" {
		return c.dropCall(call, objName(dst), "%s", msg)
	}
	if ok, err := c.emulate(call, func(ic *DeviceContext) error { return ic.ResolveSubresource(dst, dstSub, src, srcSub, f) }, nil, dst, src); ok {
		return err
	}
	return dc.simple(call, dst.name, []Object{dst, src}, func(w ddiCall) {
		w.ResolveSubresource(c.h, c.resH(dst), dstSub, c.resH(src), srcSub, f)
	})
}

// resolveError is ResolveSubresource's validation, "" when the call is
// valid.
func resolveError(dst *Resource, dstSub uint32, src *Resource, srcSub uint32, f ddi.Format) string {
	switch {
	case dst == nil || src == nil:
		return "pDstResource and pSrcResource are textures"
	case dst == src:
		return fmt.Sprintf("source and destination are both %s", dst.name)
	case dst.Kind != KindTexture2D || src.Kind != KindTexture2D:
		return "ResolveSubresource resolves a 2D texture into a 2D texture"
	case src.samples() == 1:
		return fmt.Sprintf("pSrcResource %s has one sample: the source is multisampled", src.name)
	case dst.samples() != 1:
		return fmt.Sprintf("pDstResource %s has %d samples: the destination has one", dst.name, dst.samples())
	case dstSub >= dst.Subresources() || srcSub >= src.Subresources():
		return fmt.Sprintf("DstSubresource %d, SrcSubresource %d: %s has %d subresource(s), %s %d", dstSub, srcSub, dst.name, dst.Subresources(), src.name, src.Subresources())
	case dst.Desc.Usage != ddi.UsageDefault:
		return fmt.Sprintf("pDstResource %s: the destination is DEFAULT", dst.name)
	}
	dw, dh, _ := dst.SubresourceSize(dstSub)
	if dw != src.Desc.Width || dh != src.Desc.Height {
		return fmt.Sprintf("%s's subresource %d is %dx%d and %s %dx%d: source and destination are the same size", dst.name, dstSub, dw, dh, src.name, src.Desc.Width, src.Desc.Height)
	}
	fd := ddi.Describe(f)
	if fd.Name == "" || fd.Typeless || !ddi.MultisampleResolve(f) {
		return fmt.Sprintf("Format %s does not resolve (D3D11_FORMAT_SUPPORT_MULTISAMPLE_RESOLVE: a typed FLOAT, UNORM, SNORM or sRGB colour format)", formatName(f))
	}
	for _, r := range []*Resource{src, dst} {
		rf := r.Desc.Format
		if rf != f && !(ddi.Describe(rf).Typeless && ddi.SameFamily(rf, f)) {
			return fmt.Sprintf("Format %s: %s is %s (a resource is of the format, or typeless of its family)", formatName(f), r.name, formatName(rf))
		}
	}
	return ""
}

func (w ddiCall) ResolveSubresource(h ddi.HDEVICE, dst ddi.HRESOURCE, dstSub uint32, src ddi.HRESOURCE, srcSub uint32, f ddi.Format) {
	sp := w.enter("ResolveSubresource")
	if u, ok := w.umd.(ddi.Multisample); ok {
		u.ResolveSubresource(h, dst, dstSub, src, srcSub, f)
	}
	sp.end(nil)
}

// checkSRVSamples checks a shader resource view's dimension against its
// resource's samples: TEXTURE2DMS (slice 0) or TEXTURE2DMSARRAY (a range
// of the slices, "D3D11_TEX2DMS_ARRAY_SRV structure") views a
// multisampled texture and nothing else does. ms: the view is of a
// multisampled texture and needs no more checks.
func (d *Device) checkSRVSamples(api, name string, res *Resource, s *SRVDesc) (ms bool, err error) {
	dim := enumName("SRVDimension", uint32(s.Dimension))
	isMS := s.Dimension == ddi.SRVDimTexture2DMS || s.Dimension == ddi.SRVDimTexture2DMSArray
	if res.samples() == 1 {
		if isMS {
			return true, d.invalid(api, name, "ViewDimension %s: %s has one sample (TEXTURE2D views it)", dim, res.name)
		}
		return false, nil
	}
	slices := res.ArraySlices()
	switch {
	case s.Dimension == ddi.SRVDimUnknown:
	case !isMS:
		return true, d.invalid(api, name, "ViewDimension %s: %s has %d samples (TEXTURE2DMS or TEXTURE2DMSARRAY views it)", dim, res.name, res.samples())
	case s.Dimension == ddi.SRVDimTexture2DMS && (s.FirstArraySlice != 0 || s.ArraySize > 1):
		return true, d.invalid(api, name, "FirstArraySlice, ArraySize: a %s view has one slice", dim)
	case s.Dimension == ddi.SRVDimTexture2DMSArray && (s.ArraySize == 0 || uint64(s.FirstArraySlice)+uint64(s.ArraySize) > uint64(slices)):
		return true, d.invalid(api, name, "FirstArraySlice %d, ArraySize %d: %s has %d slices", s.FirstArraySlice, s.ArraySize, res.name, slices)
	case s.MostDetailedMip != 0 || s.MipLevels > 1 && s.MipLevels != AllMips:
		return true, d.invalid(api, name, "MostDetailedMip, MipLevels: a %s view has no mip levels", dim)
	}
	r := SRVDesc{Dimension: s.Dimension}
	switch {
	case s.Dimension == ddi.SRVDimTexture2DMSArray:
		r.FirstArraySlice, r.ArraySize = s.FirstArraySlice, s.ArraySize
	case s.Dimension == ddi.SRVDimUnknown && slices > 1:
		// The whole resource as its own kind: every slice.
		r = SRVDesc{Dimension: ddi.SRVDimTexture2DMSArray, ArraySize: slices}
	}
	*s = r
	return true, nil
}
