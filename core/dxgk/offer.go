package dxgk

import (
	"fmt"

	"d3dsim/core/dxgkddi"
	"d3dsim/core/trace"
)

// Offer and reclaim ("Video Memory Offer and Reclaim", WDDM 1.2): an
// application that will not need a resource's contents for a while offers
// it (IDXGIDevice2::OfferResources); the driver offers its allocations
// (pfnOfferAllocationsCb). The video memory manager may then reuse their
// memory: an offered allocation is the first one evicted under pressure, and
// its content is dropped instead of paged out. Before using it again the
// application reclaims it (ReclaimResources, pfnReclaimAllocationsCb) and
// learns whether the content survived.

// OfferPriority is D3DDDI_OFFER_PRIORITY: how readily the memory manager
// drops an offered allocation (LOW first).
type OfferPriority int

// The priorities of D3DDDI_OFFER_PRIORITY.
const (
	OfferLow    OfferPriority = 1
	OfferNormal OfferPriority = 2
	OfferHigh   OfferPriority = 3
)

func (p OfferPriority) String() string {
	switch p {
	case OfferLow:
		return "D3DDDI_OFFER_PRIORITY_LOW"
	case OfferNormal:
		return "D3DDDI_OFFER_PRIORITY_NORMAL"
	case OfferHigh:
		return "D3DDDI_OFFER_PRIORITY_HIGH"
	}
	return fmt.Sprintf("D3DDDI_OFFER_PRIORITY(%d)", int(p))
}

// OfferAllocations marks dev's allocations offered at priority prio.
func (k *Dxgkrnl) OfferAllocations(dev HDevice, hs []HAllocation, prio OfferPriority) error {
	k.charge(k.cfg.Costs.Transition)
	if prio < OfferLow || prio > OfferHigh {
		return errorf(dxgkddi.STATUS_INVALID_PARAMETER, "OfferAllocations: priority %d is not a D3DDDI_OFFER_PRIORITY", int(prio))
	}
	k.mu.Lock()
	as := make([]*allocation, 0, len(hs))
	for _, h := range hs {
		a, err := k.ownedLocked("OfferAllocations", dev, h)
		if err != nil {
			k.mu.Unlock()
			return err
		}
		if a.primary {
			k.mu.Unlock()
			return errorf(dxgkddi.STATUS_INVALID_PARAMETER, "OfferAllocations: %v (%s) is a primary, which cannot be offered", h, a.obj)
		}
		as = append(as, a)
	}
	for _, a := range as {
		a.offered, a.offerPrio = true, prio
	}
	k.mu.Unlock()
	for _, a := range as {
		k.event(trace.Message, "AllocationOffered", trace.Event{Handle: a.h.String(), Obj: a.obj,
			Msg: fmt.Sprintf("%v (%s) offered at %v: the video memory manager may drop its content to reuse its memory", a.h, a.obj, prio)})
	}
	return nil
}

// ReclaimAllocations ends the offer of dev's allocations; discarded[i]
// says whether allocation i's content was dropped while it was offered
// (its memory is the application's again either way, its bytes undefined
// when discarded: here zero).
func (k *Dxgkrnl) ReclaimAllocations(dev HDevice, hs []HAllocation) (discarded []bool, err error) {
	k.charge(k.cfg.Costs.Transition)
	k.mu.Lock()
	as := make([]*allocation, 0, len(hs))
	for _, h := range hs {
		a, err := k.ownedLocked("ReclaimAllocations", dev, h)
		if err != nil {
			k.mu.Unlock()
			return nil, err
		}
		if !a.offered {
			k.mu.Unlock()
			return nil, errorf(dxgkddi.STATUS_INVALID_PARAMETER, "ReclaimAllocations: %v (%s) is not offered", h, a.obj)
		}
		as = append(as, a)
	}
	discarded = make([]bool, len(as))
	for i, a := range as {
		discarded[i] = a.discarded
		a.offered, a.discarded = false, false
	}
	k.mu.Unlock()
	for i, a := range as {
		msg := fmt.Sprintf("%v (%s) reclaimed: its content survived", a.h, a.obj)
		if discarded[i] {
			msg = fmt.Sprintf("%v (%s) reclaimed: its content was discarded while offered", a.h, a.obj)
		}
		k.event(trace.Message, "AllocationReclaimed", trace.Event{Handle: a.h.String(), Obj: a.obj, Msg: msg})
	}
	return discarded, nil
}
