package trace

import (
	"bufio"
	"io"
	"strconv"
	"unicode/utf8"
	"unsafe"
)

// AppendJSON appends the JSON-lines form of e (docs/scenario.md, "Trace") without a
// trailing newline. Field order is fixed so traces compare byte for byte.
func AppendJSON(b []byte, e *Event) []byte {
	b = append(b, `{"seq":`...)
	b = strconv.AppendUint(b, e.Seq, 10)
	b = append(b, `,"t":`...)
	b = strconv.AppendInt(b, e.T, 10)
	b = appendField(b, "thread", e.Thread)
	b = appendField(b, "from", e.From.String())
	b = appendField(b, "layer", e.Layer.String())
	b = appendField(b, "kind", e.Kind.String())
	b = appendField(b, "name", e.Name)
	b = appendOpt(b, "ctx", e.Ctx)
	b = appendOpt(b, "obj", e.Obj)
	b = appendOpt(b, "handle", e.Handle)
	b = appendOpt(b, "hr", e.HR)
	if e.Fence != 0 {
		b = append(b, `,"fence":`...)
		b = strconv.AppendUint(b, e.Fence, 10)
	}
	if e.DMA != 0 {
		b = append(b, `,"dma":`...)
		b = strconv.AppendUint(b, e.DMA, 10)
	}
	b = appendOpt(b, "rule", e.Rule)
	b = appendOpt(b, "msg", e.Msg)
	if !e.Args.IsZero() {
		b = appendArgs(b, e.Args)
	}
	if e.Line != 0 {
		b = append(b, `,"line":`...)
		b = strconv.AppendInt(b, int64(e.Line), 10)
	}
	if e.Parent != 0 {
		b = append(b, `,"parent":`...)
		b = strconv.AppendUint(b, e.Parent, 10)
	}
	return append(b, '}')
}

// appendArgs appends the "args" field: the payload's text.
func appendArgs(b []byte, a Args) []byte {
	if a.raw() {
		return appendField(b, "args", a.b)
	}
	var buf [256]byte
	t := a.AppendText(buf[:0])
	return appendField(b, "args", unsafe.String(unsafe.SliceData(t), len(t)))
}

func appendField(b []byte, k, v string) []byte {
	b = append(b, ',', '"')
	b = append(b, k...)
	b = append(b, '"', ':')
	return AppendString(b, v)
}

func appendOpt(b []byte, k, v string) []byte {
	if v == "" {
		return b
	}
	return appendField(b, k, v)
}

const hex = "0123456789abcdef"

// AppendString appends s as a JSON string literal.
func AppendString(b []byte, s string) []byte {
	b = append(b, '"')
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			switch {
			case c == '"' || c == '\\':
				b = append(b, '\\', c)
			case c == '\n':
				b = append(b, '\\', 'n')
			case c == '\t':
				b = append(b, '\\', 't')
			case c == '\r':
				b = append(b, '\\', 'r')
			case c < 0x20 || c == '<' || c == '>' || c == '&':
				b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&15])
			default:
				b = append(b, c)
			}
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && n == 1 {
			b = append(b, `\ufffd`...)
		} else if r == '\u2028' || r == '\u2029' {
			b = append(b, '\\', 'u', '2', '0', '2', hex[r&15])
		} else {
			b = append(b, s[i:i+n]...)
		}
		i += n
	}
	return append(b, '"')
}

// WriteJSONL writes events as JSON lines.
func WriteJSONL(w io.Writer, events []Event) error {
	return WriteJSONLDropped(w, events, 0)
}

// DroppedEvent is the line that opens an exported trace whose oldest events
// the ring dropped: an event-shaped record (seq 0, kind message, name
// TraceDropped, args dropped=N), so every line still parses as an event and
// the count is in the file itself.
func DroppedEvent(dropped uint64) Event {
	n := strconv.FormatUint(dropped, 10)
	return Event{Thread: "trace", Kind: Message, Name: "TraceDropped", Args: droppedArgs(dropped),
		Msg: "the trace ring dropped the " + n + " oldest events (option maxevents=N keeps more); this trace starts at seq " + strconv.FormatUint(dropped+1, 10)}
}

// WriteJSONLDropped writes events as JSON lines, preceded by DroppedEvent
// when dropped > 0.
func WriteJSONLDropped(w io.Writer, events []Event, dropped uint64) error {
	bw := bufio.NewWriter(w)
	var b []byte
	if dropped > 0 {
		d := DroppedEvent(dropped)
		b = append(AppendJSON(b, &d), '\n')
		if _, err := bw.Write(b); err != nil {
			return err
		}
	}
	for i := range events {
		b = AppendJSON(b[:0], &events[i])
		b = append(b, '\n')
		if _, err := bw.Write(b); err != nil {
			return err
		}
	}
	return bw.Flush()
}

func droppedArgs(n uint64) Args {
	var b ArgBuilder
	return b.Uint(KeyDropped, n).Args()
}
