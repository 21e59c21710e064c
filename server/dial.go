package server

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"syscall"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials"
	"google.golang.org/grpc/credentials/insecure"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"
	"google.golang.org/grpc/status"

	jgymv1 "jgym/api/jgym/v1"
)

// Errors of Dial: why a client could not use a server. Each is wrapped
// with the address and what to do.
var (
	// ErrUnreachable means nothing answers at the address.
	ErrUnreachable = errors.New("no jgym server answers")
	// ErrTLSRequired means the server speaks TLS and the client plain text.
	ErrTLSRequired = errors.New("this server requires TLS")
	// ErrNotTLS means the client asked for TLS and the server speaks plain text.
	ErrNotTLS = errors.New("this server does not use TLS")
	// ErrUntrusted means the server's certificate is not signed by the CA given.
	ErrUntrusted = errors.New("the server's certificate is not trusted")
	// ErrTokenRequired means the server requires a token and none was sent.
	ErrTokenRequired = errors.New("this server requires a token")
	// ErrTokenRefused means the server does not know the token sent.
	ErrTokenRefused = errors.New("the token was refused")
)

// DialOptions say how a client reaches a jgym server (jgym serve --tokens,
// --tls-cert, --tls-client-ca; docs/security.md).
type DialOptions struct {
	Token      string        // sent as "authorization: Bearer TOKEN"; empty: none
	CAFile     string        // PEM of the CA of the server's certificate; empty with TLS: the system's roots
	TLS        bool          // reach the server over TLS (implied by CAFile or CertFile)
	CertFile   string        // this client's certificate (mutual TLS), with KeyFile
	KeyFile    string        // the key of CertFile
	ServerName string        // the name to check in the certificate when not the address's host
	Timeout    time.Duration // how long to wait for the server to answer; 0: 10 s
}

func (o DialOptions) usesTLS() bool { return o.TLS || o.CAFile != "" || o.CertFile != "" }

func (o DialOptions) tlsConfig() (*tls.Config, error) {
	cfg := &tls.Config{MinVersion: tls.VersionTLS12, ServerName: o.ServerName}
	if o.CAFile != "" {
		pem, err := os.ReadFile(o.CAFile)
		if err != nil {
			return nil, fmt.Errorf("the CA's file: %w", err)
		}
		cfg.RootCAs = x509.NewCertPool()
		if !cfg.RootCAs.AppendCertsFromPEM(pem) {
			return nil, fmt.Errorf("the CA's file %s holds no PEM certificate", o.CAFile)
		}
	}
	if (o.CertFile == "") != (o.KeyFile == "") {
		return nil, errors.New("a client certificate and its key go together")
	}
	if o.CertFile != "" {
		cert, err := tls.LoadX509KeyPair(o.CertFile, o.KeyFile)
		if err != nil {
			return nil, fmt.Errorf("the client certificate: %w", err)
		}
		cfg.Certificates = []tls.Certificate{cert}
	}
	return cfg, nil
}

