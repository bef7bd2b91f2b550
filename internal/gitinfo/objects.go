package gitinfo

// This file reads git objects straight from a repository's object folder:
// loose objects (objects/xx/yyyy…, zlib-compressed) and packed objects
// (objects/pack/*.idx version 2 beside their .pack), including deltified
// pack entries. It exists so that the start-up snapshot can list the last
// commits without starting a `git log` process (see recentCommits).

import (
	"bufio"
	"bytes"
	"compress/zlib"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

const (
	hashLen = 20 // bytes in a SHA-1 object id
	hexLen  = 40 // hex digits in a SHA-1 object id

	// maxObjectSize bounds every object and delta this reader inflates:
	// a declared size above it is refused before any allocation.
	maxObjectSize = 64 << 20
	// maxDeltaChain bounds a chain of pack deltas (git itself never
	// writes chains deeper than 4095).
	maxDeltaChain = 10000
	// maxCacheBytes bounds the objects kept during one call to resolve
	// delta chains that share bases.
	maxCacheBytes = 8 << 20
)

// Object types, as numbered in pack entry headers.
const (
	objCommit   = 1
	objTree     = 2
	objBlob     = 3
	objTag      = 4
	objOfsDelta = 6
	objRefDelta = 7
)

// errUnsupported marks a repository feature the built-in reader does not
// handle (another hash, alternates, replace refs, a setting that changes
// git log's output). The caller should run git instead.
var errUnsupported = errors.New("not supported by the built-in reader")

// oid is a SHA-1 object id.
type oid [hashLen]byte

func (o oid) String() string { return hex.EncodeToString(o[:]) }

// parseOID reads exactly 40 hex digits (either case), as git's
// get_oid_hex does.
func parseOID(b []byte) (oid, bool) {
	var o oid
	if len(b) != hexLen {
		return o, false
	}
	for i := range hashLen {
		hi, ok1 := unhex(b[2*i])
		lo, ok2 := unhex(b[2*i+1])
		if !ok1 || !ok2 {
			return o, false
		}
		o[i] = hi<<4 | lo
	}
	return o, true
}

func unhex(c byte) (byte, bool) {
	switch {
	case '0' <= c && c <= '9':
		return c - '0', true
	case 'a' <= c && c <= 'f':
		return c - 'a' + 10, true
	case 'A' <= c && c <= 'F':
		return c - 'A' + 10, true
	}
	return 0, false
}

// commonHexPrefix counts the leading hex digits a and b share.
func commonHexPrefix(a, b oid) int {
	for i := range hashLen {
		if a[i] != b[i] {
			if a[i]>>4 == b[i]>>4 {
				return 2*i + 1
			}
			return 2 * i
		}
	}
	return hexLen
}

// objectStore reads the objects of one repository during one call. It
// opens each pack index once, each pack only when an object is read from
// it, and must be closed. It is not safe for concurrent use.
type objectStore struct {
	dir   string // the objects folder
	packs []*packFile
	midx  *midxInfo // nil without a multi-pack-index

	zr      io.ReadCloser // reused zlib reader (implements zlib.Resetter)
	br      *bufio.Reader // reused buffer under zr
	cache   map[packPos][]byte
	cached  int                 // bytes in cache
	listing map[string][]string // loose object names per objects/xx folder
}

// packPos names one entry of one pack.
type packPos struct {
	pack int // index in objectStore.packs
	off  int64
}

// packFile is one pack: its index is read on open, the pack itself on
// first use.
type packFile struct {
	name    string // pack path without the extension, for messages
	idx     *os.File
	idxSize int64
	fanout  [256]uint32
	count   uint32 // objects in the pack (fanout[255])
	large   int64  // entries in the 8-byte offset table

	pack     *os.File // nil until opened
	packSize int64

	places map[oid]place // ids looked up during the call
	window uint32        // find's window; 0 means findWindow (tests set 1)
}

// Offsets of the tables in a version 2 pack index.
const (
	idxHeaderLen = 8
	idxFanoutEnd = idxHeaderLen + 256*4
)

// openObjectStore opens the object folder dir: it lists objects/pack and
// reads the header of every index, and of the multi-pack-index. A pack
// without its own index (one only a multi-pack-index covers), an
// incremental multi-pack-index or an alternates file is errUnsupported.
func openObjectStore(dir string) (*objectStore, error) {
	s := &objectStore{dir: dir, cache: map[packPos][]byte{}, listing: map[string][]string{}}
	if data, err := readFile(filepath.Join(dir, "info", "alternates")); err == nil {
		if len(bytes.TrimSpace(data)) > 0 {
			return nil, fmt.Errorf("read objects %s: alternates: %w", dir, errUnsupported)
		}
	} else if !errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("read objects %s: %w", dir, err)
	}
	packDir := filepath.Join(dir, "pack")
	entries, err := os.ReadDir(packDir)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("list packs %s: %w", packDir, err)
	}
	names := make(map[string]bool, len(entries))
	for _, e := range entries {
		names[e.Name()] = true
	}
	if names["multi-pack-index.d"] {
		return nil, fmt.Errorf("list packs %s: incremental multi-pack-index: %w", packDir, errUnsupported)
	}
	if names["multi-pack-index"] {
		m, err := readMidx(filepath.Join(packDir, "multi-pack-index"))
		if err != nil {
			return nil, err
		}
		for base := range m.packs {
			if !names[base+".idx"] || !names[base+".pack"] {
				return nil, fmt.Errorf("list packs %s: %s is only in the multi-pack-index: %w", packDir, base, errUnsupported)
			}
		}
		s.midx = m
	}
	for _, e := range entries {
		base, ok := strings.CutSuffix(e.Name(), ".pack")
		if ok && !names[base+".idx"] {
			return nil, fmt.Errorf("list packs %s: %s has no index: %w", packDir, e.Name(), errUnsupported)
		}
	}
	for _, e := range entries {
		base, ok := strings.CutSuffix(e.Name(), ".idx")
		if !ok || !names[base+".pack"] {
			continue // git ignores an index without its pack
		}
		p, err := openPackIndex(filepath.Join(packDir, base))
		if err != nil {
			s.close()
			return nil, err
		}
		s.packs = append(s.packs, p)
	}
	return s, nil
}

