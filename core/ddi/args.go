package ddi

import "math"

// ResourceDimension says what kind of resource CreateResource makes.
type ResourceDimension uint8

const (
	DimBuffer ResourceDimension = iota + 1
	DimTexture2D
	DimTexture1D // texture.go
	DimTexture3D
)

// CreateResourceArgs mirrors D3D11DDIARG_CREATERESOURCE.
type CreateResourceArgs struct {
	Dimension      ResourceDimension
	Width, Height  uint32 // ByteWidth for buffers (Height 1)
	Format         Format
	Usage          Usage
	BindFlags      BindFlag
	CPUAccessFlags CPUAccess
	InitData       []byte // pInitialDataUP, nil when none
	Primary        bool   // pPrimaryDesc != NULL: a swap-chain buffer that can be scanned out
	MiscFlags      ResourceMisc
	Obj            string // the scenario's name, for traces only
	// Textures of more than one subresource and structured buffers
	// (texture.go): a 3D texture's Depth, the MipLevels and ArraySize of
	// the others (0 and 1 both one; the runtime resolves D3D11's MipLevels
	// 0 to the full chain), a structured buffer's StructureByteStride.
	// InitData then holds every subresource in D3D11CalcSubresource order,
	// each packed tightly (isa.Subresources' layout).
	Depth               uint32
	MipLevels           uint32
	ArraySize           uint32
	StructureByteStride uint32
	// SampleCount and SampleQuality are a 2D texture's DXGI_SAMPLE_DESC
	// (msaa.go): 0 and 1 both one sample.
	SampleCount, SampleQuality uint32
}

// ResourceMisc mirrors D3D11_RESOURCE_MISC_FLAG (the flags the simulation
// knows).
type ResourceMisc uint32

// ResourceMiscShared makes a resource shareable with other devices: the
// driver must call pfnAllocateCb for it on the thread inside its
// CreateResource ("Changes from Direct3D 10", rule FT-ALLOC).
const ResourceMiscShared ResourceMisc = 0x2

// ResourceMiscDrawIndirectArgs (D3D11_RESOURCE_MISC_DRAWINDIRECT_ARGS)
// lets a buffer hold the arguments of DrawInstancedIndirect and
// DrawIndexedInstancedIndirect.
const ResourceMiscDrawIndirectArgs ResourceMisc = 0x10

func (m ResourceMisc) Has(f ResourceMisc) bool { return m&f != 0 }

// ViewKind tells the three view types apart in shared code.
type ViewKind uint8

const (
	ViewRTV ViewKind = iota + 1
	ViewSRV
	ViewDSV
)

// CreateViewArgs mirrors D3D11DDIARG_CREATE{RENDERTARGET,SHADERRESOURCE,DEPTHSTENCIL}VIEW:
// the resource the view is onto (its dependency handle), the format, and a
// depth-stencil view's Flags.
type CreateViewArgs struct {
	Kind     ViewKind
	Resource HRESOURCE
	Format   Format
	Flags    DSVFlag
	Obj      string
	// SRV is a shader-resource view's D3D11_SHADER_RESOURCE_VIEW_DESC
	// beyond its format (texture.go); the zero value is the whole
	// resource as its own kind.
	SRV SRVDesc
	// UAV is an unordered access view's description (compute.go).
	UAV UAVDesc
	// Target is a render-target or depth-stencil view's subresources
	// (rtvdesc.go), resolved by the runtime.
	Target TargetDesc
}

// DSVFlag mirrors D3D11_DSV_FLAG: a read-only depth-stencil view may be
// bound for the depth test while shaders read the same resource.
type DSVFlag uint32

const (
	DSVReadOnlyDepth   DSVFlag = 0x1
	DSVReadOnlyStencil DSVFlag = 0x2
)

