package apitrace

import (
	"encoding/binary"
	"fmt"
	"math"
	"strconv"
	"strings"

	"d3dsim/core/hresult"
)

// The scenario's text: source blocks, options, the statements of each
// thread, object names (debug names where the capture gives them), and the
// values of the scenario language (data lists, colours, numbers).

// scenario keywords a debug name may not take
var reserved = map[string]bool{"option": true, "thread": true, "repeat": true, "until": true, "signal": true, "wait": true,
	"inject": true, "expect": true, "NULL": true, "TRUE": true, "FALSE": true, "hlsl": true, "fxc": true, "main": true}

// names gives every object its name: its debug name when the capture set
// one (and it is free), else its prefix and a number.
func (m *importer) names() map[int]string {
	used := map[string]bool{}
	out := map[int]string{}
	for _, o := range m.all {
		if o.typ == "" || o.alias != nil || o.debug == "" {
			continue
		}
		n := sanitize(o.debug)
		if n == "" || used[n] || reserved[n] {
			continue
		}
		used[n] = true
		out[o.id] = n
	}
	count := map[string]int{}
	for _, o := range m.all {
		if o.typ == "" || o.alias != nil {
			continue
		}
		if _, ok := out[o.id]; ok {
			continue
		}
		p := o.prefix
		if p == "" {
			p = o.typ
		}
		for {
			count[p]++
			n := p
			if count[p] > 1 {
				n = p + strconv.Itoa(count[p])
			}
			if !used[n] && !reserved[n] {
				used[n] = true
				out[o.id] = n
				break
			}
		}
	}
	return out
}

// sanitize makes a debug name a scenario name: letters, digits and _,
// not starting with a digit, at most 64 bytes.
func sanitize(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case r < 128 && (r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9'):
			b.WriteRune(r)
		case r == ' ' || r == '-' || r == '.':
			b.WriteByte('_')
		}
		if b.Len() >= 64 {
			break
		}
	}
	n := b.String()
	if n == "" || n[0] >= '0' && n[0] <= '9' {
		return ""
	}
	return n
}

// resolve puts the objects' names into a statement.
func resolve(text string, names map[int]string) string {
	if !strings.ContainsRune(text, '\x01') {
		return text
	}
	var b strings.Builder
	for {
		i := strings.IndexByte(text, '\x01')
		if i < 0 {
			b.WriteString(text)
			return b.String()
		}
		j := strings.IndexByte(text[i:], '\x02')
		if j < 0 {
			b.WriteString(text)
			return b.String()
		}
		id, _ := strconv.Atoi(text[i+1 : i+j])
		b.WriteString(text[:i])
		b.WriteString(names[id])
		text = text[i+j+1:]
	}
}

// callComment is the comment that keeps a statement's call numbers.
func callComment(s *stmt) string {
	if s.first == s.last {
		return "# call " + strconv.FormatUint(s.first, 10)
	}
	return "# calls " + strconv.FormatUint(s.first, 10) + "-" + strconv.FormatUint(s.last, 10)
}

// lines writes one statement (with its expect hr, or as an until loop for
// a polling run) at indent.
func lines(b *strings.Builder, s *stmt, names map[int]string, indent string) {
	text := resolve(s.text, names)
	if s.comment {
		b.WriteString(indent + "# call " + strconv.FormatUint(s.first, 10) + ": " + text + "\n")
		return
	}
	expect := func(hr string) {
		if hr == "" || hr == "S_FALSE" {
			return
		}
		if _, ok := hresult.Parse(hr); ok || hr == "DROPPED" {
			b.WriteString(indent + "expect hr == " + hr + "\n")
		}
	}
	if s.count > 1 && s.hr != s.poll {
		max := max(1000, 2*s.count)
		fmt.Fprintf(b, "%suntil hr != %s max %d {  %s (%d polls)\n", indent, s.poll, max, callComment(s), s.count)
		b.WriteString(indent + "  " + text + "\n")
		b.WriteString(indent + "}\n")
		expect(s.hr)
		return
	}
	for k := 0; k < s.count; k++ {
		b.WriteString(indent + text + "  " + callComment(&stmt{first: s.first + uint64(k), last: s.first + uint64(k)}) + "\n")
		if s.count > 1 {
			expect(s.poll)
		} else {
			expect(s.hr)
		}
	}
}

