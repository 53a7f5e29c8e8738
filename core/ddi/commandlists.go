package ddi

// Deferred contexts, context-local handles and command lists ("Using context-local DDI handles" and
// "Supporting command lists").

// HandleType mirrors D3D10DDI_HANDLETYPE / D3D11DDI_HANDLETYPE: the kind of
// object a context-local handle stands for.
type HandleType uint32

const (
	HTResource HandleType = iota + 1
	HTShaderResourceView
	HTRenderTargetView
	HTDepthStencilView
	HTVertexShader
	HTPixelShader
	HTBlendState
	HTDepthStencilState
	HTRasterizerState
	HTSampler
	HTQuery
	HTCommandList
)

var handleTypeNames = [...]string{"", "D3D10DDI_HT_RESOURCE", "D3D10DDI_HT_SHADERRESOURCEVIEW", "D3D10DDI_HT_RENDERTARGETVIEW",
	"D3D10DDI_HT_DEPTHSTENCILVIEW", "D3D10DDI_HT_VERTEXSHADER", "D3D10DDI_HT_PIXELSHADER", "D3D10DDI_HT_BLENDSTATE",
	"D3D10DDI_HT_DEPTHSTENCILSTATE", "D3D10DDI_HT_RASTERIZERSTATE", "D3D10DDI_HT_SAMPLERSTATE", "D3D10DDI_HT_QUERY",
	"D3D11DDI_HT_COMMANDLIST"}

func (t HandleType) String() string {
	if int(t) < len(handleTypeNames) {
		return handleTypeNames[t]
	}
	return "D3D10DDI_HT_?"
}

// HandleSize is one entry of CheckDeferredContextHandleSizes' array
// (D3D11DDI_HANDLESIZE).
type HandleSize struct {
	Type HandleType
	Size uint32
}

// CreateDeferredContextArgs mirrors D3D11DDIARG_CREATEDEFERREDCONTEXT.
type CreateDeferredContextArgs struct {
	HRTCoreLayer HRTCORELAYER // the deferred context's own, for its pfnSetErrorCb ("Using context-local DDI handles")
	Obj          string
}

// CreateCommandListArgs mirrors D3D11DDIARG_CREATECOMMANDLIST.
type CreateCommandListArgs struct {
	DeferredContext HDEVICE
}

// CommandLists is the part of the device function table for deferred
// contexts and command lists. On a deferred context's table, the Create*
// entries of Device open context-local handles: the args carry only the
// context-local dependency handle (views) and the rt argument is the
// immediate context's handle of the object ("Using context-local DDI handles").
type CommandLists interface {
	CheckDeferredContextHandleSizes(h HDEVICE, sizes []HandleSize) int
	CalcDeferredContextHandleSize(h HDEVICE, t HandleType, obj uint32) int
	CalcPrivateDeferredContextSize(h HDEVICE) int
	// CreateDeferredContext returns the deferred context's table, or nil
	// after reporting the error through the immediate context's pfnSetErrorCb.
	CreateDeferredContext(h HDEVICE, args *CreateDeferredContextArgs, dc HDEVICE) Device
	// RecycleCreateDeferredContext makes a deferred context handle fresh
	// again after a command list was made from it. It returns E_OUTOFMEMORY
	// itself, never through pfnSetErrorCb (rule CL-OOM).
	RecycleCreateDeferredContext(h HDEVICE, dc HDEVICE) error
	AbandonCommandList(dc HDEVICE)
	CalcPrivateCommandListSize(h HDEVICE, args *CreateCommandListArgs) int
	// CreateCommandList reports an error through the immediate context's
	// pfnSetErrorCb, as the other create DDIs do. On a deferred context's
	// table it opens a context-local handle onto the command list whose
	// immediate handle is rt (args nil), for CommandListExecute there: a
	// deferred context may execute a command list, recording it.
	CreateCommandList(h HDEVICE, args *CreateCommandListArgs, cl HCOMMANDLIST, rt HCOMMANDLIST)
	// RecycleCreateCommandList makes a recycled handle valid again; it
	// returns E_OUTOFMEMORY itself (rule CL-OOM).
	RecycleCreateCommandList(h HDEVICE, args *CreateCommandListArgs, cl HCOMMANDLIST) error
	DestroyCommandList(h HDEVICE, cl HCOMMANDLIST)
	RecycleDestroyCommandList(h HDEVICE, cl HCOMMANDLIST)
	// RecycleCommandList is called on the deferred context's thread to fold
	// a retired handle back into that context's cache.
	RecycleCommandList(dc HDEVICE, cl HCOMMANDLIST)
	// CommandListExecute runs a command list on the immediate context, or
	// records it into a deferred context's recording (with the context's own
	// handle onto it).
	CommandListExecute(h HDEVICE, cl HCOMMANDLIST)
}
