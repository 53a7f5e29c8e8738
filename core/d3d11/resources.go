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
}

// Texture2DDesc mirrors D3D11_TEXTURE2D_DESC (one mip, one array slice,
// one sample).
type Texture2DDesc struct {
	Width, Height  uint32
	Format         ddi.Format
	Usage          ddi.Usage
	BindFlags      ddi.BindFlag
	CPUAccessFlags ddi.CPUAccess
	MiscFlags      ddi.ResourceMisc
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
	if desc.BindFlags.Has(ddi.BindRenderTarget | ddi.BindDepthStencil) {
		return nil, d.invalid("CreateBuffer", name, "a buffer cannot be a render target or depth stencil")
	}
	if data != nil && len(data) < int(desc.ByteWidth) {
		padded := make([]byte, desc.ByteWidth)
		copy(padded, data)
		data = padded
	}
	if err := d.validateMisc("CreateBuffer", name, desc.MiscFlags, desc.Usage); err != nil {
		return nil, err
	}
	args := ddi.CreateResourceArgs{Dimension: ddi.DimBuffer, Width: desc.ByteWidth, Height: 1,
		Usage: desc.Usage, BindFlags: desc.BindFlags, CPUAccessFlags: desc.CPUAccessFlags, MiscFlags: desc.MiscFlags, InitData: data, Obj: name}
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
	if desc.Width == 0 || desc.Height == 0 || desc.Width > 16384 || desc.Height > 16384 {
		return nil, d.invalid(call, name, "size %dx%d is outside 1..16384", desc.Width, desc.Height)
	}
	fd := ddi.Describe(desc.Format)
	if ddi.Required(desc.Format)&ddi.SupportTexture2D == 0 {
		return nil, d.invalid(call, name, "format %s is not a supported texture format", formatName(desc.Format))
	}
	if fd.Block == 4 && (desc.Width%4 != 0 || desc.Height%4 != 0) {
		// "Texture Block Compression in Direct3D 11": the top level of a
		// block-compressed texture is whole blocks.
		return nil, d.invalid(call, name, "a %s texture's Width and Height must be multiples of 4 (the block size), not %dx%d",
			formatName(desc.Format), desc.Width, desc.Height)
	}
	if msg := formatBindError(desc.Format, desc.BindFlags); msg != "" {
		return nil, d.invalid(call, name, "%s: %s", call, msg)
	}
	if desc.BindFlags.Has(ddi.BindVertexBuffer | ddi.BindIndexBuffer | ddi.BindConstantBuffer) {
		return nil, d.invalid(call, name, "a texture cannot be bound as a vertex, index or constant buffer")
	}
	if err := d.validateUsage(call, name, desc.Usage, desc.BindFlags, desc.CPUAccessFlags, data != nil); err != nil {
		return nil, err
	}
	if err := d.validateMisc(call, name, desc.MiscFlags, desc.Usage); err != nil {
		return nil, err
	}
	size := int(ddi.RowBytes(desc.Format, desc.Width) * ddi.Rows(desc.Format, desc.Height))
	if data != nil && len(data) < size {
		padded := make([]byte, size)
		copy(padded, data)
		data = padded
	}
	args := ddi.CreateResourceArgs{Dimension: ddi.DimTexture2D, Width: desc.Width, Height: desc.Height, Format: desc.Format,
		Usage: desc.Usage, BindFlags: desc.BindFlags, CPUAccessFlags: desc.CPUAccessFlags, MiscFlags: desc.MiscFlags, InitData: data, Primary: primary, Obj: name}
	return d.createResource(name, KindTexture2D, args)
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

// validateMisc checks MiscFlags: only SHARED is simulated, and a shared
// resource lives in video memory the GPU owns (DEFAULT usage).
func (d *Device) validateMisc(call, name string, misc ddi.ResourceMisc, u ddi.Usage) error {
	if misc&^(ddi.ResourceMiscShared|ddi.ResourceMiscDrawIndirectArgs) != 0 {
		return d.invalid(call, name, "MiscFlags %#x: only SHARED and DRAWINDIRECT_ARGS are supported", uint32(misc))
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
