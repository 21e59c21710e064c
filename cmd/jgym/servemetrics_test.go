package main

import (
	"crypto/tls"
	"crypto/x509"
	"errors"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"jgym/server"
)

// testSecrets writes a CA, a server certificate for 127.0.0.1 and a tokens
// file (mode 600) with one token, and returns cfg set to use them.
func testSecrets(t *testing.T, cfg serveConfig) (serveConfig, string) {
	t.Helper()
	certs := t.TempDir()
	if err := writeCerts(certs, []string{"localhost", "127.0.0.1"}, time.Hour); err != nil {
		t.Fatal(err)
	}
	tokens := filepath.Join(t.TempDir(), "tokens")
	const secret = "metrics-scraper-secret-0123"
	if err := os.WriteFile(tokens, []byte("scraper "+secret+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	cfg.tokensFile, cfg.tlsCert, cfg.tlsKey = tokens, filepath.Join(certs, "server.pem"), filepath.Join(certs, "server-key.pem")
	return cfg, secret
}

// The metrics listener follows the gRPC listener's rule: beyond loopback
// it needs tokens and TLS, or --insecure.
func TestMetricsAddrRule(t *testing.T) {
	secured, _ := testSecrets(t, defaultServeConfig())
	cases := []struct {
		name string
		cfg  func(c serveConfig) serveConfig
		ok   bool
	}{
		{"beyond loopback, bare", func(c serveConfig) serveConfig { c.metricsAddr = "0.0.0.0:9090"; return c }, false},
		{"beyond loopback, gRPC on loopback with TLS but no tokens", func(c serveConfig) serveConfig {
			c.metricsAddr, c.tlsCert, c.tlsKey = "0.0.0.0:9090", secured.tlsCert, secured.tlsKey
			return c
		}, false},
		{"beyond loopback, --insecure", func(c serveConfig) serveConfig { c.metricsAddr, c.insecure = ":9090", true; return c }, true},
		{"beyond loopback, tokens and TLS", func(c serveConfig) serveConfig {
			c.metricsAddr, c.tokensFile, c.tlsCert, c.tlsKey = "0.0.0.0:9090", secured.tokensFile, secured.tlsCert, secured.tlsKey
			return c
		}, true},
		{"loopback", func(c serveConfig) serveConfig { c.metricsAddr = "127.0.0.1:9090"; return c }, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, _, err := serveOptions(c.cfg(defaultServeConfig()), io.Discard)
			switch {
			case c.ok && err != nil:
				t.Fatalf("serveOptions = %v, want accepted", err)
			case !c.ok && (!errors.Is(err, errUsage) || !strings.Contains(err.Error(), "--metrics-addr") || !strings.Contains(err.Error(), "--tokens")):
				t.Fatalf("serveOptions = %v, want a usage error naming --metrics-addr and --tokens", err)
			}
		})
	}
}

// Beyond loopback with tokens and TLS, the metrics are served over HTTPS
// and only to a token holder; /healthz stays open. (The listener is on
// 127.0.0.1 here, as every test server; secured is what beyond loopback
// selects.)
func TestMetricsNeedToken(t *testing.T) {
	cfg, secret := testSecrets(t, defaultServeConfig())
	reg, opts, err := serveOptions(cfg, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	srv, err := server.New(reg, opts...)
	if err != nil {
		t.Fatal(err)
	}
	tlsCfg, err := serverTLS(cfg)
	if err != nil {
		t.Fatal(err)
	}
	hs, ml, err := metricsServer("127.0.0.1:0", true, srv, tlsCfg)
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- hs.Serve(ml) }()
	t.Cleanup(func() {
		hs.Close()
		<-done
	})
	pem, err := os.ReadFile(filepath.Join(filepath.Dir(cfg.tlsCert), "ca.pem"))
	if err != nil {
		t.Fatal(err)
	}
	pool := x509.NewCertPool()
	pool.AppendCertsFromPEM(pem)
	client := &http.Client{Timeout: 5 * time.Second, Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool}}}
	base := "https://" + ml.Addr().String()
	get := func(url, token string) (int, string) {
		t.Helper()
		req, _ := http.NewRequest("GET", url, nil)
		if token != "" {
			req.Header.Set("Authorization", "Bearer "+token)
		}
		resp, err := client.Do(req)
		if err != nil {
			return 0, err.Error()
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	for _, c := range []struct {
		what, url, token string
		code             int
		jgym             bool // the body has jgym_ metrics
	}{
		{"/metrics without a token", base + "/metrics", "", http.StatusUnauthorized, false},
		{"/metrics with another secret", base + "/metrics", "not-the-secret-0123456789", http.StatusUnauthorized, false},
		{"/metrics with the token", base + "/metrics", secret, http.StatusOK, true},
		{"/healthz without a token", base + "/healthz", "", http.StatusOK, false},
	} {
		code, body := get(c.url, c.token)
		if code != c.code || strings.Contains(body, "jgym_sessions") != c.jgym {
			t.Errorf("%s: %d, jgym_ lines %v; want %d, %v (body %.120q)", c.what, code, !c.jgym, c.code, c.jgym, body)
		}
	}
	// Plain HTTP gets no metrics.
	resp, err := http.Get("http://" + ml.Addr().String() + "/metrics")
	if err == nil {
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode == http.StatusOK || strings.Contains(string(b), "jgym_") {
			t.Errorf("plain HTTP: %d %.120q, want refused", resp.StatusCode, b)
		}
	}
}
