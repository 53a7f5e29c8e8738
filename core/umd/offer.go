package umd

import (
	"d3dsim/core/ddi"
	"d3dsim/core/hresult"
)

// OfferResourcesDXGI is the driver's pfnOfferResources (DXGI 1.2,
// "Video Memory Offer and Reclaim"): it offers the resources' allocations
// with pfnOfferAllocationsCb. Work it has recorded that uses them is
// submitted first, so it runs before their content may go.
func (d *immediateContext) OfferResourcesDXGI(_ ddi.HDEVICE, res []ddi.HRESOURCE, prio ddi.OfferPriority) error {
	d.busy()
	cb, as, err := d.offerAllocations("Offer", res)
	if err != nil {
		return err
	}
	for _, h := range res {
		if r := d.resource(h); r != nil && r.inBuffer && len(d.cmd.Words) > 0 {
			if err := d.submit(); err != nil {
				return err
			}
			break
		}
	}
	return cb.PfnOfferAllocationsCb(d.rt, &ddi.OfferAllocationsCb{Allocations: as, Priority: prio})
}

// ReclaimResourcesDXGI is the driver's pfnReclaimResources: it reclaims
// the allocations with pfnReclaimAllocationsCb and reports, per resource,
// whether any of its allocations lost its content.
func (d *immediateContext) ReclaimResourcesDXGI(_ ddi.HDEVICE, res []ddi.HRESOURCE, discarded []bool) error {
	d.busy()
	cb, as, err := d.offerAllocations("Reclaim", res)
	if err != nil {
		return err
	}
	a := ddi.ReclaimAllocationsCb{Allocations: as}
	if err := cb.PfnReclaimAllocationsCb(d.rt, &a); err != nil {
		return err
	}
	i := 0
	for k, h := range res {
		r := d.resource(h)
		for range 1 + len(r.extra) {
			if i < len(a.Discarded) && a.Discarded[i] && k < len(discarded) {
				discarded[k] = true
			}
			i++
		}
	}
	return nil
}

// offerAllocations lists the resources' allocations, in order, and the
// runtime's offer callbacks.
func (d *immediateContext) offerAllocations(op string, res []ddi.HRESOURCE) (ddi.OfferCallbacks, []ddi.HALLOCATION, error) {
	cb, ok := d.cb.(ddi.OfferCallbacks)
	if !ok {
		return nil, nil, hresult.Errorf(hresult.E_NOTIMPL, "umd: %sResources: the runtime has no pfn%sAllocationsCb", op, op)
	}
	var as []ddi.HALLOCATION
	for _, h := range res {
		r := d.resource(h)
		if r == nil {
			return nil, nil, hresult.Errorf(hresult.E_INVALIDARG, "umd: %sResources of unknown resource %d", op, h)
		}
		as = append(as, r.alloc)
		as = append(as, r.extra...)
	}
	return cb, as, nil
}

func (s *serialised) OfferResourcesDXGI(h ddi.HDEVICE, res []ddi.HRESOURCE, prio ddi.OfferPriority) error {
	s.lock.Lock()
	defer s.lock.Unlock()
	return s.Device.OfferResourcesDXGI(h, res, prio)
}

func (s *serialised) ReclaimResourcesDXGI(h ddi.HDEVICE, res []ddi.HRESOURCE, discarded []bool) error {
	s.lock.Lock()
	defer s.lock.Unlock()
	return s.Device.ReclaimResourcesDXGI(h, res, discarded)
}

var _ ddi.OfferReclaimer = (*serialised)(nil)
