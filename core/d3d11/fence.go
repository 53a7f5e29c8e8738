package d3d11

import (
	"fmt"

	"d3dsim/core/ddi"
	"d3dsim/core/dxgk"
	"d3dsim/core/trace"
)

// Fences (ID3D11Fence) and the immediate context's Signal: the way an
// application reaches pfnSignalSynchronizationObjectCb. The runtime makes
// the fence's kernel synchronization object itself; Signal asks the driver
// to insert the signal in its context's DMA stream (ddi.Signaler), so the
// fence takes the value once the GPU has finished the work submitted before
// it. The CPU reads the value (GetCompletedValue) or waits for it
// (SetEventOnCompletion).

// Fence is an ID3D11Fence.
type Fence struct {
	object
	h dxgk.HSyncObject
}

// syncKernel is the part of Dxgkrnl fences use (*dxgk.Dxgkrnl).
type syncKernel interface {
	CreateSynchronizationObject(dev dxgk.HDevice, initial uint64, obj string) (dxgk.HSyncObject, error)
	DestroySynchronizationObject(h dxgk.HSyncObject) error
	SignalSynchronizationObject(ctx dxgk.HContext, objs []dxgk.HSyncObject, value uint64) (uint64, error)
	SynchronizationObjectValue(h dxgk.HSyncObject) uint64
	WaitForSynchronizationObjectFromCpu(h dxgk.HSyncObject, value uint64) error
}

var _ syncKernel = (*dxgk.Dxgkrnl)(nil)

func (d *Device) syncKernel() (syncKernel, bool) {
	k, ok := d.rt.cfg.Kernel.(syncKernel)
	return k, ok
}

// CreateFence is ID3D11Device5::CreateFence: a fence with an initial value.
func (d *Device) CreateFence(name string, initial uint64) (f *Fence, err error) {
	done := d.api("CreateFence", name, "")
	defer func() { done.end(err) }()
	if err := d.removedHR(); err != nil {
		return nil, err
	}
	k, ok := d.syncKernel()
	if !ok {
		return nil, d.invalid("CreateFence", name, "the kernel has no synchronization objects")
	}
	if err := d.objectLimit("CreateFence", name); err != nil {
		return nil, err
	}
	if err := d.reserve("CreateFence", name, ObjectOverhead); err != nil {
		return nil, err
	}
	var cb span
	if d.rt.cfg.MonitoredFences {
		var b trace.ArgBuilder
		cb = d.kernelCall("pfnCreateSynchronizationObject2Cb", trace.Event{Obj: name, Fence: initial,
			Args: b.Str(trace.KeyType, "D3DDDI_MONITORED_FENCE").Args()})
	}
	h, err := k.CreateSynchronizationObject(d.kdev, initial, name)
	if d.rt.cfg.MonitoredFences {
		if err == nil {
			cb.ev.Handle = h.String()
		}
		cb.end(err)
		if err == nil {
			d.rt.cfg.Rec.Emit(trace.Event{From: trace.Runtime, Layer: trace.Runtime, Kind: trace.Message, Name: "MonitoredFence", Obj: name, Handle: h.String(),
				Msg: fmt.Sprintf("WDDM 2.0 monitored fence %v: FenceValueCPUVirtualAddress %#x (read-only for the CPU), FenceValueGPUVirtualAddress %#x (\"Context Monitoring\")",
					h, monitoredCPUVA(h), monitoredGPUVA(h))})
		}
	}
	if err != nil {
		d.unreserve(ObjectOverhead)
		return nil, kernelErr(err)
	}
	f = &Fence{h: h}
	d.initChild(&f.object, name, ObjectOverhead, func() { k.DestroySynchronizationObject(h) })
	return f, nil
}

