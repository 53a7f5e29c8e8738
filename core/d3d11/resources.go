package d3d11

import (
	"errors"
	"fmt"

	"d3dsim/core/ddi"
	"d3dsim/core/hresult"
	"d3dsim/core/trace"
)

// Buffers and textures: D3D11's descriptor validation, then
// CalcPrivateResourceSize and CreateResource ("WDDM operation flow"), which
// allocates through pfnAllocateCb.

// BufferDesc mirrors D3D11_BUFFER_DESC.
type BufferDesc struct {
	ByteWidth      uint32
	Usage          ddi.Usage
	BindFlags      ddi.BindFlag
	CPUAccessFlags ddi.CPUAccess
	MiscFlags      ddi.ResourceMisc
	// StructureByteStride is a BUFFER_STRUCTURED buffer's (textures.go).
	StructureByteStride uint32
}

// Texture2DDesc mirrors D3D11_TEXTURE2D_DESC (one sample).
type Texture2DDesc struct {
	Width, Height  uint32
	Format         ddi.Format
	Usage          ddi.Usage
	BindFlags      ddi.BindFlag
	CPUAccessFlags ddi.CPUAccess
	MiscFlags      ddi.ResourceMisc
	// MipLevels and ArraySize (textures.go): 0 and 1 are both one;
	// MipLevels MipLevelsFull is D3D11's 0, the whole chain. Data then
	// holds every subresource in D3D11CalcSubresource order, each packed
	// tightly.
	MipLevels, ArraySize uint32
	// SampleDesc is DXGI_SAMPLE_DESC (msaa.go): the zero value one sample.
	SampleDesc SampleDesc
}

// validateUsage applies D3D11's rules tying usage, CPU access and binding.
func (d *Device) validateUsage(call, name string, u ddi.Usage, bind ddi.BindFlag, cpu ddi.CPUAccess, hasData bool) error {
	switch u {
	case ddi.UsageImmutable:
		if !hasData {
			return d.invalid(call, name, "an IMMUTABLE resource needs initial Data")
		}
		if cpu != 0 {
			return d.invalid(call, name, "an IMMUTABLE resource cannot have CPUAccessFlags")
		}
	case ddi.UsageDefault:
		if cpu != 0 {
			return d.invalid(call, name, "a DEFAULT resource cannot have CPUAccessFlags (use DYNAMIC or STAGING)")
		}
	case ddi.UsageDynamic:
		if cpu != ddi.CPUAccessWrite {
			return d.invalid(call, name, "a DYNAMIC resource needs CPUAccessFlags=WRITE (and only WRITE)")
		}
		if bind.Has(ddi.BindRenderTarget | ddi.BindDepthStencil | ddi.BindUnorderedAccess | ddi.BindStreamOutput) {
			return d.invalid(call, name, "a DYNAMIC resource cannot be a render target, depth stencil, UAV or stream output")
		}
	case ddi.UsageStaging:
		if bind != 0 {
			return d.invalid(call, name, "a STAGING resource cannot be bound to the pipeline (BindFlags must be 0)")
		}
		if cpu == 0 {
			return d.invalid(call, name, "a STAGING resource needs CPUAccessFlags")
		}
	default:
		return d.invalid(call, name, "unknown Usage %d", u)
	}
	if bind == 0 && u != ddi.UsageStaging {
		return d.invalid(call, name, "BindFlags is 0: only STAGING resources may be unbound")
	}
	return nil
}

