package d3d11

import (
	"errors"
	"testing"

	"d3dsim/core/ddi"
	"d3dsim/core/hresult"
)

// TestStageTables: every stage has its tables and its DDIs (the hull and
// domain stages' too: pfnHsSetConstantBuffers, pfnDsSetConstantBuffers);
// the getters of every stage answer and AddRef what they return; ranges
// call the DDI once with every handle.
func TestStageTables(t *testing.T) {
	f := mustStack(t, fakeOpts{})
	cb, err := f.dev.CreateBuffer("cb", BufferDesc{ByteWidth: 16, BindFlags: ddi.BindConstantBuffer}, nil)
	if err != nil {
		t.Fatal(err)
	}
	for st := StageHS; st < StageCS; st++ {
		if err := f.ic.SetConstantBuffers(st, 0, []*Resource{cb}); err != nil {
			t.Errorf("%v: %v", st, err)
		}
		if got, err := f.ic.GetConstantBuffers(st, 0, 14); err != nil || len(got) != 14 || got[0] != cb {
			t.Errorf("%v: GetConstantBuffers = %v, %v", st, got, err)
		}
	}
	if err := f.ic.SetConstantBuffers(StageVS, 12, []*Resource{cb, nil}); err != nil {
		t.Fatal(err)
	}
	if n := count(f.log.names(""), "VsSetConstantBuffers"); n != 1 {
		t.Errorf("%d VsSetConstantBuffers DDIs for one range, want 1", n)
	}
	refs := cb.refs.Load()
	got, err := f.ic.GetConstantBuffers(StageVS, 12, 2)
	if err != nil || len(got) != 2 || got[0] != cb || got[1] != nil {
		t.Fatalf("GetConstantBuffers(VS, 12, 2) = %v, %v; want cb, nil", got, err)
	}
	if cb.refs.Load() != refs+1 {
		t.Errorf("GetConstantBuffers took %d references, want 1 (AddRef, as D3D11's getters)", cb.refs.Load()-refs)
	}
	cb.Release()
	if _, err := f.ic.GetConstantBuffers(StageVS, 13, 2); !errors.Is(err, hresult.E_INVALIDARG) {
		t.Errorf("GetConstantBuffers past the slots: %v, want E_INVALIDARG", err)
	}
}
