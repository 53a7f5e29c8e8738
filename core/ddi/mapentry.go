package ddi

// The runtime maps through one of six pairs of entries of the device
// function table, chosen by the resource and the map type
// ("PFND3D10DDI_RESOURCEMAP", remarks: "The Microsoft Direct3D runtime calls
// the appropriate map-unmap function pair depending on the resource type
// (for example, a buffer or texture) and the type of
// D3D10_DDI_RESOURCE_USAGE, D3D10_DDI_RESOURCE_BIND_FLAG, and D3D10_DDI_MAP
// values"). A driver may point several entries at one multipurpose
// ResourceMap and ResourceUnmap with a switch, as the simulated UMD does; the
// page's example driver asserts, per entry, what the runtime passes it.

// MapEntries lists the map entries of D3D11DDI_DEVICEFUNCS with their unmap
// partner, in the order MapEntry tries them.
var MapEntries = [][2]string{
	{"pfnDynamicIABufferMapDiscard", "pfnDynamicIABufferUnmap"},
	{"pfnDynamicIABufferMapNoOverwrite", "pfnDynamicIABufferUnmap"},
	{"pfnDynamicConstantBufferMapDiscard", "pfnDynamicConstantBufferUnmap"},
	{"pfnDynamicResourceMapDiscard", "pfnDynamicResourceUnmap"},
	{"pfnStagingResourceMap", "pfnStagingResourceUnmap"},
	{"pfnResourceMap", "pfnResourceUnmap"},
}

// MapEntry is the entry the runtime maps a resource through, and the one
// that unmaps it:
//
//   - a DYNAMIC buffer bound only as vertex or index buffer:
//     pfnDynamicIABufferMapDiscard for WRITE_DISCARD,
//     pfnDynamicIABufferMapNoOverwrite for WRITE_NO_OVERWRITE, unmapped by
//     pfnDynamicIABufferUnmap;
//   - a DYNAMIC buffer bound only as a constant buffer, WRITE_DISCARD:
//     pfnDynamicConstantBufferMapDiscard / pfnDynamicConstantBufferUnmap;
//   - any other DYNAMIC resource, WRITE_DISCARD (a texture, or a buffer with
//     D3D10_DDI_BIND_SHADER_RESOURCE: "the runtime also calls this function
//     pair for dynamic buffers that were created with the
//     D3D10_DDI_BIND_SHADER_RESOURCE bind flag set"):
//     pfnDynamicResourceMapDiscard / pfnDynamicResourceUnmap;
//   - a STAGING resource: pfnStagingResourceMap / pfnStagingResourceUnmap;
//   - anything else: pfnResourceMap / pfnResourceUnmap.
func MapEntry(a *CreateResourceArgs, t MapType) (mapEntry, unmapEntry string) {
	ia := BindVertexBuffer | BindIndexBuffer
	buffer := a.Dimension == DimBuffer
	switch {
	case a.Usage == UsageDynamic && buffer && a.BindFlags != 0 && a.BindFlags&^ia == 0 && t == MapWriteDiscard:
		return "pfnDynamicIABufferMapDiscard", "pfnDynamicIABufferUnmap"
	case a.Usage == UsageDynamic && buffer && a.BindFlags != 0 && a.BindFlags&^ia == 0 && t == MapWriteNoOverwrite:
		return "pfnDynamicIABufferMapNoOverwrite", "pfnDynamicIABufferUnmap"
	case a.Usage == UsageDynamic && buffer && a.BindFlags == BindConstantBuffer && t == MapWriteDiscard:
		return "pfnDynamicConstantBufferMapDiscard", "pfnDynamicConstantBufferUnmap"
	case a.Usage == UsageDynamic && t == MapWriteDiscard:
		return "pfnDynamicResourceMapDiscard", "pfnDynamicResourceUnmap"
	case a.Usage == UsageStaging:
		return "pfnStagingResourceMap", "pfnStagingResourceUnmap"
	}
	return "pfnResourceMap", "pfnResourceUnmap"
}

// IsMapDDI reports whether a DDI name (an entry without "pfn") is one of the
// map entries; IsUnmapDDI likewise for the unmap entries.
func IsMapDDI(name string) bool {
	for _, e := range MapEntries {
		if e[0][3:] == name {
			return true
		}
	}
	return false
}

func IsUnmapDDI(name string) bool {
	for _, e := range MapEntries {
		if e[1][3:] == name {
			return true
		}
	}
	return false
}