// CreateBuffer creates a buffer: CalcPrivateResourceSize then CreateResource
// ("WDDM operation flow"), which allocates through pfnAllocateCb.
func (d *Device) CreateBuffer(name string, desc BufferDesc, data []byte) (res *Resource, err error) {
	done := d.api("CreateBuffer", name, "")
	defer func() { done.end(err) }()
	if err := d.removedHR(); err != nil {
		return nil, err
	}
	if desc.ByteWidth == 0 || desc.ByteWidth > 128<<20 {
		return nil, d.invalid("CreateBuffer", name, "ByteWidth %d is outside 1..%d", desc.ByteWidth, 128<<20)
	}
	if err := d.validateUsage("CreateBuffer", name, desc.Usage, desc.BindFlags, desc.CPUAccessFlags, data != nil); err != nil {
		return nil, err
	}
	if desc.BindFlags.Has(ddi.BindConstantBuffer) {
		if desc.BindFlags != ddi.BindConstantBuffer {
			return nil, d.invalid("CreateBuffer", name, "CONSTANT_BUFFER cannot be combined with other BindFlags")
		}
		if desc.ByteWidth%16 != 0 {
			return nil, d.invalid("CreateBuffer", name, "a constant buffer's ByteWidth must be a multiple of 16, not %d", desc.ByteWidth)
		}
	}
	if desc.BindFlags.Has(ddi.BindDepthStencil) {
		// (a buffer's render target views: rtvdesc.go)
		return nil, d.invalid("CreateBuffer", name, "a buffer cannot be a depth stencil")
	}
	if data != nil && len(data) < int(desc.ByteWidth) {
		padded := make([]byte, desc.ByteWidth)
		copy(padded, data)
		data = padded
	}
	if err := d.validateMisc("CreateBuffer", name, desc.MiscFlags, desc.Usage); err != nil {
		return nil, err
	}
	if msg := bufferMiscError(&desc); msg != "" {
		return nil, d.invalid("CreateBuffer", name, "%s", msg)
	}
	args := ddi.CreateResourceArgs{Dimension: ddi.DimBuffer, Width: desc.ByteWidth, Height: 1,
		Usage: desc.Usage, BindFlags: desc.BindFlags, CPUAccessFlags: desc.CPUAccessFlags, MiscFlags: desc.MiscFlags, InitData: data, Obj: name}
	if desc.MiscFlags.Has(ddi.ResourceMiscBufferStructured) {
		args.StructureByteStride = desc.StructureByteStride
	}
	return d.createResource(name, KindBuffer, args)
}

// CreateTexture2D creates a 2D texture.
func (d *Device) CreateTexture2D(name string, desc Texture2DDesc, data []byte) (res *Resource, err error) {
	done := d.api("CreateTexture2D", name, "")
	defer func() { done.end(err) }()
	if err := d.removedHR(); err != nil {
		return nil, err
	}
	return d.createTexture2D("CreateTexture2D", name, desc, data, false)
}

func (d *Device) createTexture2D(call, name string, desc Texture2DDesc, data []byte, primary bool) (*Resource, error) {
	return d.createTexture(call, name, texDesc{kind: KindTexture2D, w: desc.Width, h: desc.Height, depth: 1, mips: desc.MipLevels,
		slices: desc.ArraySize, format: desc.Format, usage: desc.Usage, bind: desc.BindFlags, cpu: desc.CPUAccessFlags, misc: desc.MiscFlags,
		samples: desc.SampleDesc.Count, quality: desc.SampleDesc.Quality}, data, primary)
}

// bindNeeds are the bind flags a texture's format is checked for, with
// the support each needs and the flag's name.
var bindNeeds = []struct {
	bind ddi.BindFlag
	need ddi.FormatSupport
	name string
}{
	{ddi.BindShaderResource, ddi.SupportShaderLoad, "ShaderResource"},
	{ddi.BindRenderTarget, ddi.SupportRenderTarget, "RenderTarget"},
	{ddi.BindDepthStencil, ddi.SupportDepthStencil, "DepthStencil"},
	{ddi.BindUnorderedAccess, ddi.SupportTypedUnorderedAccess, "UnorderedAccess"},
}

// formatBindError is the runtime's own check of a texture's format against
// its bind flags, made before the driver sees the resource, from "Format
// support for Direct3D feature level 11.0 hardware" (ddi.Required): a flag
// whose support the format never has is refused; one whose support the
// page leaves optional (render targets of R32G32B32_FLOAT) is left to the
// driver, which knows whether its hardware has it. A typeless format is
// checked for what some format of its family supports: it is bound through
// views of those. So the depth formats have no shader-resource or
// render-target support and the colour formats no depth-stencil support:
// a depth buffer that shaders read is created with a typeless format
// (R32_TYPELESS for D32_FLOAT, R24G8_TYPELESS for D24_UNORM_S8_UINT, ...)
// and viewed twice, as D32_FLOAT and as R32_FLOAT ("D3D11_DEPTH_STENCIL_VIEW_DESC
// structure": a depth-stencil view cannot use a typeless format). The
// message names the format and the flag.
func formatBindError(f ddi.Format, binds ddi.BindFlag) string {
	name := formatName(f)
	have := ddi.Required(f) | ddi.Optional(f)
	for _, b := range bindNeeds {
		if !binds.Has(b.bind) || have&b.need != 0 {
			continue
		}
		msg := fmt.Sprintf("the format (%#x, %s) cannot be bound as a%s %s: it does not support D3D11_BIND_%s", uint32(f), name,
			map[bool]string{true: "n", false: ""}[b.name == "UnorderedAccess"], b.name, bindFlagName(b.bind))
		if b.bind == ddi.BindShaderResource && depthFormat(f) {
			msg += fmt.Sprintf(" (a depth buffer that shaders read is created with %s and viewed with typed formats)", formatName(ddi.Describe(f).Family))
		}
		return msg
	}
	return ""
}