// Dial connects to the jgym server at addr, waits until it answers its
// health check and its version (with the token), and returns the
// connection. When it cannot, the error says why: nothing listens
// (ErrUnreachable), TLS on one side only (ErrTLSRequired, ErrNotTLS), an
// untrusted certificate (ErrUntrusted), a missing or unknown token
// (ErrTokenRequired, ErrTokenRefused). extra options are added to the
// connection's (codec, window sizes).
func Dial(ctx context.Context, addr string, o DialOptions, extra ...grpc.DialOption) (*grpc.ClientConn, error) {
	timeout := o.Timeout
	if timeout <= 0 {
		timeout = 10 * time.Second
	}
	var tcfg *tls.Config
	opts := []grpc.DialOption{grpc.WithTransportCredentials(insecure.NewCredentials())}
	if o.usesTLS() {
		var err error
		if tcfg, err = o.tlsConfig(); err != nil {
			return nil, err
		}
		opts = []grpc.DialOption{grpc.WithTransportCredentials(credentials.NewTLS(tcfg))}
	}
	if o.Token != "" {
		opts = append(opts, grpc.WithPerRPCCredentials(bearerToken(o.Token)))
	}
	conn, err := grpc.NewClient(addr, append(opts, extra...)...)
	if err != nil {
		return nil, fmt.Errorf("%w at %s: %w", ErrUnreachable, addr, err)
	}
	hctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	_, err = healthpb.NewHealthClient(conn).Check(hctx, &healthpb.HealthCheckRequest{}, grpc.WaitForReady(true))
	if err != nil && status.Code(err) != codes.Unimplemented {
		conn.Close()
		return nil, explainUnreachable(addr, tcfg, err)
	}
	_, err = jgymv1.NewJgymServiceClient(conn).GetVersion(hctx, &jgymv1.GetVersionRequest{})
	if status.Code(err) == codes.Unauthenticated {
		conn.Close()
		if o.Token == "" {
			return nil, fmt.Errorf("%w: the server at %s refused a call without one; give the token (%s)", ErrTokenRequired, addr, status.Convert(err).Message())
		}
		return nil, fmt.Errorf("%w by the server at %s (%s)", ErrTokenRefused, addr, status.Convert(err).Message())
	}
	if err != nil {
		conn.Close()
		return nil, fmt.Errorf("get version from %s: %w", addr, err)
	}
	return conn, nil
}

// explainUnreachable opens a connection of its own and tries a TLS
// handshake on it, to tell why the health check failed.
func explainUnreachable(addr string, tcfg *tls.Config, cause error) error {
	d := net.Dialer{Timeout: 2 * time.Second}
	probe := &tls.Config{InsecureSkipVerify: true, NextProtos: []string{"h2"}} //nolint:gosec // only asks whether the server speaks TLS
	c, err := tls.DialWithDialer(&d, "tcp", addr, probe)
	var rh tls.RecordHeaderError
	switch {
	case errors.Is(err, syscall.ECONNREFUSED):
		return fmt.Errorf("%w at %s: the connection was refused (nothing listens on that port)", ErrUnreachable, addr)
	case err == nil && tcfg == nil:
		c.Close()
		return fmt.Errorf("%w: the server at %s speaks TLS and this client connected in plain text; give the CA's PEM file", ErrTLSRequired, addr)
	case err == nil:
		c.Close()
		return explainTLS(addr, tcfg, &d, cause)
	case tcfg != nil && (errors.As(err, &rh) || errors.Is(err, syscall.ECONNRESET) || errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF)):
		return fmt.Errorf("%w: the server at %s answered the TLS handshake in plain text; connect without TLS", ErrNotTLS, addr)
	}
	return fmt.Errorf("%w at %s: %w", ErrUnreachable, addr, cause)
}

// explainTLS says why a TLS client failed with a TLS server: the
// certificate, or (mutual TLS) the client's.
func explainTLS(addr string, tcfg *tls.Config, d *net.Dialer, cause error) error {
	verify := tcfg.Clone()
	verify.NextProtos = []string{"h2"}
	if verify.ServerName == "" {
		host, _, _ := net.SplitHostPort(addr)
		verify.ServerName = host
	}
	c, err := tls.DialWithDialer(d, "tcp", addr, verify)
	if err == nil {
		c.Close()
		return fmt.Errorf("%w at %s: the TLS connection failed after the handshake (a server that asks for client certificates needs one): %w", ErrUnreachable, addr, cause)
	}
	var unknown x509.UnknownAuthorityError
	var verr *tls.CertificateVerificationError
	var host x509.HostnameError
	if errors.As(err, &unknown) || errors.As(err, &verr) || errors.As(err, &host) {
		return fmt.Errorf("%w: the certificate of %s is not signed by the CA given or not for %q: %w", ErrUntrusted, addr, verify.ServerName, err)
	}
	return fmt.Errorf("%w at %s: %w", ErrUnreachable, addr, err)
}

// bearerToken sends a token as "authorization: Bearer TOKEN"; it does not
// require TLS, so that loopback servers can be reached in plain text.
type bearerToken string

func (b bearerToken) GetRequestMetadata(context.Context, ...string) (map[string]string, error) {
	return map[string]string{"authorization": "Bearer " + string(b)}, nil
}

func (bearerToken) RequireTransportSecurity() bool { return false }
