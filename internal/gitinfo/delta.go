package gitinfo

import (
	"errors"
	"fmt"
)

// applyDelta builds an object from base and a git delta: the base size
// and result size as little-endian base-128 numbers, then instructions
// that copy a range of the base (high bit set; bits 0-3 say which offset
// bytes follow, bits 4-6 which size bytes, size 0 meaning 0x10000) or
// insert the next 1-127 bytes of the delta. The declared result size is
// checked against limit before anything is allocated.
func applyDelta(base, delta []byte, limit int) ([]byte, error) {
	baseSize, delta, ok := deltaVarint(delta)
	if !ok {
		return nil, errors.New("bad base size")
	}
	if baseSize != uint64(len(base)) {
		return nil, fmt.Errorf("delta wants a base of %d bytes, base has %d", baseSize, len(base))
	}
	size, delta, ok := deltaVarint(delta)
	if !ok {
		return nil, errors.New("bad result size")
	}
	if size > uint64(limit) {
		return nil, fmt.Errorf("result size %d above the limit of %d", size, limit)
	}
	out := make([]byte, 0, min(size, 1<<20)) // grows as instructions prove the size
	for len(delta) > 0 {
		op := delta[0]
		delta = delta[1:]
		switch {
		case op&0x80 != 0:
			var off, n uint64
			for i := range 7 {
				if op&(1<<i) == 0 {
					continue
				}
				if len(delta) == 0 {
					return nil, errors.New("copy instruction cut short")
				}
				if i < 4 {
					off |= uint64(delta[0]) << (8 * i)
				} else {
					n |= uint64(delta[0]) << (8 * (i - 4))
				}
				delta = delta[1:]
			}
			if n == 0 {
				n = 0x10000
			}
			if off+n > uint64(len(base)) {
				return nil, fmt.Errorf("copy of %d bytes at %d outside a base of %d", n, off, len(base))
			}
			if uint64(len(out))+n > size {
				return nil, fmt.Errorf("copy past the result size %d", size)
			}
			out = append(out, base[off:off+n]...)
		case op != 0:
			n := int(op)
			if n > len(delta) {
				return nil, errors.New("insert instruction cut short")
			}
			if uint64(len(out)+n) > size {
				return nil, fmt.Errorf("insert past the result size %d", size)
			}
			out = append(out, delta[:n]...)
			delta = delta[n:]
		default:
			return nil, errors.New("reserved instruction 0")
		}
	}
	if uint64(len(out)) != size {
		return nil, fmt.Errorf("result has %d bytes, delta declared %d", len(out), size)
	}
	return out, nil
}

// deltaVarint reads a little-endian base-128 number of a delta header.
func deltaVarint(b []byte) (uint64, []byte, bool) {
	var v uint64
	for i, shift := 0, uint(0); i < len(b); i, shift = i+1, shift+7 {
		if shift > 63 {
			return 0, nil, false
		}
		v |= uint64(b[i]&0x7f) << shift
		if b[i]&0x80 == 0 {
			return v, b[i+1:], true
		}
	}
	return 0, nil, false
}
