package viewer

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"image"
	"image/png"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"jgym/internal/strict"
)

// fixture is a default-settings game (seed 1, four Demo players, 120 rounds).
const fixture = "testdata/crematoria_s1_Demo-Demo-Demo-Demo.res.gz"

// fixtureBytes returns the gzipped fixture and its decompressed text.
func fixtureBytes(t *testing.T) (gz, plain []byte) {
	t.Helper()
	gz, err := os.ReadFile(fixture)
	if err != nil {
		t.Fatal(err)
	}
	zr, err := gzip.NewReader(bytes.NewReader(gz))
	if err != nil {
		t.Fatal(err)
	}
	plain, err = io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	return gz, plain
}

func writeFile(t *testing.T, name string, data []byte) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func gzipBytes(t *testing.T, data []byte) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	if _, err := zw.Write(data); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func TestLoadTraceGzipAndPlain(t *testing.T) {
	_, plain := fixtureBytes(t)
	if !bytes.HasPrefix(plain, []byte("Game\n\nSeed 1\n")) {
		t.Fatalf("fixture does not look like a trace: %q", plain[:20])
	}
	fromGz, err := LoadTrace(fixture)
	if err != nil {
		t.Fatalf("LoadTrace(gzip): %v", err)
	}
	if !bytes.Equal(fromGz, plain) {
		t.Fatal("LoadTrace(gzip) did not return the decompressed trace")
	}
	// A plain trace is returned as is, whatever the file is called.
	fromPlain, err := LoadTrace(writeFile(t, "game.res.gz", plain))
	if err != nil {
		t.Fatalf("LoadTrace(plain): %v", err)
	}
	if !bytes.Equal(fromPlain, plain) {
		t.Fatal("LoadTrace(plain) changed the trace")
	}
	sec := []byte("SecGame\n\nSeed 3\n")
	if _, err := LoadTrace(writeFile(t, "sec.res", sec)); err != nil {
		t.Fatalf("LoadTrace(SecGame): %v", err)
	}
}

func TestLoadTraceRejectsBadFiles(t *testing.T) {
	cases := []struct {
		name, file string
		data       []byte
		notTrace   bool   // error must wrap ErrNotTrace
		want       string // substring of the error
	}{
		{"text", "notes.res", []byte("hello world\n"), true, `starts with "hello"`},
		{"empty", "empty.res", nil, true, "empty"},
		{"gzipped text", "x.res.gz", gzipBytes(t, []byte("Games are fun")), true, `"Game" or "SecGame"`},
		{"broken gzip", "y.res.gz", []byte{0x1f, 0x8b, 1, 2, 3}, false, "bad gzip data"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			path := writeFile(t, c.file, c.data)
			_, err := LoadTrace(path)
			if err == nil {
				t.Fatal("LoadTrace accepted a bad file")
			}
			if c.notTrace != errors.Is(err, ErrNotTrace) {
				t.Errorf("errors.Is(err, ErrNotTrace) = %v, want %v (err: %v)", !c.notTrace, c.notTrace, err)
			}
			if !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), c.file) {
				t.Errorf("error %q should mention %q and the file name", err, c.want)
			}
		})
	}
	if _, err := LoadTrace(filepath.Join(t.TempDir(), "missing.res")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("missing file: got %v, want os.ErrNotExist", err)
	}
}

// get fetches url and returns status, content type and body.
func get(t *testing.T, url string) (int, string, string) {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, resp.Header.Get("Content-Type"), string(body)
}

func TestHandlerServesPageAssetsAndTrace(t *testing.T) {
	gz, plain := fixtureBytes(t)
	for _, input := range []struct {
		name  string
		trace []byte
	}{{"gzipped", gz}, {"plain", plain}} {
		t.Run(input.name, func(t *testing.T) {
			srv := httptest.NewServer(Handler(input.trace, `s1 <Demo>.res`))
			defer srv.Close()

			code, ctype, page := get(t, srv.URL+"/")
			if code != 200 || !strings.HasPrefix(ctype, "text/html") {
				t.Fatalf("GET /: %d %s", code, ctype)
			}
			for _, want := range []string{`data-has-trace="true"`, `data-name="s1 &lt;Demo&gt;.res"`, `id="level0"`, `id="status"`, `src="app.js"`} {
				if !strings.Contains(page, want) {
					t.Errorf("page lacks %s", want)
				}
			}
			code, ctype, body := get(t, srv.URL+"/trace.res")
			if code != 200 || !strings.HasPrefix(ctype, "text/plain") || body != string(plain) {
				t.Fatalf("GET /trace.res: %d %s, %d bytes (want the %d-byte plain trace)", code, ctype, len(body), len(plain))
			}
			for _, asset := range []string{"app.js", "parse.js", "draw.js", "chart.js", "panels.js", "style.css"} {
				code, ctype, body := get(t, srv.URL+"/"+asset)
				if code != 200 || len(body) == 0 || ctype == "" {
					t.Errorf("GET /%s: %d %q, %d bytes", asset, code, ctype, len(body))
				}
			}
			for _, missing := range []string{"/nope.js", "/index.html", "/static/app.js", "/../viewer.go"} {
				if code, _, _ := get(t, srv.URL+missing); code != http.StatusNotFound {
					t.Errorf("GET %s: %d, want 404", missing, code)
				}
			}
		})
	}
}

