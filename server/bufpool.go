package server

import (
	"math/bits"
	"sync"

	"google.golang.org/grpc/mem"
)

// BufferPool returns the gRPC buffer pool jgym's server uses and that Go
// clients may pass to grpc.WithBufferPool (google.golang.org/grpc/experimental):
// buffers come in power-of-two sizes from 256 B to 64 MiB and are not
// zeroed when reused.
//
// gRPC's default pool clears every buffer it hands out. A batch answer is
// large (0.7 MB for 64 Crematoria envs), so that clearing is a visible
// part of the serving cost, and it buys nothing here: gRPC writes a
// buffer's whole length before it reads it, and the batches hold game
// states the client is given anyway.
func BufferPool() mem.BufferPool { return dirtyPool }

var dirtyPool = newTieredPool()

const (
	minPoolShift = 8
	maxPoolShift = 26
)

type tieredPool struct {
	tiers [maxPoolShift + 1]sync.Pool
}

func newTieredPool() *tieredPool { return &tieredPool{} }

// tier is the smallest power-of-two exponent whose size holds n bytes.
func tier(n int) int {
	if n <= 1<<minPoolShift {
		return minPoolShift
	}
	return bits.Len(uint(n - 1))
}

func (p *tieredPool) Get(n int) *[]byte {
	t := tier(n)
	if t > maxPoolShift {
		b := make([]byte, n)
		return &b
	}
	if v, ok := p.tiers[t].Get().(*[]byte); ok {
		*v = (*v)[:n]
		return v
	}
	b := make([]byte, n, 1<<t)
	return &b
}

func (p *tieredPool) Put(b *[]byte) {
	c := cap(*b)
	if c < 1<<minPoolShift || c&(c-1) != 0 {
		return // not one of ours (or too small to keep)
	}
	t := bits.Len(uint(c)) - 1
	if t > maxPoolShift {
		return
	}
	*b = (*b)[:0]
	p.tiers[t].Put(b)
}
