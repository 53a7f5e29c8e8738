package apitrace

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"d3dsim/core/internal/oracle"
)

// The binary reader against Debian's apitrace, on OpenGL traces recorded on
// this machine under Xvfb when the tests run: the container and the value
// encoding are the same for every API, so GL programs check them without
// Windows. .ci/run installs apitrace, xvfb and mesa-utils (and the
// compiler and GL headers for testdata/tiny.c); without them the tests
// skip, except under CI=true.

type recorded struct {
	path string
	name string
}

var (
	recordOnce sync.Once
	records    []recorded
	recordErr  string
	recordDir  string
)

// recordTraces records the oracle traces once per test binary: testdata/
// tiny.c (blobs, fake memcpy calls, two threads, backtraces of glClear and
// glDrawArrays, three frames), glxinfo (many enums and strings, a clean
// exit) and glxgears stopped by SIGTERM (the tracer flushes on the signal;
// the call it was in comes out incomplete).
func recordTraces(t *testing.T) []recorded {
	t.Helper()
	at := oracle.Tool(t, "apitrace")
	xvfb := oracle.Tool(t, "xvfb-run")
	oracle.Tool(t, "glxinfo")
	oracle.Tool(t, "glxgears")
	cc := oracle.Tool(t, "cc")
	recordOnce.Do(func() {
		dir, err := os.MkdirTemp("", "apitrace-oracle")
		if err != nil {
			recordErr = err.Error()
			return
		}
		recordDir = dir
		tiny := filepath.Join(dir, "tiny")
		if out, err := exec.Command(cc, "-O1", "-o", tiny, "testdata/tiny.c", "-lGL", "-lX11", "-lpthread").CombinedOutput(); err != nil {
			recordErr = "building testdata/tiny.c (needs libgl-dev and libx11-dev): " + err.Error() + "\n" + string(out)
			return
		}
		run := func(name string, env []string, args ...string) {
			out := filepath.Join(dir, name+".trace")
			cmd := exec.Command(xvfb, append([]string{"-a", at, "trace", "-o", out}, args...)...)
			cmd.Env = append(os.Environ(), env...)
			msg, err := cmd.CombinedOutput()
			if _, serr := os.Stat(out); serr != nil {
				recordErr += name + ": " + string(msg) + " " + errString(err) + "\n"
				return
			}
			records = append(records, recorded{out, name})
		}
		run("tiny", []string{"APITRACE_BACKTRACE=glDrawArrays glClear"}, tiny)
		run("glxinfo", nil, "glxinfo")
		// glxgears draws until it is stopped: SIGTERM, which the tracer
		// catches to flush the trace, once the trace has a compressed chunk
		// on disk (more than 4 KiB: the header and frames). A fixed second
		// of wall time was not enough on a loaded machine: the signal came
		// before the tracer had written the header. (SIGINT cannot stop it
		// here: a background job of sh ignores SIGINT.) The wait is bounded,
		// 600 looks 0.2 s apart, so a glxgears that never draws still ends.
		gears := filepath.Join(dir, "glxgears.trace")
		run("glxgears", nil, "sh", "-c", `glxgears >/dev/null & p=$!; i=0
until [ "$(wc -c < "$0" 2>/dev/null || echo 0)" -gt 4096 ] || [ $i -ge 600 ]; do sleep 0.2; i=$((i+1)); done
kill -TERM $p; wait $p; exit 0`, gears)
	})
	if recordErr != "" {
		if os.Getenv("CI") == "true" {
			t.Fatalf("recording the oracle traces: %s", recordErr)
		}
		t.Skipf("recording the oracle traces: %s", recordErr)
	}
	return records
}

func errString(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

func TestMain(m *testing.M) {
	code := m.Run()
	if recordDir != "" {
		os.RemoveAll(recordDir)
	}
	os.Exit(code)
}

// readAll reads a trace with this package and prints it as apitrace dump.
// It reads as apitrace does (Tolerant): glxgears' recording ends with a
// SIGTERM, and under load the tracer was once stopped with an event half
// written across its 1 MiB chunk; apitrace dump then ends at the cut, the
// calls still open incomplete, and so does this reader. The recordings that
// exit by themselves must have no cut.
func readAll(t *testing.T, path string, o DumpOptions) (string, []*Call, *Reader) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r, err := NewReader(f, Options{Tolerant: true})
	if err == nil {
		defer func() {
			if r.Cut != "" {
				if strings.HasSuffix(path, "glxgears.trace") {
					t.Logf("%s: %s", path, r.Cut)
				} else {
					t.Errorf("%s: %s", path, r.Cut)
				}
			}
		}()
	}
	if err != nil {
		t.Fatal(err)
	}
	var sb strings.Builder
	DumpProperties(&sb, r.Properties)
	var calls []*Call
	for {
		c, err := r.Next()
		if err != nil {
			if err.Error() == "EOF" {
				break
			}
			t.Fatalf("%s: %v", path, err)
		}
		DumpCall(&sb, c, o)
		calls = append(calls, c)
	}
	return sb.String(), calls, r
}

