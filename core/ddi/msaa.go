package ddi

// Multisampling: the entries of D3D11DDI_DEVICEFUNCS for it. A driver
// that has them implements Multisample on its contexts
// (pfnResolveSubresource) and MultisampleLevels on its device
// (pfnCheckMultisampleQualityLevels); the runtime asks by a type
// assertion, so a test double needs neither.

// Multisample is pfnResolveSubresource: the samples of src's subresource
// averaged into dst's, in format f.
type Multisample interface {
	ResolveSubresource(h HDEVICE, dst HRESOURCE, dstSub uint32, src HRESOURCE, srcSub uint32, f Format)
}

// MultisampleLevels is pfnCheckMultisampleQualityLevels: how many quality
// levels the device has for format f at count samples (0: none).
type MultisampleLevels interface {
	CheckMultisampleQualityLevels(h HDEVICE, f Format, count uint32) uint32
}

// StandardMultisamplePattern is D3D11_STANDARD_MULTISAMPLE_PATTERN: the
// quality of a resource whose samples are at the standard positions.
const StandardMultisamplePattern = 0xFFFFFFFF

// MultisampleQualityLevels is what a feature level 11.0 device with the
// standard patterns of 2 and 4 samples answers from the format table
// ("Format support for Direct3D feature level 11.0 hardware": multisample
// render targets for the render-target and depth formats, optional for
// the 128-bit ones, which this GPU multisamples too): one level at 1
// sample for any format a texture has, one at 2 and 4 for those, none
// otherwise. A typeless format answers for its family.
func MultisampleQualityLevels(f Format, count uint32) uint32 {
	d := Describe(f)
	if d.Name == "" || d.Bytes == 0 {
		return 0
	}
	if count == 1 {
		return 1
	}
	if count != 2 && count != 4 || !MultisampleRT(f) {
		return 0
	}
	return 1
}

// MultisampleRT reports whether f (or, typeless, a format of its family)
// can be a multisampled render target or depth buffer.
func MultisampleRT(f Format) bool {
	d := Describe(f)
	if d.Block != 1 || d.Bytes == 0 || d.Bytes > 16 {
		return false
	}
	if !d.Typeless {
		return (d.Required|d.Optional)&(SupportRenderTarget|SupportDepthStencil) != 0
	}
	for g, e := range formats {
		if e.Family == f && g != f && !e.Typeless && (e.Required|e.Optional)&(SupportRenderTarget|SupportDepthStencil) != 0 {
			return true
		}
	}
	return false
}

// MultisampleResolve reports whether ResolveSubresource takes format f:
// a typed colour format of floats, UNORM, SNORM or sRGB that can be a
// multisampled render target (D3D11_FORMAT_SUPPORT_MULTISAMPLE_RESOLVE).
func MultisampleResolve(f Format) bool {
	d := Describe(f)
	switch d.Kind {
	case KindFloat, KindUNorm, KindSNorm, KindSRGB:
		return !d.Typeless && MultisampleRT(f) && (d.Required|d.Optional)&SupportRenderTarget != 0
	}
	return false
}