// openPackIndex opens name.idx and checks its header, fan-out table and
// size.
func openPackIndex(name string) (*packFile, error) {
	f, err := openFile(name + ".idx")
	if err != nil {
		return nil, fmt.Errorf("open pack index %s: %w", name, err)
	}
	p := &packFile{name: name, idx: f}
	if err := p.readIndexHeader(); err != nil {
		f.Close()
		return nil, fmt.Errorf("read pack index %s.idx: %w", name, err)
	}
	return p, nil
}

func (p *packFile) readIndexHeader() error {
	fi, err := p.idx.Stat()
	if err != nil {
		return err
	}
	p.idxSize = fi.Size()
	var head [idxFanoutEnd]byte
	if _, err := p.idx.ReadAt(head[:], 0); err != nil {
		return fmt.Errorf("header: %w", err)
	}
	if !bytes.Equal(head[:4], []byte{0xff, 't', 'O', 'c'}) {
		return fmt.Errorf("not a version 2 index: %w", errUnsupported)
	}
	if v := binary.BigEndian.Uint32(head[4:]); v != 2 {
		return fmt.Errorf("index version %d: %w", v, errUnsupported)
	}
	var prev uint32
	for i := range 256 {
		n := binary.BigEndian.Uint32(head[idxHeaderLen+4*i:])
		if n < prev {
			return fmt.Errorf("fan-out entry %d decreases", i)
		}
		p.fanout[i], prev = n, n
	}
	p.count = prev
	// ids, CRCs and 4-byte offsets, then two trailing checksums.
	minSize := int64(idxFanoutEnd) + int64(p.count)*(hashLen+8) + 2*hashLen
	if p.idxSize < minSize || (p.idxSize-minSize)%8 != 0 {
		return fmt.Errorf("size %d does not fit %d objects", p.idxSize, p.count)
	}
	p.large = (p.idxSize - minSize) / 8
	return nil
}