// GetCompletedValue is the fence's value as the CPU sees it.
func (f *Fence) GetCompletedValue() uint64 {
	done := f.dev.api("GetCompletedValue", f.name, "")
	var v uint64
	if k, ok := f.dev.syncKernel(); ok && f.Alive() {
		v = k.SynchronizationObjectValue(f.h)
	}
	if f.dev.rt.cfg.MonitoredFences {
		// "Allows the CPU to keep track of the fence progress by just
		// reading this memory location": no callback, no kernel.
		f.dev.rt.cfg.Rec.Emit(trace.Event{From: trace.Runtime, Layer: trace.Runtime, Kind: trace.Message, Name: "MonitoredFenceRead", Obj: f.name, Handle: f.h.String(), Fence: v,
			Msg: fmt.Sprintf("read %d from the monitored fence's FenceValueCPUVirtualAddress %#x: no callback, no kernel call (WDDM 2.0)", v, monitoredCPUVA(f.h))})
	}
	done.ev.Fence = v
	done.end(nil)
	return v
}

// kernelCall traces the runtime's own call into the kernel (a
// pfn*Cb the runtime makes without the driver).
func (d *Device) kernelCall(name string, ev trace.Event) span {
	cfg := d.rt.cfg
	cfg.Sim.Charge(cfg.Costs.Callback)
	ev.From, ev.Layer, ev.Kind, ev.Name = trace.Runtime, trace.Runtime, trace.Call, name
	cfg.Rec.Emit(ev)
	return span{rec: cfg.Rec, ev: keep(&ev), kernel: true}
}

// monitoredCPUVA and monitoredGPUVA are the simulated addresses of a
// monitored fence's value: one 64-bit slot per synchronization object in a
// page the kernel maps read-only for the CPU and read-write for the GPU.
func monitoredCPUVA(h dxgk.HSyncObject) uint64 { return 0x7ff0_0000_0000 + 8*uint64(h) }
func monitoredGPUVA(h dxgk.HSyncObject) uint64 { return 0x0000_4000_0000 + 8*uint64(h) }

// SetEventOnCompletion waits until the fence reaches value. The scenario
// language has no event objects: the call blocks as ID3D12Fence's does with
// a NULL event.
func (f *Fence) SetEventOnCompletion(value uint64) (err error) {
	done := f.dev.api("SetEventOnCompletion", f.name, "")
	defer func() { done.end(err) }()
	if err := f.dev.dangling("SetEventOnCompletion", f); err != nil {
		return err
	}
	k, _ := f.dev.syncKernel()
	if f.dev.rt.cfg.MonitoredFences {
		// WDDM 2.0: "WaitForSynchronizationObjectFromCpuCb blocks until the
		// wait is satisfied" ("Context Monitoring", CPU wait).
		cb := f.dev.kernelCall("pfnWaitForSynchronizationObjectFromCpuCb", trace.Event{Obj: f.name, Handle: f.h.String(), Fence: value})
		err := kernelErr(k.WaitForSynchronizationObjectFromCpu(f.h, value))
		cb.end(err)
		return err
	}
	if err := k.WaitForSynchronizationObjectFromCpu(f.h, value); err != nil {
		return kernelErr(err)
	}
	return nil
}

// Signal is ID3D11DeviceContext4::Signal: the fence takes value once the
// GPU has finished everything submitted on the immediate context before it
// (the driver submits what it recorded first). A deferred context cannot
// signal.
func (c *DeviceContext) Signal(f *Fence, value uint64) (err error) {
	name := "NULL"
	if f != nil {
		name = f.name
	}
	done := c.api("Signal", name)
	defer func() { done.end(err) }()
	switch {
	case f == nil:
		return c.dev.invalid("Signal", "NULL", "no fence")
	case f.dev != c.dev:
		return c.dev.invalid("Signal", f.name, "%s belongs to another device", f.name)
	case c.Deferred():
		return c.dev.invalid("Signal", f.name, "only the immediate context signals a fence")
	}
	if err := c.checkAll("Signal", f); err != nil {
		return err
	}
	if err := c.dev.removedHR(); err != nil {
		return err
	}
	if _, ok := c.ddi.umd.(ddi.Signaler); !ok {
		return c.dev.invalid("Signal", f.name, "the driver cannot signal a fence")
	}
	var b trace.ArgBuilder
	return c.ddi.with(f.name, f.h.String(), b.Uint(trace.KeyFence, value).Args()).Signal(c.h, ddi.HSYNCOBJECT(f.h), value)
}

// Signal is the driver's ddi.Signaler entry, outside the table.
func (w ddiCall) Signal(h ddi.HDEVICE, obj ddi.HSYNCOBJECT, value uint64) error {
	sp := w.enter("Signal")
	err := w.umd.(ddi.Signaler).Signal(h, obj, value)
	sp.end(err)
	return err
}

