package trace

// The ceilings that bound the trace in bytes: per event (MaxText, MaxName)
// and per recorder (SetByteLimit). The ring that drops by events is in
// recorder.go.

import (
	"strconv"
	"unsafe"
)

// The ceilings on what one event and the whole trace may hold. A scenario or
// link is untrusted input: a 100 KB object name in a loop of failing calls
// must not make every event carry 100 KB, nor the trace grow past memory.
const (
	// MaxText bounds an event's Msg and its Args (each), in bytes.
	MaxText = 4 << 10
	// MaxName bounds an event's interned strings (thread, name, ctx, obj,
	// handle, hr, rule), in bytes.
	MaxName = 256
	// DefaultByteLimit is a new recorder's byte ceiling (SetByteLimit).
	DefaultByteLimit = 128 << 20
	// recordBytes is what a record takes in a chunk.
	recordBytes = int64(unsafe.Sizeof(record{}))
)

// Truncate cuts s to at most n bytes at a UTF-8 boundary, saying how much was
// cut.
func Truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	keep := max(n-24, 0)
	for keep > 0 && keep < len(s) && s[keep]&0xC0 == 0x80 { // not inside a rune
		keep--
	}
	return s[:keep] + "…(+" + strconv.Itoa(len(s)-keep) + " bytes)"
}

// capEvent applies MaxText and MaxName to e.
func capEvent(e *Event) {
	if len(e.Msg) > MaxText {
		e.Msg = Truncate(e.Msg, MaxText)
	}
	if e.Args.Len() > MaxText {
		e.Args = capArgs(e.Args, MaxText)
	}
	if len(e.Obj) > MaxName || len(e.Name) > MaxName || len(e.Handle) > MaxName || len(e.Ctx) > MaxName ||
		len(e.Thread) > MaxName || len(e.HR) > MaxName || len(e.Rule) > MaxName {
		for _, p := range [...]*string{&e.Obj, &e.Name, &e.Handle, &e.Ctx, &e.Thread, &e.HR, &e.Rule} {
			*p = Truncate(*p, MaxName)
		}
	}
}

// SetByteLimit bounds the bytes the held events take to about n (n <= 0:
// no byte bound): past it the ring drops its oldest chunks of events until
// half of n is held. Text is stored per chunk of 4,096 events, so the bound
// holds to within one chunk; when the newest chunk alone is over n, events
// are stored without their Msg and Args (CutText counts them).
func (r *Recorder) SetByteLimit(n int64) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.byteLimit = max(n, 0)
}

// Bytes is what the held events take in memory, in bytes.
func (r *Recorder) Bytes() int64 {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.bytes + int64(r.held())*recordBytes
}

// CutText is the number of events stored without their text because of the
// byte limit.
func (r *Recorder) CutText() uint64 {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.cut
}

// overBytes reports whether the held events take more than the byte limit.
// The caller holds mu.
func (r *Recorder) overBytes(extra int64) bool {
	return r.byteLimit > 0 && r.bytes+int64(r.held())*recordBytes+extra > r.byteLimit
}

// dropBytes drops the oldest whole chunks until at most half the byte limit
// is held, keeping the newest chunk. The caller holds mu.
func (r *Recorder) dropBytes() {
	for len(r.chunks) > 1 && r.bytes+int64(r.held())*recordBytes > r.byteLimit/2 {
		end := (r.c0 + 1) << chunkBits // seq of the last event of chunks[0]
		r.drop(end + 1 - r.first)
	}
}

// SetStamp makes fn stamp events with time and thread in one call instead of
// now() and thread() (a simulation reads both under one lock).
func (r *Recorder) SetStamp(fn func() (int64, string)) {
	r.mu.Lock()
	r.stamp = fn
	r.setStampAny()
	r.mu.Unlock()
}