func TestHandlerWithoutTraceShowsPicker(t *testing.T) {
	srv := httptest.NewServer(Handler(nil, ""))
	defer srv.Close()
	code, _, page := get(t, srv.URL+"/")
	if code != 200 || !strings.Contains(page, `data-has-trace="false"`) || !strings.Contains(page, `id="picker"`) {
		t.Fatalf("GET /: %d, page without the file picker", code)
	}
	if code, _, _ := get(t, srv.URL+"/trace.res"); code != http.StatusNotFound {
		t.Errorf("GET /trace.res without trace: %d, want 404", code)
	}
}

func TestServeStopsOnCancel(t *testing.T) {
	_, plain := fixtureBytes(t)
	ctx, cancel := context.WithCancel(context.Background())
	urls := make(chan string, 1)
	done := make(chan error, 1)
	go func() { done <- Serve(ctx, "", plain, "game.res", func(u string) { urls <- u }) }()
	var url string
	select {
	case url = <-urls:
	case err := <-done:
		t.Fatalf("Serve returned early: %v", err)
	case <-time.After(10 * time.Second):
		t.Fatal("Serve never called ready")
	}
	if !strings.HasPrefix(url, "http://127.0.0.1:") || !strings.HasSuffix(url, "/") {
		t.Errorf("ready URL %q, want http://127.0.0.1:PORT/", url)
	}
	if code, _, body := get(t, url+"trace.res"); code != 200 || len(body) != len(plain) {
		t.Errorf("GET trace.res: %d, %d bytes", code, len(body))
	}
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("Serve after cancel: %v, want nil", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Serve did not stop after ctx was cancelled")
	}
	if _, err := http.Get(url); err == nil {
		t.Error("server still answers after shutdown")
	}
}

func TestServeBadAddress(t *testing.T) {
	err := Serve(context.Background(), "256.0.0.1:http-nope", nil, "", nil)
	if err == nil {
		t.Fatal("Serve accepted a bad address")
	}
}

// Colours drawn by static/draw.js (keep in sync): rock, the four players'
// unit colours and the four owned-cave tints.
var (
	rockColor    = rgb(0x36302b)
	playerColors = []rgbColor{rgb(0xe5383b), rgb(0x1c7ed6), rgb(0x2b9348), rgb(0x9d4edd)}
	ownedColors  = []rgbColor{rgb(0xf2a19d), rgb(0xa3c6ef), rgb(0xa3d8af), rgb(0xd4b3f0)}
)

type rgbColor [3]uint8

func rgb(v uint32) rgbColor { return rgbColor{uint8(v >> 16), uint8(v >> 8), uint8(v)} }

// chromiumPath finds Chromium, or fails (CI=true) or skips the test.
func chromiumPath(t *testing.T) string {
	t.Helper()
	if _, err := os.Stat("/usr/bin/chromium"); err == nil {
		return "/usr/bin/chromium"
	}
	if p, err := exec.LookPath("chromium"); err == nil {
		return p
	}
	strict.Skip(t, "chromium not found at /usr/bin/chromium; install it with `apt-get install -y chromium` to run the browser test")
	return ""
}

// serveForBrowser starts Serve on 127.0.0.1 and returns the page URL.
func serveForBrowser(t *testing.T, trace []byte, name string) string {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	urls := make(chan string, 1)
	done := make(chan error, 1)
	go func() { done <- Serve(ctx, "127.0.0.1:0", trace, name, func(u string) { urls <- u }) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("Serve: %v", err)
		}
	})
	select {
	case u := <-urls:
		return u
	case err := <-done:
		t.Fatalf("Serve: %v", err)
	case <-time.After(10 * time.Second):
		t.Fatal("Serve never became ready")
	}
	return ""
}

// runChromium runs headless Chromium on url with extra flags (at most 60 s)
// and returns its standard output.
func runChromium(t *testing.T, chromium, url string, extra ...string) []byte {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	args := []string{
		"--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
		"--disable-background-networking", "--disable-component-update", "--disable-sync",
		"--user-data-dir=" + t.TempDir(), "--window-size=1400,1000", "--virtual-time-budget=5000",
	}
	args = append(append(args, extra...), url)
	cmd := exec.CommandContext(ctx, chromium, args...)
	cmd.WaitDelay = 5 * time.Second
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("chromium %v: %v\nstderr:\n%s", extra, err, tail(stderr.String(), 2000))
	}
	return stdout.Bytes()
}

func tail(s string, n int) string {
	if len(s) > n {
		return "..." + s[len(s)-n:]
	}
	return s
}

