package server_test

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"errors"
	"math/big"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"jgym/server"
)

// testCA makes a CA and a server certificate for 127.0.0.1 signed by it;
// it writes the CA's PEM into dir and returns the server's TLS config.
func testCA(t *testing.T, dir string) (caFile string, cfg *tls.Config) {
	t.Helper()
	caKey, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	caTmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "test CA"},
		NotBefore: now.Add(-time.Hour), NotAfter: now.Add(time.Hour), IsCA: true, BasicConstraintsValid: true,
		KeyUsage: x509.KeyUsageCertSign}
	caDER, err := x509.CreateCertificate(rand.Reader, caTmpl, caTmpl, &caKey.PublicKey, caKey)
	if err != nil {
		t.Fatal(err)
	}
	ca, _ := x509.ParseCertificate(caDER)
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(2), Subject: pkix.Name{CommonName: "server"},
		NotBefore: now.Add(-time.Hour), NotAfter: now.Add(time.Hour), IPAddresses: []net.IP{net.IPv4(127, 0, 0, 1)},
		ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth}, KeyUsage: x509.KeyUsageDigitalSignature}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, ca, &key.PublicKey, caKey)
	if err != nil {
		t.Fatal(err)
	}
	caFile = filepath.Join(dir, "ca.pem")
	if err := os.WriteFile(caFile, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: caDER}), 0o600); err != nil {
		t.Fatal(err)
	}
	cert := tls.Certificate{Certificate: [][]byte{der}, PrivateKey: key}
	return caFile, &tls.Config{Certificates: []tls.Certificate{cert}, MinVersion: tls.VersionTLS12, NextProtos: []string{"h2"}}
}

// TestDialSaysWhyAServerRefuses dials servers with TLS and tokens the
// wrong way and checks that each error names the cause, not "no server
// answers".
func TestDialSaysWhyAServerRefuses(t *testing.T) {
	const secret = "dial-test-secret-0123456789"
	caFile, cfg := testCA(t, t.TempDir())
	otherCA, _ := testCA(t, t.TempDir())
	secured := startWith(t, "tcp", registry(t), "",
		server.WithTLS(cfg), server.WithTokens([]server.Token{{Name: "tester", Secret: secret, Limits: server.DefaultClientLimits()}}))
	plain := start(t, "tcp")
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closed := ln.Addr().String()
	ln.Close()

	for _, tc := range []struct {
		name string
		addr string
		opts server.DialOptions
		want error
		text string
	}{
		{"ok", secured.target, server.DialOptions{CAFile: caFile, Token: secret}, nil, ""},
		{"plain text to TLS", secured.target, server.DialOptions{Token: secret}, server.ErrTLSRequired, "this server requires TLS"},
		{"TLS to plain text", plain.target, server.DialOptions{CAFile: caFile}, server.ErrNotTLS, "this server does not use TLS"},
		{"another CA", secured.target, server.DialOptions{CAFile: otherCA, Token: secret}, server.ErrUntrusted, "not signed by the CA given"},
		{"no token", secured.target, server.DialOptions{CAFile: caFile}, server.ErrTokenRequired, "this server requires a token"},
		{"wrong token", secured.target, server.DialOptions{CAFile: caFile, Token: "wrong-secret-0123456789"}, server.ErrTokenRefused, "the token was refused"},
		{"nothing listens", closed, server.DialOptions{}, server.ErrUnreachable, "connection was refused"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.opts.Timeout = 2 * time.Second
			conn, err := server.Dial(context.Background(), tc.addr, tc.opts)
			if conn != nil {
				conn.Close()
			}
			if tc.want == nil {
				if err != nil {
					t.Fatalf("Dial = %v, want a connection", err)
				}
				return
			}
			if !errors.Is(err, tc.want) || !strings.Contains(err.Error(), tc.text) {
				t.Fatalf("Dial = %v, want %v with %q", err, tc.want, tc.text)
			}
		})
	}
}
