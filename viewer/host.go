package viewer

import (
	"errors"
	"fmt"
	"net"
	"net/http"
	"strings"
)

// Option configures Serve.
type Option func(*serveOptions)

type serveOptions struct {
	hosts    []string // host names accepted besides the bound address
	insecure bool     // listening beyond loopback is allowed
}

// WithAllowedHosts accepts requests whose Host header names one of names
// (for example the machine's DNS name when the viewer listens on every
// interface), besides the address the viewer listens on.
func WithAllowedHosts(names ...string) Option {
	return func(o *serveOptions) {
		for _, n := range names {
			o.hosts = append(o.hosts, normalHost(n))
		}
	}
}

// WithInsecure allows Serve to listen beyond loopback. The viewer has no
// token and no TLS: whoever reaches the address reads the trace.
func WithInsecure() Option { return func(o *serveOptions) { o.insecure = true } }

// ErrBeyondLoopback is returned by Serve for an address beyond loopback
// without WithInsecure.
var ErrBeyondLoopback = errors.New("the viewer listens beyond loopback only with --insecure")

// IsLoopback reports whether a listen address (host:port) accepts only
// local clients: "localhost" or a loopback IP. An empty host (every
// interface) is not.
func IsLoopback(addr string) bool {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return false
	}
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// hostGuard answers 421 Misdirected Request to any request whose Host
// header is not an address of the viewer, so that a page of another site
// whose name was made to resolve to this machine (DNS rebinding) cannot
// read the trace: the browser sends that site's name as Host. Accepted
// are: the IP the viewer listens on (any address of the machine's
// interfaces when it listens on all of them), "localhost" when it listens
// on loopback or everywhere, and the names of WithAllowedHosts. The port
// is not checked (a tunnel such as ssh -L may change it; a rebinding page
// cannot change the name).
type hostGuard struct {
	next    http.Handler
	bound   net.IP // the listener's IP (unspecified: every interface)
	addr    string // the listener's address, for the message
	allowed []string
	local   func() []net.IP // the machine's addresses (net.InterfaceAddrs)
}

func newHostGuard(next http.Handler, bound net.Addr, allowed []string) *hostGuard {
	g := &hostGuard{next: next, addr: bound.String(), allowed: allowed, local: interfaceIPs}
	if tcp, ok := bound.(*net.TCPAddr); ok {
		g.bound = tcp.IP
	}
	return g
}

func (g *hostGuard) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if g.accepts(r.Host) {
		g.next.ServeHTTP(w, r)
		return
	}
	shown := r.Host
	if len(shown) > 64 {
		shown = shown[:64] + "..."
	}
	msg := fmt.Sprintf("jgym view: Host %q is not an address of this viewer (it listens on %s): open http://%s/ "+
		"(a page of another site cannot read the trace through its own name, DNS rebinding; "+
		"jgym view --allow-host NAME accepts another name)\n", shown, g.addr, g.addr)
	http.Error(w, msg, http.StatusMisdirectedRequest)
}

// accepts reports whether a Host header names the viewer.
func (g *hostGuard) accepts(hostport string) bool {
	host := hostport
	if h, _, err := net.SplitHostPort(hostport); err == nil {
		host = h
	}
	host = normalHost(host)
	if host == "" {
		return false
	}
	if ip := net.ParseIP(host); ip != nil {
		switch {
		case g.bound == nil:
			return false
		case g.bound.IsUnspecified():
			if ip.IsLoopback() {
				return true
			}
			for _, a := range g.local() {
				if a.Equal(ip) {
					return true
				}
			}
			return false
		default:
			return ip.Equal(g.bound)
		}
	}
	if host == "localhost" && g.bound != nil && (g.bound.IsLoopback() || g.bound.IsUnspecified()) {
		return true
	}
	for _, a := range g.allowed {
		if host == a {
			return true
		}
	}
	return false
}

// normalHost lower-cases a host name and drops the brackets of an IPv6
// literal and a final dot.
func normalHost(h string) string {
	h = strings.TrimSuffix(strings.TrimPrefix(strings.TrimSuffix(h, "]"), "["), ".")
	return strings.ToLower(h)
}

// interfaceIPs returns the IP addresses of the machine's interfaces.
func interfaceIPs() []net.IP {
	addrs, err := net.InterfaceAddrs()
	if err != nil {
		return nil
	}
	var ips []net.IP
	for _, a := range addrs {
		if n, ok := a.(*net.IPNet); ok {
			ips = append(ips, n.IP)
		}
	}
	return ips
}
