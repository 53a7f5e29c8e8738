package umd

import (
	"sync"

	"d3dsim/core/ddi"
)

// serialised is the immediate context's DDI table as the driver hands it
// to the runtime: every DDI that can reach a kernel callback naming the
// device's HCONTEXT (pfnRenderCb, pfnPresentCb,
// pfnWaitForSynchronizationObjectCb, pfnSignalSynchronizationObjectCb,
// pfnDestroyContextCb) holds the HCONTEXT's lock from entry to return.
// "Changes from Direct3D 10": only one thread at a time may use an
// HCONTEXT, and if several threads call those callbacks with the same one,
// the driver must synchronise them (rule FT-HCTX). Holding the lock for the
// whole DDI, not just the callback, also keeps a second thread out of the
// command buffer the first one is submitting.
//
// The state-setting DDIs call no callback and take no lock. The runtime
// enters the driver again from inside its callbacks (IaSetVertexBuffers in
// the state refresh; destroy DDIs, a primary's among them, when amortized
// processing drains its queue): the lock is one the holding thread may take
// again (Config.NewLock's is a sim.Mutex). bug=FT-HCTX hands the runtime
// the bare table instead.
type serialised struct {
	*Device
	lock sync.Locker
}

var (
	_ ddi.Device   = (*serialised)(nil)
	_ ddi.Signaler = (*serialised)(nil)
	_ ddi.Waiter   = (*serialised)(nil)
	_ ddi.Escaper  = (*serialised)(nil)
)

func (s *serialised) ClearRenderTargetView(h ddi.HDEVICE, v ddi.HRENDERTARGETVIEW, rgba [4]float32) {
	s.lock.Lock()
	defer s.lock.Unlock()
	s.Device.ClearRenderTargetView(h, v, rgba)
}

func (s *serialised) ClearDepthStencilView(h ddi.HDEVICE, v ddi.HDEPTHSTENCILVIEW, flags ddi.ClearFlag, depth float32, stencil uint8) {
	s.lock.Lock()
	defer s.lock.Unlock()
	s.Device.ClearDepthStencilView(h, v, flags, depth, stencil)
}

func (s *serialised) Draw(h ddi.HDEVICE, count, start uint32) {
	// (no defer: a deferred Unlock was about 45 instructions of every
	// Draw, issue 32's draw rate; a Draw that panics is a bug of the
	// simulator, and its run is over)
	s.lock.Lock()
	s.Device.Draw(h, count, start)
	s.lock.Unlock()
}

func (s *serialised) DrawIndexed(h ddi.HDEVICE, count, start uint32, base int32) {
	s.lock.Lock()
	defer s.lock.Unlock()
	s.Device.DrawIndexed(h, count, start, base)
}

func (s *serialised) DrawInstanced(h ddi.HDEVICE, count, instances, start, startInstance uint32) {
	s.lock.Lock()
	defer s.lock.Unlock()
	s.Device.DrawInstanced(h, count, instances, start, startInstance)
}

func (s *serialised) DrawIndexedInstanced(h ddi.HDEVICE, count, instances, start uint32, base int32, startInstance uint32) {
	s.lock.Lock()
	defer s.lock.Unlock()
	s.Device.DrawIndexedInstanced(h, count, instances, start, base, startInstance)
}

func (s *serialised) DrawInstancedIndirect(h ddi.HDEVICE, buf ddi.HRESOURCE, offset uint32) {
	s.lock.Lock()
	defer s.lock.Unlock()
	s.Device.DrawInstancedIndirect(h, buf, offset)
}

func (s *serialised) DrawIndexedInstancedIndirect(h ddi.HDEVICE, buf ddi.HRESOURCE, offset uint32) {
	s.lock.Lock()
	defer s.lock.Unlock()
	s.Device.DrawIndexedInstancedIndirect(h, buf, offset)
}

func (s *serialised) ResourceCopy(h ddi.HDEVICE, dst, src ddi.HRESOURCE) {
	s.lock.Lock()
	defer s.lock.Unlock()
	s.Device.ResourceCopy(h, dst, src)
}

