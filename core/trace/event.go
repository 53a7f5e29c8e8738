package trace

// Layer is where an event happens in the stack (docs/scenario.md: "layer", "from").
type Layer uint8

const (
	LayerNone Layer = iota
	App
	Runtime
	UMD
	Dxgkrnl
	KMD
	GPU
)

var layerNames = [...]string{"", "app", "runtime", "umd", "dxgkrnl", "kmd", "gpu"}

func (l Layer) String() string {
	if int(l) < len(layerNames) {
		return layerNames[l]
	}
	return "?"
}

// Kind says what an event records.
type Kind uint8

const (
	KindNone  Kind = iota
	Call           // a function of a layer was entered
	Return         // and left (carries hr)
	Submit         // a DMA or paging buffer was queued to a GPU engine
	Exec           // the GPU started or ran a buffer or packet
	Fence          // a fence value was written or signalled
	Interrupt      // the GPU raised its interrupt line
	DPC            // a deferred procedure call ran
	Wait           // a thread blocked (on a fence, an event, a lock)
	Violation      // core/verify found a rule broken
	Message        // a debug-layer or runtime message
	Dep            // a dependency edge between queued GPU commands (the SamBookshelf article on asynchronous Draw)
)

var kindNames = [...]string{"", "call", "return", "submit", "exec", "fence", "interrupt", "dpc", "wait", "violation", "message", "dep"}

func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return "?"
}

// Event is one record of the trace. Zero-valued optional fields are omitted
// from the JSON form.
type Event struct {
	Seq    uint64 // position in the stream, from 1
	T      int64  // virtual nanoseconds
	Thread string // simulated thread: main, scenario threads, kernel, gpu0, isr, dpc
	From   Layer  // the caller's layer
	Layer  Layer  // where it happens
	Kind   Kind
	Name   string // exact name from the documents: CreateResource, pfnRenderCb, DxgkDdiSubmitCommand
	Ctx    string // IC, DC1, ...
	Obj    string // the scenario's name for the object
	Handle string // DDI or kernel handle, e.g. h7, a3
	HR     string // HRESULT or NTSTATUS name, on returns
	Fence  uint64
	DMA    uint64 // DMA buffer id
	Rule   string // rule id (core/rules), on violations
	Msg    string
	Args   Args   // the payload: typed entries (ArgBuilder), printed as key=value text
	Line   int    // scenario line of the statement that caused the event (0: none)
	Parent uint64 // seq of the enclosing call event (0: top level); builds the flow tree
}
