package umd

import "d3dsim/core/ddi"

// The create DDIs return nothing: a failure goes to the runtime through
// pfnSetErrorCb ("Using context-local DDI handles", report).

// CreateResource allocates video memory through pfnAllocateCb (WDDM
// operation flow, step 5).
func (d *Device) CreateResource(h ddi.HDEVICE, a *ddi.CreateResourceArgs, r ddi.HRESOURCE, rt ddi.HRTRESOURCE) {
	d.report(d.createResource(h, a, r, rt))
}

// CreateQuery allocates the query's result memory.
func (d *Device) CreateQuery(h ddi.HDEVICE, t ddi.QueryType, q ddi.HQUERY, rt uint32) {
	d.report(d.createQuery(h, t, q, rt))
}