// scoresAt computes every player's score at round r straight from the trace
// text (score = nb_cells + gem_value * nb_gems), independently of the page.
func scoresAt(t *testing.T, trace []byte, r int) []int {
	t.Helper()
	gv := regexp.MustCompile(`(?m)^gem_value +(\d+)$`).FindSubmatch(trace)
	re := regexp.MustCompile(fmt.Sprintf(`(?m)^round %d\nnb_cells ([\d ]+)\nnb_gems ([\d ]+)$`, r))
	m := re.FindSubmatch(trace)
	if gv == nil || m == nil {
		t.Fatalf("round %d not found in the trace", r)
	}
	value, _ := strconv.Atoi(string(gv[1]))
	cells, gems := strings.Fields(string(m[1])), strings.Fields(string(m[2]))
	var out []int
	for p := range cells {
		c, _ := strconv.Atoi(cells[p])
		g, _ := strconv.Atoi(gems[p])
		out = append(out, c+value*g)
	}
	return out
}

// TestBrowserRendersTrace replays the fixture in headless Chromium: the DOM
// must show round 10 with the right scores, and the screenshot must contain
// the board (rock, owned caves, units in the four player colours).
func TestBrowserRendersTrace(t *testing.T) {
	chromium := chromiumPath(t)
	gz, plain := fixtureBytes(t)
	url := serveForBrowser(t, gz, "crematoria_s1_Demo-Demo-Demo-Demo.res.gz") + "?round=10"

	dom := string(runChromium(t, chromium, url, "--dump-dom"))
	status := regexp.MustCompile(`<output id="status"[^>]*>([^<]*)</output>`).FindStringSubmatch(dom)
	if status == nil || status[1] != "round 10/120" {
		t.Errorf("status element = %q, want \"round 10/120\"\nDOM:\n%s", status, tail(dom, 3000))
	}
	for _, want := range []string{`<title>jgym viewer - round 10 - loaded</title>`, `data-state="loaded"`, `Demo`} {
		if !strings.Contains(dom, want) {
			t.Errorf("DOM lacks %s", want)
		}
	}
	for p, s := range scoresAt(t, plain, 10) {
		if !strings.Contains(dom, fmt.Sprintf(`<div class="score-value">%d</div>`, s)) {
			t.Errorf("DOM lacks the round-10 score %d of player %d", s, p)
		}
	}

	shot := filepath.Join(t.TempDir(), "shot.png")
	runChromium(t, chromium, url, "--screenshot="+shot, "--hide-scrollbars")
	if keep := os.Getenv("JGYM_VIEWER_SCREENSHOT"); keep != "" {
		data, err := os.ReadFile(shot)
		if err == nil {
			err = os.WriteFile(keep, data, 0o644)
		}
		if err != nil {
			t.Errorf("saving screenshot to %s: %v", keep, err)
		}
	}
	checkScreenshot(t, shot)
}

// checkScreenshot decodes the PNG and checks that it shows a rendered board.
func checkScreenshot(t *testing.T, path string) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatalf("decoding screenshot: %v", err)
	}
	counts := colourCounts(img)
	if len(counts) < 200 {
		t.Errorf("screenshot has only %d distinct colours: page looks blank", len(counts))
	}
	// A default board is about half rock: thousands of pixels even for small cells.
	if n := counts[rockColor]; n < 20000 {
		t.Errorf("only %d rock pixels: the underground level was not drawn", n)
	}
	for p := range playerColors {
		if n := counts[playerColors[p]]; n < 300 {
			t.Errorf("only %d pixels of player %d's colour: units not drawn", n, p)
		}
		if n := counts[ownedColors[p]]; n < 800 {
			t.Errorf("only %d pixels of player %d's owned caves: caves not drawn", n, p)
		}
	}
	t.Logf("screenshot %dx%d: %d colours, rock %d px, players %v, owned %v", img.Bounds().Dx(), img.Bounds().Dy(),
		len(counts), counts[rockColor], pick(counts, playerColors), pick(counts, ownedColors))
}

func colourCounts(img image.Image) map[rgbColor]int {
	counts := make(map[rgbColor]int)
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			r, g, bl, _ := img.At(x, y).RGBA()
			counts[rgbColor{uint8(r >> 8), uint8(g >> 8), uint8(bl >> 8)}]++
		}
	}
	return counts
}

func pick(counts map[rgbColor]int, cs []rgbColor) []int {
	var out []int
	for _, c := range cs {
		out = append(out, counts[c])
	}
	return out
}

// TestBrowserReportsMalformedTrace checks that a broken trace gives a clear
// on-page error instead of a blank page.
func TestBrowserReportsMalformedTrace(t *testing.T) {
	chromium := chromiumPath(t)
	bad := []byte("Game\n\nSeed 1\n\nCrematoria 1.2\nnb_players          4\nnb_turns 7\n")
	url := serveForBrowser(t, bad, "broken.res")
	dom := string(runChromium(t, chromium, url, "--dump-dom"))
	for _, want := range []string{`data-state="error"`, `Cannot read this trace`, `broken.res: line 7: expected "nb_rounds", found "nb_turns"`} {
		if !strings.Contains(dom, want) {
			t.Errorf("DOM lacks %s\nDOM:\n%s", want, tail(dom, 3000))
		}
	}
}
