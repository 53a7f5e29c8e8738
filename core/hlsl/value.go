package hlsl

import "math"

// value is what an expression lowers to. A numeric value is a list of
// components in row-major order (row r, column c at r*Cols+c); each is an
// operand whose Swz[0] names the register component it lives in, so
// swizzles, matrix rows and columns and truncation only reorder the list,
// and an instruction source is built from components that share a
// register (or gathered into one first).
type value struct {
	t      *Type
	c      []Operand // numeric components
	fields []*value  // struct members
	elems  []*value  // local arrays
	cb     *cbArray  // arrays in a constant buffer, indexed on demand
	res    *resource // textures and samplers: the resource, and the element of an array of them
	resIdx int
	objAt  int        // a local object variable: the nesting of conditions and loops where it is declared
	ro     bool       // inputs, constants: not an l-value
	lit    bool       // an integer or float literal without a suffix: it converts to int and uint (or float and half) alike
	glob   *cbRef     // a constant-buffer variable, read at each use
	tdef   *Type      // the name is a type (a struct or a typedef), not a value
	wb     *writeBack // an l-value that is not a register of its own (dynindex.go)
	uav    *uavRef    // an element of an unordered access view, which a store writes (compute.go)
	mem    *memArray  // groupshared memory, read at each use (buffers.go)
	unmade string     // a local array too large to make: the error a use reports (declLocal)
}

// cbArray locates an array that lives in a constant buffer (file FileCB,
// slot the buffer) or in an x# indexable array (FileIndexable, slot the
// array), laid out with the constant-buffer packing rules; elements are
// built on demand, by a constant or a register index.
type cbArray struct {
	file      File
	slot, off int
	t         *Type // the array type
	rel       *Operand
}

// resource is a texture or sampler declared at global scope, or an array
// of them (count elements, bound at slot .. slot+count-1).
type resource struct {
	name     string
	kind     Kind
	elem     *Type // the texture or sampler type of each element
	count    int
	slot     int
	explicit bool
	used     bool
	line     int
	comps    int // textures: components of the element type
	id       int // the order of first use
	placed   bool
	counter  bool      // a RWStructuredBuffer whose counter the shader uses (buffers.go)
	grp      *objGroup // a struct variable's objects of this class, placed as one run (objstruct.go)
	objOff   int       // where in the run
	held     bool      // in a placed run, read or not
	top      int       // the elements up to the last one read
}

var poison = &value{t: &Type{Kind: KVoid}}

func comp(file File, index, c int) Operand {
	o := Operand{File: file, Index: index}
	o.Swz[0] = uint8(c)
	return o
}

func immF(f float32) Operand {
	return Operand{File: FileImm, Imm: [4]uint32{math.Float32bits(f)}, Float: true}
}

func immU(u uint32) Operand { return Operand{File: FileImm, Imm: [4]uint32{u}} }

func regComps(file File, index, n int) []Operand {
	c := make([]Operand, n)
	for i := range c {
		c[i] = comp(file, index, i)
	}
	return c
}

// sameReg reports whether two components can share one source operand.
func sameReg(a, b Operand) bool {
	return a.File == b.File && a.Index == b.Index && a.Elem == b.Elem && a.Rel == b.Rel && a.Neg == b.Neg && a.Abs == b.Abs && a.File != FileImm
}

func allImm(c []Operand) bool {
	for _, o := range c {
		if o.File != FileImm {
			return false
		}
	}
	return len(c) > 0
}

// negComp negates a float component with the source modifier (immediates
// are negated in place).
func negComp(o Operand) Operand {
	if o.File == FileImm {
		o.Imm[0] ^= 0x80000000
		return o
	}
	o.Neg = !o.Neg
	return o
}

func absComp(o Operand) Operand {
	if o.File == FileImm {
		o.Imm[0] &^= 0x80000000
		return o
	}
	o.Neg = false
	o.Abs = true
	return o
}

// immValue folds an immediate component list into an integer (for
// subscripts and array sizes).
func immInt(o Operand, b Base) int64 {
	switch b {
	case Float:
		f := math.Float32frombits(o.Imm[0])
		if f != f || f > 1<<30 || f < -(1<<30) {
			return -1
		}
		return int64(f)
	case Int:
		return int64(int32(o.Imm[0]))
	}
	return int64(o.Imm[0])
}