// close closes every file the store opened.
func (s *objectStore) close() {
	for _, p := range s.packs {
		p.idx.Close()
		if p.pack != nil {
			p.pack.Close()
		}
	}
	if s.zr != nil {
		s.zr.Close()
	}
}

// approxObjectCount is what git's repo_approximate_object_count returns
// here: the objects of the multi-pack-index and of the packs it does not
// cover. Loose objects do not count (git 2.39).
func (s *objectStore) approxObjectCount() uint64 {
	var n uint64
	if s.midx != nil {
		n = s.midx.count
	}
	for _, p := range s.packs {
		if s.midx == nil || !s.midx.packs[strings.TrimSuffix(filepath.Base(p.name), ".pack")] {
			n += uint64(p.count)
		}
	}
	return n
}

// nthID reads the i-th object id of the index.
func (p *packFile) nthID(i uint32) (oid, error) {
	var o oid
	if i >= p.count {
		return o, fmt.Errorf("read pack index %s.idx: entry %d of %d", p.name, i, p.count)
	}
	if _, err := p.idx.ReadAt(o[:], idxFanoutEnd+int64(i)*hashLen); err != nil {
		return o, fmt.Errorf("read pack index %s.idx entry %d: %w", p.name, i, err)
	}
	return o, nil
}

// findWindow is how many index entries find reads at once at the end of
// its search.
const findWindow = 256

// place is where an id sits in one pack index.
type place struct {
	pos   uint32 // its position, or where it would be inserted
	found bool
	near  []oid // the ids git compares it with to abbreviate it: the next and the previous entry
}

// find returns the place of id in the index. It narrows the fan-out range
// one read at a time while the range is wide, then reads the rest of it,
// with one entry either side, at once. Places are kept for the call.
func (p *packFile) find(id oid) (place, error) {
	if pl, ok := p.places[id]; ok {
		return pl, nil
	}
	lo := uint32(0)
	if id[0] > 0 {
		lo = p.fanout[id[0]-1]
	}
	hi := p.fanout[id[0]]
	window := p.window
	if window == 0 {
		window = findWindow
	}
	for hi-lo > window {
		mid := lo + (hi-lo)/2
		got, err := p.nthID(mid)
		if err != nil {
			return place{}, err
		}
		c := bytes.Compare(got[:], id[:])
		if c == 0 {
			lo, hi = mid, mid+1
			break
		}
		if c < 0 {
			lo = mid + 1
		} else {
			hi = mid
		}
	}
	from, to := lo, hi
	if from > 0 {
		from--
	}
	if to < p.count {
		to++
	}
	buf := make([]byte, int(to-from)*hashLen)
	if _, err := p.idx.ReadAt(buf, idxFanoutEnd+int64(from)*hashLen); err != nil {
		return place{}, fmt.Errorf("read pack index %s.idx entries %d-%d: %w", p.name, from, to, err)
	}
	at := func(i uint32) (o oid) {
		copy(o[:], buf[(i-from)*hashLen:])
		return o
	}
	i, j := lo, hi
	for i < j {
		mid := i + (j-i)/2
		if o := at(mid); bytes.Compare(o[:], id[:]) < 0 {
			i = mid + 1
		} else {
			j = mid
		}
	}
	pl := place{pos: i, found: i < hi && at(i) == id}
	switch {
	case pl.found && i+1 < p.count:
		pl.near = append(pl.near, at(i+1))
	case !pl.found && i < p.count:
		pl.near = append(pl.near, at(i))
	}
	if i > 0 {
		pl.near = append(pl.near, at(i-1))
	}
	if p.places == nil {
		p.places = map[oid]place{}
	}
	p.places[id] = pl
	return pl, nil
}

