package d3d11

import (
	"fmt"
	"maps"
	"slices"

	"d3dsim/core/hresult"
	"d3dsim/core/trace"
)

// Private data: SetPrivateData, SetPrivateDataInterface and GetPrivateData
// on a device and on every object of it ("ID3D11DeviceChild::
// SetPrivateData", "IDXGIObject::SetPrivateData"). The application keeps
// its own bytes under a GUID of its choosing; the one GUID the runtime
// reads is WKPDID_D3DDebugObjectName, the object's debug name: the debug
// layer's messages that name the object give it, and the trace's
// SetPrivateData event carries it, so the inspector names the object by
// it. SetPrivateDataInterface holds a reference on the interface until the
// entry is replaced or the object is destroyed.

// DebugObjectName is the GUID of an object's debug name (d3dcommon.h), its
// text in ASCII; DebugObjectNameW is the same in UTF-16 (d3dcommon.h's
// WKPDID_D3DDebugObjectNameW, which the debug layer reads too).
const (
	DebugObjectName  = "WKPDID_D3DDebugObjectName"
	DebugObjectNameW = "WKPDID_D3DDebugObjectNameW"
)

// privateEntry is one GUID's data: bytes, or an interface.
type privateEntry struct {
	data  []byte
	text  bool // set from a string: GetPrivateData gives it back as one
	iface Object
}

// privateKey is the identity an object's private data is kept under: its
// common part, which destruction sees (dropPrivate).
func privateKey(o Object) any {
	if b, ok := o.(interface{ base() *object }); ok {
		return b.base()
	}
	return o
}

// deviceOf is the device an object belongs to (nil for none).
func deviceOf(o Object) *Device {
	switch v := o.(type) {
	case *Device:
		return v
	case *DeviceContext:
		return v.dev
	case interface{ base() *object }:
		return v.base().dev
	}
	return nil
}

// privateCall is the API call's event: the object, or the context, named.
func privateCall(d *Device, call string, o Object, guid, msg string) span {
	var b trace.ArgBuilder
	b.Str(trace.KeyGUID, guid)
	if c, ok := o.(*DeviceContext); ok {
		return d.apiMsg(call, "", c, msg, b.Args())
	}
	return d.apiMsg(call, o.Name(), nil, msg, b.Args())
}

// SetPrivateData keeps data under guid on o; nil data removes the entry.
// With text the data came as a string (a debug name). Setting
// WKPDID_D3DDebugObjectName names the object for the debug layer and the
// inspector: the event's message is the name.
func SetPrivateData(o Object, guid string, data []byte, text bool) error {
	d := deviceOf(o)
	if d == nil {
		return hresult.Errorf(hresult.E_INVALIDARG, "SetPrivateData: no object")
	}
	msg := ""
	if guid == DebugObjectName || guid == DebugObjectNameW {
		msg = debugNameOf(guid, data)
	}
	done := privateCall(d, "SetPrivateData", o, guid, msg)
	if err := d.dangling("SetPrivateData", o); err != nil {
		done.end(err)
		return err
	}
	if len(data) == 0 {
		d.setPrivate(o, guid, nil)
	} else {
		d.setPrivate(o, guid, &privateEntry{data: append([]byte(nil), data...), text: text})
	}
	if guid == DebugObjectName || guid == DebugObjectNameW {
		d.privMu.Lock()
		if d.debugNames == nil {
			d.debugNames = map[string]string{}
		}
		if msg == "" {
			delete(d.debugNames, o.Name())
		} else {
			d.debugNames[o.Name()] = msg
		}
		d.privMu.Unlock()
	}
	done.end(nil)
	return nil
}

// debugNameOf decodes a debug name's bytes: ASCII up to a NUL, or UTF-16
// for the W GUID.
func debugNameOf(guid string, data []byte) string {
	if guid == DebugObjectNameW {
		var r []rune
		for i := 0; i+1 < len(data); i += 2 {
			c := rune(data[i]) | rune(data[i+1])<<8
			if c == 0 {
				break
			}
			r = append(r, c)
		}
		return string(r)
	}
	for i, c := range data {
		if c == 0 {
			return string(data[:i])
		}
	}
	return string(data)
}