// TestReaderAgreesWithApitraceDump reads each recorded trace and prints it
// as `apitrace dump --verbose --color=never --thread-ids=yes` does: the
// texts must be equal, call for call (names, thread numbers, every
// argument and return value, fake and incomplete flags, backtraces).
func TestReaderAgreesWithApitraceDump(t *testing.T) {
	at := oracle.Tool(t, "apitrace")
	for _, rec := range recordTraces(t) {
		t.Run(rec.name, func(t *testing.T) {
			want, err := exec.Command(at, "dump", "--verbose", "--color=never", "--thread-ids=yes", rec.path).Output()
			if err != nil {
				t.Fatal(err)
			}
			got, calls, r := readAll(t, rec.path, DumpOptions{ThreadIDs: true})
			compareDumps(t, string(want), got)
			if len(calls) == 0 {
				t.Fatal("no calls")
			}
			if r.Version != 6 || r.Container != Snappy {
				t.Errorf("version %d container %s, want 6 Snappy", r.Version, r.Container)
			}
			var frames, fake, incomplete, bt int
			threads := map[uint64]bool{}
			for _, c := range calls {
				if EndsFrame(c.Name()) {
					frames++
				}
				if c.Flags&FlagFake != 0 {
					fake++
				}
				if c.Flags&FlagIncomplete != 0 {
					incomplete++
				}
				if c.Backtrace != nil {
					bt++
				}
				threads[c.Thread] = true
			}
			info := apitraceInfo(t, at, rec.path)
			if info.FramesCount != frames {
				t.Errorf("apitrace info counts %d frames, the reader %d", info.FramesCount, frames)
			}
			t.Logf("%d calls, %d frames, %d fake, %d incomplete, %d with backtraces, %d threads", len(calls), frames, fake, incomplete, bt, len(threads))
			switch rec.name {
			case "tiny":
				if frames != 3 || fake < 3 || bt == 0 || len(threads) != 2 {
					t.Errorf("tiny: %d frames, %d fake, %d backtraces, %d threads; want 3 frames, the memcpy calls, backtraces, two threads", frames, fake, bt, len(threads))
				}
			}
		})
	}
}

// compareDumps reports the first lines that differ.
func compareDumps(t *testing.T, want, got string) {
	t.Helper()
	if want == got {
		return
	}
	wl, gl := strings.Split(want, "\n"), strings.Split(got, "\n")
	for i := 0; i < len(wl) || i < len(gl); i++ {
		var w, g string
		if i < len(wl) {
			w = wl[i]
		}
		if i < len(gl) {
			g = gl[i]
		}
		if w != g {
			t.Fatalf("line %d differs:\napitrace dump: %.300q\nthis reader:   %.300q\n(%d and %d lines)", i+1, w, g, len(wl), len(gl))
		}
	}
}

type info struct {
	ContainerVersion int
	ContainerType    string
	API              string
	FramesCount      int
}

func apitraceInfo(t *testing.T, at, path string) info {
	t.Helper()
	out, err := exec.Command(at, "info", path).Output()
	if err != nil {
		t.Fatal(err)
	}
	var i info
	if err := json.Unmarshal(out, &i); err != nil {
		t.Fatalf("apitrace info: %v\n%s", err, out)
	}
	return i
}

// TestReaderBlobsAgree compares the bytes of every blob with the files
// `apitrace dump --blobs` writes, and the dump text that names them.
func TestReaderBlobsAgree(t *testing.T) {
	at := oracle.Tool(t, "apitrace")
	for _, rec := range recordTraces(t) {
		if rec.name != "tiny" {
			continue
		}
		dir := t.TempDir()
		cmd := exec.Command(at, "dump", "--blobs", "--color=never", rec.path)
		cmd.Dir = dir
		want, err := cmd.Output()
		if err != nil {
			t.Fatal(err)
		}
		blobs := map[string][]byte{}
		got, _, _ := readAll(t, rec.path, DumpOptions{Blobs: true, Blob: func(name string, b []byte) { blobs[name] = b }})
		compareDumps(t, string(want), got)
		if len(blobs) == 0 {
			t.Fatal("no blobs")
		}
		for name, b := range blobs {
			f, err := os.ReadFile(filepath.Join(dir, name))
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(f, b) {
				t.Errorf("%s: %d bytes here, apitrace wrote %d different ones", name, len(b), len(f))
			}
		}
	}
}