// text writes the scenario.
func (m *importer) text() string {
	names := m.names()
	var b strings.Builder
	src := m.opt.Name
	if src == "" {
		src = "an apitrace capture"
	}
	fmt.Fprintf(&b, "# Imported from %s by d3dsim: %d calls, %d statements", src, m.rep.Calls, m.rep.Statements)
	if n := len(m.rep.Unsupported); n > 0 {
		fmt.Fprintf(&b, ", %d kinds of call not simulated (see the comments)", n)
	}
	b.WriteString(".\n# Each statement names the call it comes from; objects are named after the capture's pointers.\n")
	m.lineOf, m.optionAt = map[int]*stmt{}, map[int]int{}
	for i, o := range m.options {
		m.optionAt[strings.Count(b.String(), "\n")+1] = i
		b.WriteString("option " + o.text + "\n")
	}
	for _, blk := range m.blocks {
		b.WriteString("\n" + blk)
	}
	if len(m.blocks) > 0 || len(m.options) > 0 {
		b.WriteByte('\n')
	}
	// Threads: thread 0 runs at the top level; the others in thread
	// blocks, each waiting for the signal of the call before its own
	// whenever the capture switches threads, so the calls keep the
	// capture's order.
	// Each thread's block goes into the top level where the thread makes
	// its first call, so the names it uses are bound above it.
	per := map[uint64][]string{}
	runs := map[uint64]bool{} // threads with statements
	main := uint64(0)
	for _, s := range m.stmts {
		if !s.comment && !s.dropped {
			main = s.thread
			break
		}
	}
	const block = "\x00thread "
	var directives []*stmt
	var last uint64
	started := false
	for _, s := range m.stmts {
		if s.dropped {
			continue
		}
		t := s.thread
		if !s.comment {
			if t != main && !runs[t] {
				per[main] = append(per[main], block+strconv.FormatUint(t, 10))
			}
			if started && t != last {
				ev := "c" + strconv.FormatUint(s.first, 10)
				per[last] = append(per[last], "signal "+ev+"\n")
				per[t] = append(per[t], "wait "+ev+"\n")
			}
			last, started = t, true
			runs[t] = true
		}
		if !runs[t] && t != main {
			t = main // a thread with nothing but comments so far
		}
		var sb strings.Builder
		if s.directive {
			sb.WriteString("\x00directive " + strconv.Itoa(len(directives)) + "\n")
			directives = append(directives, s)
		}
		lines(&sb, s, names, "")
		per[t] = append(per[t], sb.String())
	}
	line := strings.Count(b.String(), "\n") + 1
	write := func(l, indent string) {
		for _, ln := range strings.SplitAfter(strings.TrimSuffix(l, "\n"), "\n") {
			ln = strings.TrimSuffix(ln, "\n")
			if n, ok := strings.CutPrefix(ln, "\x00directive "); ok {
				i, _ := strconv.Atoi(n)
				m.lineOf[line] = directives[i]
				continue
			}
			b.WriteString(indent + ln + "\n")
			line++
		}
	}
	for _, l := range per[main] {
		if n, ok := strings.CutPrefix(l, block); ok {
			t, _ := strconv.ParseUint(n, 10, 64)
			fmt.Fprintf(&b, "thread t%d {\n", t)
			line++
			for _, l := range per[t] {
				write(l, "  ")
			}
			b.WriteString("}\n")
			line++
			continue
		}
		write(l, "")
	}
	return b.String()
}

// dataText writes bytes as a data list: f32[...] when every word reads as
// a float a person would write, u32[...] otherwise, u16[...] for a length
// that is two more than a multiple of four, u8[...] for an odd one.
func dataText(data []byte) (string, bool) {
	if len(data) == 0 {
		return "", false
	}
	var b strings.Builder
	if len(data)%2 != 0 {
		b.WriteString("u8[")
		for i, x := range data {
			if i > 0 {
				if i%24 == 0 {
					b.WriteString("\n  ")
				} else {
					b.WriteByte(' ')
				}
			}
			b.WriteString(strconv.Itoa(int(x)))
		}
		b.WriteString("]")
		return b.String(), true
	}
	if len(data)%4 == 2 {
		b.WriteString("u16[")
		for i := 0; i < len(data); i += 2 {
			if i > 0 {
				b.WriteByte(' ')
			}
			b.WriteString(strconv.Itoa(int(binary.LittleEndian.Uint16(data[i:]))))
		}
		b.WriteString("]")
		return b.String(), true
	}
	words := len(data) / 4
	float := true
	for i := 0; i < words && float; i++ {
		bits := binary.LittleEndian.Uint32(data[4*i:])
		float = niceFloat(bits)
	}
	if float {
		b.WriteString("f32[")
	} else {
		b.WriteString("u32[")
	}
	for i := 0; i < words; i++ {
		if i > 0 {
			if i%12 == 0 {
				b.WriteString("\n  ")
			} else {
				b.WriteByte(' ')
			}
		}
		bits := binary.LittleEndian.Uint32(data[4*i:])
		if float {
			b.WriteString(strconv.FormatFloat(float64(math.Float32frombits(bits)), 'g', -1, 32))
		} else if bits < 10 {
			b.WriteString(strconv.Itoa(int(bits)))
		} else {
			b.WriteString("0x" + strconv.FormatUint(uint64(bits), 16))
		}
	}
	b.WriteString("]")
	return b.String(), true
}

// niceFloat says whether a word is a float a person would write: zero, or
// finite between 1e-6 and 1e7 in magnitude with at most 8 significant
// digits.
func niceFloat(bits uint32) bool {
	if bits == 0 {
		return true
	}
	f := math.Float32frombits(bits)
	a := math.Abs(float64(f))
	if math.IsNaN(a) || math.IsInf(a, 0) || a < 1e-6 || a > 1e7 {
		return false
	}
	s := strconv.FormatFloat(float64(f), 'g', -1, 32)
	digits := 0
	for _, c := range s {
		if c == 'e' {
			break
		}
		if c >= '0' && c <= '9' {
			digits++
		}
	}
	return digits <= 8
}

// floatText writes a float as the scenario reads it back to the same
// 32-bit value.
func floatText(f float64) string {
	return strconv.FormatFloat(float64(float32(f)), 'g', -1, 32)
}

// colourText is a colour when each of four floats is k/255 as the
// scenario's #RRGGBBAA makes it (float32(k)/255), within the seven
// digits `apitrace dump` prints.
func colourText(c [4]float64) (string, bool) {
	var s strings.Builder
	s.WriteByte('#')
	for _, f := range c {
		k := math.Round(f * 255)
		if k < 0 || k > 255 {
			return "", false
		}
		want := float32(k) / 255
		if float32(f) != want && FormatFloat(float64(want), 7) != FormatFloat(f, 7) {
			return "", false
		}
		fmt.Fprintf(&s, "%02x", int(k))
	}
	return s.String(), true
}