// ShaderArgs mirrors D3D11DDIARG_CREATEVERTEXSHADER/PIXELSHADER: the
// shader's bytecode (pShaderCode, validated by the runtime).
type ShaderArgs struct {
	Bytecode []byte // DXBC container
	Obj      string
}

// AppendAligned is D3D11_APPEND_ALIGNED_ELEMENT: an element's offset is
// the end of the previous element of its slot.
const AppendAligned = 0xFFFFFFFF

// ElementDesc mirrors D3D10DDIARG_INPUT_ELEMENT_DESC: one element of an
// input layout, with its vertex-shader input register (the runtime maps
// the semantic to it through the shader's input signature) and its byte
// offset resolved (never AppendAligned).
type ElementDesc struct {
	InputSlot            uint32
	AlignedByteOffset    uint32
	Format               Format
	PerInstance          bool // InputSlotClass D3D10_INPUT_PER_INSTANCE_DATA
	InstanceDataStepRate uint32
	InputRegister        uint32
}

// CreateElementLayoutArgs mirrors D3D10DDIARG_CREATEELEMENTLAYOUT
// (CalcPrivateElementLayoutSize, CreateElementLayout).
type CreateElementLayoutArgs struct {
	Elements []ElementDesc
	Obj      string
}

// RenderTargetBlendDesc mirrors D3D10_1_DDI_RENDER_TARGET_BLEND_DESC (and
// D3D11_RENDER_TARGET_BLEND_DESC): one render target's blend.
type RenderTargetBlendDesc struct {
	BlendEnable                   bool
	SrcBlend, DestBlend           Blend
	BlendOp                       BlendOp
	SrcBlendAlpha, DestBlendAlpha Blend
	BlendOpAlpha                  BlendOp
	RenderTargetWriteMask         uint8
}

// BlendDesc mirrors D3D10_1_DDI_BLEND_DESC, what pfnCreateBlendState takes
// (and D3D11_BLEND_DESC): alpha-to-coverage, and a blend per render
// target; without IndependentBlendEnable RenderTarget[0] is every
// target's.
type BlendDesc struct {
	AlphaToCoverageEnable  bool
	IndependentBlendEnable bool
	RenderTarget           [8]RenderTargetBlendDesc
}

// DefaultRenderTargetBlend is D3D11's default blend of a render target:
// off, ONE and ZERO, ADD, all four channels written.
func DefaultRenderTargetBlend() RenderTargetBlendDesc {
	return RenderTargetBlendDesc{SrcBlend: BlendOne, DestBlend: BlendZero, BlendOp: BlendOpAdd,
		SrcBlendAlpha: BlendOne, DestBlendAlpha: BlendZero, BlendOpAlpha: BlendOpAdd, RenderTargetWriteMask: 0xF}
}

// DefaultBlendDesc is D3D11's default blend state.
func DefaultBlendDesc() BlendDesc {
	var d BlendDesc
	for i := range d.RenderTarget {
		d.RenderTarget[i] = DefaultRenderTargetBlend()
	}
	return d
}

// Target is the blend render target i takes: its own with
// IndependentBlendEnable, RenderTarget[0] without.
func (d *BlendDesc) Target(i int) *RenderTargetBlendDesc {
	if !d.IndependentBlendEnable {
		return &d.RenderTarget[0]
	}
	return &d.RenderTarget[i]
}

// RasterizerDesc mirrors D3D11_1_DDI_RASTERIZER_DESC without
// ForcedSampleCount (D3D11_RASTERIZER_DESC).
type RasterizerDesc struct {
	FillMode              FillMode
	CullMode              CullMode
	FrontCounterClockwise bool
	DepthBias             int32
	DepthBiasClamp        float32
	SlopeScaledDepthBias  float32
	DepthClipEnable       bool
	ScissorEnable         bool
	MultisampleEnable     bool
	AntialiasedLineEnable bool
}

// DefaultRasterizerDesc is D3D11's default: solid, cull back, clockwise front.
func DefaultRasterizerDesc() RasterizerDesc {
	return RasterizerDesc{FillMode: FillSolid, CullMode: CullBack, DepthClipEnable: true}
}

