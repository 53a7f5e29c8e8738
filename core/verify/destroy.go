package verify

import (
	"d3dsim/core/rules"
	"slices"
	"strings"

	"d3dsim/core/trace"
)

// Deferred destruction ("Changes from Direct3D 10").

type ddState struct {
	primary map[string]bool   // resource handle -> is a primary
	device  map[string]string // resource handle -> device name
	pending map[string]uint64 // destroyed, not yet deallocated -> seq of its DestroyResource
}

// deferredDestroys are the Destroy* DDIs besides DestroyResource whose
// destruction is deferred like a resource's (rule DD-ORDER): a
// pfnDeallocateCb inside one (a query's allocation) is the driver
// destroying on the spot.
var deferredDestroys = map[string]bool{
	"DestroyQuery": true, "DestroyShader": true, "DestroyBlendState": true, "DestroyRasterizerState": true,
	"DestroyDepthStencilState": true, "DestroySampler": true, "DestroyRenderTargetView": true,
	"DestroyShaderResourceView": true, "DestroyDepthStencilView": true,
}

func (v *Verifier) destruction(e *trace.Event) []Violation {
	d := &v.dd
	if d.pending == nil {
		*d = ddState{primary: map[string]bool{}, device: map[string]string{}, pending: map[string]uint64{}}
	}
	var out []Violation
	umdIC := e.Layer == trace.UMD && (e.Ctx == "IC" || e.Ctx == "")
	switch {
	case e.Kind == trace.Call && umdIC && e.Name == "CreateResource":
		d.primary[e.Handle] = argIs(e.Args, trace.KeyPrimary, 1)
		d.device[e.Handle] = strings.Clone(e.Args.Str(trace.KeyDev)) // (kept past the event: Args.Clone)
	case e.Kind == trace.Return && umdIC && e.Name == "CreateResource" && createFailed(e):
		delete(d.primary, e.Handle)
		delete(d.device, e.Handle)
	case e.Kind == trace.Call && umdIC && e.Name == "DestroyResource":
		d.pending[e.Handle] = e.Seq
	case e.Kind == trace.Return && umdIC && e.Name == "DestroyResource":
		if _, still := d.pending[e.Handle]; still && d.primary[e.Handle] {
			out = append(out, v.violation(rules.DDPrimary, e, "DestroyResource of primary %s returned before pfnDeallocateCb: a primary's destruction cannot be deferred", e.Handle))
		}
	case e.Kind == trace.Call && e.Name == "pfnDeallocateCb":
		for p := v.parent(e); p != nil; p = v.parent(p) {
			if p.Layer == trace.UMD && deferredDestroys[p.Name] {
				out = append(out, v.violation(rules.DDOrder, e, "pfnDeallocateCb (%s) inside %s of %s: every destroy function is free-threaded and must defer the destruction until a pfnRenderCb follows the object's last use on the immediate context", e.Obj, p.Name, p.Obj))
				return out
			}
		}
		res := e.Args.Str(trace.KeyRes)
		if _, ok := d.pending[res]; !ok {
			break
		}
		delete(d.pending, res)
		if d.primary[res] {
			break
		}
		for p := v.parent(e); p != nil; p = v.parent(p) {
			if p.Name == "DestroyResource" && p.Layer == trace.UMD && p.Handle == res {
				out = append(out, v.violation(rules.DDOrder, e, "pfnDeallocateCb for %s (%s) inside its DestroyResource: a free-threaded destroy must wait until a pfnRenderCb follows the resource's last use on the immediate context", res, e.Obj))
				break
			}
		}
	case e.Kind == trace.Return && e.Layer == trace.UMD && e.Name == "Flush" && e.Ctx == "IC":
		// The driver's Flush: what was destroyed before it was called --
		// the runtime's Flush drains its own destruction queue first, so
		// that is also what ClearState unbound -- is deallocated when it
		// returns.
		call := v.callOf(e)
		for _, res := range v.pendingBefore(call) {
			out = append(out, v.violation(rules.DDFlush, e, "Flush returned while %s, destroyed before it, is still not deallocated: Flush must process the deferred-destruction queue even when the command buffer is empty", res))
		}
	case e.Kind == trace.Return && e.Layer == trace.Runtime && e.Name == "DestroyDevice":
		for _, res := range v.pendingBefore(e.Seq) {
			if d.device[res] == e.Obj {
				out = append(out, v.violation(rules.DDDevice, e, "DestroyDevice of %s returned with %s still waiting for deferred destruction", e.Obj, res))
			}
		}
	}
	return out
}

// pendingBefore lists, sorted, the resources destroyed before seq and not
// yet deallocated.
func (v *Verifier) pendingBefore(seq uint64) []string {
	var out []string
	for res, at := range v.dd.pending {
		if at < seq && !v.dd.primary[res] {
			out = append(out, res)
		}
	}
	slices.Sort(out)
	return out
}

// callOf finds the Call event a Return closes (the latest Call of that name
// on that thread before it).
func (v *Verifier) callOf(ret *trace.Event) uint64 {
	var seq uint64
	v.rec.ScanBack(ret.Seq, func(e *trace.Event) bool { // what the trace ring holds
		if e.Thread == ret.Thread && e.Kind == trace.Call && e.Name == ret.Name && strings.EqualFold(e.Layer.String(), ret.Layer.String()) {
			seq = e.Seq
			return false
		}
		return true
	})
	return seq
}