// SetPrivateDataInterface keeps iface under guid, with a reference
// (AddRef); nil removes the entry. The entry it replaces lets its
// interface go (Release).
func SetPrivateDataInterface(o Object, guid string, iface Object) error {
	d := deviceOf(o)
	if d == nil {
		return hresult.Errorf(hresult.E_INVALIDARG, "SetPrivateDataInterface: no object")
	}
	name := ""
	if iface != nil {
		name = iface.Name()
	}
	done := privateCall(d, "SetPrivateDataInterface", o, guid, name)
	if err := d.dangling("SetPrivateDataInterface", o, iface); err != nil {
		done.end(err)
		return err
	}
	if iface == nil {
		d.setPrivate(o, guid, nil)
	} else {
		iface.AddRef()
		d.setPrivate(o, guid, &privateEntry{iface: iface})
	}
	done.end(nil)
	return nil
}

// GetPrivateData returns what o keeps under guid: the bytes (text: they
// were set as a string), or the interface, with a reference the caller
// releases. DXGI_ERROR_NOT_FOUND when there is nothing.
func GetPrivateData(o Object, guid string) (data []byte, text bool, iface Object, err error) {
	d := deviceOf(o)
	if d == nil {
		return nil, false, nil, hresult.Errorf(hresult.E_INVALIDARG, "GetPrivateData: no object")
	}
	done := privateCall(d, "GetPrivateData", o, guid, "")
	if err := d.dangling("GetPrivateData", o); err != nil {
		done.end(err)
		return nil, false, nil, err
	}
	d.privMu.Lock()
	e := d.private[privateKey(o)][guid]
	d.privMu.Unlock()
	if e == nil {
		err = hresult.Errorf(hresult.DXGI_ERROR_NOT_FOUND, "GetPrivateData(%s): nothing is kept under %s", o.Name(), guid)
		done.end(err)
		return nil, false, nil, err
	}
	if e.iface != nil {
		e.iface.AddRef()
	}
	done.end(nil)
	return append([]byte(nil), e.data...), e.text, e.iface, nil
}

// setPrivate replaces o's entry for guid (nil removes it), releasing the
// interface the old entry held.
func (d *Device) setPrivate(o Object, guid string, e *privateEntry) {
	k := privateKey(o)
	d.privMu.Lock()
	old := d.private[k][guid]
	if e == nil {
		delete(d.private[k], guid)
	} else {
		if d.private == nil {
			d.private = map[any]map[string]*privateEntry{}
		}
		if d.private[k] == nil {
			d.private[k] = map[string]*privateEntry{}
		}
		d.private[k][guid] = e
	}
	d.privMu.Unlock()
	if old != nil && old.iface != nil {
		releaseHeld(old.iface)
	}
}

// dropPrivate lets an object's private data go with the object: the
// interfaces it held are released, its debug name forgotten.
func (d *Device) dropPrivate(o *object) {
	d.privMu.Lock()
	m := d.private[any(o)]
	delete(d.private, any(o))
	if m[DebugObjectName] != nil || m[DebugObjectNameW] != nil {
		delete(d.debugNames, o.name)
	}
	d.privMu.Unlock()
	for _, g := range slices.Sorted(maps.Keys(m)) {
		if e := m[g]; e.iface != nil {
			releaseHeld(e.iface)
		}
	}
}

// releaseHeld gives back the reference private data held on o: the
// runtime's own release, not an API call of the application's (no Release
// event), except for a device or a context, whose references the API
// counts itself.
func releaseHeld(o Object) {
	if b, ok := o.(interface{ base() *object }); ok {
		b.base().release()
		return
	}
	o.Release()
}

// DebugName is the debug name the object called name was given
// (WKPDID_D3DDebugObjectName), "" if none.
func (d *Device) DebugName(name string) string {
	d.privMu.Lock()
	defer d.privMu.Unlock()
	return d.debugNames[name]
}

// DebugNameOf is o's debug name (WKPDID_D3DDebugObjectName), "" if none.
func DebugNameOf(o Object) string {
	if isNil(o) {
		return ""
	}
	if d := deviceOf(o); d != nil {
		return d.DebugName(o.Name())
	}
	return ""
}

// named is how a debug-layer message names the object called name: with
// its debug name when it has one.
func (d *Device) named(name string) string {
	if dn := d.DebugName(name); dn != "" {
		return fmt.Sprintf("%s (%q)", name, dn)
	}
	return name
}
