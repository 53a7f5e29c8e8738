package ddi

// The hull and domain stages: the entries of D3D11DDI_DEVICEFUNCS for
// them (pfnCreateHullShader, pfnCreateDomainShader, pfnHsSetShader,
// pfnDsSetShader and each stage's pfn*SetConstantBuffers,
// pfn*SetShaderResources and pfn*SetSamplers). A driver that has them
// implements Tessellation beside Device; the runtime asks for it by a
// type assertion, as it does for Geometry.

// Tessellation is the hull and domain part of the device function table.
type Tessellation interface {
	CreateHullShader(h HDEVICE, a *ShaderArgs, s HSHADER, rt uint32)
	CreateDomainShader(h HDEVICE, a *ShaderArgs, s HSHADER, rt uint32)
	HsSetShader(HDEVICE, HSHADER)
	DsSetShader(HDEVICE, HSHADER)
	HsSetConstantBuffers(h HDEVICE, start uint32, bufs []HRESOURCE)
	HsSetShaderResources(h HDEVICE, start uint32, views []HSHADERRESOURCEVIEW)
	HsSetSamplers(h HDEVICE, start uint32, samplers []HSAMPLER)
	DsSetConstantBuffers(h HDEVICE, start uint32, bufs []HRESOURCE)
	DsSetShaderResources(h HDEVICE, start uint32, views []HSHADERRESOURCEVIEW)
	DsSetSamplers(h HDEVICE, start uint32, samplers []HSAMPLER)
}

// The patch-list topologies: D3D11_PRIMITIVE_TOPOLOGY_1_CONTROL_POINT_PATCHLIST
// (33) .. _32_CONTROL_POINT_PATCHLIST (64).
const (
	TopologyPatchList1  Topology = 33
	TopologyPatchList32 Topology = 64
)

func init() {
	// D3D11_PRIMITIVE_TOPOLOGY_N_CONTROL_POINT_PATCHLIST is PATCHLIST_N
	// in a scenario (a name starts with a letter).
	for n := TopologyPatchList1; n <= TopologyPatchList32; n++ {
		Enums["Topology"]["PATCHLIST_"+itoa(uint32(n-TopologyPatchList1+1))] = uint32(n)
	}
}

// ControlPoints is a patch-list topology's control points, 0 for any
// other topology.
func (t Topology) ControlPoints() uint32 {
	if t >= TopologyPatchList1 && t <= TopologyPatchList32 {
		return uint32(t - TopologyPatchList1 + 1)
	}
	return 0
}
