package machine

import "d3dsim/gpu"

// The GPU-level benchmark scenes: the rasterizer's work for one frame, run
// on a GPU of its own without the layers above it (d3dsim bench measures
// the rasterizer's own rate with them).

// BenchScene is one frame of a benchmark scene.
type BenchScene = gpu.BenchScene

// BenchRig runs a BenchScene's frames on a GPU of its own.
type BenchRig = gpu.BenchRig

// NewBenchRig builds a rig that shades sc with the given number of raster
// workers.
func NewBenchRig(sc BenchScene, workers int) *BenchRig { return gpu.NewBenchRig(sc, workers) }

// FillScene is "fill": full-screen quads (gpu.FillScene).
func FillScene() BenchScene { return gpu.FillScene() }

// FillRotatedScene is fill's quads turned inside the target: triangles of
// any orientation (gpu.FillRotatedScene).
func FillRotatedScene() BenchScene { return gpu.FillRotatedScene() }

// TrisScene is "tris": many small triangles (gpu.TrisScene).
func TrisScene() BenchScene { return gpu.TrisScene() }

// FillTexturedISAScene is fill with texture × vertex colour in the ISA
// (gpu.FillTexturedISAScene).
func FillTexturedISAScene() BenchScene { return gpu.FillTexturedISAScene() }

// FillPhongScene is fill shaded by a Phong pixel shader (gpu.FillPhongScene).
func FillPhongScene() BenchScene { return gpu.FillPhongScene() }

// FillLoopScene is fill shaded by a pixel shader with a loop
// (gpu.FillLoopScene).
func FillLoopScene() BenchScene { return gpu.FillLoopScene() }

// PhongPS and LoopPS are those scenes' pixel programs (gpu.PhongPS,
// gpu.LoopPS).
const (
	PhongPS = gpu.PhongPS
	LoopPS  = gpu.LoopPS
)

// VectorRows says whether this build's rows and shader kernels use vector
// instructions (gpu.VectorRows).
func VectorRows() bool { return gpu.VectorRows() }
