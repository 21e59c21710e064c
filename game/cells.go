package game

import "unsafe"

// CellWords returns the memory of cells as 8-byte words, or nil when it
// is not aligned to 8 bytes or not a whole number of words. C must hold no
// pointer: a game's cell is a few small integers. Bytes of padding may
// differ between equal cells; DiffCells then sees a word change where no
// cell did.
func CellWords[C comparable](cells []C) []uint64 {
	n := uintptr(len(cells)) * unsafe.Sizeof(*new(C))
	if n == 0 || n%8 != 0 || uintptr(unsafe.Pointer(unsafe.SliceData(cells)))%8 != 0 {
		return nil
	}
	return unsafe.Slice((*uint64)(unsafe.Pointer(unsafe.SliceData(cells))), n/8)
}

// DiffCells calls f, in index order, for each cell of now that differs
// from the same cell of was, with its old value, after copying it into
// was; it compares the cells eight bytes at a time (CellWords), four words
// at a time first, so that a round that changed a few hundred cells of
// thousands costs little. It returns false, having called f for some
// cells or none, when more than limit words differ, when the lengths
// differ or when the cells are not aligned (CellWords): the caller then
// does every cell again. The game caches of Crematoria's encoder and
// Moria's Balin and encoder use it.
func DiffCells[C comparable](now, was []C, limit int, f func(idx int, old C)) bool {
	nw, ww := CellWords(now), CellWords(was)
	if nw == nil || ww == nil || len(nw) != len(ww) {
		return false
	}
	ww = ww[:len(nw)]
	cellSize := int(unsafe.Sizeof(*new(C)))
	changed := 0
	// Four words at a time, then the words that differ.
	for w0 := 0; w0 < len(nw); w0 += 4 {
		if w0+4 <= len(nw) {
			a, b := (*[4]uint64)(nw[w0:w0+4]), (*[4]uint64)(ww[w0:w0+4])
			if (a[0]^b[0])|(a[1]^b[1])|(a[2]^b[2])|(a[3]^b[3]) == 0 {
				continue
			}
		}
		for w := w0; w < min(w0+4, len(nw)); w++ {
			if nw[w] == ww[w] {
				continue
			}
			if changed++; changed > limit {
				return false
			}
			for idx := 8 * w / cellSize; idx <= (8*w+7)/cellSize; idx++ {
				if c, old := now[idx], was[idx]; c != old {
					was[idx] = c
					f(idx, old)
				}
			}
		}
	}
	return true
}