// DepthStencilOpDesc mirrors D3D10_DDI_DEPTH_STENCILOP_DESC (and
// D3D11_DEPTH_STENCILOP_DESC): one face's stencil operations and function.
type DepthStencilOpDesc struct {
	StencilFailOp, StencilDepthFailOp, StencilPassOp StencilOp
	StencilFunc                                      ComparisonFunc
}

// DepthStencilDesc mirrors D3D10_DDI_DEPTH_STENCIL_DESC (and
// D3D11_DEPTH_STENCIL_DESC).
type DepthStencilDesc struct {
	DepthEnable                       bool
	DepthWriteMask                    bool
	DepthFunc                         ComparisonFunc
	StencilEnable                     bool
	StencilReadMask, StencilWriteMask uint8
	FrontFace, BackFace               DepthStencilOpDesc
}

// DefaultDepthStencilDesc is D3D11's default: depth on, write all, LESS;
// stencil off, masks 0xFF, KEEP everywhere, ALWAYS.
func DefaultDepthStencilDesc() DepthStencilDesc {
	face := DepthStencilOpDesc{StencilFailOp: StencilKeep, StencilDepthFailOp: StencilKeep, StencilPassOp: StencilKeep, StencilFunc: ComparisonAlways}
	return DepthStencilDesc{DepthEnable: true, DepthWriteMask: true, DepthFunc: ComparisonLess,
		StencilReadMask: 0xFF, StencilWriteMask: 0xFF, FrontFace: face, BackFace: face}
}

// SamplerDesc mirrors D3D11_SAMPLER_DESC.
type SamplerDesc struct {
	Filter             Filter
	AddressU, AddressV AddressMode
	BorderColor        [4]float32
	AddressW           AddressMode
	MipLODBias         float32
	MaxAnisotropy      uint32
	ComparisonFunc     ComparisonFunc
	MinLOD, MaxLOD     float32
}

// DefaultSamplerDesc is D3D11's default ("D3D11_SAMPLER_DESC structure"):
// linear, clamp, no bias, MaxAnisotropy 1, NEVER and every level (MinLOD
// -FLT_MAX, MaxLOD FLT_MAX); its BorderColor is (0, 0, 0, 0), which a
// scenario's sampler without one always had here (D3D11's is white).
func DefaultSamplerDesc() SamplerDesc {
	return SamplerDesc{Filter: FilterMinMagMipLinear, AddressU: AddressClamp, AddressV: AddressClamp, AddressW: AddressClamp,
		MaxAnisotropy: 1, ComparisonFunc: ComparisonNever, MinLOD: -math.MaxFloat32, MaxLOD: math.MaxFloat32}
}

// Viewport mirrors D3D11_VIEWPORT.
type Viewport struct {
	X, Y, Width, Height, MinDepth, MaxDepth float32
}

// Rect mirrors D3D10_DDI_RECT (D3D11_RECT): a scissor rectangle, right and
// bottom exclusive.
type Rect struct {
	Left, Top, Right, Bottom int32
}

// MaxViewports is D3D11_VIEWPORT_AND_SCISSORRECT_OBJECT_COUNT_PER_PIPELINE.
const MaxViewports = 16

// MappedSubresource mirrors D3D11DDI_MAPPED_SUBRESOURCE: the CPU's view of the
// mapped memory.
type MappedSubresource struct {
	Data     []byte
	RowPitch uint32
}

// CreateDeviceArgs mirrors D3D11DDIARG_CREATEDEVICE: the runtime's device
// handle and callback table; the driver returns its function table.
type CreateDeviceArgs struct {
	HRTDevice    HRTDEVICE
	HRTCoreLayer HRTCORELAYER
	Callbacks    DeviceCallbacks
	// Table is the device function table the driver fills in CreateDevice
	// and may later rewrite only where "Changes from Direct3D 10" allows (rule FT-TABLE).
	Table *FuncTable
	Obj   string
}

