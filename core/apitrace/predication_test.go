package apitrace

import (
	"bytes"
	"io"
	"strings"
	"testing"
)

// TestQueriesAndPredicationRoundTrip exports a run with a pipeline-statistics
// query, a disjoint query and an occlusion predicate: the capture holds
// CreatePredicate, SetPredication and GetPredication, and GetData's pData is
// each kind's structure with the run's values (GetDataSize bytes); the
// import gives the statements back, and the imported scenario runs.
func TestQueriesAndPredicationRoundTrip(t *testing.T) {
	buf := bytes.NewBuffer(queriesCapture(t))
	r, _, err := Open(bytes.NewReader(buf.Bytes()), Options{})
	if err != nil {
		t.Fatal(err)
	}
	var dump strings.Builder
	for {
		c, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		DumpCall(&dump, c, DumpOptions{})
	}
	for _, want := range []string{
		"ID3D11Device::CreatePredicate(this = ",
		"pPredicateDesc = &{Query = D3D11_QUERY_OCCLUSION_PREDICATE, MiscFlags = 0x0}",
		"ID3D11DeviceContext::SetPredication(this = ",
		"PredicateValue = TRUE)",
		"pPredicate = NULL, PredicateValue = FALSE)",
		"ID3D11DeviceContext::GetPredication(this = ",
		"pData = &{IAVertices = 6, IAPrimitives = 2, VSInvocations = 6, GSInvocations = 0, GSPrimitives = 0, CInvocations = 2, CPrimitives = 2, PSInvocations = 64, HSInvocations = 0, DSInvocations = 0, CSInvocations = 0}, DataSize = 88,",
		"pData = &{Frequency = 1000000000, Disjoint = FALSE}, DataSize = 16,",
		"pData = &TRUE, DataSize = 4,",
	} {
		if !strings.Contains(dump.String(), want) {
			t.Errorf("the capture lacks %q:\n%s", want, dump.String())
		}
	}
	text, _ := importTrace(t, "queries", buf.Bytes())
	for _, want := range []string{"dev.CreatePredicate Query=OCCLUSION_PREDICATE", ".SetPredication q", " TRUE", ".SetPredication NULL", ".GetPredication"} {
		if !strings.Contains(text, want) {
			t.Errorf("the import lacks %q:\n%s", want, text)
		}
	}
	if sum := runText(t, "imported", []byte(text), nil); !sum.OK() {
		t.Errorf("the imported scenario: %v\n%s", sum.Failures, numbered(text))
	}
}

// queriesCapture is the capture of a run with queries and a predicate,
// and a swap chain's ResizeBuffers (TestEveryRowUsed imports it too).
func queriesCapture(t *testing.T) []byte {
	t.Helper()
	src := `dev, imm = D3D11CreateDevice
sc = dev.CreateSwapChain Width=8 Height=8
sc.ResizeBuffers Width=4 Height=4
t = dev.CreateTexture2D Width=8 Height=8 Format=R8G8B8A8_UNORM BindFlags=RENDER_TARGET
rtv = dev.CreateRenderTargetView t
quad = dev.CreateBuffer Usage=IMMUTABLE BindFlags=VERTEX_BUFFER Data=mesh:quad
vs = dev.CreateVertexShader builtin:vs_passthrough
ps = dev.CreatePixelShader builtin:ps_vertexcolor
imm.OMSetRenderTargets rtv
imm.RSSetViewports 0 0 8 8
imm.IASetPrimitiveTopology TRIANGLELIST
imm.VSSetShader vs
imm.PSSetShader ps
imm.IASetVertexBuffers 0 quad
st = dev.CreateQuery Query=PIPELINE_STATISTICS
dj = dev.CreateQuery Query=TIMESTAMP_DISJOINT
seen = dev.CreatePredicate Query=OCCLUSION_PREDICATE
imm.Begin dj
imm.Begin st
imm.Begin seen
imm.Draw 6 0
imm.End seen
imm.End st
imm.End dj
imm.SetPredication seen TRUE
imm.ClearRenderTargetView rtv 1 0 0 1
imm.GetPredication
imm.SetPredication NULL
until hr == S_OK max 100 {
  imm.GetData st
}
expect data st.PSInvocations == 64
imm.GetData dj
imm.GetData seen
expect data seen == TRUE
`
	var buf bytes.Buffer
	if sum := runText(t, "queries", []byte(src), &buf); !sum.OK() {
		t.Fatalf("the run: %v", sum.Failures)
	}
	return buf.Bytes()
}

