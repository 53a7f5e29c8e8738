package hlsl

import (
	"fmt"
	"strings"
)

// Base is a numeric type's component type.
type Base uint8

// Component types, ordered as HLSL promotes them in binary operations
// (bool < int < uint < float < double). A double takes two 32-bit lanes
// of a register (double.go).
const (
	Bool Base = iota
	Int
	Uint
	Float
	Double
)

func (b Base) String() string { return [...]string{"bool", "int", "uint", "float", "double"}[b] }

// Kind is the shape of a type.
type Kind uint8

// The kinds of types.
const (
	KVoid Kind = iota
	KScalar
	KVector
	KMatrix
	KStruct
	KArray
	KTexture
	KSampler
	KEffect // an effects-framework object (PixelShader, BlendState, ...): declared and ignored
)

// Field is a struct member.
type Field struct {
	Name     string
	Type     *Type
	Semantic string
	Interp   string // nointerpolation, noperspective, centroid, linear
	Line     int
}

// Type is an HLSL type. Rows and Cols give a numeric type's shape (a
// vector is one row; floatRxC has R rows of C columns).
type Type struct {
	Kind Kind
	Base Base
	// RowMajor: a matrix stored row by row (row_major, or #pragma
	// pack_matrix(row_major) where it was declared); column by column
	// otherwise. It changes the layout in constant buffers and signatures,
	// never the value.
	RowMajor bool
	// MajorSet: the packing is fixed (a modifier, or a pragma where the
	// type was declared): a typedef of a matrix declared before any
	// pack_matrix pragma has none yet, and takes the one in effect where it
	// is used.
	MajorSet bool
	// Textures: the dimension (Base and Cols give the element type);
	// samplers: Cmp for SamplerComparisonState.
	Dim TexDim
	Cmp bool
	// UAV: a typed unordered access view (RWTexture2D, RWBuffer, ...:
	// compute.go), read and written at u#.
	UAV bool
	// Buf: a structured or byte-address buffer (buffers.go), its element
	// type BufElem (structured); Dim is TexBuffer. A typed view or texture
	// whose element is no scalar or vector (a matrix, a struct, double2)
	// has Buf none and that element in BufElem: it is declared and never
	// used (texelem.go).
	Buf BufKind
	// ROV: a rasterizer-ordered view (RasterizerOrderedTexture2D ...):
	// a UAV that the invocations of one pixel access in primitive order.
	ROV bool
	// SampDim: a sampler1D, sampler2D, sampler3D or samplerCUBE, its
	// dimension plus one (0: any sampler).
	SampDim TexDim
	// Min: a minimum-precision type (min16float, min16int, min16uint,
	// min10float, min12int). It computes as its full-precision base here;
	// overload resolution tells the two apart.
	Min bool
	// Half: a half (half, half4, half4x4). It computes as float, which it
	// is in shader model 4 and 5; overload resolution tells the two apart,
	// as fxc does (refract of two half4 is a half4).
	Half bool
	// Samples: Texture2DMS<T, N>'s N, 1..128 (0: not given; msaa.go).
	Samples uint8
	// Patch: InputPatch<T, N> (1) or OutputPatch<T, N> (2), an array of
	// N control points (domain.go).
	Patch uint8
	// Stream: PointStream<T>, LineStream<T> or TriangleStream<T>, a
	// geometry shader's output stream (gs.go): its output topology; Elem
	// is T.
	Stream uint8
	// One: a one-component vector (float1, int1), which HLSL takes as a
	// scalar except where it tells them apart: mul takes it as a vector,
	// it indexes ([0]) where a scalar does not, it is no index and does
	// not broadcast to a matrix (onevec.go).
	One bool
	// (The small fields are together: a Type is allocated for many of
	// the nodes a compile lowers, and TestLimitsNamed bounds the bytes.)
	Rows    int
	Cols    int
	Name    string  // struct name
	Fields  []Field // struct members
	Elem    *Type   // array element
	Len     int     // array length
	BufElem *Type
}

// TexDim is a texture's dimension, as its HLSL type names it.
type TexDim uint8

