package d3d11

import (
	"fmt"

	"d3dsim/core/ddi"
	"d3dsim/core/dxgk"
	"d3dsim/core/trace"
)

// residencyKernel is Dxgkrnl's side of the WDDM 2.0 residency callbacks.
type residencyKernel interface {
	MakeResident(dev dxgk.HDevice, hs []dxgk.HAllocation) (uint64, error)
	Evict(dev dxgk.HDevice, hs []dxgk.HAllocation) (uint64, error)
}

var _ residencyKernel = (*dxgk.Dxgkrnl)(nil)

// PfnMakeResidentCb puts allocations on the device's residency list
// (D3DDDI_MAKERESIDENT); a failure past the process budget returns
// NumBytesToTrim.
func (c *callbacks) PfnMakeResidentCb(_ ddi.HRTDEVICE, a *ddi.MakeResidentCb) (err error) {
	names, hs := allocNames(a.Allocations)
	done := c.enter("pfnMakeResidentCb", trace.Event{Handle: names, Msg: "WDDM 2.0 residency"})
	defer func() {
		if a.NumBytesToTrim > 0 {
			done.ev.Msg = fmt.Sprintf("NumBytesToTrim %d", a.NumBytesToTrim)
		}
		done.end(err)
	}()
	k, ok := c.rt.cfg.Kernel.(residencyKernel)
	if !ok {
		return fmt.Errorf("d3d11: pfnMakeResidentCb: the kernel keeps no residency lists")
	}
	n, err := k.MakeResident(c.kdev, hs)
	a.NumBytesToTrim = n
	return kernelErr(err)
}

// PfnEvictCb takes allocations off the device's residency list
// (D3DDDICB_EVICT).
func (c *callbacks) PfnEvictCb(_ ddi.HRTDEVICE, a *ddi.EvictCb) (err error) {
	names, hs := allocNames(a.Allocations)
	done := c.enter("pfnEvictCb", trace.Event{Handle: names, Msg: "WDDM 2.0 residency"})
	defer func() {
		done.ev.Msg = fmt.Sprintf("NumBytesToTrim %d", a.NumBytesToTrim)
		done.end(err)
	}()
	k, ok := c.rt.cfg.Kernel.(residencyKernel)
	if !ok {
		return fmt.Errorf("d3d11: pfnEvictCb: the kernel keeps no residency lists")
	}
	n, err := k.Evict(c.kdev, hs)
	a.NumBytesToTrim = n
	return kernelErr(err)
}

var _ ddi.ResidencyCallbacks = (*callbacks)(nil)

// TrimToBudget is the runtime's side of the kernel's trim notification
// (D3DKMT_TRIMNOTIFICATION with TrimToBudget, "Process residency
// budgets"): the process's budget shrank and numBytesToTrim must go; the
// runtime asks the driver to trim its residency list (pfnTrimResidencySet,
// D3DDDIARG_TRIMRESIDENCYSET).
func (d *Device) TrimToBudget(numBytesToTrim uint64) error {
	d.rt.cfg.Rec.Emit(trace.Event{From: trace.Dxgkrnl, Layer: trace.Runtime, Kind: trace.Message, Name: "TrimNotification",
		Handle: d.name, Args: trace.UintArg(trace.KeySize, numBytesToTrim),
		Msg: fmt.Sprintf("D3DKMT_TRIMNOTIFICATION: TrimToBudget, NumBytesToTrim %d", numBytesToTrim)})
	if _, ok := d.umd.(ddi.ResidencyTrimmer); !ok {
		return nil
	}
	return d.ddiIC().on(d.name, "").TrimResidencySet(d.hDev, &ddi.TrimResidencySetArgs{TrimToBudget: true, NumBytesToTrim: numBytesToTrim})
}

// TrimResidencySet is the driver's ddi.ResidencyTrimmer entry, outside the
// table.
func (w ddiCall) TrimResidencySet(h ddi.HDEVICE, a *ddi.TrimResidencySetArgs) error {
	sp := w.enter("TrimResidencySet")
	err := w.umd.(ddi.ResidencyTrimmer).TrimResidencySet(h, a)
	sp.end(err)
	return err
}