// TestSwapChainGetDescRoundTrip: IDXGISwapChain::GetDesc goes out with the
// swap chain's description and comes back as the statement.
func TestSwapChainGetDescRoundTrip(t *testing.T) {
	src := "dev, imm = D3D11CreateDevice\nsc = dev.CreateSwapChain Width=64 Height=32 BufferCount=3 SwapEffect=FLIP_DISCARD\nsc.GetDesc\nexpect got == 64 32 R8G8B8A8_UNORM 3 FLIP_DISCARD TRUE\n"
	var buf bytes.Buffer
	if sum := runText(t, "desc", []byte(src), &buf); !sum.OK() {
		t.Fatalf("the run: %v", sum.Failures)
	}
	r, _, err := Open(bytes.NewReader(buf.Bytes()), Options{})
	if err != nil {
		t.Fatal(err)
	}
	var dump strings.Builder
	for {
		c, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		DumpCall(&dump, c, DumpOptions{})
	}
	want := "IDXGISwapChain::GetDesc(this = 0x10400, pDesc = &{BufferDesc = {Width = 64, Height = 32,"
	if !strings.Contains(dump.String(), want) || !strings.Contains(dump.String(), "BufferCount = 3, OutputWindow = NULL, Windowed = TRUE, SwapEffect = DXGI_SWAP_EFFECT_FLIP_DISCARD") {
		t.Errorf("the capture lacks GetDesc's description:\n%s", dump.String())
	}
	text, _ := importTrace(t, "desc", buf.Bytes())
	if !strings.Contains(text, ".GetDesc  # call") {
		t.Errorf("the import lacks GetDesc:\n%s", text)
	}
}

// TestResizeBuffersRoundTrip: IDXGISwapChain::ResizeBuffers goes out with
// its arguments and comes back as the statement (0 and UNKNOWN omitted),
// and the imported scenario runs; SwapChainFlags are refused by name.
func TestResizeBuffersRoundTrip(t *testing.T) {
	src := "dev, imm = D3D11CreateDevice\nsc = dev.CreateSwapChain Width=16 Height=16 BufferCount=2 SwapEffect=FLIP_DISCARD\nsc.ResizeBuffers Width=32 Height=8 NewFormat=R8G8B8A8_UNORM\nsc.ResizeBuffers BufferCount=3\nsc.GetDesc\nexpect got == 32 8 R8G8B8A8_UNORM 3 FLIP_DISCARD TRUE\n"
	var buf bytes.Buffer
	if sum := runText(t, "resize", []byte(src), &buf); !sum.OK() {
		t.Fatalf("the run: %v", sum.Failures)
	}
	r, _, err := Open(bytes.NewReader(buf.Bytes()), Options{})
	if err != nil {
		t.Fatal(err)
	}
	var dump strings.Builder
	for {
		c, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		DumpCall(&dump, c, DumpOptions{})
	}
	if want := "ResizeBuffers(this = 0x10400, BufferCount = 0, Width = 32, Height = 8, NewFormat = DXGI_FORMAT_R8G8B8A8_UNORM, SwapChainFlags = 0) = S_OK"; !strings.Contains(dump.String(), want) {
		t.Errorf("the capture lacks %q:\n%s", want, dump.String())
	}
	text, _ := importTrace(t, "resize", buf.Bytes())
	for _, want := range []string{".ResizeBuffers Width=32 Height=8 NewFormat=R8G8B8A8_UNORM  # call", ".ResizeBuffers BufferCount=3  # call"} {
		if !strings.Contains(text, want) {
			t.Errorf("the import lacks %q:\n%s", want, text)
		}
	}
	if sum := runText(t, "imported", []byte(text), nil); !sum.OK() {
		t.Errorf("the imported scenario: %v\n%s", sum.Failures, numbered(text))
	}
}
