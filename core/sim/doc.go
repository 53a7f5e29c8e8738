// Package sim is d3dsim's virtual time: a clock per simulated thread, a
// discrete-event queue for the threads that are driven by events (the GPU
// engines, the interrupt service routine, the DPC, the kernel worker), and a
// seeded random source for the choices where several threads could run.
// Mutex is a lock simulated threads hold, such as the driver's lock on an
// HCONTEXT: a thread run inside another's call waits on it by parking.
//
// Nothing here reads the wall clock: the same scenario and seed give the same
// sequence of times and choices on every machine, natively and in WebAssembly.
package sim
