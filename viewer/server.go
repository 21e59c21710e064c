package viewer

import (
	"bytes"
	"context"
	"embed"
	"errors"
	"fmt"
	"html/template"
	"io/fs"
	"net"
	"net/http"
	"path"
	"time"
)

// DefaultAddr is the address Serve listens on when addr is empty: loopback
// only, on a port chosen by the kernel.
const DefaultAddr = "127.0.0.1:0"

//go:embed static
var staticFiles embed.FS

// pageTemplate is static/index.html; it receives a pageData.
var pageTemplate = template.Must(template.ParseFS(staticFiles, "static/index.html"))

// pageData is what index.html is rendered with.
type pageData struct {
	Name     string // display name of the trace ("" when none)
	HasTrace bool   // whether /trace.res serves a trace
}

// Handler returns an http.Handler that serves the viewer page at "/", its
// assets (style.css, *.js, games/*.js) next to it, and trace at
// "/trace.res". name is shown in the page header (typically the file name).
// If trace is gzipped it is decompressed first. If trace is nil the page
// opens with a file picker and "/trace.res" answers 404.
func Handler(trace []byte, name string) http.Handler {
	if isGzip(trace) {
		if plain, err := decodeTrace(trace, MaxTraceBytes); err == nil {
			trace = plain
		}
	}
	static, err := fs.Sub(staticFiles, "static")
	if err != nil {
		panic(err) // the embedded tree is fixed at build time
	}
	var page bytes.Buffer
	if err := pageTemplate.Execute(&page, pageData{Name: name, HasTrace: trace != nil}); err != nil {
		panic(err) // the template and its data are fixed
	}
	pageBytes := page.Bytes()
	started := time.Now()
	files := http.FileServerFS(static)

	mux := http.NewServeMux()
	mux.HandleFunc("GET /{$}", func(w http.ResponseWriter, r *http.Request) {
		setCommonHeaders(w)
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		http.ServeContent(w, r, "index.html", started, bytes.NewReader(pageBytes))
	})
	mux.HandleFunc("GET /trace.res", func(w http.ResponseWriter, r *http.Request) {
		if trace == nil {
			http.Error(w, "no trace loaded: open a .res file in the page", http.StatusNotFound)
			return
		}
		setCommonHeaders(w)
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		w.Header().Set("Cache-Control", "no-store")
		http.ServeContent(w, r, "trace.res", started, bytes.NewReader(trace))
	})
	mux.HandleFunc("GET /favicon.ico", func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusNoContent)
	})
	mux.HandleFunc("GET /{file...}", func(w http.ResponseWriter, r *http.Request) {
		file := r.PathValue("file")
		if file == "index.html" || !isAsset(file) {
			http.NotFound(w, r)
			return
		}
		setCommonHeaders(w)
		files.ServeHTTP(w, r)
	})
	return mux
}

// isAsset reports whether file (a slash-separated path such as "app.js" or
// "games/moria.js") is one of the page's static assets.
func isAsset(file string) bool {
	if !fs.ValidPath(file) {
		return false
	}
	switch path.Ext(file) {
	case ".js", ".css":
		_, err := fs.Stat(staticFiles, "static/"+file)
		return err == nil
	}
	return false
}

// setCommonHeaders adds the headers shared by every successful response.
func setCommonHeaders(w http.ResponseWriter) {
	h := w.Header()
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Cache-Control", "no-cache")
	h.Set("Content-Security-Policy",
		"default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; connect-src 'self'")
}

// Serve runs the viewer for trace on addr (DefaultAddr when empty) until ctx
// is cancelled. Once the listener is open it calls ready (if not nil) with the
// page URL, e.g. "http://127.0.0.1:41234/". When ctx is cancelled the server
// shuts down gracefully and Serve returns nil; it returns an error if it cannot
// listen or the server fails.
//
// Like jgym serve, the viewer listens beyond loopback only when told
// (WithInsecure; it has no token or TLS), else Serve returns an error
// wrapping ErrBeyondLoopback. Every request must name the viewer in its
// Host header (see hostGuard): others get 421 Misdirected Request.
func Serve(ctx context.Context, addr string, trace []byte, name string, ready func(url string), opts ...Option) error {
	var o serveOptions
	for _, opt := range opts {
		opt(&o)
	}
	if addr == "" {
		addr = DefaultAddr
	}
	if !IsLoopback(addr) && !o.insecure {
		return fmt.Errorf("viewer: %s: %w: it has no token or TLS, so anyone who reaches the address reads the trace (docs/viewer.md)", addr, ErrBeyondLoopback)
	}
	var lc net.ListenConfig
	ln, err := lc.Listen(ctx, "tcp", addr)
	if err != nil {
		return err
	}
	srv := &http.Server{
		Handler:           newHostGuard(Handler(trace, name), ln.Addr(), o.hosts),
		ReadHeaderTimeout: 10 * time.Second,
	}
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ln) }()
	if ready != nil {
		ready("http://" + ln.Addr().String() + "/")
	}
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
	}
	shutCtx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := srv.Shutdown(shutCtx); err != nil {
		srv.Close()
	}
	if err := <-done; err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}
