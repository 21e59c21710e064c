package viewer

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"
)

// browser is headless Chromium driven over the DevTools protocol on a pipe
// (--remote-debugging-pipe): Chromium reads commands on its fd 3 and writes
// replies and events on its fd 4, each message a JSON object followed by a
// NUL byte. Only one command is in flight at a time, so there is no reader
// goroutine: call reads messages until its reply arrives, noting the events
// it cares about (JavaScript exceptions and console errors) on the way.
//
// It lets the tests do what a user does (load a page, press keys, hover a
// cell, pick a file) and read back the DOM and the canvases' pixels.
type browser struct {
	t       *testing.T
	cmd     *exec.Cmd
	toCh    *os.File      // our end of Chromium's fd 3
	fromCh  *os.File      // our end of Chromium's fd 4
	from    *bufio.Reader // reads fromCh
	nextID  int
	session string   // the page's session id (flat mode)
	errors  []string // JavaScript exceptions and console errors so far
}

// cdpMessage is one protocol message in either direction.
type cdpMessage struct {
	ID        int             `json:"id,omitempty"`
	Method    string          `json:"method,omitempty"`
	SessionID string          `json:"sessionId,omitempty"`
	Params    json.RawMessage `json:"params,omitempty"`
	Result    json.RawMessage `json:"result,omitempty"`
	Error     *struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	} `json:"error,omitempty"`
}

// startBrowser starts Chromium with one blank page of 1400 x 1000 CSS
// pixels (device scale 1) and stops it when the test ends.
func startBrowser(t *testing.T, chromium string) *browser {
	t.Helper()
	chIn, toCh, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	fromCh, chOut, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(chromium,
		"--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
		"--disable-background-networking", "--disable-component-update", "--disable-sync",
		"--hide-scrollbars", "--remote-debugging-pipe", "--user-data-dir="+t.TempDir(),
		"--window-size=1400,1000", "about:blank")
	cmd.ExtraFiles = []*os.File{chIn, chOut}              // fd 3 and fd 4 in Chromium
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true} // so its helpers can be stopped with it
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatalf("starting chromium: %v", err)
	}
	chIn.Close()
	chOut.Close()
	b := &browser{t: t, cmd: cmd, toCh: toCh, fromCh: fromCh, from: bufio.NewReader(fromCh)}
	t.Cleanup(func() {
		toCh.Close() // Chromium exits when its command pipe closes
		done := make(chan struct{})
		go func() { cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(5 * time.Second):
			syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) // its own process group
			<-done
		}
		fromCh.Close()
		if t.Failed() {
			t.Logf("chromium stderr:\n%s", tail(stderr.String(), 2000))
		}
	})

	var target struct{ TargetID string }
	b.call("Target.createTarget", map[string]any{"url": "about:blank"}, &target)
	var attached struct{ SessionID string }
	b.call("Target.attachToTarget", map[string]any{"targetId": target.TargetID, "flatten": true}, &attached)
	b.session = attached.SessionID
	b.call("Page.enable", nil, nil)
	b.call("Runtime.enable", nil, nil)
	b.call("Emulation.setDeviceMetricsOverride", map[string]any{
		"width": 1400, "height": 1000, "deviceScaleFactor": 1, "mobile": false,
	}, nil)
	b.call("Emulation.setFocusEmulationEnabled", map[string]any{"enabled": true}, nil)
	return b
}

// call sends method with params (to the page once attached) and decodes the
// reply's result into result (when not nil). It fails the test on an error
// reply or when no reply comes within 30 seconds.
func (b *browser) call(method string, params, result any) {
	b.t.Helper()
	b.nextID++
	id := b.nextID
	msg := map[string]any{"id": id, "method": method}
	if params != nil {
		msg["params"] = params
	}
	if b.session != "" {
		msg["sessionId"] = b.session
	}
	data, err := json.Marshal(msg)
	if err != nil {
		b.t.Fatal(err)
	}
	if _, err := b.toCh.Write(append(data, 0)); err != nil {
		b.t.Fatalf("%s: writing to chromium: %v", method, err)
	}
	if err := b.fromCh.SetReadDeadline(time.Now().Add(30 * time.Second)); err != nil {
		b.t.Fatal(err)
	}
	for {
		raw, err := b.from.ReadBytes(0)
		if err != nil {
			b.t.Fatalf("%s: reading from chromium: %v", method, err)
		}
		var m cdpMessage
		if err := json.Unmarshal(raw[:len(raw)-1], &m); err != nil {
			b.t.Fatalf("%s: bad message from chromium: %v", method, err)
		}
		if m.ID == 0 {
			b.noteEvent(m)
			continue
		}
		if m.ID != id {
			continue
		}
		if m.Error != nil {
			b.t.Fatalf("%s: %s (code %d)", method, m.Error.Message, m.Error.Code)
		}
		if result != nil {
			if err := json.Unmarshal(m.Result, result); err != nil {
				b.t.Fatalf("%s: decoding the result: %v", method, err)
			}
		}
		return
	}
}

