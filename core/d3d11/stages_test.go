package d3d11

import (
	"errors"
	"strings"
	"testing"

	"d3dsim/core/ddi"
	"d3dsim/core/hresult"
)

// TestStageTables: every stage has its tables; the stages without a driver
// (HS, DS) refuse bindings, naming the stage, before any DDI; the
// getters of every stage answer (nothing bound there) and AddRef what they
// return; ranges call the DDI once with every handle.
func TestStageTables(t *testing.T) {
	f := mustStack(t, fakeOpts{})
	cb, err := f.dev.CreateBuffer("cb", BufferDesc{ByteWidth: 16, BindFlags: ddi.BindConstantBuffer}, nil)
	if err != nil {
		t.Fatal(err)
	}
	before := len(f.log.names(""))
	for st := StageHS; st < StageCS; st++ {
		err := f.ic.SetConstantBuffers(st, 0, []*Resource{cb})
		if !errors.Is(err, hresult.E_INVALIDARG) || !strings.Contains(err.Error(), st.String()+"SetConstantBuffers") || !strings.Contains(err.Error(), "-shader stage yet") {
			t.Errorf("%v: %v, want E_INVALIDARG naming %sSetConstantBuffers and the stage", st, err, st)
		}
		if got, err := f.ic.GetConstantBuffers(st, 0, 14); err != nil || len(got) != 14 || got[0] != nil {
			t.Errorf("%v: GetConstantBuffers = %v, %v", st, got, err)
		}
	}
	if n := len(f.log.names("")); n != before {
		t.Errorf("%d DDIs for refused bindings: %v", n-before, f.log.names("")[before:])
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