// offset reads the pack offset of the i-th index entry, following the
// 8-byte offset table for large packs.
func (p *packFile) offset(i uint32) (int64, error) {
	var b [8]byte
	base := idxFanoutEnd + int64(p.count)*(hashLen+4)
	if _, err := p.idx.ReadAt(b[:4], base+int64(i)*4); err != nil {
		return 0, fmt.Errorf("read pack index %s.idx offset %d: %w", p.name, i, err)
	}
	v := binary.BigEndian.Uint32(b[:4])
	if v&0x80000000 == 0 {
		return int64(v), nil
	}
	j := int64(v & 0x7fffffff)
	if j >= p.large {
		return 0, fmt.Errorf("read pack index %s.idx offset %d: large offset %d of %d", p.name, i, j, p.large)
	}
	if _, err := p.idx.ReadAt(b[:], base+int64(p.count)*4+j*8); err != nil {
		return 0, fmt.Errorf("read pack index %s.idx large offset %d: %w", p.name, j, err)
	}
	off := binary.BigEndian.Uint64(b[:])
	if off > 1<<62 {
		return 0, fmt.Errorf("read pack index %s.idx: offset %d out of range", p.name, off)
	}
	return int64(off), nil
}

// openPack opens the .pack file on first use and checks its header.
func (p *packFile) openPack() error {
	if p.pack != nil {
		return nil
	}
	f, err := openFile(p.name + ".pack")
	if err != nil {
		return fmt.Errorf("open pack %s: %w", p.name, err)
	}
	fi, err := f.Stat()
	var head [12]byte
	if err == nil {
		_, err = f.ReadAt(head[:], 0)
	}
	if err == nil {
		v := binary.BigEndian.Uint32(head[4:])
		switch {
		case string(head[:4]) != "PACK":
			err = errors.New("bad signature")
		case v != 2 && v != 3:
			err = fmt.Errorf("version %d", v)
		case binary.BigEndian.Uint32(head[8:]) != p.count:
			err = fmt.Errorf("%d objects, index says %d", binary.BigEndian.Uint32(head[8:]), p.count)
		}
	}
	if err != nil {
		f.Close()
		return fmt.Errorf("read pack %s.pack: %w", p.name, err)
	}
	p.pack, p.packSize = f, fi.Size()
	return nil
}

// entryHeader is the header of one pack entry.
type entryHeader struct {
	typ     int
	size    uint64 // inflated size of the entry's data
	dataOff int64  // where the compressed data starts
	baseOff int64  // objOfsDelta: the base entry's offset
	baseID  oid    // objRefDelta: the base object's id
}

// entryPrefetch is how many bytes readEntry reads at once: the header
// and, for most unsigned commits, all their compressed data.
const entryPrefetch = 1024

// readEntry reads the header of the entry at off together with the start
// of its compressed data, which it returns.
func (p *packFile) readEntry(off int64) (entryHeader, []byte, error) {
	if off < 12 || off >= p.packSize-hashLen {
		return entryHeader{}, nil, fmt.Errorf("read pack %s.pack: entry offset %d out of range", p.name, off)
	}
	buf := make([]byte, min(entryPrefetch, p.packSize-hashLen-off))
	n, err := p.pack.ReadAt(buf, off)
	if n < len(buf) {
		if err == nil {
			err = io.ErrUnexpectedEOF
		}
		return entryHeader{}, nil, fmt.Errorf("read pack %s.pack entry at %d: %w", p.name, off, err)
	}
	h, hl, err := parseEntryHeader(buf, off)
	if err != nil {
		return h, nil, fmt.Errorf("read pack %s.pack entry at %d: %w", p.name, off, err)
	}
	return h, buf[hl:], nil
}

