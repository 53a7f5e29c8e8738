// Package memlimit reads what the Go runtime has allocated, cheaply (through
// runtime/metrics, without stopping the world), so that a fuzz target can
// fail an input that allocates past a ceiling and a run can notice it is
// near its memory ceiling. It is a safety net under the simulator's own
// deterministic limits (events, bytes, objects), which stop a run first.
package memlimit
