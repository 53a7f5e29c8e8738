package rules

// ID is a rule's identifier, e.g. "CL-FINISH".
type ID string

// The rules, grouped by the page they come from.
const (
	WDDMFlow        ID = "WDDM-FLOW"
	WDDMFull        ID = "WDDM-FULL"
	WDDMIsolate     ID = "WDDM-ISOLATE"
	WDDMPresent     ID = "WDDM-PRESENT"
	WDDMResident    ID = "WDDM-RESIDENT"
	MapHazard       ID = "MAP-HAZARD"
	LifeDangling    ID = "LIFE-DANGLING"
	AsyncSame       ID = "ASYNC-SAME"
	ErrAsync        ID = "ERR-ASYNC"
	CLSSizes        ID = "CLS-SIZES"
	CLSDep          ID = "CLS-DEP"
	CLSFirst        ID = "CLS-FIRST"
	CLFinish        ID = "CL-FINISH"
	CLState         ID = "CL-STATE"
	ErrDC           ID = "ERR-DC"
	CLOOM           ID = "CL-OOM"
	CLSOne          ID = "CLS-ONE"
	CLSOpen         ID = "CLS-OPEN"
	CLClose         ID = "CL-CLOSE"
	CLAbandon       ID = "CL-ABANDON"
	CLDestroy       ID = "CL-DESTROY"
	CLRecycleErr    ID = "CL-RECYCLE-ERR"
	CLExec          ID = "CL-EXEC"
	CLSize          ID = "CL-SIZE"
	CLCaps          ID = "CL-CAPS"
	CLImplicit      ID = "CL-IMPLICIT"
	FTPresent       ID = "FT-PRESENT"
	FTMode          ID = "FT-MODE"
	FTRender        ID = "FT-RENDER"
	ErrApp          ID = "ERR-APP"
	DDOrder         ID = "DD-ORDER"
	DDFlush         ID = "DD-FLUSH"
	DDDevice        ID = "DD-DEVICE"
	DDPrimary       ID = "DD-PRIMARY"
	AMSubmit        ID = "AM-SUBMIT"
	AMBalance       ID = "AM-BALANCE"
	CLRecycleThread ID = "CL-RECYCLE-THREAD"
	FTCap           ID = "FT-CAP"
	FTCalc          ID = "FT-CALC"
	FTHCtx          ID = "FT-HCTX"
	FTAlloc         ID = "FT-ALLOC"
	FTTable         ID = "FT-TABLE"
	DDSync          ID = "DD-SYNC"
	AMDC            ID = "AM-DC"
)

// Page is the public page a rule comes from, by its title.
type Page string

// The pages the rules come from: four of the Windows driver documentation
// (Direct3D 11 DDI and WDDM) and one article on Direct3D's asynchrony. The
// article's title is Chinese; its English translation comes first, so a
// message that quotes it reads where no CJK font is installed (the page and
// terminals show boxes for the Chinese then).
const (
	ChangesFromD3D10    Page = "Changes from Direct3D 10"
	ContextLocalHandles Page = "Using context-local DDI handles"
	CommandLists        Page = "Supporting command lists"
	OperationFlow       Page = "WDDM operation flow"
	AsyncDraw           Page = "How Direct3D's Draw call works asynchronously (Direct3D Draw函数 异步调用原理解析; SamBookshelf, 2014)"
)

// Rule describes one rule.
type Rule struct {
	ID     ID
	Source Page // the page it comes from
	Text   string
}