// The texture dimensions (Tex2D is the zero value).
const (
	Tex2D TexDim = iota
	Tex1D
	Tex1DArray
	Tex2DArray
	Tex2DMS
	Tex2DMSArray
	Tex3D
	TexCube
	TexCubeArray
	TexBuffer
)

var texNames = [...]string{"Texture2D", "Texture1D", "Texture1DArray", "Texture2DArray", "Texture2DMS", "Texture2DMSArray",
	"Texture3D", "TextureCube", "TextureCubeArray", "Buffer"}

func (d TexDim) String() string { return texNames[d] }

// coords is how many coordinates address the texture (the array slice
// included); offs how many a texel offset has.
func (d TexDim) coords() int {
	return [...]int{2, 1, 2, 3, 2, 3, 3, 3, 4, 1}[d]
}

func (d TexDim) offs() int {
	return [...]int{2, 1, 1, 2, 2, 2, 3, 0, 0, 0}[d]
}

// array reports the arrays (the last coordinate is the slice).
func (d TexDim) array() bool {
	return d == Tex1DArray || d == Tex2DArray || d == Tex2DMSArray || d == TexCubeArray
}

var (
	tVoid    = &Type{Kind: KVoid}
	tTexture = &Type{Kind: KTexture, Base: Float, Cols: 4}
	tSampler = &Type{Kind: KSampler}
)

func scalarT(b Base) *Type { return &Type{Kind: KScalar, Base: b, Rows: 1, Cols: 1} }

func vecT(b Base, n int) *Type {
	if n == 1 {
		return scalarT(b)
	}
	return &Type{Kind: KVector, Base: b, Rows: 1, Cols: n}
}

func matT(b Base, r, c int) *Type { return &Type{Kind: KMatrix, Base: b, Rows: r, Cols: c} }

func (t *Type) numeric() bool { return t.Kind == KScalar || t.Kind == KVector || t.Kind == KMatrix }

// comps is the number of components of a numeric type.
func (t *Type) comps() int { return t.Rows * t.Cols }

func (t *Type) withBase(b Base) *Type {
	c := *t
	c.Base = b
	return &c
}

func (t *Type) String() string {
	switch t.Kind {
	case KVoid:
		return "void"
	case KScalar:
		return t.Base.String()
	case KVector:
		return fmt.Sprintf("%s%d", t.Base, t.Cols)
	case KMatrix:
		return fmt.Sprintf("%s%dx%d", t.Base, t.Rows, t.Cols)
	case KStruct:
		return "struct " + t.Name
	case KArray:
		return fmt.Sprintf("%s[%d]", t.Elem, t.Len)
	case KTexture:
		if t.Buf != BufNone {
			return bufTypeName(t)
		}
		if t.ROV || t.BufElem != nil {
			return viewTypeName(t)
		}
		if t.UAV {
			return "RW" + t.Dim.String() + "<" + vecT(t.Base, max(t.Cols, 1)).String() + ">"
		}
		return t.Dim.String() + "<" + vecT(t.Base, max(t.Cols, 1)).String() + ">"
	case KSampler:
		if t.Cmp {
			return "SamplerComparisonState"
		}
		return "SamplerState"
	case KEffect:
		return t.Name
	}
	return "?"
}

func sameType(a, b *Type) bool {
	if a.Kind != b.Kind {
		return false
	}
	switch a.Kind {
	case KStruct:
		return a.Name == b.Name
	case KTexture:
		return a.Dim == b.Dim && a.Base == b.Base && a.Cols == b.Cols && a.UAV == b.UAV && a.Buf == b.Buf && a.ROV == b.ROV &&
			(a.BufElem == nil) == (b.BufElem == nil) && (a.BufElem == nil || sameType(a.BufElem, b.BufElem))
	case KSampler:
		return a.Cmp == b.Cmp
	case KArray:
		return a.Len == b.Len && sameType(a.Elem, b.Elem)
	}
	return a.Base == b.Base && a.Rows == b.Rows && a.Cols == b.Cols
}

// lowerTexNames are the texture types' other spellings, which fxc takes
// (the effect framework's texture2D).
var lowerTexNames = map[string]string{"texture1D": "Texture1D", "texture2D": "Texture2D", "texture3D": "Texture3D", "textureCUBE": "TextureCube"}