// CreateContextCb mirrors D3DDDICB_CREATECONTEXT: out come the context and
// the sizes of its command buffer and lists (WDDM operation flow, step 3).
type CreateContextCb struct {
	Context               HCONTEXT
	CommandBufferSize     int // bytes
	AllocationListSize    int // entries
	PatchLocationListSize int // entries
}

// AllocationInfo mirrors D3DDDI_ALLOCATIONINFO: size, placement hints and
// the driver-private description of the surface the KMD will need.
type AllocationInfo struct {
	Size          uint64
	CPUVisible    bool // dynamic and staging resources live in CPU-visible memory
	Primary       bool
	Width, Height uint32 // private driver data
	Pitch         uint32
	GPUFormat     uint32 // the GPU's own format code
	InitData      []byte
	Obj           string
	Allocation    HALLOCATION // out
}

// AllocateCb mirrors D3DDDICB_ALLOCATE.
type AllocateCb struct {
	Resource    HRTRESOURCE // 0 for allocations that belong to no resource
	Allocations []AllocationInfo
}

// DeallocateCb mirrors D3DDDICB_DEALLOCATE.
type DeallocateCb struct {
	Resource    HRTRESOURCE // the resource the allocations belonged to (0: none)
	Allocations []HALLOCATION
	Obj         string
}

// AllocationListEntry mirrors D3DDDI_ALLOCATIONLIST.
type AllocationListEntry struct {
	Allocation     HALLOCATION
	WriteOperation bool
}

// RenderCb mirrors D3DDDICB_RENDER: the command buffer (in the GPU's packet
// format with allocation-list-relative addresses) and its allocation list.
// Like D3DDDICB_RENDER it returns no fence: the UMD counts its accepted
// submissions on the context, and the n-th is done when the context's
// monitored fence (CompletedFence) reaches n. The GPU's submission fence
// ids are Dxgkrnl's, per node, given to DxgkDdiPatch and DxgkDdiSubmitCommand
// ("Supplying Fence Identifiers").
//
// The sizes of the next command buffer and lists are [in/out]: the UMD asks
// for them at every submission and gets what the runtime gives
// ("D3DDDICB_RENDER structure": NewCommandBufferSize is "The size, in bytes,
// that the user-mode display driver requests for the next command buffer.
// The driver receives the size, in bytes, of the next command buffer to
// use"; likewise NewAllocationListSize and NewPatchLocationListSize). Zero
// asks for the current size.
type RenderCb struct {
	Context                  HCONTEXT
	Commands                 []uint32
	AllocationList           []AllocationListEntry
	NewCommandBufferSize     int // bytes
	NewAllocationListSize    int // entries
	NewPatchLocationListSize int // entries
}

// PresentFlags mirrors DXGI_DDI_PRESENT_FLAGS: Blt copies the source
// into the destination (the bitblt model: DXGI_SWAP_EFFECT_DISCARD and
// SEQUENTIAL), Flip points the display's scan-out at the source (the flip
// model: DXGI_SWAP_EFFECT_FLIP_SEQUENTIAL and FLIP_DISCARD).
type PresentFlags struct {
	Blt, Flip bool
}

func (f PresentFlags) String() string {
	switch {
	case f.Flip:
		return "Flip"
	case f.Blt:
		return "Blt"
	}
	return "none"
}

// PresentArg mirrors DXGI_DDI_ARG_PRESENT: the resource to show, the
// destination (0: "kernel mode will determine the destination"), how, and
// the flip interval (IDXGISwapChain::Present's SyncInterval).
type PresentArg struct {
	SurfaceToPresent HRESOURCE
	DstResource      HRESOURCE
	Flags            PresentFlags
	FlipInterval     uint32
}

