package dxgkddi

import "fmt"

// SurfaceDesc is the private driver data of an allocation (the
// pPrivateDriverData of DXGK_ALLOCATIONINFO): what the UMD tells the KMD
// about the surface. Format is a code the UMD and KMD agree on (for d3dsim's
// pair, the GPU's own surface format); Dxgkrnl never interprets it. A zero
// SurfaceDesc describes a plain buffer.
type SurfaceDesc struct {
	Width, Height, Pitch uint32
	Format               uint32
}

// Empty reports whether d describes no surface.
func (d SurfaceDesc) Empty() bool { return d == SurfaceDesc{} }

// DeviceInfo mirrors DXGK_DEVICEINFO: the sizes the KMD wants for the DMA
// buffers and lists of the device's contexts (0: let Dxgkrnl choose).
type DeviceInfo struct {
	DmaBufferSize         int // bytes
	AllocationListSize    int // entries
	PatchLocationListSize int // entries
}

// StartDeviceArgs mirrors DXGKARG_STARTDEVICE: Dxgkrnl hands down its
// callback table (DXGKRNL_INTERFACE); the driver reports its engines.
type StartDeviceArgs struct {
	DxgkInterface   DxgkrnlInterface
	NumberOfEngines int // out
	// SupportPerEngineTDR (out) is DXGK_DRIVERCAPS.SupportPerEngineTDR: the
	// driver implements DxgkDdiResetEngine, so a timeout resets one engine
	// instead of the adapter ("TDR changes in Windows 8").
	SupportPerEngineTDR bool
	// FlipOnVSyncMmIo (out) is DXGK_DRIVERCAPS.FlipCaps.FlipOnVSyncMmIo: the
	// driver flips by programming the scan-out address, so DxgkDdiPresent
	// builds no DMA buffer for a flip and Dxgkrnl runs it with
	// DxgkDdiSetVidPnSourceAddress ("DXGKDDI_PRESENT").
	FlipOnVSyncMmIo bool
}

// CreateDeviceArgs mirrors DXGKARG_CREATEDEVICE (WDDM operation flow, step 1).
type CreateDeviceArgs struct {
	Device HDevice
	Name   string     // for traces and messages
	Info   DeviceInfo // out (pInfo)
}

// ContextInfo mirrors DXGK_CONTEXTINFO.
type ContextInfo = DeviceInfo

// CreateContextArgs mirrors DXGKARG_CREATECONTEXT (WDDM operation flow, step 3).
type CreateContextArgs struct {
	Device  HDevice
	Context HContext
	Engine  int         // NodeOrdinal
	Info    ContextInfo // out
}

// AllocationFlags mirrors the placement-relevant DXGK_ALLOCATIONINFOFLAGS.
type AllocationFlags struct {
	CPUVisible bool // dynamic and staging resources: system memory the GPU reaches through the aperture segment, lockable in place
	Primary    bool // can be scanned out
}

// SegmentID names a memory segment.
type SegmentID uint32

const (
	SegmentNone SegmentID = 0
	// SegmentVRAM is a memory segment: local video memory that holds the
	// bytes of the allocations paged into it.
	SegmentVRAM SegmentID = 1
	// SegmentAperture is an aperture segment: an address range that holds
	// no bytes, a page table the driver programs to map system memory
	// pages (DXGK_OPERATION_MAP_APERTURE_SEGMENT) ("GPU segments", "Linear
	// aperture-space segments").
	SegmentAperture SegmentID = 2
	// SegmentSystem is system memory outside any segment: an allocation's
	// backing store, the source and destination of paging transfers to and
	// from a memory segment (WDDM passes it as SegmentId 0 with an MDL,
	// DXGKARG_BUILDPAGINGBUFFER).
	SegmentSystem SegmentID = 3
)

func (s SegmentID) String() string {
	switch s {
	case SegmentVRAM:
		return "vram"
	case SegmentAperture:
		return "aperture"
	case SegmentSystem:
		return "system"
	}
	return "none"
}

// AllocationInfo mirrors the outputs of DXGK_ALLOCATIONINFO.
type AllocationInfo struct {
	Size             uint64 // bytes the allocation occupies in a segment
	Alignment        uint64 // a power of two
	PreferredSegment SegmentID
}

// CreateAllocationArgs mirrors DXGKARG_CREATEALLOCATION for one allocation
// (WDDM operation flow, step 6).
type CreateAllocationArgs struct {
	Device            HDevice
	Allocation        HAllocation
	Size              uint64
	Flags             AllocationFlags
	PrivateDriverData SurfaceDesc
	Info              AllocationInfo // out
}

