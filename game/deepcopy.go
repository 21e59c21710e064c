package game

import (
	"errors"
	"fmt"
	"reflect"
	"slices"
	"sort"
	"sync"
	"unsafe"
)

// The deep copy of Match.Copy: a generic copy of a graph of Go values (an
// engine and its bots) that keeps its shape.
//
// Engines and bots hold pointers into their own memory: a State's
// configuration points to a field of its Game (State.Cfg = &g.cfg), a
// bot's pointer to the state it last read points into the engine, slices
// share backing arrays. A copy must keep those: a pointer of the copy
// points at the same place of the copy as the original's points of the
// original. So the copy works as a moving collector does, in two passes:
//
//  1. collect: walk the graph from the roots and note every block of
//     memory a pointer or a slice reaches (its address, element type and
//     count; a slice's block is its whole capacity); blocks that overlap
//     are merged into regions, each the outermost block that holds the
//     others (or, for slices of one array, their union);
//  2. copy: allocate each region anew, copy its bytes, then rewrite every
//     pointer of the copy (and of the roots) to the same offset in the
//     region of the copy. Maps are made anew (entries copied the same
//     way), an interface's boxed value too; strings are shared (they are
//     immutable).
//
// A func is shared, as the code it runs (the engines and bots keep no
// closures over their own state; the conformance suite plays a copy and
// its original at once under the race detector). Channels and unsafe
// pointers cannot be copied (a goroutine's, a C library's memory): a
// graph with a non-nil one is refused with errNoCopy, as are overlapping
// blocks the copy cannot type.

// errNoCopy is wrapped by the errors of a graph the deep copy refuses.
var errNoCopy = errors.New("cannot be copied in process")

// block is memory a pointer or a slice reaches: count values of typ at
// addr (ptr keeps it alive during the copy).
type block struct {
	ptr   unsafe.Pointer
	typ   reflect.Type
	count int
}

func (b block) addr() uintptr { return uintptr(b.ptr) }
func (b block) end() uintptr  { return uintptr(b.ptr) + b.typ.Size()*uintptr(b.count) }

// region is a merged block and, after allocation, its copy.
type region struct {
	block
	to unsafe.Pointer
}

// copier is one deep copy.
type copier struct {
	root    region  // the root: the value copied, and where to
	keep    []field // the root's fields that are shared, not followed
	keepTo  []field // the same fields of the copy
	shared  []block // memory the copy shares, not copied (a game's Def)
	seen    map[block]bool
	blocks  []block
	regions []region
	maps    map[unsafe.Pointer]reflect.Value
	err     error
}

// field is a field of a value: its address and type (a struct's first
// field has the struct's address).
type field struct {
	ptr unsafe.Pointer
	typ reflect.Type
}

// sliceHeader is the layout of a Go slice.
type sliceHeader struct {
	data     unsafe.Pointer
	len, cap int
}

// hasPointers caches, per type, whether its values hold pointers the copy
// must follow (strings excepted: they are shared).
var hasPointers sync.Map // reflect.Type -> bool

func pointerful(t reflect.Type) bool {
	if v, ok := hasPointers.Load(t); ok {
		return v.(bool)
	}
	var r bool
	switch t.Kind() {
	case reflect.Pointer, reflect.Slice, reflect.Map, reflect.Interface,
		reflect.Func, reflect.Chan, reflect.UnsafePointer:
		r = true
	case reflect.Array:
		r = t.Len() > 0 && pointerful(t.Elem())
	case reflect.Struct:
		for i := range t.NumField() {
			if pointerful(t.Field(i).Type) {
				r = true
				break
			}
		}
	}
	hasPointers.Store(t, r)
	return r
}