func (s *serialised) ResourceUpdateSubresourceUP(h ddi.HDEVICE, dst ddi.HRESOURCE, sub uint32, box *ddi.Box, data []byte, rowPitch, depthPitch uint32) {
	s.lock.Lock()
	defer s.lock.Unlock()
	s.Device.ResourceUpdateSubresourceUP(h, dst, sub, box, data, rowPitch, depthPitch)
}

func (s *serialised) GenerateMips(h ddi.HDEVICE, v ddi.HSHADERRESOURCEVIEW) {
	s.lock.Lock()
	defer s.lock.Unlock()
	s.Device.GenerateMips(h, v)
}

func (s *serialised) ResourceMap(h ddi.HDEVICE, r ddi.HRESOURCE, t ddi.MapType, flags ddi.MapFlag, out *ddi.MappedSubresource) {
	s.lock.Lock()
	defer s.lock.Unlock()
	s.Device.ResourceMap(h, r, t, flags, out)
}

func (s *serialised) QueryBegin(h ddi.HDEVICE, q ddi.HQUERY) {
	s.lock.Lock()
	defer s.lock.Unlock()
	s.Device.QueryBegin(h, q)
}

func (s *serialised) QueryEnd(h ddi.HDEVICE, q ddi.HQUERY) {
	s.lock.Lock()
	defer s.lock.Unlock()
	s.Device.QueryEnd(h, q)
}

func (s *serialised) QueryGetData(h ddi.HDEVICE, q ddi.HQUERY, data []byte, flags uint32) {
	s.lock.Lock()
	defer s.lock.Unlock()
	s.Device.QueryGetData(h, q, data, flags)
}

func (s *serialised) Flush(h ddi.HDEVICE) {
	s.lock.Lock()
	defer s.lock.Unlock()
	s.Device.Flush(h)
}

func (s *serialised) PresentDXGI(h ddi.HDEVICE, a *ddi.PresentArg) error {
	s.lock.Lock()
	defer s.lock.Unlock()
	return s.Device.PresentDXGI(h, a)
}

func (s *serialised) RotateResourceIdentitiesDXGI(h ddi.HDEVICE, res []ddi.HRESOURCE) {
	s.lock.Lock()
	defer s.lock.Unlock()
	s.Device.RotateResourceIdentitiesDXGI(h, res)
}

func (s *serialised) SetDisplayModeDXGI(h ddi.HDEVICE, primary ddi.HRESOURCE) error {
	s.lock.Lock()
	defer s.lock.Unlock()
	return s.Device.SetDisplayModeDXGI(h, primary)
}

func (s *serialised) CommandListExecute(h ddi.HDEVICE, cl ddi.HCOMMANDLIST) {
	s.lock.Lock()
	defer s.lock.Unlock()
	s.Device.CommandListExecute(h, cl)
}

func (s *serialised) Signal(h ddi.HDEVICE, obj ddi.HSYNCOBJECT, value uint64) error {
	s.lock.Lock()
	defer s.lock.Unlock()
	return s.Device.Signal(h, obj, value)
}

func (s *serialised) Wait(h ddi.HDEVICE, obj ddi.HSYNCOBJECT, value uint64) error {
	s.lock.Lock()
	defer s.lock.Unlock()
	return s.Device.Wait(h, obj, value)
}

func (s *serialised) DestroyDevice(h ddi.HDEVICE) {
	s.lock.Lock()
	defer s.lock.Unlock()
	s.Device.DestroyDevice(h)
}

// DestroyResource is free-threaded and takes no lock, but a primary's lives
// in the immediate context's thread domain and may submit what the context
// recorded (rule DD-PRIMARY): that one holds the lock.
func (s *serialised) DestroyResource(h ddi.HDEVICE, r ddi.HRESOURCE) {
	s.mu.Lock()
	res := s.res[r]
	s.mu.Unlock()
	if res != nil && res.args.Primary {
		s.lock.Lock()
		defer s.lock.Unlock()
	}
	s.Device.DestroyResource(h, r)
}