// DestroyAllocationArgs mirrors DXGKARG_DESTROYALLOCATION for one allocation.
type DestroyAllocationArgs struct {
	Device     HDevice
	Allocation HAllocation
}

// AllocationListEntry mirrors DXGK_ALLOCATIONLIST. For DxgkDdiRender and
// DxgkDdiPresent only Allocation and WriteOperation are set; for DxgkDdiPatch
// Dxgkrnl fills in where each allocation lives.
type AllocationListEntry struct {
	Allocation      HAllocation
	WriteOperation  bool
	SegmentID       SegmentID
	PhysicalAddress uint64
}

// PatchLocation mirrors D3DDDI_PATCHLOCATIONLIST: the address word pair at
// PatchOffset (a word offset into the DMA buffer, pointing at the low word)
// gets the address of allocation-list entry AllocationIndex plus
// AllocationOffset bytes.
type PatchLocation struct {
	AllocationIndex  uint32
	AllocationOffset uint32
	PatchOffset      uint32
}

// RenderArgs mirrors DXGKARG_RENDER (WDDM operation flow, step 10). The KMD validates
// CommandBuffer against AllocationList and writes DmaBuffer (at most
// DmaBufferSize bytes) and PatchLocationList (at most PatchLocationListSize
// entries).
type RenderArgs struct {
	Device                HDevice
	Context               HContext
	CommandBuffer         []uint32
	AllocationList        []AllocationListEntry
	DmaBufferSize         int             // bytes available
	PatchLocationListSize int             // entries available
	DmaBuffer             []uint32        // out
	PatchLocationList     []PatchLocation // out (pPatchLocationListOut)

	// Out, for a scheduler that reorders DMA buffers (the SamBookshelf article on asynchronous Draw): the GPU
	// state outside the allocation list the buffer touches. Draws add to
	// the GPU's samples-passed and pipeline-statistics counters (additions
	// commute); a query's begin or end that reads them (occlusion, pipeline
	// statistics, stream output, disjoint) orders against draws.
	Draws, OcclusionQueries bool
}

// The entries of a present's allocation list ("DXGKARG_PRESENT",
// pAllocationList): element 0 is always null, the source is element 1, the
// destination element 2; an entry not present for the operation is null.
const (
	PresentSourceIndex      = 1 // DXGK_PRESENT_SOURCE_INDEX
	PresentDestinationIndex = 2 // DXGK_PRESENT_DESTINATION_INDEX
)

// PresentFlags mirrors the DXGK_PRESENTFLAGS members the simulated driver
// honours: Blt, "a copy operation, instead of a flip operation, occurs
// between source and destination surfaces"; Flip, "the driver should
// perform the present operation by pointing the video scan output to the
// source rather than copying from the source to the destination".
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

// PresentArgs mirrors DXGKARG_PRESENT ("DXGKDDI_PRESENT"): the UMD cannot
// compile the present's commands in advance, so the KMD writes them here
// from the allocation list alone. For a Blt it writes a DMA buffer that
// copies element 1 into element 2 (and a patch-location list); for a Flip
// with FlipOnVSyncMmIo, NoDmaBuffer is set ("pDmaBuffer ... set to NULL
// because a MMIO-based flip does not require a DMA buffer"): the driver
// validates the source and Dxgkrnl runs the flip later with
// DxgkDdiSetVidPnSourceAddress.
type PresentArgs struct {
	Device                HDevice
	Context               HContext
	AllocationList        []AllocationListEntry // 3 entries: null, source, destination
	Flags                 PresentFlags
	FlipInterval          uint32
	NoDmaBuffer           bool
	DmaBufferSize         int             // bytes available
	PatchLocationListSize int             // entries available
	DmaBuffer             []uint32        // out
	PatchLocationList     []PatchLocation // out (pPatchLocationListOut)
}

// PagingOperation is the operation of DxgkDdiBuildPagingBuffer
// (DXGK_BUILDPAGINGBUFFER_OPERATION).
type PagingOperation uint8

const (
	PagingTransfer             PagingOperation = iota + 1 // DXGK_OPERATION_TRANSFER: copy between segments
	PagingFill                                            // DXGK_OPERATION_FILL: fill with a 32-bit pattern
	PagingDiscardContent                                  // DXGK_OPERATION_DISCARD_CONTENT: the content is not needed
	PagingMapApertureSegment                              // DXGK_OPERATION_MAP_APERTURE_SEGMENT: map the backing store's pages into the aperture, no copy
	PagingUnmapApertureSegment                            // DXGK_OPERATION_UNMAP_APERTURE_SEGMENT: undo that mapping
)

