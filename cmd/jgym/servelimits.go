package main

import (
	"flag"
	"runtime"
	"time"

	"jgym/cppbot"
	"jgym/server"
)

// hostileConfig holds the flags of jgym serve that bound what a hostile
// client, or a stranger, can make the server hold beyond its sessions:
// compilers, the compiled-bot cache, answers left unread, connections
// without a token (docs/security.md).
type hostileConfig struct {
	maxCompiles   int
	compileWait   time.Duration
	cacheBytes    string
	maxExeBytes   string
	unreadTimeout time.Duration
	unauthBytes   string
	unauthCalls   int
}

func defaultHostileConfig() hostileConfig {
	return hostileConfig{
		maxCompiles: max(1, runtime.NumCPU()/2), compileWait: time.Minute,
		cacheBytes: "2GiB", maxExeBytes: "64MiB",
		unreadTimeout: 2 * time.Minute, unauthBytes: "64KiB", unauthCalls: 64,
	}
}

// hostileFlags defines the flags of cfg.h and cfg.client.Compiles on fs.
func hostileFlags(fs *flag.FlagSet, cfg *serveConfig) {
	d := defaultHostileConfig()
	h := &cfg.h
	fs.IntVar(&h.maxCompiles, "max-compiles", d.maxCompiles, "most C++ compilers running at once, for all clients (others wait --compile-wait)")
	fs.DurationVar(&h.compileWait, "compile-wait", d.compileWait, "how long a C++ build waits for a compiler before it is refused (ResourceExhausted)")
	fs.IntVar(&cfg.client.Compiles, "client-compiles", cfg.client.Compiles, "most uploads of one client checked (compiled) at once")
	fs.StringVar(&h.cacheBytes, "cpp-cache-bytes", d.cacheBytes, "most bytes of compiled C++ bots kept on disk (the least recently used are removed)")
	fs.StringVar(&h.maxExeBytes, "max-executable-bytes", d.maxExeBytes, "largest compiled C++ bot (and object file)")
	fs.DurationVar(&h.unreadTimeout, "unread-timeout", d.unreadTimeout, "close a connection that leaves the answers of its ended streams unread for this long")
	fs.StringVar(&h.unauthBytes, "unauthenticated-bytes", d.unauthBytes, "with --tokens: most bytes a connection may send before a call on it carries a valid token")
	fs.IntVar(&h.unauthCalls, "unauthenticated-calls", d.unauthCalls, "with --tokens: most calls without a token (health checks) in progress")
}

// hostileOptions applies cfg.h to the C++ options and returns the
// server's options.
func hostileOptions(cfg serveConfig, cpp *cppbot.Options) ([]server.Option, error) {
	h := cfg.h
	cache, err := server.ParseBytes(h.cacheBytes)
	if err != nil || cache < 1 {
		return nil, usageErr("bad --cpp-cache-bytes %q: want a size such as 2GiB", h.cacheBytes)
	}
	exe, err := server.ParseBytes(h.maxExeBytes)
	if err != nil || exe < 1 {
		return nil, usageErr("bad --max-executable-bytes %q: want a size such as 64MiB", h.maxExeBytes)
	}
	unauth, err := server.ParseBytes(h.unauthBytes)
	if err != nil || unauth < 1 {
		return nil, usageErr("bad --unauthenticated-bytes %q: want a size such as 64KiB", h.unauthBytes)
	}
	if h.maxCompiles < 1 || h.compileWait <= 0 || h.unreadTimeout <= 0 || h.unauthCalls < 0 || cfg.client.Compiles < 0 {
		return nil, usageErr("--max-compiles, --compile-wait and --unread-timeout must be positive, --unauthenticated-calls and --client-compiles at least 0")
	}
	cpp.Compiles = cppbot.NewCompileLimit(h.maxCompiles, h.compileWait)
	cpp.CacheBytes, cpp.MaxExecutableBytes = cache, exe
	return []server.Option{
		server.WithUnreadTimeout(h.unreadTimeout),
		server.WithUnauthenticated(unauth, h.unauthCalls),
		server.WithGauge("jgym_compilers", "C++ compilers running (--max-compiles).", func() float64 { return float64(cpp.Compiles.Running()) }),
		server.WithGauge("jgym_cpp_cache_bytes", "Bytes of compiled C++ bots kept on disk (--cpp-cache-bytes).", func() float64 { return float64(cppbot.CacheUsage(*cpp)) }),
	}, nil
}