// parseEntryHeader parses a pack entry header at the start of buf, the
// entry being at offset off of its pack: the type and the inflated size
// (a varint with 4 bits in the first byte, then 7 per byte), then for a
// delta the base's distance back (a varint adding one per continuation
// byte) or id. It returns the header's length.
func parseEntryHeader(buf []byte, off int64) (entryHeader, int, error) {
	var h entryHeader
	bad := func(what string) (entryHeader, int, error) {
		return entryHeader{}, 0, fmt.Errorf("bad %s", what)
	}
	if len(buf) == 0 {
		return bad("header")
	}
	i := 0
	c := buf[i]
	i++
	h.typ = int(c>>4) & 7
	h.size = uint64(c & 15)
	for shift := uint(4); c&0x80 != 0; shift += 7 {
		if i >= len(buf) || shift > 57 {
			return bad("size")
		}
		c = buf[i]
		i++
		h.size |= uint64(c&0x7f) << shift
	}
	switch h.typ {
	case objOfsDelta:
		if i >= len(buf) {
			return bad("delta base offset")
		}
		c = buf[i]
		i++
		rel := uint64(c & 0x7f)
		for c&0x80 != 0 {
			if i >= len(buf) || rel >= 1<<55 {
				return bad("delta base offset")
			}
			c = buf[i]
			i++
			rel = (rel+1)<<7 | uint64(c&0x7f)
		}
		if rel == 0 || rel > uint64(off) {
			return bad("delta base offset")
		}
		h.baseOff = off - int64(rel)
	case objRefDelta:
		if i+hashLen > len(buf) {
			return bad("delta base id")
		}
		copy(h.baseID[:], buf[i:i+hashLen])
		i += hashLen
	case objCommit, objTree, objBlob, objTag:
	default:
		return bad("type " + strconv.Itoa(h.typ))
	}
	h.dataOff = off + int64(i)
	return h, i, nil
}

// zlibReader returns the store's zlib reader, reset to read from r.
func (s *objectStore) zlibReader(r io.Reader) (io.Reader, error) {
	if s.br == nil {
		s.br = bufio.NewReaderSize(r, 4096)
	} else {
		s.br.Reset(r)
	}
	if s.zr == nil {
		zr, err := zlib.NewReader(s.br)
		if err != nil {
			return nil, err
		}
		s.zr = zr
		return zr, nil
	}
	if err := s.zr.(zlib.Resetter).Reset(s.br, nil); err != nil {
		return nil, err
	}
	return s.zr, nil
}

// inflate decompresses exactly size bytes from r, failing when the
// stream is shorter, longer or damaged.
func (s *objectStore) inflate(r io.Reader, size uint64) ([]byte, error) {
	if size > maxObjectSize {
		return nil, fmt.Errorf("size %d above the limit of %d", size, maxObjectSize)
	}
	zr, err := s.zlibReader(r)
	if err != nil {
		return nil, err
	}
	out, err := readSized(zr, size)
	if err != nil {
		return nil, err
	}
	return out, expectEnd(zr, size)
}

// readSized reads exactly size bytes, growing its buffer as data comes
// so that a damaged header declaring a large size costs little.
func readSized(r io.Reader, size uint64) ([]byte, error) {
	out := make([]byte, 0, min(size, 64<<10))
	for uint64(len(out)) < size {
		if len(out) == cap(out) {
			out = slices.Grow(out, int(min(size-uint64(len(out)), uint64(len(out)))))
		}
		n, err := io.ReadFull(r, out[len(out):int(min(uint64(cap(out)), size))])
		out = out[:len(out)+n]
		if err != nil {
			if err == io.EOF {
				err = io.ErrUnexpectedEOF
			}
			return nil, err
		}
	}
	return out, nil
}

// expectEnd checks that a zlib stream ends (and its checksum matches)
// right after the declared size bytes.
func expectEnd(zr io.Reader, size uint64) error {
	var one [1]byte
	for range 100 {
		n, err := zr.Read(one[:])
		switch {
		case n > 0:
			return fmt.Errorf("longer than the declared %d bytes", size)
		case err == io.EOF:
			return nil
		case err != nil:
			return err
		}
	}
	return io.ErrNoProgress
}

// inflateAt decompresses size bytes of pack data starting at off, of
// which the first bytes were already read into pre.
func (s *objectStore) inflateAt(p *packFile, off int64, size uint64, pre []byte) ([]byte, error) {
	rest := off + int64(len(pre))
	r := io.MultiReader(bytes.NewReader(pre), io.NewSectionReader(p.pack, rest, p.packSize-rest))
	data, err := s.inflate(r, size)
	if err != nil {
		return nil, fmt.Errorf("inflate pack %s.pack at %d: %w", p.name, off, err)
	}
	return data, nil
}