func (o PagingOperation) String() string {
	switch o {
	case PagingTransfer:
		return "TRANSFER"
	case PagingFill:
		return "FILL"
	case PagingDiscardContent:
		return "DISCARD"
	case PagingMapApertureSegment:
		return "MAP_APERTURE_SEGMENT"
	case PagingUnmapApertureSegment:
		return "UNMAP_APERTURE_SEGMENT"
	}
	return fmt.Sprintf("OP(%d)", uint8(o))
}

// SegmentAddress is a physical address in a segment.
type SegmentAddress struct {
	Segment SegmentID
	Address uint64
}

// BuildPagingBufferArgs mirrors DXGKARG_BUILDPAGINGBUFFER (WDDM operation flow, step
// 11). The KMD appends the operation's packets to DmaBuffer and fails with
// STATUS_GRAPHICS_INSUFFICIENT_DMA_BUFFER (leaving DmaBuffer as it was) when
// they would not fit in DmaBufferSize bytes.
type BuildPagingBufferArgs struct {
	Operation     PagingOperation
	Allocation    HAllocation
	Size          uint64         // bytes to transfer, fill or discard
	Source        SegmentAddress // TRANSFER; MAP_APERTURE_SEGMENT: the system pages mapped
	Destination   SegmentAddress // TRANSFER, FILL, DISCARD; (UN)MAP_APERTURE_SEGMENT: the aperture range
	FillPattern   uint32         // FILL
	DmaBufferSize int
	DmaBuffer     []uint32 // in/out
}

// String is the trace form: "op=TRANSFER a5 system->vram 4096B".
func (a *BuildPagingBufferArgs) String() string {
	switch a.Operation {
	case PagingTransfer, PagingMapApertureSegment:
		return fmt.Sprintf("op=%v %v %v->%v %dB", a.Operation, a.Allocation, a.Source.Segment, a.Destination.Segment, a.Size)
	case PagingFill:
		return fmt.Sprintf("op=%v %v %v %dB pattern=%#x", a.Operation, a.Allocation, a.Destination.Segment, a.Size, a.FillPattern)
	}
	return fmt.Sprintf("op=%v %v %v %dB", a.Operation, a.Allocation, a.Destination.Segment, a.Size)
}

// PatchArgs mirrors DXGKARG_PATCH (WDDM operation flow, step 13): AllocationList carries
// each allocation's segment and physical address. SubmissionFenceID is the
// id the DMA buffer will be submitted with on node Engine (EngineOrdinal):
// Dxgkrnl passes the same id to DxgkDdiSubmitCommand, and a driver may write
// it at the end of the DMA buffer here or into the ring there ("Supplying
// Fence Identifiers").
type PatchArgs struct {
	Context           HContext
	Engine            int      // the node the buffer runs on
	DmaBuffer         []uint32 // patched in place
	AllocationList    []AllocationListEntry
	PatchLocationList []PatchLocation
	SubmissionFenceID uint64
}

// SubmitCommandFlags mirrors DXGK_SUBMITCOMMANDFLAGS.
type SubmitCommandFlags struct {
	Paging  bool // a paging buffer (Context is 0)
	Present bool
}

// SubmitCommandArgs mirrors DXGKARG_SUBMITCOMMAND (WDDM operation flow, steps 12 and 14).
// The GPU must write SubmissionFenceID to the engine's fence register when it
// has finished the buffer. Dxgkrnl counts submission fence ids per node
// (engine), monotonically, paging buffers included; a DMA buffer gets the id
// DxgkDdiPatch was given ("Supplying Fence Identifiers"). DXGKARG_RENDER has
// no fence: a buffer has none until it is scheduled.
type SubmitCommandArgs struct {
	Context           HContext // 0 for paging buffers
	Engine            int      // NodeOrdinal
	DmaBufferID       uint64   // names the buffer in traces and GPU faults
	DmaBuffer         []uint32
	SubmissionFenceID uint64
	Flags             SubmitCommandFlags
}

// InterruptRoutineArgs says which engine raised the interrupt line (the
// MessageNumber of a message-signalled interrupt): an engine's number, or
// DisplayInterruptLine for the display controller's vertical blank.
type InterruptRoutineArgs struct {
	Engine int
}

