// Package shadertest runs shader_test files, the format of the HLSL
// conformance suite of vkd3d (tests/hlsl/*.shader_test; the format is
// defined by tests/shader_runner.c): sections of HLSL ([pixel shader],
// [vertex shader], with qualifiers such as fail(sm<6) and todo), the
// requirements of a case ([require]: shader model ranges, capabilities),
// resources ([srv N], [rtv N], [vb N], [uav N], [dsv]), samplers, input
// layouts, and [test] sections that set uniforms, draw, dispatch and probe
// the results.
//
// Each case — a [test] section with the state in effect when it starts,
// or a shader section that only has to compile (or fail to) — becomes a
// scenario: HLSL blocks compiled by d3dsim's compiler (or bytecode a caller
// supplies), the resources as CreateTexture2D/CreateBuffer calls, the draws
// through the whole simulated stack, and each probe an `expect probe` of
// the render target it reads. A failing case is shareable as a link and
// runs with `d3dsim run`. Results tell apart a case that passed, one whose
// probe read a wrong value, one whose shader did not compile, one d3dsim's
// device cannot run (skipped with what it lacks) and one Direct3D 11
// hardware at shader model 4.0-5.0 never runs (shader model 6, Direct3D 9
// only: not applicable).
package shadertest
