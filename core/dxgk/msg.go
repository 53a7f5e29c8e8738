package dxgk

import "strconv"

// The messages of every DMA buffer's DxgkDdiPatch and DxgkDdiSubmitCommand
// and of every rename, built with strconv: fmt.Sprintf of the three was
// about 9,800 instructions of each round of the DISCARD scene (a rename and
// a buffer a round), 4% of it. TestMessagesAsSprintf holds them to the
// formats they replace.

// patchMsg is "engine %d, submission fence %d".
func patchMsg(engine int, sub uint64) string {
	return string(appendEngine(make([]byte, 0, 48), engine, sub))
}

// submitMsg is "engine %d, submission fence %d, %d words%s".
func submitMsg(engine int, sub uint64, words int, note string) string {
	b := appendEngine(make([]byte, 0, 64+len(note)), engine, sub)
	b = append(b, ", "...)
	b = strconv.AppendInt(b, int64(words), 10)
	b = append(b, " words"...)
	return string(append(b, note...))
}

func appendEngine(b []byte, engine int, sub uint64) []byte {
	b = append(b, "engine "...)
	b = strconv.AppendInt(b, int64(engine), 10)
	b = append(b, ", submission fence "...)
	return strconv.AppendUint(b, sub, 10)
}

// renameMsg is "rename %v (%s): the instance at %#x stays with fence %d of
// %v; the lock gets %s at %#x, handle %v (renaming list: %d)".
func renameMsg(oldH HAllocation, obj string, oldAddr, fence uint64, ctx HContext, how string, to uint64, toH HAllocation, n int) string {
	b := make([]byte, 0, 144+len(obj)+len(how))
	b = append(b, "rename "...)
	b = append(b, oldH.String()...)
	b = append(b, " ("...)
	b = append(b, obj...)
	b = append(b, "): the instance at 0x"...)
	b = strconv.AppendUint(b, oldAddr, 16)
	b = append(b, " stays with fence "...)
	b = strconv.AppendUint(b, fence, 10)
	b = append(b, " of "...)
	b = append(b, ctx.String()...)
	b = append(b, "; the lock gets "...)
	b = append(b, how...)
	b = append(b, " at 0x"...)
	b = strconv.AppendUint(b, to, 16)
	b = append(b, ", handle "...)
	b = append(b, toH.String()...)
	b = append(b, " (renaming list: "...)
	b = strconv.AppendInt(b, int64(n), 10)
	return string(append(b, ')'))
}