// deepCopy copies the value of type t at from, and everything it reaches,
// to to (a value of type t whose bytes are overwritten): pointers of the
// copy into from's memory point into to's, sharing is kept. The fields of
// from at the addresses keep are shared: copied as they are, not followed
// (the caller replaces them); the memory of the blocks shared is not
// copied, pointers into it are kept.
func deepCopy(t reflect.Type, from, to unsafe.Pointer, shared []block, keep ...field) error {
	c := &copier{seen: map[block]bool{}, maps: map[unsafe.Pointer]reflect.Value{}, keep: keep, shared: shared}
	c.root = region{block: block{ptr: from, typ: t, count: 1}, to: to}
	for _, k := range keep {
		c.keepTo = append(c.keepTo, field{unsafe.Add(to, uintptr(k.ptr)-uintptr(from)), k.typ})
	}
	c.add(c.root.block)
	if c.err != nil {
		return c.err
	}
	if err := c.merge(); err != nil {
		return err
	}
	for i := range c.regions {
		r := &c.regions[i]
		if r.addr() == uintptr(from) {
			if r.block != c.root.block {
				return fmt.Errorf("%w: memory around the copied value", errNoCopy)
			}
			r.to = to
			reflect.NewAt(t, to).Elem().Set(reflect.NewAt(t, from).Elem())
			continue
		}
		s := reflect.MakeSlice(reflect.SliceOf(r.typ), r.count, r.count)
		reflect.Copy(s, reflect.SliceAt(r.typ, r.ptr, r.count))
		r.to = s.UnsafePointer()
	}
	for i := range c.regions {
		r := &c.regions[i]
		if pointerful(r.typ) {
			for k := range r.count {
				c.fix(r.typ, unsafe.Add(r.to, uintptr(k)*r.typ.Size()))
			}
		}
	}
	return c.err
}

// add notes a block and walks it the first time.
func (c *copier) add(b block) {
	if b.ptr == nil || b.typ.Size() == 0 || b.count == 0 || c.seen[b] {
		return
	}
	for _, sh := range c.shared {
		if b.addr() >= sh.addr() && b.addr() < sh.end() {
			return
		}
	}
	c.seen[b] = true
	c.blocks = append(c.blocks, b)
	if pointerful(b.typ) {
		for k := range b.count {
			c.walk(b.typ, unsafe.Add(b.ptr, uintptr(k)*b.typ.Size()))
		}
	}
}

// walk notes the blocks the value of type t at p reaches.
func (c *copier) walk(t reflect.Type, p unsafe.Pointer) {
	if c.err != nil || !pointerful(t) {
		return
	}
	switch t.Kind() {
	case reflect.Pointer:
		c.add(block{ptr: *(*unsafe.Pointer)(p), typ: t.Elem(), count: 1})
	case reflect.Slice:
		h := (*sliceHeader)(p)
		c.add(block{ptr: h.data, typ: t.Elem(), count: h.cap})
	case reflect.Array:
		for k := range t.Len() {
			c.walk(t.Elem(), unsafe.Add(p, uintptr(k)*t.Elem().Size()))
		}
	case reflect.Struct:
		for i := range t.NumField() {
			f := t.Field(i)
			if q := unsafe.Add(p, f.Offset); !slices.Contains(c.keep, field{q, f.Type}) {
				c.walk(f.Type, q)
			}
		}
	case reflect.Map:
		m := reflect.NewAt(t, p).Elem()
		if m.IsNil() || (!pointerful(t.Key()) && !pointerful(t.Elem())) {
			return
		}
		it := m.MapRange()
		for it.Next() {
			c.walkValue(it.Key())
			c.walkValue(it.Value())
		}
	case reflect.Interface:
		v := reflect.NewAt(t, p).Elem()
		if !v.IsNil() {
			c.walkValue(v.Elem())
		}
	case reflect.Func: // shared
	default: // chan, unsafe pointer
		if *(*unsafe.Pointer)(p) != nil {
			c.err = fmt.Errorf("%w: a %s", errNoCopy, t)
		}
	}
}