// All lists every rule, in the order the verifier reports them.
var All = []Rule{
	{WDDMFlow, OperationFlow, "the 16 steps of the WDDM operation flow happen in the page's order"},
	{WDDMFull, OperationFlow, "a full command buffer is submitted (pfnRenderCb) without a Flush from the application, not grown in place: no buffer exceeds the size the runtime gave for it (pfnCreateContextCb's, then each pfnRenderCb's NewCommandBufferSize)"},
	{WDDMIsolate, OperationFlow, "the KMD rejects a command buffer that names another device's allocation or an address outside an allocation"},
	{WDDMPresent, OperationFlow, "a present submits the frame's render data with pfnRenderCb before it calls pfnPresentCb (steps 9 and 10, which the DDI reference, \"DXGI_DDI_BASE_FUNCTIONS\", orders for PresentDXGI)"},
	{WDDMResident, OperationFlow, "in WDDM 2.0's residency model (option wddm2.budget) every allocation a submitted buffer names is on its device's residency list (pfnMakeResidentCb): the residency of steps 11 and 12, which \"Driver residency in WDDM 2.0\" moves to the driver (\"GPU access to allocations that aren't resident is illegal and will result in the device removed\")"},
	{MapHazard, AsyncDraw, "Map for read waits for pending GPU writes, Map for write for pending GPU reads and writes; DISCARD and NO_OVERWRITE never wait (in d3dsim: \"Requesting to rename an allocation\" lets the video memory manager stall a DISCARD instead, depending on the memory condition); IMMUTABLE is never mapped"},
	{LifeDangling, AsyncDraw, "a call that uses an object after its final Release never reaches the UMD"},
	{AsyncSame, AsyncDraw, "out-of-order execution keeps the in-order result: no DMA buffer starts before a buffer it depends on (RAW/WAR/WAW) has finished"},
	{ErrAsync, AsyncDraw, "an error found at call time comes back from that call; after a TDR the device's next Present, GetData, FinishCommandList or Map that allows CPU reads returns DXGI_ERROR_DEVICE_REMOVED"},
	{CLSSizes, ContextLocalHandles, "at device creation the runtime polls CheckDeferredContextHandleSizes twice (count, then array) before any CalcDeferredContextHandleSize"},
	{CLSDep, ContextLocalHandles, "on a deferred context a resource's handle is opened before any view onto it (the view's only argument is that dependency handle) and closed after them"},
	{CLSFirst, ContextLocalHandles, "an immediate-context handle exists before any deferred-context handle onto it and is destroyed after all of them"},
	{CLFinish, CommandLists, "FinishCommandList runs RecycleCommandList*, then RecycleCreateCommandList or CalcPrivateCommandListSize+CreateCommandList+CalcDeferredContextHandleSize, then the deferred context's Destroy*, then RecycleCreateDeferredContext"},
	{CLState, CommandLists, "only a command-list handle in the valid state reaches CommandListExecute"},
	{ErrDC, ContextLocalHandles, "after a deferred context reports E_OUTOFMEMORY through its pfnSetErrorCb, its FinishCommandList returns E_OUTOFMEMORY"},
	{CLOOM, CommandLists, "RecycleCreateCommandList and RecycleCreateDeferredContext never call pfnSetErrorCb"},
	{CLSOne, ContextLocalHandles, "each object has one handle for the immediate context and one per deferred context that uses it"},
	{CLSOpen, ContextLocalHandles, "a deferred context's DDIs name only handles opened on it (lazily, on first bind per command list, with the immediate handle as hRT)"},
	{CLClose, CommandLists, "after the command list is created, the runtime closes every open deferred handle before recycling or destroying the deferred context"},
	{CLAbandon, CommandLists, "an abandoned deferred context runs AbandonCommandList, unbinds, closes its open handles, then is recycled or destroyed"},
	{CLDestroy, CommandLists, "releasing a command list almost always calls RecycleDestroyCommandList while its deferred context lives (a warning when it does not), and DestroyCommandList once the context is gone"},
	{CLRecycleErr, CommandLists, "RecycleCommandList reports no error but D3DDDIERR_DEVICEREMOVED"},
	{CLExec, CommandLists, "after CommandListExecute the context is cleared: state refresh inside the call shows the old bindings, from the next DDI on none"},
	{CLSize, CommandLists, "the memory behind a command-list handle never changes size (CalcPrivateCommandListSize)"},
	{CLCaps, CommandLists, "the Recycle* DDIs are used only when the driver reports D3D11DDICAPS_COMMANDLISTS_BUILD_2"},
	{CLImplicit, CommandLists, "FinishCommandList ends the queries begun on the deferred context before the command list is created"},
	{FTPresent, ChangesFromD3D10, "pfnPresentCb only during PresentDXGI"},
	{FTMode, ChangesFromD3D10, "pfnSetDisplayModeCb only during SetDisplayModeDXGI"},
	{FTRender, ChangesFromD3D10, "pfnRenderCb only on the thread that called Flush: the immediate context's"},
	{ErrApp, ChangesFromD3D10, "D3DDDIERR_APPLICATIONERROR from the driver is blamed on the application; E_INVALIDARG from the driver is a driver error"},
	{DDOrder, ChangesFromD3D10, "pfnDeallocateCb for a destroyed non-primary object (a resource, a query) comes after a pfnRenderCb that follows its last use: never inside a free-threaded Destroy* DDI (every one is deferred)"},
	{DDFlush, ChangesFromD3D10, "Flush processes the deferred-destruction queue even when the command buffer is empty"},
	{DDDevice, ChangesFromD3D10, "DestroyDevice returns only after every deferred destruction is complete"},
	{DDPrimary, ChangesFromD3D10, "destroying a primary calls pfnDeallocateCb before DestroyResource returns"},
	{AMSubmit, ChangesFromD3D10, "pfnPerformAmortizedProcessingCb is called from the thread in the DDI after immediate-context submissions (or at a similar frequency)"},
	{AMBalance, ChangesFromD3D10, "pfnPerformAmortizedProcessingCb is never called twice back to back, and a busy driver calls it about as often as it submits"},
	{CLRecycleThread, CommandLists, "RecycleCommandList runs on the deferred context's thread, inside its FinishCommandList"},
	{FTCap, ChangesFromD3D10, "without D3D11DDICAPS_FREETHREADED no two DDIs (but the CalcPrivate* ones) run at once"},
	{FTCalc, ChangesFromD3D10, "pfnCalcPrivate* and pfnCalcDeferredContextHandleSize are free-threaded even without the cap: a CalcPrivate* DDI never calls back into the runtime"},
	{FTHCtx, ChangesFromD3D10, "at most one thread at a time inside pfnPresentCb, pfnRenderCb, pfnEscapeCb, pfnDestroyContextCb, pfnWaitForSynchronizationObjectCb, pfnSignalSynchronizationObjectCb for one HCONTEXT"},
	{FTAlloc, ChangesFromD3D10, "pfnAllocateCb for a shared resource only on the thread inside that resource's CreateResource"},
	{FTTable, ChangesFromD3D10, "after CreateDevice the pfnCreate*, pfnOpen*, pfnDestroy*, pfnCalcPrivate* and pfnCheck* entries never change; immediate-context entries change only from inside an immediate-context DDI"},
	{DDSync, ChangesFromD3D10, "Release; ClearState; Flush destroys the object; adding End(EventQuery), a GetData loop and a second Flush destroys it completely"},
	{AMDC, ChangesFromD3D10, "a deferred context that runs out of command-buffer space calls pfnPerformAmortizedProcessingCb"},
}

// ByID finds a rule.
func ByID(id ID) (Rule, bool) {
	for _, r := range All {
		if r.ID == id {
			return r, true
		}
	}
	return Rule{}, false
}

// Set holds the rules to break on purpose (option bug=RULE-ID). The zero
// value breaks none.
type Set map[ID]bool

// Has says whether rule id is to be broken.
func (s Set) Has(id ID) bool { return s[id] }