// DisplayInterruptLine is the display controller's interrupt line.
const DisplayInterruptLine = -1

// InterruptType is DXGK_INTERRUPT_TYPE, for the types the simulated
// adapter raises.
type InterruptType int

// The interrupt types ("DXGK_INTERRUPT_TYPE enumeration"), with their values.
const (
	InterruptDMACompleted   InterruptType = 1 // DXGK_INTERRUPT_DMA_COMPLETED
	InterruptDMAPreempted   InterruptType = 2 // DXGK_INTERRUPT_DMA_PREEMPTED
	InterruptCrtcVsync      InterruptType = 3 // DXGK_INTERRUPT_CRTC_VSYNC
	InterruptDMAPageFaulted InterruptType = 9 // DXGK_INTERRUPT_DMA_PAGE_FAULTED
)

func (t InterruptType) String() string {
	switch t {
	case InterruptDMACompleted:
		return "DMA_COMPLETED"
	case InterruptDMAPreempted:
		return "DMA_PREEMPTED"
	case InterruptCrtcVsync:
		return "CRTC_VSYNC"
	case InterruptDMAPageFaulted:
		return "DMA_PAGE_FAULTED"
	}
	return fmt.Sprintf("DXGK_INTERRUPT_TYPE(%d)", int(t))
}

// ControlInterruptArgs are DxgkDdiControlInterrupt's: the interrupt type
// (Dxgkrnl only ever names DXGK_INTERRUPT_CRTC_VSYNC) and whether to report
// it ("DXGKDDI_CONTROLINTERRUPT").
type ControlInterruptArgs struct {
	Type   InterruptType
	Enable bool
}

// ResetFromTimeoutArgs and RestartFromTimeoutArgs are empty: the real
// DDIs take only hAdapter, because they reset and restart the whole adapter
// (DXGKDDI_RESETFROMTIMEOUT, DXGKDDI_RESTARTFROMTIMEOUT).
type (
	ResetFromTimeoutArgs   struct{}
	RestartFromTimeoutArgs struct{}
)

// PreemptCommandArgs mirrors part of DXGKARG_PREEMPTCOMMAND: preempt the
// engine's work; PreemptionFenceId is "A unique identifier that the display
// miniport driver must patch into the fence command at the end of the DMA
// buffer to preempt the previously submitted DMA buffer", which the driver
// reports with DXGK_INTERRUPT_DMA_PREEMPTED once the hardware has stopped
// ("DXGKARG_PREEMPTCOMMAND structure").
type PreemptCommandArgs struct {
	PreemptionFenceID uint64
	Engine            int // NodeOrdinal
}

// QueryEngineStatusArgs mirrors DXGKARG_QUERYENGINESTATUS: the node asked
// about and (out) DXGK_ENGINESTATUS's Responsive bit, set while the node
// makes progress.
type QueryEngineStatusArgs struct {
	Engine     int  // NodeOrdinal
	Responsive bool // out
}

// QueryDependentEngineGroupArgs mirrors DXGKARG_QUERYDEPENDENTENGINEGROUP:
// the node to reset and (out) the mask of every node the reset affects, the
// node itself included.
type QueryDependentEngineGroupArgs struct {
	Engine                   int    // NodeOrdinal
	DependentNodeOrdinalMask uint64 // out
}

// SetVidPnSourceAddressArgs mirrors DXGKARG_SETVIDPNSOURCEADDRESS for a
// flip: the allocation to scan out and the context whose present asked for
// it (ContextCount 1).
type SetVidPnSourceAddressArgs struct {
	VidPnSourceID     int
	PrimaryAllocation HAllocation
	PrimarySegment    SegmentID // where the primary is: the scan-out reads it there
	PrimaryAddress    uint64
	Context           HContext
	// FlipImmediate: flip now, without waiting for a vertical blank
	// (DXGK_SETVIDPNSOURCEADDRESS_FLAGS; SyncInterval 0 of a flip-model
	// present).
	FlipImmediate bool
	// VBlank is the number of the vertical blank the flip is shown at,
	// counted from the start of the run (the simulator's figure, not a
	// field of the structure).
	VBlank int64
}

// ResetEngineArgs mirrors DXGKARG_RESETENGINE: the node to reset, and (out)
// the fence id of the last packet aborted in the middle of execution.
type ResetEngineArgs struct {
	Engine             int    // NodeOrdinal
	LastAbortedFenceID uint64 // out
}
