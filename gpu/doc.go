// Package gpu is d3dsim's simulated graphics processor: the hardware at the
// bottom of the WDDM stack, which runs the DMA buffers Dxgkrnl schedules and
// raises the interrupts of the "WDDM operation flow" (steps 12-16 of that
// page of the Windows driver documentation). It knows nothing about
// Direct3D. The kernel-mode driver (core/kmd) talks to it the way a miniport
// talks to real hardware:
//
//   - Memory: an MMU-like sparse model of the VRAM segment and the system
//     memory aperture, in which Dxgkrnl commits and decommits extents. Any
//     access outside a committed extent is a page fault of the packet that
//     made it.
//   - Submit: DMA buffers in the packet format of package gpu/isa (shared
//     with the drivers that encode and validate them) are queued on the
//     ring of an engine. Each engine runs its ring in order on its own
//     simulated thread (gpu0, gpu1, ...) in core/sim's virtual time: a buffer
//     starts when it is at the front and the engine is free, executes all its
//     packets at once (memory effects happen then), and completes after the
//     cost of its packets (Costs). On completion the engine writes its fence
//     register (the buffer's FENCE value), the display engine shows any
//     SCANOUT surface, and the interrupt line is raised.
//   - The command processor starts every buffer with a fresh default state, so
//     a buffer is self-contained; this is also what isolates processes.
//   - Draws run programs of the GPU's shader ISA (package gpu/shaderisa,
//     executed by package gpu/shader) and nothing else: the GPU has no built-in programs. Around them is a small
//     fixed-function pipeline with D3D11 conventions: vertex fetch bounded
//     by the bindings as Direct3D 11 defines (an index past the index
//     buffer reads 0, a vertex element past the vertex buffer reads zeros:
//     no fault), triangle lists and strips, points and lines, wireframe
//     triangles (their edges as lines), homogeneous clipping, a viewport
//     (none until SET_VIEWPORT: a draw without one covers nothing), a
//     fixed-point rasterizer with the top-left fill rule,
//     interpolation as each pixel program input's mode says (the
//     program header's: perspective-correct, noperspective, or constant
//     from the provoking vertex, the primitive's first; interp.go), and an
//     output merger: up to
//     eight render targets of any colour format package gpu/texel writes
//     (SET_RT, SET_RT_SLOT), each blended with its own factors (every
//     D3D11 factor and operation, the blend factor, dual-source) and write
//     mask, the sample mask and alpha-to-coverage at 1, 2 or 4 samples
//     (msaa.go: coverage, depth and stencil per sample), the
//     stencil and depth tests in D32_FLOAT, D24_UNORM_S8_UINT, D16_UNORM
//     and D32_FLOAT_S8X24_UINT buffers, a pixel program's SV_Depth (om.go,
//     whose general path takes every draw the fast paths below do not).
//   - Programs from memory: SET_PROGRAM binds a program of the GPU's shader
//     ISA at a GPU address to the vertex or pixel stage, and SET_LAYOUT is
//     the vertex fetch descriptor that fills the vertex program's input
//     registers (package isa, layout.go, has both formats). A draw needs a
//     vertex program (without one it faults); with no pixel program it
//     writes no colour and still tests and writes depth, as a null pixel
//     shader does in Direct3D 11. The GPU decodes a program at the
//     draw through a cache keyed by its words (program.go), so a program
//     rewritten or moved in memory is decoded again and never runs stale;
//     a bad program, a step limit or a bad binding faults the draw. The
//     vertex stage shades 64 vertices at a time (vertexstage.go); the pixel
//     stage runs 8x8 blocks of the target's grid, quads for derivatives,
//     inputs interpolated in float64 and rounded to float32, then the depth
//     test and output merger above (pixelstage.go). DRAW_INSTANCED and
//     DRAW_INDEXED_INSTANCED draw their vertices once per instance:
//     per-instance elements and SV_InstanceID (isa's layout.go), from 32
//     vertex-buffer slots; DRAW_INDIRECT and DRAW_INDEXED_INDIRECT read
//     the same arguments from memory when they run (draw.go). Each stage
//     with a program (vertex, pixel) has its own 16 constant buffers, 128
//     textures and 16 samplers: SET_TEX and SET_SAMPLER set the pixel
//     stage's, SET_TEX_STAGE and SET_SAMPLER_STAGE any stage's (a stage
//     without programs on this GPU faults). The texture unit samples a
//     one-level 2D texture with point or bilinear filtering and four
//     address modes on its fast paths (sample.go, the fused block);
//     SET_VIEW (1D, 2D, 3D and cube textures and their arrays, mip chains,
//     typed, raw and structured buffers: isa's view.go) and SET_SAMPLER_EX
//     (the whole D3D11_SAMPLER_DESC) take it to its general path
//     (texunit.go: the level of detail from the quad's or the program's
//     gradients, point, linear and anisotropic min/mag/mip filters, bias
//     and LOD clamps, every address mode and border, comparison, gather,
//     texel offsets, cube faces and their seams, loads from buffers), held
//     to a reference written from the functional specification's words
//     (texref_test.go). builtins.go holds reference programs in
//     the ISA for the GPU's own tests and benchmarks (the UMD translates
//     its own built-in shaders from HLSL).
//   - Tessellation (tessstage.go): a draw of a patch-list topology (33..64,
//     1..32 control points) with hull and domain programs bound (SET_PROGRAM
//     of isa.StageHS and isa.StageDS; either without the other, or a patch
//     list without them, faults the draw) runs the hull program per output
//     control point and once more for the patch constants, the
//     fixed-function tessellator of package gpu/tess on the tess factors
//     the hull program wrote, and the domain program per domain point;
//     the primitives then go to the geometry program or the clipper. HS
//     and DS invocations are counted in the pipeline statistics.
//   - Faults (bad packets, page faults, a pixel program that faults, InjectFault)
//     are recorded (Faults), traced as GpuFault events and never panic; a
//     faulting draw paints its pixels the warning colour, opaque magenta.
//     A page fault also stops the engine, as Windows expects of a GPU: the
//     buffer never completes, the interrupt is raised and the fault register
//     (PageFault) holds its fence until Reset (pagefault.go).
//     Config.PaintPageFaults keeps the SamBookshelf article's illustration
//     instead: the buffer completes and nothing is reported. InjectHang
//     makes a buffer never complete, for TDR (Reset). A program past the
//     step limit stands for a loop that never ends: its draw never reaches
//     its boundary, and the buffer neither completes nor answers a
//     preemption request (Config.PaintEndlessLoops paints it instead).
//   - Preemption (preempt.go): Preempt asks an engine to stop at its next
//     packet boundary (a draw is one packet); it stops there, drops the
//     buffers queued behind it, raises its interrupt with the answer
//     (Preempted: the preemption fence and the last completed fence), and
//     the buffer, submitted again, resumes where it stopped with the state
//     its earlier packets set. The command processor looks for a request
//     at the first boundary after every Limits.PreemptCheckNS of work.
//
// Shader work and limits (gpu.go Costs and Limits, draw.go checkpoint): a
// draw costs its vertices and pixels or, when longer, its shaders'
// instructions at 1,024 a nanosecond (Stats.Instructions counts them, one
// per vertex or pixel a program runs for), so a heavy draw takes virtual
// time and a buffer past the deadline of timeout detection (Limits.RunNS)
// stops executing there and never completes: Dxgkrnl's TDR resets it as
// on Windows (DmaBufferOverrun in the trace). A draw checks the run's
// pixel and instruction budgets and that deadline inside itself, after
// each instance, 64 vertices, row of blocks (a round of 256 rows of a
// batch when it may be tiled: batched on one goroutine as on several, so
// it stops after the same work either way) and block of a looping pixel
// program; a draw stopped at a budget skips every later one and Stopped
// names it. SetYield gives the host a turn there (the page's event loop).
//
// Trace (layer gpu, from kmd, on the engine's thread), never one event per
// packet: exec DmaBufferStart (dma, args "packets=N") when a buffer starts;
// fence FenceWrite (fence, dma) and interrupt Interrupt (fence, dma) when it
// completes; message GpuFault (dma, msg = reason, args "packet=N") per fault
// (at most 8 per buffer, then one summary); message EngineReset (args
// "engine=N dropped=K") on Reset.
//
// Everything is deterministic: no wall clock, no global random source, every
// float-to-integer conversion is clamped first, and every floating-point
// product that feeds a sum is rounded explicitly (float64(a*b) + c), which
// forbids the compiler to fuse it into a multiply-add (arm64 would, amd64 and
// wasm do not). So the same buffers give the same pixels on every machine,
// natively and in WebAssembly.
//
// Threading: all methods are safe for concurrent use; see GPU.
//
// Speed (docs/performance.md): the rasterizer walks 8x8 blocks with exact
// integer edge functions, turns runs of covered blocks into one span per row,
// and writes spans straight into the target; common draws (Gouraud colour or
// one colour, no depth test, no blending, RGBA8/BGRA8) take fast paths that
// compute exactly what the pixel-at-a-time pipeline computes. Natively a
// large draw is rasterized by several goroutines, each owning bands of rows
// (tiles.go), with the same pixels as one; WebAssembly uses one. Wall-clock
// speed never reaches the virtual-time cost model. Pixel programs
// run a block of 8x8 pixels at a time (pixelstage.go), on the tile workers
// too when the program cannot fault, with fast paths that keep every pixel
// the same: a program that only copies an input (mov o0, v#) is drawn by
// the Gouraud spans; a block whose weights go one per row and one per
// column is interpolated from row and column terms; the texture unit
// filters a block of an 8-bit texture in passes, sharing a lane's filter
// rows with the lane above it when they read the same texels. On one
// goroutine the fill scene (ps_vertexcolor, a copy: BenchmarkFill) makes
// about 500 Mpixels per CPU-second on a shared 2-core machine, a colour
// program that is not a copy about 150, and texture × vertex colour about
// 55.
//
// Tests: golden images drawn with the reference programs (TestGolden;
// TestGoldenISAShaded has a program of its own) in testdata/ (go test
// ./gpu -run Golden -update rewrites them; the same test under GOOS=js
// GOARCH=wasm, with go_js_wasm_exec on the PATH, checks that WebAssembly
// draws the same pixels), a slow reference rasterizer the fast one must
// match pixel for pixel, tile-parallel against one goroutine, FuzzExecute
// (FuzzDecode is package isa's), and the benchmark scenes of benchscene.go
// (BenchmarkFill, BenchmarkTris).
package gpu
