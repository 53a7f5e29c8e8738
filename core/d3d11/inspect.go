package d3d11

import (
	"slices"

	"d3dsim/core/ddi"
)

// Read-only views of the runtime's state for tools that show it (the
// page's Shaders view, the inspector of core/inspect): nothing in the
// runtime calls them.

// BoundShaders is the vertex and pixel shader the context's next draw
// runs (nil: none bound), as its VSSetShader and PSSetShader calls, its
// ClearState and its command lists left them.
func (c *DeviceContext) BoundShaders() (vs, ps *Shader) { return c.vs, c.ps }

// DDIHandle is the shader's driver handle (HSHADER), the one its
// CreateVertexShader or CreatePixelShader DDI was given.
func (s *Shader) DDIHandle() ddi.HSHADER { return s.h }

// Bytecode is the DXBC the shader was created from (nil for the stand-in
// shader of CreateInputLayoutBytecode). Shared: read only.
func (s *Shader) Bytecode() []byte { return s.code }

// Desc is the descriptor the state object was created with: a
// ddi.BlendDesc, ddi.RasterizerDesc, ddi.DepthStencilDesc or
// ddi.SamplerDesc, as Kind says.
func (s *State) Desc() any { return s.desc }

// Handle is the object's driver handle as the trace names it (h5): the
// one its Create* DDI was given on the immediate context. 0 for an object
// with none (a swap chain, a command list's own).
func Handle(o Object) uint32 {
	switch o := o.(type) {
	case *Resource:
		return uint32(o.h)
	case *View:
		return o.h
	case *Shader:
		return uint32(o.h)
	case *State:
		return o.h
	case *InputLayout:
		return o.h
	case *Query:
		return uint32(o.h)
	}
	return 0
}

// Bindings is a context's bound state as the runtime holds it: every
// binding of the input assembler, each shader stage (constant buffers,
// shader resource views, samplers), the rasterizer and the output merger,
// with the values the Set calls gave alongside. A copy: later calls do not
// change it.
type Bindings struct {
	VB       [iaSlots]*Resource
	VBStride [iaSlots]uint32
	VBOffset [iaSlots]uint32
	IB       *Resource
	IBFormat ddi.Format
	IBOffset uint32
	Topology ddi.Topology
	Layout   *InputLayout

	VS, PS *Shader
	Stages [NumStages]StageBindings // by Stage: StageVS, StagePS, ...

	Raster    *State
	Viewports []ddi.Viewport // none: a draw covers nothing
	Scissors  []ddi.Rect

	RTV         [maxRTVs]*View
	DSV         *View
	Blend       *State
	BlendFactor [4]float32
	SampleMask  uint32
	Depth       *State
	StencilRef  uint32

	Predicate      *Query // SetPredication's (nil: none)
	PredicateValue bool
}

// StageBindings are one shader stage's resource bindings.
type StageBindings struct {
	CB      [ddi.ConstantBufferSlots]*Resource
	SRV     [ddi.ShaderResourceSlots]*View
	Sampler [ddi.SamplerSlots]*State
}

// Bindings returns what the context has bound now.
func (c *DeviceContext) Bindings() *Bindings {
	b := &Bindings{
		VB: c.vb, VBStride: c.vbStride, VBOffset: c.vbOffset,
		IB: c.ib, IBFormat: c.ibFormat, IBOffset: c.ibOffset, Topology: c.topo, Layout: c.layout,
		VS: c.vs, PS: c.ps,
		Raster: c.rs, Viewports: slices.Clone(c.vps), Scissors: slices.Clone(c.scissors),
		RTV: c.rtv, DSV: c.dsv, Blend: c.blend, BlendFactor: c.blendFactor, SampleMask: c.sampleMask,
		Depth: c.depth, StencilRef: c.stencilRef, Predicate: c.pred, PredicateValue: c.predValue,
	}
	for i := range c.stages {
		b.Stages[i] = StageBindings{CB: c.stages[i].cb, SRV: c.stages[i].srv, Sampler: c.stages[i].samp}
	}
	return b
}

// Equal reports whether two bindings are the same.
func (b *Bindings) Equal(o *Bindings) bool {
	return b.VB == o.VB && b.VBStride == o.VBStride && b.VBOffset == o.VBOffset && b.IB == o.IB && b.IBFormat == o.IBFormat &&
		b.IBOffset == o.IBOffset && b.Topology == o.Topology && b.Layout == o.Layout && b.VS == o.VS && b.PS == o.PS &&
		b.Stages == o.Stages && b.Raster == o.Raster && slices.Equal(b.Viewports, o.Viewports) && slices.Equal(b.Scissors, o.Scissors) &&
		b.RTV == o.RTV && b.DSV == o.DSV && b.Blend == o.Blend && b.BlendFactor == o.BlendFactor && b.SampleMask == o.SampleMask &&
		b.Depth == o.Depth && b.StencilRef == o.StencilRef && b.Predicate == o.Predicate && b.PredicateValue == o.PredicateValue
}

// ComputeShader is the compute shader the context has bound now (nil:
// none): what a Dispatch made now runs.
func (c *DeviceContext) ComputeShader() *Shader { return c.cs }
