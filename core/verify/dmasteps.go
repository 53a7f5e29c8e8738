package verify

// dmaSteps is what WDDM-FLOW has seen of each DMA buffer (steps 10-14 of
// the WDDM operation flow): built by DxgkDdiRender or DxgkDdiPresent,
// patched by DxgkDdiPatch. Nothing is forgotten, as in the two maps it
// replaces. Dxgkrnl numbers its buffers from 1, one after another, so the
// ids below dmaDense are a byte each in a slice: a map grew by every
// buffer, and each growth rehashed every id before it (under WebAssembly,
// where Go hashes in software, 4% of node's samples in the DISCARD scene,
// a buffer a round). Larger ids (none today) go to a map.
type dmaSteps struct {
	dense  []uint8 // by id: the dmaBuilt and dmaPatched bits
	sparse map[uint64]uint8
}

// The steps a DMA buffer has been through.
const (
	dmaBuilt   uint8 = 1 << iota // DxgkDdiRender/DxgkDdiPresent returned it
	dmaPatched                   // DxgkDdiPatch patched it
)

// dmaDense bounds dmaSteps.dense: 4 MiB, four million buffers.
const dmaDense = 1 << 22

// has reports whether the buffer id went through step.
func (d *dmaSteps) has(id uint64, step uint8) bool {
	if id < uint64(len(d.dense)) {
		return d.dense[id]&step != 0
	}
	return id >= dmaDense && d.sparse[id]&step != 0
}

// set notes that the buffer id went through step.
func (d *dmaSteps) set(id uint64, step uint8) {
	if id < dmaDense {
		if n := int(id) + 1; n > len(d.dense) {
			d.dense = append(d.dense, make([]uint8, n-len(d.dense))...)
		}
		d.dense[id] |= step
		return
	}
	if d.sparse == nil {
		d.sparse = map[uint64]uint8{}
	}
	d.sparse[id] |= step
}
