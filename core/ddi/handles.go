package ddi

// Driver handles: the driver's private object memory, allocated by the
// runtime.
type (
	HDEVICE             uint32
	HRESOURCE           uint32
	HRENDERTARGETVIEW   uint32
	HSHADERRESOURCEVIEW uint32
	HDEPTHSTENCILVIEW   uint32
	HSHADER             uint32
	HBLENDSTATE         uint32
	HRASTERIZERSTATE    uint32
	HDEPTHSTENCILSTATE  uint32
	HSAMPLER            uint32
	HQUERY              uint32
	HCOMMANDLIST        uint32
	HELEMENTLAYOUT      uint32
)

// Runtime handles: what the driver passes back in callbacks.
type (
	HRTDEVICE    uint32
	HRTRESOURCE  uint32
	HRTCORELAYER uint32
)

// Kernel handles as the runtime hands them to the driver.
type (
	HCONTEXT    uint32 // a GPU context (pfnCreateContextCb)
	HALLOCATION uint32 // an allocation (pfnAllocateCb)
	HSYNCOBJECT uint32 // a synchronization object (a fence the runtime made)
)
