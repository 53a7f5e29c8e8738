//go:build wasm

package gpu

// WebAssembly runs Go on one thread: the rasterizer stays on one goroutine.
func rasterWorkers(int) int { return 1 }

func (d *drawScratch) rasterParallel() { d.rasterRounds() }
