package main

import (
	"bytes"
	"encoding/json"
	"fmt"

	"d3dsim/core/apitrace"
	"d3dsim/core/scenario"
)

// apitrace captures in the page (docs/apitrace.md): a .trace dropped onto
// the page, or `apitrace dump` text dropped or pasted, becomes the
// equivalent scenario in the editor, with the report of the calls the
// simulator cannot make in Problems; Download offers the loaded scenario's
// run as a .trace.

// maxCaptureBytes bounds a capture the page reads (its scenario is at most
// 1 MiB; the captures of real programs that fit one are far smaller), and
// maxPageExport the capture Download writes.
const (
	maxCaptureBytes = 256 << 20
	maxPageExport   = 64 << 20
)

// captureFormat names what a file's first bytes hold: "scenario",
// "apitrace trace" or "apitrace dump".
func captureFormat(head []byte) string { return apitrace.Detect(head).String() }

// captureReport is the import's report as the page shows it.
type captureReport struct {
	Name        string                 `json:"name"`
	Calls       int                    `json:"calls"`
	Statements  int                    `json:"statements"`
	Unsupported []apitrace.Unsupported `json:"unsupported"`
	Notices     []apitrace.Notice      `json:"notices"`
	NoticeCount int                    `json:"noticeCount"`
	Cut         string                 `json:"cut,omitempty"`
}

// captureResult is what importCapture answers.
type captureResult struct {
	OK       bool           `json:"ok"`
	Format   string         `json:"format"`
	Scenario string         `json:"scenario,omitempty"`
	Error    string         `json:"error,omitempty"`
	Report   *captureReport `json:"report,omitempty"`
}

// importCapture imports a capture: its scenario and the report, as JSON.
// Blobs a dump names by file (apitrace dump --blobs) are not in the page:
// the import says so in the report.
func importCapture(name string, data []byte) []byte {
	res := captureResult{Format: captureFormat(data[:min(len(data), 8<<10)])}
	if len(data) > maxCaptureBytes {
		res.Error = fmt.Sprintf("%s is %d MiB; the page reads captures up to %d MiB (apitrace trim writes a shorter one)", name, len(data)>>20, maxCaptureBytes>>20)
		return mustJSON(res)
	}
	src, f, err := apitrace.Open(bytes.NewReader(data), apitrace.Options{})
	if f == apitrace.FormatScenario {
		return mustJSON(res)
	}
	if err == nil {
		var text string
		var rep *apitrace.Report
		text, rep, err = apitrace.Import(src, apitrace.ImportOptions{Name: name})
		if rep != nil {
			res.Report = &captureReport{Name: name, Calls: rep.Calls, Statements: rep.Statements,
				Unsupported: append([]apitrace.Unsupported{}, rep.Unsupported...), Notices: append([]apitrace.Notice{}, rep.Notices...),
				NoticeCount: rep.NoticeCount, Cut: rep.Cut}
		}
		if err == nil {
			res.OK, res.Scenario = true, text
		}
	}
	if err != nil {
		res.Error = err.Error()
	}
	return mustJSON(res)
}

func mustJSON(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		return []byte(`{"ok":false,"error":"internal error: the answer does not encode"}`)
	}
	return b
}

// captureFile runs the loaded scenario again from its start with the
// exporter watching, and returns the capture (nil when nothing is loaded or
// the capture could not be written).
func (a *app) captureFile() []byte {
	src := []byte(a.source())
	if len(src) == 0 {
		return nil
	}
	s, err := scenario.Load("scenario.d3ds", src)
	if err != nil {
		return nil
	}
	var buf bytes.Buffer
	e := apitrace.NewExporter(&buf, s, "scenario.d3ds")
	e.SetLimit(maxPageExport)
	r := scenario.NewRun(s, scenario.Overrides{})
	r.Observe(e.Observer())
	r.Finish()
	if e.Close() != nil {
		return nil
	}
	return buf.Bytes()
}
