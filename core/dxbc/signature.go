package dxbc

import "fmt"

// ComponentType is the type of a signature element's components
// (D3D_REGISTER_COMPONENT_TYPE).
type ComponentType uint32

const (
	ComponentUnknown ComponentType = iota
	ComponentUint32
	ComponentSint32
	ComponentFloat32
)

func (t ComponentType) String() string {
	switch t {
	case ComponentUint32:
		return "uint"
	case ComponentSint32:
		return "int"
	case ComponentFloat32:
		return "float"
	}
	return "unknown"
}

// SystemValue is a signature element's system-value name (D3D_NAME).
type SystemValue uint32

const (
	SVUndefined         SystemValue = 0
	SVPosition          SystemValue = 1
	SVClipDistance      SystemValue = 2
	SVCullDistance      SystemValue = 3
	SVRenderTargetIndex SystemValue = 4
	SVViewportIndex     SystemValue = 5
	SVVertexID          SystemValue = 6
	SVPrimitiveID       SystemValue = 7
	SVInstanceID        SystemValue = 8
	SVIsFrontFace       SystemValue = 9
	SVSampleIndex       SystemValue = 10
	SVQuadEdgeTess      SystemValue = 11 // SV_TessFactor of a quad patch
	SVQuadInsideTess    SystemValue = 12
	SVTriEdgeTess       SystemValue = 13
	SVTriInsideTess     SystemValue = 14
	SVLineDetailTess    SystemValue = 15
	SVLineDensityTess   SystemValue = 16
	SVTarget            SystemValue = 64
	SVDepth             SystemValue = 65
	SVCoverage          SystemValue = 66
	SVDepthGreaterEqual SystemValue = 67
	SVDepthLessEqual    SystemValue = 68
)

// svListing is the short name fxc's listing prints in the SysValue column.
var svListing = map[SystemValue]string{
	SVUndefined: "NONE", SVPosition: "POS", SVClipDistance: "CLIPDST", SVCullDistance: "CULLDST",
	SVRenderTargetIndex: "RTINDEX", SVViewportIndex: "VPINDEX", SVVertexID: "VERTID", SVPrimitiveID: "PRIMID",
	SVInstanceID: "INSTID", SVIsFrontFace: "FFACE", SVSampleIndex: "SAMPLE", SVTarget: "TARGET",
	SVQuadEdgeTess: "QUADEDGE", SVQuadInsideTess: "QUADINT", SVTriEdgeTess: "TRIEDGE", SVTriInsideTess: "TRIINT",
	SVLineDetailTess: "LINEDET", SVLineDensityTess: "LINEDEN",
	SVDepth: "DEPTH", SVCoverage: "COVERAGE", SVDepthGreaterEqual: "DEPTHGE", SVDepthLessEqual: "DEPTHLE",
}

func (s SystemValue) String() string {
	if n, ok := svListing[s]; ok {
		return n
	}
	return fmt.Sprintf("SV(%d)", uint32(s))
}

// Element is one row of an input or output signature.
type Element struct {
	Name          string // semantic name as written: "TEXCOORD", "SV_Position"
	Index         uint32 // semantic index
	SystemValue   SystemValue
	ComponentType ComponentType
	Register      uint32
	Mask          uint8 // components present
	// ReadWrite is, in an input signature, the components the shader reads;
	// in an output signature, the components it never writes.
	ReadWrite    uint8
	Stream       uint32 // geometry-shader stream (OSG5/OSG1 only)
	MinPrecision uint32 // ISG1/OSG1 only
}

// Signature is an ISGN/OSGN chunk (or the tolerated ISG1/OSG1/OSG5/PCSG
// variants, whose extra fields land in Element.Stream and MinPrecision).
type Signature struct {
	Elements []Element
}

// MaxSignatureElements bounds the rows read, far above the 32 registers
// any stage has, so a hostile count cannot make the reader allocate much.
const MaxSignatureElements = 4096

// ParseSignature reads a signature chunk; fourcc picks the record layout.
func ParseSignature(fourcc string, data []byte) (*Signature, error) {
	var size uint32
	switch fourcc {
	case "ISGN", "OSGN", "PCSG":
		size = 24
	case "OSG5":
		size = 28
	case "ISG1", "OSG1", "PSG1":
		size = 32
	default:
		return nil, fmt.Errorf("dxbc: %s is not a signature chunk (ISGN, OSGN, PCSG, OSG5, ISG1, OSG1)", printable(fourcc))
	}
	r := &reader{chunk: fourcc, b: data}
	count := r.u32(0, "element count")
	if r.err == nil && count > MaxSignatureElements {
		return nil, fmt.Errorf("dxbc: %s: %d elements is over the limit of %d", fourcc, count, MaxSignatureElements)
	}
	if !r.table(8, count, size, "elements") {
		return nil, r.err
	}
	s := &Signature{Elements: make([]Element, 0, count)}
	for i := uint32(0); i < count && r.err == nil; i++ {
		o := 8 + i*size
		var e Element
		if size != 24 {
			e.Stream = r.u32(o, "stream")
			o += 4
		}
		e.Name = r.str(r.u32(o, "name offset"), fmt.Sprintf("element %d name", i))
		e.Index = r.u32(o+4, "semantic index")
		e.SystemValue = SystemValue(r.u32(o+8, "system value"))
		e.ComponentType = ComponentType(r.u32(o+12, "component type"))
		e.Register = r.u32(o+16, "register")
		e.Mask = r.u8(o+20, "mask")
		e.ReadWrite = r.u8(o+21, "read-write mask")
		if size == 32 {
			e.MinPrecision = r.u32(o+24, "min precision")
		}
		s.Elements = append(s.Elements, e)
	}
	if r.err != nil {
		return nil, r.err
	}
	return s, nil
}

// Bytes writes the signature as an ISGN/OSGN chunk body (the 24-byte rows;
// Stream and MinPrecision are not written), laid out as fxc
// lays it out: the records, then each distinct name once, padded with 0xAB.
func (s *Signature) Bytes() []byte {
	w := &writer{}
	w.put32(uint32(len(s.Elements)))
	w.put32(8)
	for _, e := range s.Elements {
		w.put32(0) // name offset, patched below
		w.put32(e.Index)
		w.put32(uint32(e.SystemValue))
		w.put32(uint32(e.ComponentType))
		w.put32(e.Register)
		w.b = append(w.b, e.Mask, e.ReadWrite, 0, 0)
	}
	for i, e := range s.Elements {
		w.set32(8+24*i, w.str(e.Name))
	}
	w.align()
	return w.b
}

// Find returns the element with the semantic (compared without regard to
// case, as the runtime matches semantics) and index, or nil.
func (s *Signature) Find(name string, index uint32) *Element {
	for i := range s.Elements {
		if equalFold(s.Elements[i].Name, name) && s.Elements[i].Index == index {
			return &s.Elements[i]
		}
	}
	return nil
}

// equalFold is ASCII case folding; semantics are ASCII.
func equalFold(a, b string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := 0; i < len(a); i++ {
		x, y := a[i], b[i]
		if 'a' <= x && x <= 'z' {
			x -= 'a' - 'A'
		}
		if 'a' <= y && y <= 'z' {
			y -= 'a' - 'A'
		}
		if x != y {
			return false
		}
	}
	return true
}
