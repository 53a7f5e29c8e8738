package ddi

// UAVClears are the entries of D3D11DDI_DEVICEFUNCS that clear an
// unordered access view and copy its hidden counter
// (pfnClearUnorderedAccessViewUint, pfnClearUnorderedAccessViewFloat,
// pfnCopyStructureCount). A driver that has them implements UAVClears
// beside Compute; the runtime asks for it by a type assertion.
type UAVClears interface {
	// ClearUnorderedAccessViewUint writes the low bits of values to each
	// channel of every element, bit-precise (a raw or structured view:
	// values[0] to every 32-bit word).
	ClearUnorderedAccessViewUint(h HDEVICE, v HUNORDEREDACCESSVIEW, values [4]uint32)
	// ClearUnorderedAccessViewFloat converts values to the typed view's
	// format (FLOAT, UNORM, SNORM) and writes every element.
	ClearUnorderedAccessViewFloat(h HDEVICE, v HUNORDEREDACCESSVIEW, values [4]float32)
	// CopyStructureCount copies src's hidden counter (an append, consume
	// or counter view) to dst at offset, 4 bytes.
	CopyStructureCount(h HDEVICE, dst HRESOURCE, offset uint32, src HUNORDEREDACCESSVIEW)
}
