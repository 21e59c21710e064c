package game

import (
	"errors"
	"reflect"
	"testing"
	"unsafe"
)

// graph is a value with the shapes engines and bots have: a pointer to a
// field of its own, slices sharing an array, a map, interfaces holding a
// pointer and a value with a slice, a pointer into a slice's array.
type graph struct {
	cfg      [2]int
	Cfg      *[2]int
	all      []int
	head     []int
	tail     []int
	cell     *int
	m        map[string][]int
	iface    any
	box      any
	self     *graph
	rules    *[3]int // shared (kept)
	shared   *[2]int // shared (memory not copied)
	inShared *int    // into the shared memory
	fn       func() int
}

type boxed struct{ s []int }

func newGraph() *graph {
	g := &graph{cfg: [2]int{1, 2}, all: make([]int, 6, 8), m: map[string][]int{"a": {1, 2}}, rules: &[3]int{7, 8, 9}}
	g.Cfg = &g.cfg
	g.head, g.tail = g.all[:2:3], g.all[2:]
	g.cell = &g.all[4]
	g.iface = g.cell
	g.box = boxed{s: g.all[1:3]}
	g.self = g
	g.shared = &[2]int{3, 4}
	g.inShared = &g.shared[1]
	g.fn = func() int { return 42 }
	return g
}

// TestDeepCopy copies a graph and checks that the copy has the shape of
// the original and shares none of its memory but the kept field's.
func TestDeepCopy(t *testing.T) {
	g := newGraph()
	var c graph
	if err := deepCopy(reflect.TypeFor[graph](), unsafe.Pointer(g), unsafe.Pointer(&c), []block{{ptr: unsafe.Pointer(g.shared), typ: reflect.TypeFor[[2]int](), count: 1}}, field{unsafe.Pointer(&g.rules), reflect.TypeFor[*[3]int]()}); err != nil {
		t.Fatal(err)
	}
	if c.Cfg != &c.cfg || c.self != &c || *c.Cfg != [2]int{1, 2} {
		t.Fatal("the copy's pointers into itself are not its own")
	}
	if c.rules != g.rules || c.shared != g.shared || c.inShared != g.inShared {
		t.Fatal("the kept field or the shared memory was not shared")
	}
	if &c.all[0] == &g.all[0] || &c.head[0] != &c.all[0] || &c.tail[0] != &c.all[2] || c.cell != &c.all[4] || c.iface.(*int) != c.cell {
		t.Fatal("the copy's slices and pointers do not share its array as the original's do")
	}
	if cap(c.head) != 3 || cap(c.tail) != 6 || len(c.all) != 6 || cap(c.all) != 8 {
		t.Fatal("lengths and capacities changed")
	}
	if b := c.box.(boxed); &b.s[0] != &c.all[1] {
		t.Fatal("an interface's boxed slice does not point into the copy")
	}
	c.m["a"][0] = 5
	c.m["b"] = nil
	c.all[4] = 3
	if g.m["a"][0] != 1 || len(g.m) != 1 || g.all[4] != 0 || *g.cell != 0 {
		t.Fatal("writing the copy changed the original")
	}
	if c.fn() != 42 {
		t.Fatal("the func was not kept")
	}
}

// TestDeepCopyRefuses: channels, unsafe pointers and overlapping memory
// of different types are refused.
func TestDeepCopyRefuses(t *testing.T) {
	type withChan struct{ c chan int }
	type overlap struct {
		a []int32
		b *[2]int64
	}
	arr := &[8]int32{}
	cases := []struct {
		name string
		typ  reflect.Type
		v    unsafe.Pointer
	}{
		{"a channel", reflect.TypeFor[withChan](), unsafe.Pointer(&withChan{c: make(chan int)})},
		{"an unsafe pointer", reflect.TypeFor[struct{ p unsafe.Pointer }](), unsafe.Pointer(&struct{ p unsafe.Pointer }{unsafe.Pointer(arr)})},
		{"overlapping types", reflect.TypeFor[overlap](), unsafe.Pointer(&overlap{a: arr[0:4:4], b: (*[2]int64)(unsafe.Pointer(&arr[3]))})},
	}
	for _, c := range cases {
		to := reflect.New(c.typ)
		if err := deepCopy(c.typ, c.v, to.UnsafePointer(), nil); !errors.Is(err, errNoCopy) {
			t.Errorf("%s: %v, want errNoCopy", c.name, err)
		}
	}
}
