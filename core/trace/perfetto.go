package trace

import (
	"bufio"
	"io"
	"strconv"
)

// WritePerfetto writes events in the Chrome trace-event JSON format, which
// Perfetto and chrome://tracing open. Calls and returns become B/E slices on
// the thread's track; everything else is an instant event. Time is converted
// from virtual nanoseconds to microseconds.
func WritePerfetto(w io.Writer, events []Event) error {
	return WritePerfettoDropped(w, events, 0)
}

// WritePerfettoDropped is WritePerfetto for a trace whose oldest events the
// ring dropped: the count goes in the file's metadata (otherData, shown by
// Perfetto's trace info) as dropped_events.
func WritePerfettoDropped(w io.Writer, events []Event, dropped uint64) error {
	bw := bufio.NewWriter(w)
	bw.WriteString(`{"displayTimeUnit":"ns",`)
	if dropped > 0 {
		bw.WriteString(`"otherData":{"dropped_events":`)
		bw.WriteString(strconv.FormatUint(dropped, 10))
		bw.WriteString(`},`)
	}
	bw.WriteString(`"traceEvents":[`)
	tids := map[string]int{}
	var order []string
	for i := range events {
		th := events[i].Thread
		if _, ok := tids[th]; !ok {
			tids[th] = len(order) + 1
			order = append(order, th)
		}
	}
	var b []byte
	first := true
	sep := func() {
		if !first {
			b = append(b, ',', '\n')
		}
		first = false
	}
	for _, th := range order {
		sep()
		b = append(b, `{"ph":"M","pid":1,"tid":`...)
		b = strconv.AppendInt(b, int64(tids[th]), 10)
		b = append(b, `,"name":"thread_name","args":{"name":`...)
		b = AppendString(b, th)
		b = append(b, `}}`...)
	}
	for i := range events {
		e := &events[i]
		sep()
		ph := "i"
		switch e.Kind {
		case Call:
			ph = "B"
		case Return:
			ph = "E"
		}
		b = append(b, `{"ph":"`...)
		b = append(b, ph...)
		b = append(b, `","pid":1,"tid":`...)
		b = strconv.AppendInt(b, int64(tids[e.Thread]), 10)
		b = append(b, `,"ts":`...)
		b = strconv.AppendFloat(b, float64(e.T)/1000, 'f', 3, 64)
		b = append(b, `,"name":`...)
		b = AppendString(b, e.Name)
		b = append(b, `,"cat":`...)
		b = AppendString(b, e.Layer.String()+","+e.Kind.String())
		if ph == "i" {
			b = append(b, `,"s":"t"`...)
		}
		b = append(b, `,"args":`...)
		b = AppendJSON(b, e)
		b = append(b, '}')
		if len(b) > 32<<10 {
			if _, err := bw.Write(b); err != nil {
				return err
			}
			b = b[:0]
		}
	}
	b = append(b, "]}\n"...)
	if _, err := bw.Write(b); err != nil {
		return err
	}
	return bw.Flush()
}