// PresentCb mirrors D3DDDICB_PRESENT (DXGIDDICB_PRESENT): the kernel
// handles of the source and destination allocations and the context the
// present goes to. It carries no command buffer: PresentDXGI submits those
// with pfnRenderCb first ("DXGI_DDI_BASE_FUNCTIONS"), and the KMD's
// DxgkDdiPresent writes the present's own commands ("DXGKDDI_PRESENT").
// DstAllocation 0 lets the kernel pick the destination. No fence either.
type PresentCb struct {
	Context       HCONTEXT
	SrcAllocation HALLOCATION
	DstAllocation HALLOCATION
	Flags         PresentFlags
}

// EscapeCb mirrors D3DDDICB_ESCAPE: driver-private data for the KMD,
// optionally bound to a GPU context (0: a device-wide escape). A
// context-bound escape obeys the HCONTEXT rule: one thread at a time per
// context ("Changes from Direct3D 10", rule FT-HCTX).
type EscapeCb struct {
	Context HCONTEXT
	Code    uint32
	Result  uint64 // out: the answer (for the simulated escapes, a fence value)
}

// LockCb mirrors D3DDDICB_LOCK: the allocation and how to lock it. Allocation
// is [in/out]: with Discard the video memory manager may rename the
// allocation and return the new instance's handle here.
type LockCb struct {
	Allocation HALLOCATION
	Flags      LockFlags
	Data       []byte // out
}

// LockFlags mirrors the members of D3DDDICB_LOCKFLAGS the simulated video
// memory manager honours ("D3DDDICB_LOCKFLAGS structure (d3dukmdt.h)"):
// ReadOnly and WriteOnly say what the lock waits for, DonotWait fails a
// lock of a busy allocation with D3DDDIERR_WASSTILLDRAWING instead of
// waiting, IgnoreSync skips the check, Discard lets the video memory
// manager rename a busy allocation ("Requesting to rename an allocation").
type LockFlags struct {
	ReadOnly, WriteOnly, DonotWait, IgnoreSync, Discard bool
}

// WaitForSynchronizationObjectCb mirrors D3DDDICB_WAITFORSYNCHRONIZATIONOBJECT
// (with D3DDDICB_WAITFORSYNCHRONIZATIONOBJECT2's FenceValue, the objects
// being fences): the context whose DMA stream carries the wait, the objects
// it waits for and the value they must reach. The wait is on the GPU: the
// callback returns at once.
type WaitForSynchronizationObjectCb struct {
	Context           HCONTEXT
	ObjectHandleArray []HSYNCOBJECT
	FenceValue        uint64
}

// SignalSynchronizationObjectCb mirrors D3DDDICB_SIGNALSYNCHRONIZATIONOBJECT:
// the context whose DMA stream carries the signal and the objects it
// signals. The simulated objects are fences, so the signal carries the
// value they take, as D3DDDICB_SIGNALSYNCHRONIZATIONOBJECT2's FenceValue
// does. Fence (out) is the context's fence the signal follows: the objects
// take the value once the GPU has finished that fence's work.
type SignalSynchronizationObjectCb struct {
	Context           HCONTEXT
	ObjectHandleArray []HSYNCOBJECT
	FenceValue        uint64
	Fence             uint64 // out
}