// walkValue walks a value that has no address (a map's entry, an
// interface's dynamic value) through a copy of it.
func (c *copier) walkValue(v reflect.Value) {
	if !pointerful(v.Type()) {
		return
	}
	tmp := reflect.New(v.Type())
	tmp.Elem().Set(v)
	c.walk(v.Type(), tmp.UnsafePointer())
}

// merge sorts the blocks into disjoint regions.
func (c *copier) merge() error {
	sort.Slice(c.blocks, func(i, j int) bool {
		a, b := c.blocks[i], c.blocks[j]
		if a.addr() != b.addr() {
			return a.addr() < b.addr()
		}
		return a.end() > b.end() // the larger block first
	})
	for _, b := range c.blocks {
		n := len(c.regions)
		if n == 0 || b.addr() >= c.regions[n-1].end() {
			c.regions = append(c.regions, region{block: b})
			continue
		}
		r := &c.regions[n-1]
		if b.end() <= r.end() {
			continue // inside the region
		}
		// A block that sticks out of the region: slices of one array of
		// the same element type, which the region becomes the union of.
		sz := r.typ.Size()
		if b.typ != r.typ || (b.addr()-r.addr())%sz != 0 {
			return fmt.Errorf("%w: overlapping memory of types %s and %s", errNoCopy, r.typ, b.typ)
		}
		r.count = int((b.end() - r.addr()) / sz)
	}
	return nil
}

// moved is where the copy of the memory at p is (p itself when no block
// holds it: a pointer to a zero-size value).
func (c *copier) moved(p unsafe.Pointer) unsafe.Pointer {
	a := uintptr(p)
	i := sort.Search(len(c.regions), func(i int) bool { return c.regions[i].end() > a })
	if i == len(c.regions) || c.regions[i].addr() > a {
		return p
	}
	r := &c.regions[i]
	return unsafe.Add(r.to, a-r.addr())
}

// fix rewrites the references of the value of type t at p (a copy of an
// original's bytes) to the copies.
func (c *copier) fix(t reflect.Type, p unsafe.Pointer) {
	if c.err != nil || !pointerful(t) {
		return
	}
	switch t.Kind() {
	case reflect.Pointer:
		pp := (*unsafe.Pointer)(p)
		*pp = c.moved(*pp)
	case reflect.Slice:
		h := (*sliceHeader)(p)
		if h.cap > 0 {
			h.data = c.moved(h.data)
		}
	case reflect.Array:
		for k := range t.Len() {
			c.fix(t.Elem(), unsafe.Add(p, uintptr(k)*t.Elem().Size()))
		}
	case reflect.Struct:
		for i := range t.NumField() {
			f := t.Field(i)
			if q := unsafe.Add(p, f.Offset); !slices.Contains(c.keepTo, field{q, f.Type}) {
				c.fix(f.Type, q)
			}
		}
	case reflect.Map:
		m := reflect.NewAt(t, p).Elem()
		if m.IsNil() {
			return
		}
		id := m.UnsafePointer()
		n, ok := c.maps[id]
		if !ok {
			n = reflect.MakeMapWithSize(t, m.Len())
			it := m.MapRange()
			for it.Next() {
				n.SetMapIndex(c.fixValue(it.Key()), c.fixValue(it.Value()))
			}
			c.maps[id] = n
		}
		m.Set(n)
	case reflect.Interface:
		v := reflect.NewAt(t, p).Elem()
		if v.IsNil() || !pointerful(v.Elem().Type()) {
			return // a boxed value without references is immutable: shared
		}
		v.Set(c.fixValue(v.Elem()))
	}
}

// fixValue is a copy of a value without an address, its references moved.
func (c *copier) fixValue(v reflect.Value) reflect.Value {
	if !pointerful(v.Type()) {
		return v
	}
	tmp := reflect.New(v.Type())
	tmp.Elem().Set(v)
	c.fix(v.Type(), tmp.UnsafePointer())
	return tmp.Elem()
}
