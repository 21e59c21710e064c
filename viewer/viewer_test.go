package viewer

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
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
	for _, fx := range append(gameFixtures[1:], struct{ game, file, legendWord string }{"Dominator", abortedFixture, ""}) {
		if _, err := LoadTrace(fx.file); err != nil {
			t.Errorf("LoadTrace(%s): %v", fx.file, err)
		}
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
		{"other game", "chess.res", []byte("Game\n\nSeed 1\n\nChess 2.0\n"), true, `trace of "Chess"`},
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

// TestGamesHaveModules checks that every game LoadTrace accepts has its
// module in the page, registered under the same name.
func TestGamesHaveModules(t *testing.T) {
	index, err := staticFiles.ReadFile("static/games/index.js")
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range games {
		file := strings.ToLower(name) + ".js"
		src, err := staticFiles.ReadFile("static/games/" + file)
		if err != nil {
			t.Errorf("game %s: %v", name, err)
			continue
		}
		if !strings.Contains(string(src), "name: '"+name+"',") {
			t.Errorf("static/games/%s does not declare name: '%s'", file, name)
		}
		if !strings.Contains(string(index), "from './"+file+"'") {
			t.Errorf("static/games/index.js does not import ./%s", file)
		}
	}
}

// TestDocCommandsLoad checks the `bin/jgym view` commands of docs/viewer.md:
// their flags are those of the command and their traces load.
func TestDocCommandsLoad(t *testing.T) {
	doc, err := os.ReadFile("../docs/viewer.md")
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, line := range strings.Split(string(doc), "\n") {
		args, ok := strings.CutPrefix(line, "bin/jgym view")
		if !ok {
			continue
		}
		n++
		if i := strings.Index(args, "#"); i >= 0 {
			args = args[:i]
		}
		f := strings.Fields(args)
		for k := 0; k < len(f); k++ {
			switch f[k] {
			case "--open":
			case "--addr":
				k++
				if k == len(f) || !strings.HasPrefix(f[k], "127.0.0.1:") {
					t.Errorf("%q: --addr needs a loopback address", line)
				}
			default:
				if strings.HasPrefix(f[k], "-") {
					t.Errorf("%q: jgym view has no flag %s", line, f[k])
				} else if _, err := LoadTrace(filepath.Join("..", f[k])); err != nil {
					t.Errorf("%q: %v", line, err)
				}
			}
		}
	}
	if n < 4 {
		t.Errorf("docs/viewer.md has %d bin/jgym view commands, want at least 4", n)
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
			for _, asset := range []string{"app.js", "parse.js", "draw.js", "chart.js", "panels.js", "style.css",
				"games/index.js", "games/crematoria.js", "games/crematoria-draw.js", "games/dominator.js",
				"games/pandemic.js", "games/moria.js"} {
				code, ctype, body := get(t, srv.URL+"/"+asset)
				if code != 200 || len(body) == 0 || ctype == "" {
					t.Errorf("GET /%s: %d %q, %d bytes", asset, code, ctype, len(body))
				}
			}
			for _, missing := range []string{"/nope.js", "/index.html", "/static/app.js", "/../viewer.go",
				"/games/", "/games/nope.js", "/games/../server.go", "/games/%2e%2e/app.js"} {
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

// Colours drawn by static/draw.js and static/games/crematoria-draw.js (keep
// in sync): Crematoria's rock, the four players' unit colours and the four
// owned-cell tints.
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

// gameFixtures are one reference trace of each game (copied from
// testdata/<game>/traces of the repository), with a word their legend shows.
var gameFixtures = []struct {
	game, file, legendWord string
}{
	{"Crematoria", fixture, "Hellhound"},
	{"Dominator", "testdata/dominator_s1_Demo-Null-Demo-Null.res.gz", "Witch"},
	{"Pandemic", "testdata/pandemic_s1_Demo-Null-Demo-Null.res.gz", "Mask"},
	{"Moria", "testdata/moria_s1_Demo-Null-Demo-Null.res.gz", "Balrog"},
}

// abortedFixture is a Dominator trace the course program wrote before it
// aborted in round 1 (a crowded configuration): it ends after state 0.
const abortedFixture = "testdata/dominator_crowd1_s1_aborted.res.gz"

// readGz returns the decompressed content of a gzipped file.
func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

func readGz(t *testing.T, path string) []byte {
	t.Helper()
	gz, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	plain, err := decodeTrace(gz, MaxTraceBytes)
	if err != nil {
		t.Fatal(err)
	}
	return plain
}

// traceServer serves one viewer per trace under /t/<key>/.
type traceServer struct {
	mux *http.ServeMux
	srv *httptest.Server
}

func newTraceServer(t *testing.T) *traceServer {
	ts := &traceServer{mux: http.NewServeMux()}
	ts.srv = httptest.NewServer(ts.mux)
	t.Cleanup(ts.srv.Close)
	return ts
}

// add serves trace (nil: no trace) under key and returns the page URL.
func (ts *traceServer) add(key string, trace []byte, name string) string {
	ts.mux.Handle("/t/"+key+"/", http.StripPrefix("/t/"+key, Handler(trace, name)))
	return ts.srv.URL + "/t/" + key + "/"
}

// pageState is what the tests read back from the page.
type pageState struct {
	State, Game, Brand, Status, Complete, Cut, Warning, Tooltip, Legend string
	Scores                                                              []int
	Badges, Details                                                     []string
}

const readPage = `(() => {
	const $ = (id) => document.getElementById(id);
	const rows = [...document.querySelectorAll('#scores .score-row')];
	return {
		State: document.body.dataset.state || '',
		Game: document.body.dataset.game || '',
		Brand: $('game-name').textContent,
		Status: $('status').textContent,
		Complete: document.body.dataset.complete || '',
		Cut: $('cut-note').hidden ? '' : $('cut-note').textContent,
		Warning: $('warning').hidden ? '' : $('warning').textContent,
		Tooltip: $('tooltip').hidden ? '' : $('tooltip').textContent,
		Legend: $('legend').textContent,
		Scores: rows.map((r) => Number(r.querySelector('.score-value').textContent)),
		Badges: rows.map((r) => r.querySelector('.badge')?.textContent ?? ''),
		Details: rows.map((r) => r.querySelector('.score-detail').textContent),
	};
})()`

func (b *browser) page() pageState {
	b.t.Helper()
	var p pageState
	b.eval(readPage, &p)
	return p
}

// checkRound checks the status line, the scores and each player's detail
// line of round r against the trace.
func checkRound(t *testing.T, p pageState, ref *refTrace, r, last int) {
	t.Helper()
	if want := fmt.Sprintf("round %d/%d", r, last); p.Status != want {
		t.Fatalf("status = %q, want %q", p.Status, want)
	}
	if want := ref.scores(r); fmt.Sprint(p.Scores) != fmt.Sprint(want) {
		t.Errorf("round %d: scores = %v, want %v", r, p.Scores, want)
	}
	for pl := range p.Details {
		if want := ref.detail(r, pl); !strings.Contains(p.Details[pl], want) {
			t.Errorf("round %d: player %d's line = %q, want it to contain %q", r, pl, p.Details[pl], want)
		}
	}
}

// checkBadges checks that exactly the best players wear badge.
func checkBadges(t *testing.T, p pageState, badge string) {
	t.Helper()
	best := 0
	for _, s := range p.Scores {
		best = max(best, s)
	}
	for pl, s := range p.Scores {
		want := ""
		if s == best && best > 0 {
			want = badge
		}
		if p.Badges[pl] != want {
			t.Errorf("player %d (score %d, best %d) has badge %q, want %q", pl, s, best, p.Badges[pl], want)
		}
	}
}

// samplePixels returns the colour of the centre pixel of each cell of the
// first board, and the board's cell size.
func (b *browser) samplePixels(cells []cellCheck) ([]rgbColor, int) {
	b.t.Helper()
	pts := make([][2]int, len(cells))
	for k, c := range cells {
		pts[k] = [2]int{c.i, c.j}
	}
	js, _ := json.Marshal(pts)
	var out struct {
		Cell   int
		Colors [][3]uint8
	}
	b.eval(`(() => {
		const g = jgymViewer.geometry();
		const cv = document.getElementById('level0');
		const d = cv.getContext('2d').getImageData(0, 0, cv.width, cv.height).data;
		const at = (i, j) => {
			const x = Math.floor((g.left + j * g.cell + Math.floor(g.cell / 2)) * g.dpr);
			const y = Math.floor((g.top + i * g.cell + Math.floor(g.cell / 2)) * g.dpr);
			const k = 4 * (y * cv.width + x);
			return [d[k], d[k + 1], d[k + 2]];
		};
		return { Cell: g.cell, Colors: `+string(js)+`.map(([i, j]) => at(i, j)) };
	})()`, &out)
	colors := make([]rgbColor, len(out.Colors))
	for k, c := range out.Colors {
		colors[k] = rgbColor(c)
	}
	return colors, out.Cell
}

// checkBoard compares the first board's canvas at the round shown with the
// trace: every cell that only shows terrain has its terrain colour, and
// every unit alone on its cell is drawn in its owner's colour.
func checkBoard(t *testing.T, b *browser, ref *refTrace, r int) {
	t.Helper()
	terrain, units := ref.cellChecks(r)
	if len(terrain) < ref.rows*ref.cols/10 || len(units) < 8 {
		t.Fatalf("round %d: only %d terrain cells and %d units to check", r, len(terrain), len(units))
	}
	colors, cell := b.samplePixels(append(terrain, units...))
	if ref.game == "Crematoria" && cell >= 16 {
		units = nil // big Crematoria cells carry a letter on the units
	}
	bad := 0
	for k, c := range append(terrain, units...) {
		if colors[k] != c.want {
			if bad++; bad <= 8 {
				t.Errorf("round %d: cell (%d, %d) %s drawn %v, want %v", r, c.i, c.j, c.what, colors[k], c.want)
			}
		}
	}
	if bad > 8 {
		t.Errorf("round %d: %d cells of %d drawn wrong", r, bad, len(colors))
	}
	t.Logf("round %d: %d terrain cells and %d units match the trace (cells of %d px)", r, len(terrain), len(units), cell)
}

// checkChart checks that the score chart shows the line of every player
// whose final score is well apart from those of the players drawn after it
// (later lines cover earlier ones where they meet).
func checkChart(t *testing.T, b *browser, final []int) {
	t.Helper()
	var counts []int
	cols, _ := json.Marshal(playerColors)
	b.eval(`(() => {
		const cv = document.getElementById('chart');
		const d = cv.getContext('2d').getImageData(0, 0, cv.width, cv.height).data;
		const cols = `+string(cols)+`;
		const n = cols.map(() => 0);
		for (let k = 0; k < d.length; k += 4) {
			cols.forEach(([r, g, b], p) => { if (d[k] === r && d[k + 1] === g && d[k + 2] === b) n[p]++; });
		}
		return n;
	})()`, &counts)
	best := 1
	for _, s := range final {
		best = max(best, s)
	}
	for p, s := range final {
		apart := true
		for _, o := range final[p+1:] {
			apart = apart && 10*abs(o-s) > best
		}
		if apart && counts[p] < 3 {
			t.Errorf("the chart has %d pixels of player %d's colour (final score %d): line not drawn", counts[p], p, s)
		}
	}
}

// TestBrowserReplaysEveryGame loads one reference trace of each game in
// headless Chromium and uses the page as a user would: it checks the game's
// name, the round count and the final scores against the trace, steps
// through rounds with the keyboard, compares the board's pixels with the
// trace, hovers a unit, and plays a few rounds.
func TestBrowserReplaysEveryGame(t *testing.T) {
	chromium := chromiumPath(t)
	b := startBrowser(t, chromium)
	ts := newTraceServer(t)
	for _, fx := range gameFixtures {
		t.Run(fx.game, func(t *testing.T) {
			b.t = t
			plain := readGz(t, fx.file)
			ref := readRef(t, fx.game, plain)
			n := ref.rounds
			url := ts.add(fx.game, plain, filepath.Base(fx.file))
			if state := b.open(url); state != "loaded" {
				t.Fatalf("data-state = %q, want loaded\n%s", state, tail(fmt.Sprint(b.page()), 2000))
			}
			p := b.page()
			if p.Game != fx.game || p.Brand != fx.game {
				t.Errorf("page shows game %q (brand %q), want %q", p.Game, p.Brand, fx.game)
			}
			if p.Complete != "true" || p.Cut != "" || p.Warning != "" {
				t.Errorf("complete trace: data-complete %q, cut note %q, warning %q", p.Complete, p.Cut, p.Warning)
			}
			if !strings.Contains(p.Legend, fx.legendWord) {
				t.Errorf("legend %q lacks %q", p.Legend, fx.legendWord)
			}
			checkRound(t, p, ref, 0, n)

			b.press("End", false)
			p = b.page()
			checkRound(t, p, ref, n, n)
			checkBadges(t, p, "winner")
			checkChart(t, b, ref.scores(n))

			b.press("Home", false)
			for range 3 {
				b.press("ArrowRight", false)
			}
			checkRound(t, b.page(), ref, 3, n)
			b.press("ArrowRight", true) // Shift: 10 rounds
			b.press("ArrowLeft", false)
			p = b.page()
			checkRound(t, p, ref, 12, n)
			checkBadges(t, p, "leader")
			checkBoard(t, b, ref, 12)
			if dir := os.Getenv("JGYM_VIEWER_SCREENSHOT_DIR"); dir != "" {
				b.screenshot(filepath.Join(dir, strings.ToLower(fx.game)+".png"))
			}

			// Hover the first unit the board check found alone on its cell.
			_, units := ref.cellChecks(12)
			u := units[0]
			var at struct{ X, Y float64 }
			b.eval(fmt.Sprintf(`(() => {
				const g = jgymViewer.geometry();
				const rect = document.getElementById('level0').getBoundingClientRect();
				return { X: rect.left + g.left + (%d + 0.5) * g.cell, Y: rect.top + g.top + (%d + 0.5) * g.cell };
			})()`, u.j, u.i), &at)
			b.hover(at.X, at.Y)
			if tip := b.page().Tooltip; !strings.Contains(tip, fmt.Sprintf("(%d, %d", u.i, u.j)) || !strings.Contains(tip, "#") {
				t.Errorf("hovering %s at (%d, %d): tooltip %q", u.what, u.i, u.j, tip)
			}

			// Play: the round advances, and stops advancing after a pause.
			b.press(" ", false)
			deadline := time.Now().Add(10 * time.Second)
			var r int
			for r <= 13 && time.Now().Before(deadline) {
				time.Sleep(100 * time.Millisecond)
				fmt.Sscanf(b.page().Status, "round %d/", &r)
			}
			b.press(" ", false)
			if r <= 13 {
				t.Errorf("playing from round 12 for 10 s reached round %d only", r)
			}
			stopped := b.page().Status
			time.Sleep(400 * time.Millisecond)
			if now := b.page().Status; now != stopped {
				t.Errorf("after pausing the status went on from %q to %q", stopped, now)
			}
			b.checkNoErrors()
		})
	}
}

// cutTrace returns the trace cut where a game aborting after round `after`
// would leave it: at the end of that round's state block (atEnd), or half-way
// through a line of the next state block.
func cutTrace(ref *refTrace, text []byte, after int, atEnd bool) []byte {
	lines := ref.lines
	offset := func(k int) int { // byte offset of line k
		n := 0
		for _, l := range lines[:k] {
			n += len(l) + 1
		}
		return n
	}
	if atEnd {
		moves := "movements"
		if ref.game == "Pandemic" {
			moves = "commands"
		}
		_, k := ref.lineAfter(after, moves)
		return text[:offset(k)]
	}
	k := ref.roundLine[after+1] + 6
	return text[:offset(k)+len(lines[k])/2]
}

// TestBrowserShowsCutShortGames loads truncated traces: each reference trace
// cut after round 7 (at the end of its state, and in the middle of the next
// one) and a Dominator game the course program aborted. The page must show
// the rounds it has, say that the game was cut short, and name no winner. A
// trace damaged after round 7 is shown the same way with its own note, and a
// trace that stops inside its first state cannot be shown.
func TestBrowserShowsCutShortGames(t *testing.T) {
	chromium := chromiumPath(t)
	b := startBrowser(t, chromium)
	ts := newTraceServer(t)
	type cutCase struct {
		name, game string
		trace      []byte
		last       int
		note       string // the note's first words ("" when the page cannot show the trace)
	}
	const cut, damaged = "Game cut short: the trace stops", "Trace damaged after round"
	var cases []cutCase
	for _, fx := range gameFixtures {
		plain := readGz(t, fx.file)
		ref := readRef(t, fx.game, plain)
		cases = append(cases,
			cutCase{fx.game + "/after_state", fx.game, cutTrace(ref, plain, 7, true), 7, cut},
			cutCase{fx.game + "/inside_state", fx.game, cutTrace(ref, plain, 7, false), 7, cut})
	}
	moria := readGz(t, gameFixtures[3].file)
	cases = append(cases,
		cutCase{"Dominator/aborted", "Dominator", readGz(t, abortedFixture), 0, cut},
		cutCase{"Moria/damaged", "Moria", bytes.Replace(moria, []byte("\nround 8\n"), []byte("\nround 9\n"), 1), 7, damaged},
		cutCase{"Moria/inside_first_state", "Moria", moria[:bytes.Index(moria, []byte("\nround 0\n"))], -1, ""})
	for k, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			b.t = t
			url := ts.add(strconv.Itoa(k), c.trace, "cut.res")
			state := b.open(url)
			if c.note == "" {
				var text string
				b.eval(`document.getElementById('error-text').textContent`, &text)
				if want := "cut.res: the game was cut short before its first complete state"; state != "error" || !strings.HasPrefix(text, want) {
					t.Errorf("data-state %q, error %q; want error, %q...", state, text, want)
				}
				b.errors = nil // the page logs the parse error on the console
				return
			}
			if state != "loaded" {
				t.Fatalf("data-state = %q, want loaded: %+v", state, b.page())
			}
			ref := readRef(t, c.game, c.trace)
			b.press("End", false)
			p := b.page()
			if p.Game != c.game || p.Complete != "false" {
				t.Errorf("game %q, data-complete %q; want %q, false", p.Game, p.Complete, c.game)
			}
			checkRound(t, p, ref, c.last, c.last)
			want := fmt.Sprintf("%s after round %d of %d. No winner.", c.note, c.last, ref.rounds)
			if c.note == damaged {
				want = fmt.Sprintf("%s %d of %d. No winner.", c.note, c.last, ref.rounds)
			}
			if p.Cut != want {
				t.Errorf("cut-short note = %q, want %q", p.Cut, want)
			}
			if banner := strings.Fields(c.note)[0]; !strings.Contains(p.Warning, banner) || !strings.Contains(p.Warning, "there is no winner") {
				t.Errorf("warning banner = %q, want it to say %q and that there is no winner", p.Warning, banner)
			}
			checkBadges(t, p, "leader") // never "winner"
			if dir := os.Getenv("JGYM_VIEWER_SCREENSHOT_DIR"); dir != "" {
				b.screenshot(filepath.Join(dir, strings.ReplaceAll(strings.ToLower(c.name), "/", "-")+".png"))
			}
			b.checkNoErrors()
		})
	}
}

// TestBrowserOpensPickedFile starts the page without a trace and opens a
// gzipped Moria trace through the file picker.
func TestBrowserOpensPickedFile(t *testing.T) {
	chromium := chromiumPath(t)
	b := startBrowser(t, chromium)
	ts := newTraceServer(t)
	if state := b.open(ts.add("empty", nil, "")); state != "empty" {
		t.Fatalf("data-state = %q, want empty (the file picker)", state)
	}
	path, err := filepath.Abs(gameFixtures[3].file)
	if err != nil {
		t.Fatal(err)
	}
	b.setFile("#file-input", path)
	deadline := time.Now().Add(20 * time.Second)
	var p pageState
	for p = b.page(); p.State != "loaded" && p.State != "error" && time.Now().Before(deadline); p = b.page() {
		time.Sleep(50 * time.Millisecond)
	}
	if p.State != "loaded" || p.Game != "Moria" || p.Status != "round 0/200" {
		t.Errorf("after picking %s: state %q, game %q, status %q; want loaded, Moria, round 0/200", path, p.State, p.Game, p.Status)
	}
	var name string
	b.eval(`document.getElementById('trace-name').textContent`, &name)
	if name != filepath.Base(path) {
		t.Errorf("trace name = %q, want %q", name, filepath.Base(path))
	}
	b.checkNoErrors()
}
