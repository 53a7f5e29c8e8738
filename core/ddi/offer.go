package ddi

// Offer and reclaim ("Video Memory Offer and Reclaim", WDDM 1.2, DXGI 1.2):
// "after an allocation is discarded, all data in it is lost".

// OfferPriority is D3DDDI_OFFER_PRIORITY (1 LOW, 2 NORMAL, 3 HIGH).
type OfferPriority int

// OfferReclaimer is the driver's pfnOfferResources and pfnReclaimResources
// (DXGI1_2_DDI_BASE_FUNCTIONS), which IDXGIDevice2::OfferResources
// and ReclaimResources reach: the driver offers or reclaims the resources'
// allocations with pfnOfferAllocationsCb / pfnReclaimAllocationsCb.
// discarded has one entry per resource, set by ReclaimResourcesDXGI.
type OfferReclaimer interface {
	OfferResourcesDXGI(h HDEVICE, res []HRESOURCE, prio OfferPriority) error
	ReclaimResourcesDXGI(h HDEVICE, res []HRESOURCE, discarded []bool) error
}

// OfferAllocationsCb is D3DDDICB_OFFERALLOCATIONS: the allocations and
// the priority.
type OfferAllocationsCb struct {
	Allocations []HALLOCATION
	Priority    OfferPriority
}

// ReclaimAllocationsCb is D3DDDICB_RECLAIMALLOCATIONS: the allocations,
// and on return whether each one's content was discarded (pDiscarded).
type ReclaimAllocationsCb struct {
	Allocations []HALLOCATION
	Discarded   []bool
}

// OfferCallbacks are the runtime's pfnOfferAllocationsCb and
// pfnReclaimAllocationsCb ("Video Memory Offer and Reclaim"), on the
// callback table of a runtime that supports them (a driver type-asserts).
type OfferCallbacks interface {
	PfnOfferAllocationsCb(HRTDEVICE, *OfferAllocationsCb) error
	PfnReclaimAllocationsCb(HRTDEVICE, *ReclaimAllocationsCb) error
}
