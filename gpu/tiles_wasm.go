//go:build wasm

package gpu

// WebAssembly runs Go on one thread: the rasterizer stays on one goroutine.
func rasterWorkers(int) int { return 1 }

func (d *drawScratch) rasterParallel() { d.rasterRounds() }

// tilePipeline is empty: no tile worker runs ahead (tiles_native.go).
type tilePipeline struct{ area, handed uint64 }

func (tp *tilePipeline) own(*GPU, int) {}

func (d *drawScratch) handOver()      { d.flush() }
func (d *drawScratch) drain()         {}
func (d *drawScratch) inFlight() bool { return false }
