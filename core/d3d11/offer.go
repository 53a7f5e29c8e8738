package d3d11

import (
	"fmt"
	"strings"

	"d3dsim/core/ddi"
	"d3dsim/core/dxgk"
	"d3dsim/core/trace"
)

// OfferResources is IDXGIDevice2::OfferResources ("Video Memory Offer and
// Reclaim"): the application will not need the resources' contents for a
// while, and the video memory manager may reuse their memory. The driver's
// pfnOfferResources offers their allocations (pfnOfferAllocationsCb).
// Using an offered resource before ReclaimResources is the application's
// error: what it reads is undefined.
func (d *Device) OfferResources(res []*Resource, prio ddi.OfferPriority) (err error) {
	names := resNames(res)
	done := d.api("OfferResources", names, "")
	defer func() { done.end(err) }()
	hs, err := d.offerHandles("OfferResources", names, res)
	if err != nil {
		return err
	}
	if prio < 1 || prio > 3 {
		return d.invalid("OfferResources", names, "Priority %d is not a DXGI_OFFER_RESOURCE_PRIORITY (LOW 1, NORMAL 2, HIGH 3)", prio)
	}
	var b trace.ArgBuilder
	return d.ddiIC().with(names, "", b.Int(trace.KeyType, int64(prio)).Args()).OfferResourcesDXGI(d.hDev, hs, prio)
}

// ReclaimResources is IDXGIDevice2::ReclaimResources: the resources are
// the application's again; discarded[i] says resource i lost its content
// while offered (pDiscarded), which the application must then write again.
func (d *Device) ReclaimResources(res []*Resource) (discarded []bool, err error) {
	names := resNames(res)
	done := d.api("ReclaimResources", names, "")
	defer func() { done.end(err) }()
	hs, err := d.offerHandles("ReclaimResources", names, res)
	if err != nil {
		return nil, err
	}
	discarded = make([]bool, len(res))
	if err := d.ddiIC().on(names, "").ReclaimResourcesDXGI(d.hDev, hs, discarded); err != nil {
		return nil, err
	}
	return discarded, nil
}

func resNames(res []*Resource) string {
	ns := make([]string, len(res))
	for i, r := range res {
		ns[i] = r.name
	}
	return strings.Join(ns, " ")
}

// offerHandles checks what Offer/ReclaimResources may take: live resources
// of this device, no primary, a driver with the DXGI 1.2 entries.
func (d *Device) offerHandles(call, names string, res []*Resource) ([]ddi.HRESOURCE, error) {
	if len(res) == 0 {
		return nil, d.invalid(call, names, "NumResources is 0")
	}
	objs := make([]Object, len(res))
	for i, r := range res {
		objs[i] = r
	}
	if err := d.dangling(call, objs...); err != nil {
		return nil, err
	}
	if err := d.removedHR(); err != nil {
		return nil, err
	}
	if _, ok := d.umd.(ddi.OfferReclaimer); !ok {
		return nil, d.invalid(call, names, "the driver has no pfnOfferResources/pfnReclaimResources")
	}
	hs := make([]ddi.HRESOURCE, len(res))
	for i, r := range res {
		if r.dev != d {
			return nil, d.invalid(call, names, "ppResources[%d]: %s belongs to another device", i, r.name)
		}
		if r.Desc.Primary {
			return nil, d.invalid(call, names, "ppResources[%d]: %s is a swap chain's buffer, which cannot be offered", i, r.name)
		}
		hs[i] = r.h
	}
	return hs, nil
}

// OfferResourcesDXGI and ReclaimResourcesDXGI are the driver's
// ddi.OfferReclaimer entries, outside the table.
func (w ddiCall) OfferResourcesDXGI(h ddi.HDEVICE, res []ddi.HRESOURCE, prio ddi.OfferPriority) error {
	sp := w.enter("OfferResourcesDXGI")
	err := w.umd.(ddi.OfferReclaimer).OfferResourcesDXGI(h, res, prio)
	sp.end(err)
	return err
}

func (w ddiCall) ReclaimResourcesDXGI(h ddi.HDEVICE, res []ddi.HRESOURCE, discarded []bool) error {
	sp := w.enter("ReclaimResourcesDXGI")
	err := w.umd.(ddi.OfferReclaimer).ReclaimResourcesDXGI(h, res, discarded)
	sp.end(err)
	return err
}

// offerKernel is Dxgkrnl's side of the offer callbacks.
type offerKernel interface {
	OfferAllocations(dev dxgk.HDevice, hs []dxgk.HAllocation, prio dxgk.OfferPriority) error
	ReclaimAllocations(dev dxgk.HDevice, hs []dxgk.HAllocation) ([]bool, error)
}

var _ offerKernel = (*dxgk.Dxgkrnl)(nil)

func allocNames(as []ddi.HALLOCATION) (string, []dxgk.HAllocation) {
	ns := make([]string, len(as))
	hs := make([]dxgk.HAllocation, len(as))
	for i, a := range as {
		ns[i], hs[i] = fmt.Sprintf("a%d", a), dxgk.HAllocation(a)
	}
	return strings.Join(ns, ","), hs
}

// PfnOfferAllocationsCb offers allocations (D3DDDICB_OFFERALLOCATIONS).
func (c *callbacks) PfnOfferAllocationsCb(_ ddi.HRTDEVICE, a *ddi.OfferAllocationsCb) (err error) {
	names, hs := allocNames(a.Allocations)
	var b trace.ArgBuilder
	done := c.enter("pfnOfferAllocationsCb", trace.Event{Handle: names, Args: b.Str(trace.KeyType, dxgk.OfferPriority(a.Priority).String()).Args()})
	defer func() { done.end(err) }()
	k, ok := c.rt.cfg.Kernel.(offerKernel)
	if !ok {
		return fmt.Errorf("d3d11: pfnOfferAllocationsCb: the kernel does not offer allocations")
	}
	return kernelErr(k.OfferAllocations(c.kdev, hs, dxgk.OfferPriority(a.Priority)))
}

// PfnReclaimAllocationsCb reclaims them (D3DDDICB_RECLAIMALLOCATIONS):
// Discarded says which lost their content.
func (c *callbacks) PfnReclaimAllocationsCb(_ ddi.HRTDEVICE, a *ddi.ReclaimAllocationsCb) (err error) {
	names, hs := allocNames(a.Allocations)
	done := c.enter("pfnReclaimAllocationsCb", trace.Event{Handle: names})
	defer func() { done.end(err) }()
	k, ok := c.rt.cfg.Kernel.(offerKernel)
	if !ok {
		return fmt.Errorf("d3d11: pfnReclaimAllocationsCb: the kernel does not reclaim allocations")
	}
	d, err := k.ReclaimAllocations(c.kdev, hs)
	if err != nil {
		return kernelErr(err)
	}
	a.Discarded = d
	return nil
}

var _ ddi.OfferCallbacks = (*callbacks)(nil)

// OfferPriority is DXGI_OFFER_RESOURCE_PRIORITY (LOW 1, NORMAL 2, HIGH 3),
// the driver's D3DDDI_OFFER_PRIORITY.
type OfferPriority = ddi.OfferPriority
