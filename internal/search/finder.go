package search

import (
	"bytes"
	"math"
)

// finder locates one literal in a haystack. It anchors on the needle's
// rarest byte (by byteRank), found with bytes.IndexByte, and compares the
// whole needle around each hit. A case-folding finder compares ASCII
// letters without regard to case; its needle is stored in lower case.
type finder struct {
	needle []byte
	fold   bool
	rare   int  // offset of the anchor byte in needle
	lo, up byte // the anchor byte in lower and upper case (equal if not a letter)
}

func newFinder(lit []byte, fold bool) *finder {
	f := &finder{needle: append([]byte(nil), lit...), fold: fold}
	if fold {
		for i, c := range f.needle {
			f.needle[i] = lowerASCII(c)
		}
	}
	best := math.MaxInt
	for i, c := range f.needle {
		cost := int(byteRank[c])
		if fold && isASCIILetter(c) {
			// Two bytes to look for, and the sum of their frequencies.
			cost = max(cost, int(byteRank[upperASCII(c)])) + 8
		}
		if cost < best {
			best, f.rare = cost, i
		}
	}
	if len(f.needle) > 0 {
		f.lo = f.needle[f.rare]
		f.up = f.lo
		if fold {
			f.up = upperASCII(f.lo)
		}
	}
	return f
}

// equalAt reports whether the needle occurs in h at offset p.
func (f *finder) equalAt(h []byte, p int) bool {
	if p < 0 || p+len(f.needle) > len(h) {
		return false
	}
	w := h[p : p+len(f.needle)]
	if !f.fold {
		return bytes.Equal(w, f.needle)
	}
	for i, c := range w {
		if lowerASCII(c) != f.needle[i] {
			return false
		}
	}
	return true
}

// cursor is a finder bound to one haystack. It remembers where the next
// anchor bytes are, so that scanning a haystack from start to end looks at
// each byte a bounded number of times even when the anchor is a letter
// searched for in both cases.
type cursor struct {
	f              *finder
	h              []byte
	nextLo, nextUp int // position of the next anchor byte at or after the last search; -1 unknown
}

func (f *finder) cursor(h []byte) cursor {
	return cursor{f: f, h: h, nextLo: -1, nextUp: -1}
}

// next returns the first offset >= from at which the needle occurs, or -1.
func (c *cursor) next(from int) int {
	f := c.f
	n := len(f.needle)
	if n == 0 {
		if from <= len(c.h) {
			return from
		}
		return -1
	}
	i := from + f.rare // where the anchor byte of a match at from would be
	for i < len(c.h) {
		q := c.anchor(i)
		if q < 0 {
			return -1
		}
		p := q - f.rare
		if f.equalAt(c.h, p) {
			return p
		}
		i = q + 1
	}
	return -1
}

// anchor returns the first position >= i holding the anchor byte in
// either case, or -1.
func (c *cursor) anchor(i int) int {
	if c.nextLo < i && c.nextLo != math.MaxInt {
		c.nextLo = indexFrom(c.h, i, c.f.lo)
	}
	if c.f.up == c.f.lo {
		if c.nextLo == math.MaxInt {
			return -1
		}
		return c.nextLo
	}
	if c.nextUp < i && c.nextUp != math.MaxInt {
		c.nextUp = indexFrom(c.h, i, c.f.up)
	}
	q := min(c.nextLo, c.nextUp)
	if q == math.MaxInt {
		return -1
	}
	return q
}

// indexFrom returns the index of b in h at or after i, or math.MaxInt.
func indexFrom(h []byte, i int, b byte) int {
	if i >= len(h) {
		return math.MaxInt
	}
	j := bytes.IndexByte(h[i:], b)
	if j < 0 {
		return math.MaxInt
	}
	return i + j
}

// multiCursor finds the earliest occurrence of any of several literals.
type multiCursor struct {
	cs   []cursor
	next []int // cached next occurrence per literal; -2 unknown, -1 none
}

func newMultiCursor(fs []*finder, h []byte) *multiCursor {
	m := &multiCursor{cs: make([]cursor, len(fs)), next: make([]int, len(fs))}
	for i, f := range fs {
		m.cs[i] = f.cursor(h)
		m.next[i] = -2
	}
	return m
}

// find returns the earliest offset >= from where some literal occurs and
// the index of that literal, or -1.
func (m *multiCursor) find(from int) (pos, which int) {
	pos, which = -1, -1
	for i := range m.cs {
		if m.next[i] == -1 {
			continue
		}
		if m.next[i] < from {
			m.next[i] = m.cs[i].next(from)
			if m.next[i] < 0 {
				m.next[i] = -1
				continue
			}
		}
		if pos < 0 || m.next[i] < pos {
			pos, which = m.next[i], i
		}
	}
	return pos, which
}

func isASCIILetter(c byte) bool { return c|0x20 >= 'a' && c|0x20 <= 'z' }

func lowerASCII(c byte) byte {
	if c >= 'A' && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

func upperASCII(c byte) byte {
	if c >= 'a' && c <= 'z' {
		return c - ('a' - 'A')
	}
	return c
}