// locate finds id in the packs.
func (s *objectStore) locate(id oid) (pack int, off int64, found bool, err error) {
	for i, p := range s.packs {
		pl, err := p.find(id)
		if err != nil {
			return 0, 0, false, err
		}
		if pl.found {
			off, err := p.offset(pl.pos)
			return i, off, err == nil, err
		}
	}
	return 0, 0, false, nil
}

// readObject returns the type and content of object id, from a pack or
// else from its loose file.
func (s *objectStore) readObject(id oid) (typ int, data []byte, err error) {
	pack, off, found, err := s.locate(id)
	if err != nil {
		return 0, nil, fmt.Errorf("read object %s: %w", id, err)
	}
	if found {
		typ, data, err = s.readPacked(pack, off)
	} else {
		typ, data, err = s.readLoose(id)
	}
	if err != nil {
		return 0, nil, fmt.Errorf("read object %s: %w", id, err)
	}
	return typ, data, nil
}

// deltaStep is one delta of a chain being resolved.
type deltaStep struct {
	at      packPos
	dataOff int64
	size    uint64
	pre     []byte // the start of the data, read with the header
}

// maxKeptSteps is how many steps of a delta chain keep the data read
// with their header (entryPrefetch bytes each); deeper ones read again.
const maxKeptSteps = 64

// readPacked resolves the pack entry at off: it follows delta bases
// (by offset or by id, in any pack or loose) down to a whole object,
// then applies the deltas back up, caching what it builds.
func (s *objectStore) readPacked(pack int, off int64) (int, []byte, error) {
	var (
		chain []deltaStep
		typ   int
		data  []byte
	)
	at := packPos{pack, off}
	for {
		if len(chain) > maxDeltaChain {
			return 0, nil, fmt.Errorf("delta chain longer than %d", maxDeltaChain)
		}
		if c, ok := s.cache[at]; ok {
			typ, data = int(c[0]), c[1:]
			break
		}
		p := s.packs[at.pack]
		if err := p.openPack(); err != nil {
			return 0, nil, err
		}
		h, pre, err := p.readEntry(at.off)
		if err != nil {
			return 0, nil, err
		}
		if h.typ != objOfsDelta && h.typ != objRefDelta {
			data, err = s.inflateAt(p, h.dataOff, h.size, pre)
			if err != nil {
				return 0, nil, err
			}
			typ = h.typ
			s.remember(at, typ, data)
			break
		}
		if len(chain) >= maxKeptSteps {
			pre = nil
		}
		chain = append(chain, deltaStep{at: at, dataOff: h.dataOff, size: h.size, pre: pre})
		if h.typ == objOfsDelta {
			at = packPos{at.pack, h.baseOff}
			continue
		}
		bp, boff, found, err := s.locate(h.baseID)
		if err != nil {
			return 0, nil, err
		}
		if !found {
			typ, data, err = s.readLoose(h.baseID)
			if err != nil {
				return 0, nil, fmt.Errorf("delta base %s: %w", h.baseID, err)
			}
			break
		}
		at = packPos{bp, boff}
	}
	for i := len(chain) - 1; i >= 0; i-- {
		st := chain[i]
		delta, err := s.inflateAt(s.packs[st.at.pack], st.dataOff, st.size, st.pre)
		if err != nil {
			return 0, nil, err
		}
		data, err = applyDelta(data, delta, maxObjectSize)
		if err != nil {
			return 0, nil, fmt.Errorf("apply delta at %s.pack offset %d: %w", s.packs[st.at.pack].name, st.at.off, err)
		}
		s.remember(st.at, typ, data)
	}
	return typ, data, nil
}

// remember caches a resolved entry while the cache has room. The type
// is stored in the first byte.
func (s *objectStore) remember(at packPos, typ int, data []byte) {
	if s.cached+len(data) > maxCacheBytes {
		return
	}
	c := make([]byte, 1+len(data))
	c[0] = byte(typ)
	copy(c[1:], data)
	s.cache[at] = c
	s.cached += len(c)
}

