package main

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/base64"
	"encoding/pem"
	"errors"
	"fmt"
	"io"
	"math/big"
	"net"
	"os"
	"path/filepath"
	"strings"
	"time"

	"jgym/server"
)

func init() {
	register(&command{
		name:  "certs",
		usage: "--out DIR [--hosts localhost,127.0.0.1] [--days 365]",
		short: "make a private CA, a server certificate and a client certificate for TLS and mutual TLS",
		run:   runCerts,
	})
	register(&command{
		name:  "token",
		usage: "NAME [LIMIT=VALUE ...]",
		short: "print a line for a tokens file (jgym serve --tokens): NAME, a new random secret, the limits",
		run:   runToken,
	})
}

func runCerts(_ context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet(commands["certs"], stderr)
	out := fs.String("out", "", "directory to write ca.pem, server.pem, server-key.pem, client.pem, client-key.pem into")
	hosts := fs.String("hosts", "localhost,127.0.0.1", "comma-separated DNS names and IP addresses the server certificate is valid for")
	days := fs.Int("days", 365, "validity in days")
	pos, err := parseArgs(fs, args)
	if err != nil {
		return err
	}
	if len(pos) > 0 || *out == "" {
		return usageErr("want --out DIR and no other arguments")
	}
	if *days < 1 {
		return usageErr("--days must be at least 1")
	}
	if err := writeCerts(*out, strings.Split(*hosts, ","), time.Duration(*days)*24*time.Hour); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "wrote %s: ca.pem (give it to clients), server.pem and server-key.pem (jgym serve --tls-cert --tls-key), client.pem and client-key.pem (mutual TLS: --tls-client-ca ca.pem)\n", *out)
	return nil
}

// writeCerts makes a CA and, signed by it, a server certificate for hosts
// and a client certificate, in PEM files under dir (keys mode 0600).
func writeCerts(dir string, hosts []string, valid time.Duration) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	now := time.Now()
	caKey, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return err
	}
	caTmpl := &x509.Certificate{
		SerialNumber: serial(), Subject: pkix.Name{CommonName: "jgym CA"},
		NotBefore: now.Add(-time.Hour), NotAfter: now.Add(valid),
		IsCA: true, BasicConstraintsValid: true, KeyUsage: x509.KeyUsageCertSign | x509.KeyUsageDigitalSignature,
	}
	caDER, err := x509.CreateCertificate(rand.Reader, caTmpl, caTmpl, &caKey.PublicKey, caKey)
	if err != nil {
		return err
	}
	ca, _ := x509.ParseCertificate(caDER)
	if err := writePEM(filepath.Join(dir, "ca.pem"), "CERTIFICATE", caDER, 0o644); err != nil {
		return err
	}
	leaf := func(name, cn string, usage x509.ExtKeyUsage, hosts []string) error {
		key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
		if err != nil {
			return err
		}
		tmpl := &x509.Certificate{
			SerialNumber: serial(), Subject: pkix.Name{CommonName: cn},
			NotBefore: now.Add(-time.Hour), NotAfter: now.Add(valid),
			KeyUsage: x509.KeyUsageDigitalSignature, ExtKeyUsage: []x509.ExtKeyUsage{usage},
		}
		for _, h := range hosts {
			h = strings.TrimSpace(h)
			if ip := net.ParseIP(h); ip != nil {
				tmpl.IPAddresses = append(tmpl.IPAddresses, ip)
			} else if h != "" {
				tmpl.DNSNames = append(tmpl.DNSNames, h)
			}
		}
		der, err := x509.CreateCertificate(rand.Reader, tmpl, ca, &key.PublicKey, caKey)
		if err != nil {
			return err
		}
		kb, err := x509.MarshalECPrivateKey(key)
		if err != nil {
			return err
		}
		if err := writePEM(filepath.Join(dir, name+".pem"), "CERTIFICATE", der, 0o644); err != nil {
			return err
		}
		return writePEM(filepath.Join(dir, name+"-key.pem"), "EC PRIVATE KEY", kb, 0o600)
	}
	if len(hosts) == 0 || (len(hosts) == 1 && strings.TrimSpace(hosts[0]) == "") {
		return errors.New("--hosts is empty")
	}
	if err := leaf("server", strings.TrimSpace(hosts[0]), x509.ExtKeyUsageServerAuth, hosts); err != nil {
		return err
	}
	return leaf("client", "jgym client", x509.ExtKeyUsageClientAuth, nil)
}

func serial() *big.Int {
	n, _ := rand.Int(rand.Reader, new(big.Int).Lsh(big.NewInt(1), 120))
	return n
}

func writePEM(path, typ string, der []byte, mode os.FileMode) error {
	return os.WriteFile(path, pem.EncodeToMemory(&pem.Block{Type: typ, Bytes: der}), mode)
}

func runToken(_ context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet(commands["token"], stderr)
	pos, err := parseArgs(fs, args)
	if err != nil {
		return err
	}
	if len(pos) < 1 {
		return usageErr("want a NAME")
	}
	var b [24]byte
	if _, err := rand.Read(b[:]); err != nil {
		return err
	}
	line := strings.Join(append([]string{pos[0], base64.RawURLEncoding.EncodeToString(b[:])}, pos[1:]...), " ")
	// Check the line as jgym serve will read it.
	if _, err := parseTokenLine(line); err != nil {
		return usageErr("%v", err)
	}
	fmt.Fprintln(stdout, line)
	return nil
}

// parseTokenLine checks one line of a tokens file.
func parseTokenLine(line string) ([]server.Token, error) {
	return server.ParseTokens(strings.NewReader(line), server.DefaultClientLimits())
}