// builtinType parses the spelling of a built-in type name: float, float3,
// float4x4, int2, uint, bool4, half (as float), matrix, vector.
func builtinType(name string) *Type {
	if alias, ok := lowerTexNames[name]; ok {
		name = alias
	}
	for d, n := range texNames {
		if name == n {
			return &Type{Kind: KTexture, Dim: TexDim(d), Base: Float, Cols: 4}
		}
		if name == "RW"+n && uavDims[TexDim(d)] {
			return &Type{Kind: KTexture, Dim: TexDim(d), Base: Float, Cols: 4, UAV: true}
		}
	}
	if t := bufType(name); t != nil {
		return t
	}
	if rest, ok := strings.CutPrefix(name, "RasterizerOrdered"); ok {
		if t := builtinType("RW" + rest); t != nil && t.UAV {
			c := *t
			c.ROV = true
			return &c
		}
		return nil
	}
	if strings.EqualFold(name, "texture") { // fxc reads the shader model 1-3 type's name in any case
		return &Type{Kind: KTexture, Dim: Tex2D, Base: Float, Cols: 4}
	}
	if strings.EqualFold(name, "string") { // an effect's string, in any case too (sTring)
		return &Type{Kind: KEffect, Name: name}
	}
	switch name {
	case "void":
		return tVoid
	case "PointStream", "LineStream", "TriangleStream":
		return &Type{Kind: KEffect, Name: name, Stream: uint8(gsStreamTopo[name])}
	case "InputPatch":
		return &Type{Kind: KArray, Patch: 1}
	case "OutputPatch":
		return &Type{Kind: KArray, Patch: 2}
	case "SamplerState", "sampler", "sampler_state":
		return tSampler
	case "sampler1D", "sampler2D", "sampler3D", "samplerCUBE":
		// Shader model 1-3 samplers of one dimension (legacy.go).
		return &Type{Kind: KSampler, SampDim: map[string]TexDim{"sampler1D": Tex1D, "sampler2D": Tex2D, "sampler3D": Tex3D, "samplerCUBE": TexCube}[name] + 1}
	case "PixelShader", "VertexShader", "GeometryShader", "HullShader", "DomainShader", "ComputeShader",
		"pixelshader", "vertexshader", "BlendState", "DepthStencilState", "RasterizerState",
		"DepthStencilView", "RenderTargetView":
		return &Type{Kind: KEffect, Name: name}
	case "SamplerComparisonState":
		return &Type{Kind: KSampler, Cmp: true}
	case "matrix":
		return matT(Float, 4, 4)
	case "vector":
		return vecT(Float, 4)
	case "dword":
		return scalarT(Uint)
	}
	bases := []struct {
		p string
		b Base
	}{{"float", Float}, {"half", Float}, {"min16float", Float}, {"min10float", Float}, {"int", Int}, {"min16int", Int}, {"min12int", Int},
		{"uint", Uint}, {"min16uint", Uint}, {"bool", Bool}, {"double", Double}}
	for _, bs := range bases {
		rest, ok := strings.CutPrefix(name, bs.p)
		if !ok {
			continue
		}
		if strings.HasPrefix(bs.p, "min") {
			if t := builtinType(strings.Replace(name, bs.p, bs.b.String(), 1)); t != nil {
				c := *t
				c.Min = true
				return &c
			}
			return nil
		}
		if bs.p == "half" {
			if t := builtinType("float" + rest); t != nil {
				c := *t
				c.Half = true
				return &c
			}
			return nil
		}
		switch len(rest) {
		case 0:
			return scalarT(bs.b)
		case 1:
			if rest[0] == '1' {
				return oneVecT(bs.b)
			}
			if rest[0] >= '1' && rest[0] <= '4' {
				return vecT(bs.b, int(rest[0]-'0'))
			}
		case 3:
			if rest[0] >= '1' && rest[0] <= '4' && rest[1] == 'x' && rest[2] >= '1' && rest[2] <= '4' && bs.b != Double {
				return matT(bs.b, int(rest[0]-'0'), int(rest[2]-'0'))
			}
		}
	}
	return nil
}

// isStringName reports a spelling of the effect's string type (string,
// String, sTring: fxc reads it in any case).
func isStringName(name string) bool { return strings.EqualFold(name, "string") }