func bindFlagName(b ddi.BindFlag) string {
	for n, v := range ddi.Enums["BindFlags"] {
		if ddi.BindFlag(v) == b {
			return n
		}
	}
	return "?"
}

func depthFormat(f ddi.Format) bool { return ddi.Describe(f).Kind == ddi.KindDepth }

// formatName is the DXGI_FORMAT name without its prefix, as scenarios spell it.
func formatName(f ddi.Format) string { return ddi.FormatName(f) }

// validateMisc checks MiscFlags: SHARED and those of textures.go are
// simulated, and a shared resource lives in video memory the GPU owns
// (DEFAULT usage).
func (d *Device) validateMisc(call, name string, misc ddi.ResourceMisc, u ddi.Usage) error {
	known := ddi.ResourceMiscShared | ddi.ResourceMiscGenerateMips | ddi.ResourceMiscTextureCube |
		ddi.ResourceMiscBufferAllowRawViews | ddi.ResourceMiscBufferStructured | ddi.ResourceMiscDrawIndirectArgs
	if misc&^known != 0 {
		return d.invalid(call, name, "MiscFlags %#x: SHARED, DRAWINDIRECT_ARGS, GENERATE_MIPS, TEXTURECUBE, BUFFER_ALLOW_RAW_VIEWS and BUFFER_STRUCTURED are supported", uint32(misc))
	}
	if misc.Has(ddi.ResourceMiscDrawIndirectArgs) && call != "CreateBuffer" {
		return d.invalid(call, name, "MiscFlags DRAWINDIRECT_ARGS is for buffers only")
	}
	if misc.Has(ddi.ResourceMiscShared) && u != ddi.UsageDefault {
		return d.invalid(call, name, "a SHARED resource must have DEFAULT usage")
	}
	return nil
}

var usageNames = map[ddi.Usage]string{ddi.UsageDefault: "DEFAULT", ddi.UsageImmutable: "IMMUTABLE", ddi.UsageDynamic: "DYNAMIC", ddi.UsageStaging: "STAGING"}

func (d *Device) createResource(name string, kind ResourceKind, args ddi.CreateResourceArgs) (*Resource, error) {
	if err := d.objectLimit("CreateResource", name); err != nil {
		return nil, err
	}
	private := d.calcPrivate(name, "CalcPrivateResourceSize", func(u ddi.Device) int { return u.CalcPrivateResourceSize(&args) })
	bytes := ObjectOverhead + ResourceOverhead + int64(private)
	if err := d.reserve("CreateResource", name, bytes); err != nil {
		return nil, err
	}
	r := &Resource{Kind: kind, Desc: args, h: ddi.HRESOURCE(d.rt.newHandle()), rth: ddi.HRTRESOURCE(d.rt.newHandle())}
	r.Desc.InitData = nil
	var cargs trace.ArgBuilder
	cargs.Str(trace.KeyUsage, usageNames[args.Usage]).Str(trace.KeyDev, d.name)
	if args.Primary {
		cargs.Int(trace.KeyPrimary, 1)
	}
	shared := args.MiscFlags.Has(ddi.ResourceMiscShared)
	if shared {
		cargs.Int(trace.KeyShared, 1)
	}
	d.mu.Lock()
	d.resByRT[r.rth] = uint32(r.h)
	if shared {
		if d.shared == nil {
			d.shared = map[ddi.HRTRESOURCE]bool{}
		}
		d.shared[r.rth] = true
	}
	d.mu.Unlock()
	err := d.ddiIC().with(name, handleName(uint32(r.h)), cargs.Args()).CreateResource(d.hDev, &args, r.h, r.rth)
	if err != nil {
		d.unreserve(bytes)
		if errors.Is(err, hresult.E_OUTOFMEMORY) && d.debug {
			// (a memory limit pfnAllocateCb met, or video memory full)
			d.message("CreateResource", name, "D3D11 ERROR: CreateResource("+name+"): out of memory: "+err.Error())
		}
		return nil, d.driverError("CreateResource", name, err)
	}
	r.driverPart(private, d.calcCLS(ddi.HTResource, uint32(r.h), name))
	d.initChild(&r.object, name, bytes, func() {
		d.ddiIC().on(name, handleName(uint32(r.h))).DestroyResource(d.hDev, r.h)
		d.mu.Lock()
		delete(d.allocs, r.rth)
		d.mu.Unlock()
	})
	r.primary = args.Primary
	return r, nil
}
