// Package machine is one simulated PC: the D3D11 runtime (core/d3d11) over
// the user-mode driver (core/umd), Dxgkrnl (core/dxgk) with its kernel-mode
// driver (core/kmd), and one GPU (gpu), wired the way the "WDDM operation
// flow" page of the Windows driver documentation lays them out — the
// application calls the runtime, the runtime calls the UMD's DDI table and
// serves its callbacks on top of Dxgkrnl, Dxgkrnl calls the KMD's DxgkDdi*
// functions, and the KMD programs the GPU, whose interrupt line goes back to
// Dxgkrnl.
//
// New is the only place those layers are put together: each layer knows only
// the interfaces below it. An application (core/scenario, wasm, cmd/d3dsim)
// drives the machine through Runtime, the D3D11 API, directly — the machine
// adds nothing between the application and the runtime's calls. What a test
// harness needs from below the API goes through the Machine too, and only
// through it:
//
//   - ReadBack: a resource's bytes as the GPU left them (expect pixel, hash);
//   - the Inject* methods and the Fault names: faults no application can
//     cause through the API (a hung or faulting DMA buffer, full VRAM, a
//     foreign allocation in a command stream, a DDI that runs out of memory);
//   - Live: what is still alive in every layer (expect live);
//   - GPUStats, Config.OnFrame: the GPU's counters and the frames the
//     display engine scans out;
//   - the GPU-level benchmark scenes (BenchScene, NewBenchRig), which run the
//     rasterizer without the layers above it.
package machine