// readLoose reads objects/xx/yyyy…: a zlib stream of "<type> <size>\0"
// and the content.
func (s *objectStore) readLoose(id oid) (int, []byte, error) {
	h := id.String()
	name := filepath.Join(s.dir, h[:2], h[2:])
	f, err := openFile(name)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return 0, nil, errors.New("not found")
		}
		return 0, nil, err
	}
	defer f.Close()
	typ, data, err := s.inflateLoose(f)
	if err != nil {
		return 0, nil, fmt.Errorf("read loose object %s: %w", name, err)
	}
	return typ, data, nil
}

// inflateLoose decodes a loose object stream.
func (s *objectStore) inflateLoose(r io.Reader) (int, []byte, error) {
	zr, err := s.zlibReader(r)
	if err != nil {
		return 0, nil, err
	}
	// The header "<type> <size>\0" is short; read until its NUL.
	var buf [64]byte
	got, nul := 0, -1
	for tries := 0; nul < 0 && got < len(buf); tries++ {
		if tries == 100 {
			return 0, nil, fmt.Errorf("header: %w", io.ErrNoProgress)
		}
		n, err := zr.Read(buf[got:])
		nul = bytes.IndexByte(buf[got:got+n], 0)
		if nul >= 0 {
			nul += got
		}
		got += n
		if nul < 0 && err != nil {
			return 0, nil, fmt.Errorf("header: %w", err)
		}
	}
	if nul < 0 {
		return 0, nil, fmt.Errorf("header %q has no end", buf[:32])
	}
	name, sizeText, ok := strings.Cut(string(buf[:nul]), " ")
	size, err := strconv.ParseUint(sizeText, 10, 64)
	if !ok || err != nil {
		return 0, nil, fmt.Errorf("bad header %q", buf[:nul])
	}
	typ := typeByName(name)
	if typ == 0 {
		return 0, nil, fmt.Errorf("bad type %q", name)
	}
	if size > maxObjectSize {
		return 0, nil, fmt.Errorf("size %d above the limit of %d", size, maxObjectSize)
	}
	rest := buf[nul+1 : got]
	if uint64(len(rest)) > size {
		return 0, nil, fmt.Errorf("longer than the declared %d bytes", size)
	}
	more, err := readSized(zr, size-uint64(len(rest)))
	if err != nil {
		return 0, nil, fmt.Errorf("content: %w", err)
	}
	return typ, append(slices.Clip(rest), more...), expectEnd(zr, size)
}

// typeByName numbers an object type named in a loose header; 0 when
// unknown.
func typeByName(name string) int {
	switch name {
	case "commit":
		return objCommit
	case "tree":
		return objTree
	case "blob":
		return objBlob
	case "tag":
		return objTag
	}
	return 0
}

// looseNames lists the loose object files of objects/xx, once per call.
func (s *objectStore) looseNames(prefix string) ([]string, error) {
	if names, ok := s.listing[prefix]; ok {
		return names, nil
	}
	entries, err := os.ReadDir(filepath.Join(s.dir, prefix))
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("list loose objects %s: %w", prefix, err)
	}
	names := make([]string, 0, len(entries))
	for _, e := range entries {
		if len(e.Name()) == hexLen-2 {
			names = append(names, e.Name())
		}
	}
	s.listing[prefix] = names
	return names, nil
}

// abbrevLen is the length git's find_unique_abbrev gives id: at least
// minLen, and one more than the longest prefix id shares with any other
// object (the neighbours of its place in each pack index, and the loose
// objects in its objects/xx folder).
func (s *objectStore) abbrevLen(id oid, minLen int) (int, error) {
	n := minLen
	extend := func(other oid) {
		if c := commonHexPrefix(id, other); c < hexLen && c >= n {
			n = c + 1
		}
	}
	for _, p := range s.packs {
		pl, err := p.find(id)
		if err != nil {
			return 0, err
		}
		for _, o := range pl.near {
			extend(o)
		}
	}
	h := id.String()
	names, err := s.looseNames(h[:2])
	if err != nil {
		return 0, err
	}
	for _, name := range names {
		if !strings.HasPrefix(name, h[2:n]) {
			continue
		}
		if o, ok := parseOID([]byte(h[:2] + name)); ok {
			extend(o)
		}
	}
	return n, nil
}
