package apitrace

import (
	"strings"

	"d3dsim/core/d3d11"
	"d3dsim/core/scenario"
)

// IDXGIDevice2::OfferResources and ReclaimResources ("Video Memory Offer
// and Reclaim"). A capture names the resources by their IDXGIResource
// interfaces; an export writes the D3D11 resources' own addresses, and an
// import resolves the objects it knows.
var (
	fnDXGIOffer   = method("IDXGIDevice2", "OfferResources", "NumResources", "ppResources", "Priority")
	fnDXGIReclaim = method("IDXGIDevice2", "ReclaimResources", "NumResources", "ppResources", "pDiscarded")
)

func expOffer(e *Exporter, th uint64, r *scenario.CallRecord) {
	objs := posObjects(r, "RES")
	res := make([]Value, len(objs))
	for i, o := range objs {
		res[i] = e.obj(o)
	}
	prio := uint64(bitsArg(r, "Priority", 2))
	a, release := e.dxgiDevice(th, r.Target)
	e.write(th, fnDXGIOffer, []Arg{{0, PtrV(a)}, {1, UintV(uint64(len(objs)))}, {2, ArrayV(res...)}, {3, UintV(prio)}}, nil, hr(r), 0)
	release()
}

func expReclaim(e *Exporter, th uint64, r *scenario.CallRecord) {
	objs := posObjects(r, "RES")
	res := make([]Value, len(objs))
	for i, o := range objs {
		res[i] = e.obj(o)
	}
	a, release := e.dxgiDevice(th, r.Target)
	e.write(th, fnDXGIReclaim, []Arg{{0, PtrV(a)}, {1, UintV(uint64(len(objs)))}, {2, ArrayV(res...)}}, nil, hr(r), 0)
	release()
}

// offerText is "DEV.METHOD RES [RES ...]" for the call's resources.
func (m *importer) offerText(c *Call, d *object, meth string) (string, error) {
	n, err := m.uintOf(c, "NumResources")
	if err != nil {
		return "", err
	}
	res := elems(c.Arg("ppResources"))
	if n == 0 || n > 16 || int(n) > len(res) {
		return "", skip("NumResources %d with %d resources (the scenario takes 1 to 16)", n, len(res))
	}
	refs := make([]string, n)
	for i := range refs {
		o, err := m.objOf(&res[i])
		if err != nil {
			return "", err
		}
		if o == nil || o.typ != "texture" && o.typ != "buffer" {
			return "", skip("ppResources[%d] is a %s", i, orKind(o))
		}
		refs[i] = m.ref(o)
	}
	return m.ref(d) + "." + meth + " " + strings.Join(refs, " "), nil
}

func impOffer(m *importer, c *Call, d *object) error {
	text, err := m.offerText(c, d, "OfferResources")
	if err != nil {
		return err
	}
	p, err := m.uintOf(c, "Priority")
	if err != nil {
		return err
	}
	for name, v := range d3d11.Enum("OfferPriority") {
		if uint64(v) == p {
			text += " Priority=" + name
		}
	}
	m.emit(c, text, hrOf(c))
	return nil
}

func impReclaim(m *importer, c *Call, d *object) error {
	text, err := m.offerText(c, d, "ReclaimResources")
	if err != nil {
		return err
	}
	m.emit(c, text, hrOf(c))
	return nil
}
