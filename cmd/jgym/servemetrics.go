package main

import (
	"crypto/tls"
	"net"
	"net/http"
	"time"

	"jgym/server"
)

// The metrics endpoint of jgym serve (--metrics-addr) follows the gRPC
// listener's binding rule: on loopback it is plain HTTP, open to local
// users; beyond loopback it needs --tokens and TLS, or --insecure. With
// tokens and TLS it serves HTTPS with the server's certificate, and
// /metrics answers only a request with "Authorization: Bearer SECRET" of a
// token of --tokens; /healthz stays open (it says "serving" or "shutting
// down", nothing else), for probes that carry no token. No client
// certificate is asked for on this port, even with --tls-client-ca:
// probes have none, and the token authenticates the scraper.

// checkMetricsAddr refuses --metrics-addr beyond loopback without tokens
// and TLS, unless --insecure.
func checkMetricsAddr(cfg serveConfig, tlsOn bool) error {
	if cfg.metricsAddr == "" || isLoopback(cfg.metricsAddr) || cfg.insecure || (cfg.tokensFile != "" && tlsOn) {
		return nil
	}
	return usageErr("--metrics-addr %s, beyond loopback, needs --tokens FILE and --tls-cert/--tls-key (the metrics are then served over HTTPS to a token holder) or --insecure on a trusted network: see docs/security.md", cfg.metricsAddr)
}

// metricsSecured reports whether the metrics endpoint takes HTTPS and a
// token (see checkMetricsAddr).
func metricsSecured(cfg serveConfig, tlsCfg *tls.Config) bool {
	return cfg.metricsAddr != "" && !isLoopback(cfg.metricsAddr) && cfg.tokensFile != "" && tlsCfg != nil
}

// metricsServer returns the HTTP server of the metrics endpoint on addr
// and its listener, already listening; secured: HTTPS with tlsCfg's
// certificate and a token for /metrics.
func metricsServer(addr string, secured bool, srv *server.Server, tlsCfg *tls.Config) (*http.Server, net.Listener, error) {
	ml, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, nil, err
	}
	mux := http.NewServeMux()
	var metrics http.Handler = srv.MetricsHandler()
	hs := &http.Server{ReadHeaderTimeout: 5 * time.Second, MaxHeaderBytes: 16 << 10}
	if secured {
		metrics = srv.TokenHandler(metrics)
		c := tlsCfg.Clone()
		c.ClientAuth, c.ClientCAs = tls.NoClientCert, nil
		ml = tls.NewListener(ml, c)
	}
	mux.Handle("/metrics", metrics)
	mux.Handle("/healthz", srv.HealthHandler())
	hs.Handler = mux
	return hs, ml, nil
}