// noteEvent records JavaScript exceptions and console errors.
func (b *browser) noteEvent(m cdpMessage) {
	switch m.Method {
	case "Runtime.exceptionThrown":
		var p struct {
			ExceptionDetails struct {
				Text      string `json:"text"`
				Exception struct {
					Description string `json:"description"`
				} `json:"exception"`
			} `json:"exceptionDetails"`
		}
		json.Unmarshal(m.Params, &p)
		b.errors = append(b.errors, fmt.Sprintf("exception: %s %s", p.ExceptionDetails.Text, p.ExceptionDetails.Exception.Description))
	case "Runtime.consoleAPICalled":
		var p struct {
			Type string `json:"type"`
			Args []struct {
				Value       any    `json:"value"`
				Description string `json:"description"`
			} `json:"args"`
		}
		json.Unmarshal(m.Params, &p)
		if p.Type == "error" || p.Type == "assert" {
			var parts []string
			for _, a := range p.Args {
				parts = append(parts, fmt.Sprint(a.Value, a.Description))
			}
			b.errors = append(b.errors, "console.error: "+strings.Join(parts, " "))
		}
	}
}

// eval evaluates a JavaScript expression in the page (awaiting promises) and
// decodes its value into out (when not nil).
func (b *browser) eval(expr string, out any) {
	b.t.Helper()
	var r struct {
		Result struct {
			Value json.RawMessage `json:"value"`
		} `json:"result"`
		ExceptionDetails *struct {
			Text      string `json:"text"`
			Exception struct {
				Description string `json:"description"`
			} `json:"exception"`
		} `json:"exceptionDetails"`
	}
	b.call("Runtime.evaluate", map[string]any{"expression": expr, "returnByValue": true, "awaitPromise": true}, &r)
	if d := r.ExceptionDetails; d != nil {
		b.t.Fatalf("evaluating %.80q: %s %s", expr, d.Text, d.Exception.Description)
	}
	if out != nil {
		if err := json.Unmarshal(r.Result.Value, out); err != nil {
			b.t.Fatalf("evaluating %.80q: decoding %s: %v", expr, tail(string(r.Result.Value), 200), err)
		}
	}
}

// open loads url and waits until the viewer has settled: a trace loaded, an
// error shown or the file picker open. It returns the page's data-state.
func (b *browser) open(url string) string {
	b.t.Helper()
	b.eval("window.__jgymTestOld = true", nil)
	b.call("Page.navigate", map[string]any{"url": url}, nil)
	return b.waitState()
}

// waitState waits (at most 20 s) until the current page's data-state is
// loaded, error or empty, and returns it.
func (b *browser) waitState() string {
	b.t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		var state string
		b.eval(`(() => {
			if (window.__jgymTestOld || document.readyState !== 'complete' || !document.body) return '';
			const s = document.body.dataset.state;
			return s === 'loaded' || s === 'error' || s === 'empty' ? s : '';
		})()`, &state)
		if state != "" {
			return state
		}
		if time.Now().After(deadline) {
			b.t.Fatal("the page did not settle within 20 s")
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// keyCodes are the Windows virtual key codes of the keys the tests press.
var keyCodes = map[string]int{" ": 32, "End": 35, "Home": 36, "ArrowLeft": 37, "ArrowUp": 38, "ArrowRight": 39, "ArrowDown": 40}

// press presses and releases key (a KeyboardEvent.key value), with Shift
// held when shift is true.
func (b *browser) press(key string, shift bool) {
	b.t.Helper()
	code, ok := keyCodes[key]
	if !ok {
		b.t.Fatalf("press: unknown key %q", key)
	}
	name := key
	if key == " " {
		name = "Space"
	}
	mods := 0
	if shift {
		mods = 8
	}
	for _, typ := range []string{"rawKeyDown", "keyUp"} {
		b.call("Input.dispatchKeyEvent", map[string]any{
			"type": typ, "key": key, "code": name, "modifiers": mods,
			"windowsVirtualKeyCode": code, "nativeVirtualKeyCode": code,
		}, nil)
	}
}

// hover moves the mouse to (x, y) in CSS pixels of the viewport.
func (b *browser) hover(x, y float64) {
	b.t.Helper()
	b.call("Input.dispatchMouseEvent", map[string]any{"type": "mouseMoved", "x": x, "y": y}, nil)
}

// setFile puts path in the file input matched by selector, as if the user
// had picked it (the page gets a change event).
func (b *browser) setFile(selector, path string) {
	b.t.Helper()
	var doc struct {
		Root struct {
			NodeID int `json:"nodeId"`
		} `json:"root"`
	}
	b.call("DOM.getDocument", nil, &doc)
	var node struct {
		NodeID int `json:"nodeId"`
	}
	b.call("DOM.querySelector", map[string]any{"nodeId": doc.Root.NodeID, "selector": selector}, &node)
	if node.NodeID == 0 {
		b.t.Fatalf("no element matches %s", selector)
	}
	b.call("DOM.setFileInputFiles", map[string]any{"nodeId": node.NodeID, "files": []string{path}}, nil)
}

// screenshot saves a PNG of the viewport to path.
func (b *browser) screenshot(path string) {
	b.t.Helper()
	var shot struct{ Data []byte }
	b.call("Page.captureScreenshot", map[string]any{"format": "png"}, &shot)
	if err := os.WriteFile(path, shot.Data, 0o644); err != nil {
		b.t.Errorf("saving screenshot: %v", err)
	}
}

// checkNoErrors fails the test if the page threw or logged an error.
func (b *browser) checkNoErrors() {
	b.t.Helper()
	for _, e := range b.errors {
		b.t.Errorf("page error: %s", e)
	}
	b.errors = nil
}
