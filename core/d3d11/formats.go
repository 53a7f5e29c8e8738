package d3d11

import (
	"fmt"

	"d3dsim/core/ddi"
	"d3dsim/core/hresult"
	"d3dsim/core/trace"
)

// CheckFormatSupport is ID3D11Device::CheckFormatSupport: the driver's
// answer (pfnCheckFormatSupport), from "Format support for Direct3D
// feature level 11.0 hardware" (core/ddi's table). A format the device has
// no support for at all fails with E_FAIL, as the method's page says of a
// format that does not exist. The answer is in the return events' args:
// fmt= the format, support= the D3D11_FORMAT_SUPPORT bits.
func (d *Device) CheckFormatSupport(f ddi.Format) (s ddi.FormatSupport, err error) {
	done := d.api("CheckFormatSupport", d.name, "")
	defer func() {
		done.ev.Args = supportArgs(f, s)
		done.end(err)
	}()
	if err := d.removedHR(); err != nil {
		return 0, err
	}
	s = d.ddiIC().with(d.name, handleName(uint32(d.hDev)), strArg(trace.KeyFmt, formatName(f))).CheckFormatSupport(d.hDev, f)
	if s == 0 {
		return 0, hresult.Errorf(hresult.E_FAIL, "CheckFormatSupport: the device does not support %s", formatName(f))
	}
	return s, nil
}

// supportArgs are CheckFormatSupport's return args: fmt=NAME
// support=TEXTURE2D|SHADER_LOAD|... (0 for none).
func supportArgs(f ddi.Format, s ddi.FormatSupport) trace.Args {
	var b trace.ArgBuilder
	return b.Str(trace.KeyFmt, formatName(f)).Str(trace.KeySupport, SupportString(s)).Args()
}

// SupportString names the D3D11_FORMAT_SUPPORT bits of s, lowest first,
// joined with |; "0" for none.
func SupportString(s ddi.FormatSupport) string {
	out := ""
	for bit := ddi.FormatSupport(1); bit != 0; bit <<= 1 {
		if s&bit == 0 {
			continue
		}
		name := ""
		for n, v := range ddi.FormatSupportNames {
			if ddi.FormatSupport(v) == bit {
				name = n
			}
		}
		if name == "" {
			name = fmt.Sprintf("%#x", uint32(bit))
		}
		if out != "" {
			out += "|"
		}
		out += name
	}
	if out == "" {
		return "0"
	}
	return out
}
