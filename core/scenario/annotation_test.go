package scenario

import (
	"strings"
	"testing"

	"d3dsim/core/trace"
)

// annotationSrc marks groups on the immediate context and on a deferred
// one, names a buffer, and keeps data and an interface under GUIDs.
const annotationSrc = `dev, imm = D3D11CreateDevice Flags=DEBUG
vb = dev.CreateBuffer ByteWidth=16 BindFlags=VERTEX_BUFFER
vb.SetPrivateData WKPDID_D3DDebugObjectName "Mesh \"A\" vertices"
vb.GetPrivateData WKPDID_D3DDebugObjectName
expect got == "Mesh \"A\" vertices"
imm.BeginEvent "Frame 1"
expect got == 0
imm.BeginEvent "Shadow pass"
expect got == 1
imm.SetMarker "here"
imm.EndEvent
expect got == 1
dc = dev.CreateDeferredContext
dc.BeginEvent "Recorded"
dc.SetMarker "inside"
dc.EndEvent
cl = dc.FinishCommandList
imm.ExecuteCommandList cl
imm.EndEvent
expect got == 0
imm.EndEvent
expect got == -1
D3DPERF_BeginEvent "perf" Color=#ff000080
expect got == 0
D3DPERF_SetMarker "tick"
D3DPERF_EndEvent
expect got == 0
D3DPERF_GetStatus
expect got == 1
imm.GetStatus
expect got == TRUE
vb.GetPrivateData MyGuid
expect hr == DXGI_ERROR_NOT_FOUND
vb.SetPrivateData MyGuid Data=u8[1 2 3]
vb.GetPrivateData MyGuid
expect got == 1 2 3
vb.SetPrivateDataInterface MyGuid dev
vb.GetPrivateData MyGuid
expect got == dev
vb.SetPrivateData MyGuid
vb.GetPrivateData MyGuid
expect hr == DXGI_ERROR_NOT_FOUND
imm.Map vb WRITE_DISCARD
expect hr == E_INVALIDARG
tmp = dev.CreateBuffer ByteWidth=16 BindFlags=VERTEX_BUFFER
tmp.SetPrivateDataInterface MyGuid vb
tmp.Release
tmp.SetPrivateData WKPDID_D3DDebugObjectName "gone"
expect hr == E_INVALIDARG
vb.SetPrivateDataInterface MyGuid tmp
expect hr == E_INVALIDARG
`

// TestAnnotationsAndNames: the markers' answers (expect got), their
// events with the text as msg, a command list's markers replayed inside
// ExecuteCommandList, D3DPERF's colour, private data's lifetime, and the
// debug layer naming an object by its debug name, a released object
// refused (LIFE-DANGLING), and the interface a destroyed object held given
// back.
func TestAnnotationsAndNames(t *testing.T) {
	r := runSource(t, annotationSrc)
	if f := r.Summary().Failures; len(f) > 0 {
		t.Fatal(f)
	}
	var calls, replayed []string
	named, warned := false, false
	for _, e := range r.Events() {
		switch {
		case e.Kind == trace.Call && e.From == trace.App && (strings.HasSuffix(e.Name, "Event") || strings.HasSuffix(e.Name, "Marker")):
			calls = append(calls, e.Ctx+":"+e.Name+":"+e.Msg+":"+e.Args.String())
		case e.Kind == trace.Message && e.Obj == "cl" && strings.HasSuffix(e.Name, "Event") || e.Name == "SetMarker" && e.Kind == trace.Message:
			replayed = append(replayed, e.Ctx+":"+e.Name+":"+e.Msg+":"+e.Args.String())
		case e.Kind == trace.Message && e.Name == "Map" && e.Obj == "vb":
			named = strings.Contains(e.Msg, `[vb is "Mesh \"A\" vertices"]`) && e.Args.String() == `debugname=Mesh "A" vertices`
		case e.Kind == trace.Message && e.Name == "EndEvent" && strings.HasPrefix(e.Msg, "D3D11 WARNING"):
			warned = true
		}
	}
	want := []string{"IC:BeginEvent:Frame 1:", "IC:BeginEvent:Shadow pass:", "IC:SetMarker:here:", "IC:EndEvent::",
		"DC1:BeginEvent:Recorded:", "DC1:SetMarker:inside:", "DC1:EndEvent::", "IC:EndEvent::", "IC:EndEvent::",
		":D3DPERF_BeginEvent:perf:color=#80ff0000", ":D3DPERF_SetMarker:tick:", ":D3DPERF_EndEvent::"}
	if strings.Join(calls, "|") != strings.Join(want, "|") {
		t.Errorf("marker calls:\n got %q\nwant %q", calls, want)
	}
	wantReplay := []string{"IC:BeginEvent:Recorded:dc=DC1", "IC:SetMarker:inside:dc=DC1", "IC:EndEvent::dc=DC1"}
	if strings.Join(replayed, "|") != strings.Join(wantReplay, "|") {
		t.Errorf("replayed markers:\n got %q\nwant %q", replayed, wantReplay)
	}
	if !named {
		t.Error("the debug layer's Map message does not name vb by its debug name")
	}
	if !warned {
		t.Error("an EndEvent with no group open has no warning")
	}
	// tmp held vb through SetPrivateDataInterface: its destruction gave
	// that reference back, so vb's count is the scenario's own again.
	if vb, ok := r.Object("vb").(interface{ AddRef() uint32 }); !ok || vb.AddRef() != 2 {
		t.Error("the destroyed tmp still holds a reference on vb")
	}
}

// TestStringValues: the lexer's strings, their escapes and their errors.
func TestStringValues(t *testing.T) {
	s, err := Parse("t.d3ds", []byte(`imm.SetMarker "a \"b\" \\ é #ff0000ff"`+"\n"))
	if err != nil {
		t.Fatal(err)
	}
	c := s.Stmts[0].(*Call)
	if v := c.Args[0].Value; v.Kind != VString || v.Text != `a "b" \ é #ff0000ff` {
		t.Errorf("value %+v", v)
	}
	for _, tc := range []struct{ src, want string }{
		{`imm.SetMarker "open` + "\n", "1:15: unclosed string"},
		{"imm.SetMarker \"a\tb\"", "1:17: control character 0x09"},
		{`imm.SetMarker "a\nb"`, "1:17: unknown escape"},
		{"imm.SetMarker \"\xff\"", "1:16: invalid UTF-8"},
		{`imm.SetMarker "` + strings.Repeat("x", MaxString+1) + `"`, "longer than 1024 bytes"},
	} {
		if _, err := Parse("t.d3ds", []byte(tc.src)); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: %v, want %q", tc.src, err, tc.want)
		}
	}
	if _, err := Load("t.d3ds", []byte("dev, imm = D3D11CreateDevice\nimm.SetMarker here\n")); err == nil || !strings.Contains(err.Error(), "must be a string in double quotes") {
		t.Errorf("a word as the text: %v", err)
	}
}