// DeviceCallbacks mirrors D3DDDI_DEVICECALLBACKS plus the core-layer
// pfnSetErrorCb. The runtime implements it; the UMD calls up only through it.
type DeviceCallbacks interface {
	PfnCreateContextCb(HRTDEVICE, *CreateContextCb) error
	PfnDestroyContextCb(HRTDEVICE, HCONTEXT) error
	PfnAllocateCb(HRTDEVICE, *AllocateCb) error
	PfnDeallocateCb(HRTDEVICE, *DeallocateCb) error
	PfnRenderCb(HRTDEVICE, *RenderCb) error
	PfnPresentCb(HRTDEVICE, *PresentCb) error
	// PfnLockCb locks an allocation for the CPU. The video memory manager
	// synchronises the access with the GPU's: it blocks the caller until
	// the GPU no longer uses the allocation in a conflicting way, fails
	// with D3DDDIERR_WASSTILLDRAWING under DonotWait, or renames it under
	// Discard ("PFND3DDDI_LOCKCB callback function (d3dumddi.h)").
	PfnLockCb(HRTDEVICE, *LockCb) error
	PfnUnlockCb(HRTDEVICE, HALLOCATION) error
	// PfnWaitForSynchronizationObjectCb inserts a wait for
	// synchronization objects in the context's DMA stream: the context's
	// later work runs once they reach the value; the caller does not block
	// ("PFND3DDDI_WAITFORSYNCHRONIZATIONOBJECTCB callback function").
	PfnWaitForSynchronizationObjectCb(HRTDEVICE, *WaitForSynchronizationObjectCb) error
	// PfnSignalSynchronizationObjectCb inserts a signal of synchronization
	// objects in the context's DMA stream: they are signalled when the GPU
	// has finished the work submitted on the context before it. One thread
	// at a time per HCONTEXT, like the other callbacks that name one ("Changes
	// from Direct3D 10", rule FT-HCTX).
	PfnSignalSynchronizationObjectCb(HRTDEVICE, *SignalSynchronizationObjectCb) error
	// PfnSignalSynchronizationObjectFromGpuCb and
	// PfnWaitForSynchronizationObjectFromGpuCb are the WDDM 2.0 callbacks
	// for monitored fences ("Context Monitoring"): "If a GPU engine isn't
	// capable of writing to a monitored fence using its virtual address, the
	// user-mode driver (UMD) uses the SignalSynchronizationObjectFromGpuCb
	// callback to queue a software signal packet to the GPU context"; to
	// wait on the GPU "the
	// UMD first needs to flush its pending command buffer then call
	// WaitForSynchronizationObjectFromGpuCb". A driver on monitored fences
	// calls these instead of the two above (umd.Config.MonitoredFences).
	PfnSignalSynchronizationObjectFromGpuCb(HRTDEVICE, *SignalSynchronizationObjectCb) error
	PfnWaitForSynchronizationObjectFromGpuCb(HRTDEVICE, *WaitForSynchronizationObjectCb) error
	// CompletedFence reads the context's monitored fence value, which the
	// real UMD reads from shared memory: no kernel transition, no event.
	CompletedFence(HRTDEVICE, HCONTEXT) uint64
	// PfnSetErrorCb reports an error of a DDI that returns none. The
	// real callback takes the HRESULT alone (hresult.Of(err)); an
	// *hresult.Error also says why -- the text a real driver writes to
	// the debugger -- and the runtime shows it with the failure: in the
	// callback's trace event, the failed call's error and the debug
	// layer's message. The shader DDIs say why a shader is refused (the
	// translator's message, naming the DXBC instruction).
	PfnSetErrorCb(HRTCORELAYER, error)
	// PfnPerformAmortizedProcessingCb lets the runtime do its amortized work
	// (trim high-water marks, drain its destruction queue). A D3D11 driver
	// calls it itself, from the thread in the DDI, after immediate-context
	// submissions and when a deferred context runs out of space ("Changes from Direct3D 10").
	//
	// The core-layer handle names the context calling (the immediate
	// context's is the device's), as in D3D11DDI_CORELAYER_DEVICECALLBACKS.
	PfnPerformAmortizedProcessingCb(HRTCORELAYER)
	// The state-refresh callbacks (D3D11DDI_CORELAYER_DEVICECALLBACKS, the
	// stages this GPU has): the runtime re-sends the context's current
	// bindings through the matching DDI -- slots [start, start+count) for
	// the slotted ones. During CommandListExecute they still show the
	// bindings of before the call; from the driver's next DDI on, the
	// cleared state ("Supporting command lists", rule CL-EXEC).
	StateRefresh
	// PfnSetDisplayModeCb switches the display to the primary's mode.
	PfnSetDisplayModeCb(HRTDEVICE, HALLOCATION) error
	// PfnEscapeCb sends driver-private data to the kernel-mode driver
	// (D3DKMTEscape).
	PfnEscapeCb(HRTDEVICE, *EscapeCb) error
}

