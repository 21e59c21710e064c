package viewer

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// within runs f and fails the test if it takes more than d: the refusals
// below must come from a file's metadata, not from reading it.
func within(t *testing.T, d time.Duration, f func() error) error {
	t.Helper()
	done := make(chan error, 1)
	go func() { done <- f() }()
	select {
	case err := <-done:
		return err
	case <-time.After(d):
		t.Fatalf("no answer within %v", d)
		return nil
	}
}

func TestLoadTraceRefusesSpecialFiles(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "pipe.res")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	cases := []struct{ name, path, want string }{
		{"/dev/zero", "/dev/zero", "a device"},
		{"a FIFO without writer", fifo, "a FIFO"},
		{"a directory", dir, "a directory"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := within(t, 2*time.Second, func() error { _, err := LoadTrace(c.path); return err })
			if err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), "not a regular file") {
				t.Fatalf("LoadTrace(%s) = %v, want an error saying it is %s, not a regular file", c.path, err, c.want)
			}
		})
	}
}

func TestLoadTraceLimit(t *testing.T) {
	const limit = 64 << 10
	_, plain := fixtureBytes(t)
	// A sparse file one byte over the limit: refused by its size.
	big := filepath.Join(t.TempDir(), "big.res")
	f, err := os.Create(big)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(limit + 1); err != nil {
		t.Fatal(err)
	}
	f.Close()
	cases := []struct {
		name, path, want string
	}{
		{"plain file over the limit", big, "over the limit of 65536"},
		{"plain trace over the limit", writeFile(t, "game.res", plain), "over the limit of 65536"},
		// A gzip bomb: 4 MiB of zeros compress to about 4 KB.
		{"gzip over the limit once decompressed", writeFile(t, "bomb.res.gz", gzipBytes(t, make([]byte, 4<<20))), "larger than 65536 bytes"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := within(t, 2*time.Second, func() error { _, err := LoadTraceLimit(c.path, limit); return err })
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("LoadTraceLimit = %v, want an error with %q", err, c.want)
			}
		})
	}
	// Within the limit the same trace loads.
	got, err := LoadTraceLimit(writeFile(t, "game.res", plain), int64(len(plain)))
	if err != nil || !bytes.Equal(got, plain) {
		t.Fatalf("LoadTraceLimit(trace, its size) = %d bytes, %v; want the trace", len(got), err)
	}
}

// TestServeChecksHost requests the viewer with the Host header of a
// DNS-rebinding page and with the viewer's own names.
func TestServeChecksHost(t *testing.T) {
	_, plain := fixtureBytes(t)
	ctx, cancel := context.WithCancel(context.Background())
	urls := make(chan string, 1)
	done := make(chan error, 1)
	go func() {
		done <- Serve(ctx, "127.0.0.1:0", plain, "game.res", func(u string) { urls <- u }, WithAllowedHosts("Viewer.LAN"))
	}()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("Serve: %v", err)
		}
	})
	var url string
	select {
	case url = <-urls:
	case err := <-done:
		t.Fatalf("Serve: %v", err)
	}
	_, port, _ := net.SplitHostPort(strings.TrimSuffix(strings.TrimPrefix(url, "http://"), "/"))
	cases := []struct {
		host string
		want int
	}{
		{"attacker.example", http.StatusMisdirectedRequest},
		{"attacker.example:" + port, http.StatusMisdirectedRequest},
		{"127.0.0.2:" + port, http.StatusMisdirectedRequest},
		{"localhost.attacker.example:" + port, http.StatusMisdirectedRequest},
		{"127.0.0.1:" + port, http.StatusOK},
		{"localhost:" + port, http.StatusOK},
		{"LOCALHOST:9000", http.StatusOK}, // through a tunnel (ssh -L 9000:...)
		{"viewer.lan:" + port, http.StatusOK},
	}
	for _, c := range cases {
		for _, path := range []string{"trace.res", ""} {
			req, err := http.NewRequest("GET", url+path, nil)
			if err != nil {
				t.Fatal(err)
			}
			req.Host = c.host
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode != c.want {
				t.Errorf("GET /%s with Host %q: %d, want %d", path, c.host, resp.StatusCode, c.want)
			}
			if c.want != http.StatusOK && (!strings.Contains(string(body), "DNS rebinding") || bytes.Contains(body, plain[:64])) {
				t.Errorf("GET /%s with Host %q: body %.200q, want the reason and no trace", path, c.host, body)
			}
		}
	}
}

func TestHostGuardEveryInterface(t *testing.T) {
	g := newHostGuard(http.NotFoundHandler(), &net.TCPAddr{IP: net.IPv6unspecified, Port: 8080}, nil)
	g.local = func() []net.IP { return []net.IP{net.ParseIP("192.0.2.7"), net.ParseIP("2001:db8::7")} }
	for host, want := range map[string]bool{
		"192.0.2.7:8080":    true,
		"[2001:db8::7]:80":  true,
		"127.0.0.1:8080":    true,
		"localhost":         true,
		"192.0.2.8:8080":    false,
		"rebind.example:80": false,
	} {
		if got := g.accepts(host); got != want {
			t.Errorf("listening on [::]:8080: accepts(%q) = %v, want %v", host, got, want)
		}
	}
}

func TestServeRefusesBeyondLoopback(t *testing.T) {
	for _, addr := range []string{"0.0.0.0:0", ":0", "[::]:0"} {
		err := Serve(context.Background(), addr, nil, "", func(string) { t.Errorf("Serve listened on %s", addr) })
		if !errors.Is(err, ErrBeyondLoopback) || !strings.Contains(err.Error(), "no token or TLS") {
			t.Errorf("Serve(%s) = %v, want ErrBeyondLoopback", addr, err)
		}
	}
}