// PfnSignalSynchronizationObjectCb inserts the signal in the context's DMA
// stream (D3DKMTSignalSynchronizationObject). The objects take the value
// when the work submitted on the context before it is done. It names the
// HCONTEXT: one thread at a time (rule FT-HCTX).
func (c *callbacks) PfnSignalSynchronizationObjectCb(_ ddi.HRTDEVICE, a *ddi.SignalSynchronizationObjectCb) (err error) {
	return c.gpuSignal("pfnSignalSynchronizationObjectCb", a)
}

// PfnSignalSynchronizationObjectFromGpuCb is the WDDM 2.0 form for
// monitored fences: a software signal packet queued to the GPU context
// ("Context Monitoring", GPU signal). Dxgkrnl writes the fence's value
// where the CPU reads it once the work before it is done.
func (c *callbacks) PfnSignalSynchronizationObjectFromGpuCb(_ ddi.HRTDEVICE, a *ddi.SignalSynchronizationObjectCb) (err error) {
	return c.gpuSignal("pfnSignalSynchronizationObjectFromGpuCb", a)
}

func (c *callbacks) gpuSignal(name string, a *ddi.SignalSynchronizationObjectCb) (err error) {
	obj := ""
	objs := make([]dxgk.HSyncObject, len(a.ObjectHandleArray))
	for i, h := range a.ObjectHandleArray {
		objs[i] = dxgk.HSyncObject(h)
	}
	if len(objs) > 0 {
		obj = objs[0].String()
	}
	var b trace.ArgBuilder
	ev := trace.Event{Obj: obj, Fence: a.FenceValue, Args: b.Str(trace.KeyDev, c.name).Str(trace.KeyHctx, fmt.Sprintf("c%d", a.Context)).Args()}
	done := c.enter(name, ev)
	defer func() { done.end(err) }()
	c.preempt()
	k, ok := c.dev().syncKernel()
	if !ok {
		return kernelErr(fmt.Errorf("d3d11: the kernel has no synchronization objects"))
	}
	a.Fence, err = k.SignalSynchronizationObject(dxgk.HContext(a.Context), objs, a.FenceValue)
	return kernelErr(err)
}

// Wait is ID3D11DeviceContext4::Wait: the immediate context's work after
// the call does not begin on the GPU until the fence reaches value ("waits
// until the specified fence reaches or exceeds the specified value before
// future work can begin"). The calling thread does not block: the driver
// submits what it recorded, then queues the wait in its context's DMA
// stream with pfnWaitForSynchronizationObjectCb. The fence may be another
// device's: the scenario language has no shared handles, so a fence is
// used by any device of the adapter as if opened there with
// ID3D11Device5::OpenSharedFence. A deferred context cannot wait.
func (c *DeviceContext) Wait(f *Fence, value uint64) (err error) {
	name := "NULL"
	if f != nil {
		name = f.name
	}
	done := c.api("Wait", name)
	defer func() { done.end(err) }()
	switch {
	case f == nil:
		return c.dev.invalid("Wait", "NULL", "no fence")
	case c.Deferred():
		return c.dev.invalid("Wait", f.name, "only the immediate context waits for a fence")
	}
	if err := c.checkAll("Wait", f); err != nil {
		return err
	}
	if err := c.dev.removedHR(); err != nil {
		return err
	}
	if _, ok := c.ddi.umd.(ddi.Waiter); !ok {
		return c.dev.invalid("Wait", f.name, "the driver cannot wait for a fence")
	}
	var b trace.ArgBuilder
	return c.ddi.with(f.name, f.h.String(), b.Uint(trace.KeyFence, value).Args()).Wait(c.h, ddi.HSYNCOBJECT(f.h), value)
}

// Wait is the driver's ddi.Waiter entry, outside the table.
func (w ddiCall) Wait(h ddi.HDEVICE, obj ddi.HSYNCOBJECT, value uint64) error {
	sp := w.enter("Wait")
	err := w.umd.(ddi.Waiter).Wait(h, obj, value)
	sp.end(err)
	return err
}