// StateRefresh is the set of state-refresh callbacks of the core layer.
type StateRefresh interface {
	PfnStateIaInputLayoutCb(core HRTCORELAYER)
	PfnStateIaVertexBufCb(core HRTCORELAYER, start, count uint32)
	PfnStateIaIndexBufCb(core HRTCORELAYER)
	PfnStateIaPrimitiveTopologyCb(core HRTCORELAYER)
	PfnStateVsShaderCb(core HRTCORELAYER)
	PfnStateVsConstBufCb(core HRTCORELAYER, start, count uint32)
	PfnStatePsShaderCb(core HRTCORELAYER)
	PfnStatePsConstBufCb(core HRTCORELAYER, start, count uint32)
	PfnStatePsSrvCb(core HRTCORELAYER, start, count uint32)
	PfnStatePsSamplerCb(core HRTCORELAYER, start, count uint32)
	PfnStateVsSrvCb(core HRTCORELAYER, start, count uint32)
	PfnStateVsSamplerCb(core HRTCORELAYER, start, count uint32)
	PfnStateOmRenderTargetsCb(core HRTCORELAYER)
	PfnStateOmBlendStateCb(core HRTCORELAYER)
	PfnStateOmDepthStateCb(core HRTCORELAYER)
	PfnStateRsRastStateCb(core HRTCORELAYER)
	PfnStateRsViewportsCb(core HRTCORELAYER)
	PfnStateRsScissorCb(core HRTCORELAYER)
}

// IAVertexInputResourceSlotCount is D3D11_IA_VERTEX_INPUT_RESOURCE_SLOT_COUNT.
const IAVertexInputResourceSlotCount = 32

// Each shader stage's binding slots: D3D11_COMMONSHADER_CONSTANT_BUFFER_API_SLOT_COUNT,
// D3D11_COMMONSHADER_INPUT_RESOURCE_SLOT_COUNT and
// D3D11_COMMONSHADER_SAMPLER_SLOT_COUNT.
const (
	ConstantBufferSlots = 14
	ShaderResourceSlots = 128
	SamplerSlots        = 16
)

// RefreshAll calls every state-refresh callback over all the slots this GPU
// has: what a driver does to re-read the whole bound state.
func RefreshAll(cb StateRefresh, core HRTCORELAYER) {
	cb.PfnStateIaInputLayoutCb(core)
	cb.PfnStateIaVertexBufCb(core, 0, IAVertexInputResourceSlotCount)
	cb.PfnStateIaIndexBufCb(core)
	cb.PfnStateIaPrimitiveTopologyCb(core)
	cb.PfnStateVsShaderCb(core)
	cb.PfnStateVsConstBufCb(core, 0, ConstantBufferSlots)
	cb.PfnStateVsSrvCb(core, 0, ShaderResourceSlots)
	cb.PfnStateVsSamplerCb(core, 0, SamplerSlots)
	cb.PfnStatePsShaderCb(core)
	cb.PfnStatePsConstBufCb(core, 0, ConstantBufferSlots)
	cb.PfnStatePsSrvCb(core, 0, ShaderResourceSlots)
	cb.PfnStatePsSamplerCb(core, 0, SamplerSlots)
	cb.PfnStateOmRenderTargetsCb(core)
	cb.PfnStateOmBlendStateCb(core)
	cb.PfnStateOmDepthStateCb(core)
	cb.PfnStateRsRastStateCb(core)
	cb.PfnStateRsViewportsCb(core)
	cb.PfnStateRsScissorCb(core)
}
