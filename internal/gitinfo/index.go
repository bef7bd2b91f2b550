package gitinfo

// This file reads git's index file (.git/index), versions 2, 3 and 4,
// for the built-in `git status --short` (see nativeStatus). Anything the
// status computation does not reproduce (conflicts, sparse or split
// indexes, submodules, entries flagged assume-valid, skip-worktree or
// intent-to-add) is an error wrapping errUnsupported.

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"strconv"
	"strings"
)

// Entry flag bits of the index format.
const (
	flagAssumeValid = 0x8000
	flagExtended    = 0x4000
	flagStageMask   = 0x3000
	flagNameMask    = 0x0fff

	extFlagSkipWorktree = 0x4000
	extFlagIntentToAdd  = 0x2000
	extFlagReserved     = 0x8000

	entryFixedLen = 62 // stat data, id and flags, before the name
)

// File modes git records for index entries and tree entries.
const (
	modeRegular  = 0o100644
	modeExec     = 0o100755
	modeSymlink  = 0o120000
	modeGitlink  = 0o160000
	modeTree     = 0o040000
	modeTypeBits = 0o170000
)

// maxIndexEntries bounds the entry count a header may declare before
// any allocation.
const maxIndexEntries = 1 << 24

// indexEntry is one stage-0 entry of the index.
type indexEntry struct {
	ctimeSec, ctimeNsec uint32
	mtimeSec, mtimeNsec uint32
	dev, ino            uint32
	mode                uint32
	uid, gid            uint32
	size                uint32
	id                  oid
	path                string
}

// gitIndex is a parsed index file.
type gitIndex struct {
	version uint32
	entries []indexEntry // sorted by path, as in the file
	// cacheTree holds the valid nodes of the TREE extension: the tree id
	// of each directory ("" is the top, "a/b" a folder) whose entries
	// have not changed since the tree was computed.
	cacheTree map[string]oid
}

// parseIndex parses the bytes of an index file. Malformed data is an
// error naming the offset; a feature the status reader declines is an
// error wrapping errUnsupported. The trailing checksum is not verified,
// as git does not verify it on ordinary reads.
func parseIndex(data []byte) (*gitIndex, error) {
	if len(data) < 12+hashLen {
		return nil, fmt.Errorf("parse index: %d bytes is too short", len(data))
	}
	if string(data[:4]) != "DIRC" {
		return nil, fmt.Errorf("parse index: bad signature %q", data[:4])
	}
	ix := &gitIndex{version: binary.BigEndian.Uint32(data[4:])}
	if ix.version < 2 || ix.version > 4 {
		return nil, fmt.Errorf("parse index: version %d: %w", ix.version, errUnsupported)
	}
	count := binary.BigEndian.Uint32(data[8:])
	body := data[:len(data)-hashLen]
	if count > maxIndexEntries || uint64(count)*entryFixedLen > uint64(len(body)) {
		return nil, fmt.Errorf("parse index: %d entries do not fit in %d bytes", count, len(data))
	}
	ix.entries = make([]indexEntry, 0, count)
	off := 12
	prev := ""
	for i := range count {
		e, next, err := parseIndexEntry(body, off, ix.version, prev)
		if err != nil {
			return nil, fmt.Errorf("parse index entry %d at offset %d: %w", i, off, err)
		}
		if i > 0 && e.path <= prev {
			return nil, fmt.Errorf("parse index entry %d at offset %d: %q is not after %q", i, off, e.path, prev)
		}
		ix.entries = append(ix.entries, e)
		prev, off = e.path, next
	}
	if err := ix.parseExtensions(body, off); err != nil {
		return nil, err
	}
	return ix, nil
}

// parseIndexEntry parses the entry at off; prev is the previous entry's
// path (version 4 compresses a path against it). It returns the offset
// of the next entry.
func parseIndexEntry(body []byte, off int, version uint32, prev string) (indexEntry, int, error) {
	var e indexEntry
	if off+entryFixedLen > len(body) {
		return e, 0, fmt.Errorf("truncated")
	}
	b := body[off:]
	u := func(i int) uint32 { return binary.BigEndian.Uint32(b[4*i:]) }
	e.ctimeSec, e.ctimeNsec, e.mtimeSec, e.mtimeNsec = u(0), u(1), u(2), u(3)
	e.dev, e.ino, e.mode, e.uid, e.gid, e.size = u(4), u(5), u(6), u(7), u(8), u(9)
	copy(e.id[:], b[40:60])
	flags := binary.BigEndian.Uint16(b[60:])
	nameAt := entryFixedLen
	if flags&flagExtended != 0 {
		if version < 3 {
			return e, 0, fmt.Errorf("extended flags in a version %d index", version)
		}
		if off+entryFixedLen+2 > len(body) {
			return e, 0, fmt.Errorf("truncated")
		}
		ext := binary.BigEndian.Uint16(b[62:])
		switch {
		case ext&extFlagReserved != 0 || ext&^(extFlagSkipWorktree|extFlagIntentToAdd) != 0:
			return e, 0, fmt.Errorf("unknown extended flags %#x", ext)
		case ext&extFlagSkipWorktree != 0:
			return e, 0, fmt.Errorf("skip-worktree entry: %w", errUnsupported)
		case ext&extFlagIntentToAdd != 0:
			return e, 0, fmt.Errorf("intent-to-add entry: %w", errUnsupported)
		}
		nameAt += 2
	}
	nameLen := int(flags & flagNameMask)
	var path string
	next := 0
	if version == 4 {
		strip, n := readIndexVarint(b[nameAt:])
		if n == 0 {
			return e, 0, fmt.Errorf("bad path prefix length")
		}
		if strip > uint64(len(prev)) {
			return e, 0, fmt.Errorf("path prefix strips %d bytes of %d", strip, len(prev))
		}
		rest := b[nameAt+n:]
		end := bytes.IndexByte(rest, 0)
		if end < 0 {
			return e, 0, fmt.Errorf("path has no end")
		}
		path = prev[:len(prev)-int(strip)] + string(rest[:end])
		next = off + nameAt + n + end + 1
	} else {
		rest := b[nameAt:]
		end := bytes.IndexByte(rest, 0)
		if end < 0 {
			return e, 0, fmt.Errorf("path has no end")
		}
		path = string(rest[:end])
		// Entries are padded with 1 to 8 NULs to a multiple of 8 bytes.
		size := (nameAt + end + 8) &^ 7
		if off+size > len(body) {
			return e, 0, fmt.Errorf("truncated padding")
		}
		next = off + size
	}
	if nameLen != flagNameMask && nameLen != len(path) {
		return e, 0, fmt.Errorf("path %q has length %d, flags say %d", path, len(path), nameLen)
	}
	if nameLen == flagNameMask && len(path) < flagNameMask {
		return e, 0, fmt.Errorf("path %q is shorter than its flags say", path)
	}
	if path == "" {
		// A split index strips the names of entries that replace an
		// entry of the shared index.
		return e, 0, fmt.Errorf("empty path (split index): %w", errUnsupported)
	}
	if !validIndexPath(path) {
		return e, 0, fmt.Errorf("bad path %q", path)
	}
	e.path = path
	switch {
	case flags&flagStageMask != 0:
		return e, 0, fmt.Errorf("%s: unmerged entry (stage %d): %w", path, flags&flagStageMask>>12, errUnsupported)
	case flags&flagAssumeValid != 0:
		return e, 0, fmt.Errorf("%s: assume-valid entry: %w", path, errUnsupported)
	}
	switch e.mode {
	case modeRegular, modeExec, modeSymlink:
	case modeGitlink:
		return e, 0, fmt.Errorf("%s: submodule: %w", path, errUnsupported)
	default:
		return e, 0, fmt.Errorf("%s: mode %o: %w", path, e.mode, errUnsupported)
	}
	return e, next, nil
}

// readIndexVarint reads the variable-length integer of version 4 paths
// (each continuation adds one before shifting, as in pack offsets). It
// returns the bytes used, 0 when the number is malformed.
func readIndexVarint(b []byte) (uint64, int) {
	if len(b) == 0 {
		return 0, 0
	}
	c := b[0]
	v := uint64(c & 0x7f)
	i := 1
	for c&0x80 != 0 {
		if i >= len(b) || v >= 1<<56 {
			return 0, 0
		}
		c = b[i]
		i++
		v = (v+1)<<7 | uint64(c&0x7f)
	}
	return v, i
}

// validIndexPath accepts the relative, normalised paths git stores.
func validIndexPath(p string) bool {
	if p == "" || p[0] == '/' || p[len(p)-1] == '/' {
		return false
	}
	for part := range strings.SplitSeq(p, "/") {
		if part == "" || part == "." || part == ".." || strings.EqualFold(part, ".git") {
			return false
		}
	}
	return true
}

// parseExtensions reads the extensions between the entries (ending at
// off) and the checksum.
func (ix *gitIndex) parseExtensions(body []byte, off int) error {
	for off < len(body) {
		if off+8 > len(body) {
			return fmt.Errorf("parse index: truncated extension header at offset %d", off)
		}
		sig := string(body[off : off+4])
		size := binary.BigEndian.Uint32(body[off+4:])
		if uint64(size) > uint64(len(body)-off-8) {
			return fmt.Errorf("parse index: extension %q at offset %d: size %d overruns the file", sig, off, size)
		}
		data := body[off+8 : off+8+int(size)]
		switch sig {
		case "TREE":
			ct, err := parseCacheTree(data)
			if err != nil {
				return fmt.Errorf("parse index: TREE extension at offset %d: %w", off, err)
			}
			ix.cacheTree = ct
		case "link":
			return fmt.Errorf("parse index: split index: %w", errUnsupported)
		case "sdir":
			return fmt.Errorf("parse index: sparse index: %w", errUnsupported)
		default:
			if sig[0] < 'A' || sig[0] > 'Z' {
				// git refuses an index with a required extension it
				// does not know.
				return fmt.Errorf("parse index: required extension %q: %w", sig, errUnsupported)
			}
			// REUC, UNTR, EOIE, IEOT, FSMN and other optional
			// extensions do not change the status.
		}
		off += 8 + int(size)
	}
	return nil
}

// parseCacheTree reads the TREE extension: for each node, pre-order, its
// path component, NUL, the entry count (-1 when invalid), a space, the
// subtree count, a newline and, when valid, the tree id.
func parseCacheTree(data []byte) (map[string]oid, error) {
	ct := map[string]oid{}
	rest := data
	var node func(prefix string, depth int) error
	node = func(prefix string, depth int) error {
		if depth > 4096 {
			return fmt.Errorf("nested too deeply")
		}
		nul := bytes.IndexByte(rest, 0)
		if nul < 0 {
			return fmt.Errorf("node name has no end")
		}
		name := string(rest[:nul])
		rest = rest[nul+1:]
		nl := bytes.IndexByte(rest, '\n')
		if nl < 0 {
			return fmt.Errorf("node %q: counts have no end", name)
		}
		countText, subText, ok := strings.Cut(string(rest[:nl]), " ")
		rest = rest[nl+1:]
		count, err1 := strconv.Atoi(countText)
		subs, err2 := strconv.Atoi(subText)
		if !ok || err1 != nil || err2 != nil || count < -1 || subs < 0 || subs > len(rest) {
			return fmt.Errorf("node %q: bad counts %q %q", name, countText, subText)
		}
		path := name
		if prefix != "" {
			path = prefix + "/" + name
		}
		if depth == 0 {
			if name != "" {
				return fmt.Errorf("root node named %q", name)
			}
			path = ""
		} else if name == "" || strings.Contains(name, "/") {
			return fmt.Errorf("bad node name %q", name)
		}
		if count >= 0 {
			if len(rest) < hashLen {
				return fmt.Errorf("node %q: truncated id", name)
			}
			var id oid
			copy(id[:], rest[:hashLen])
			rest = rest[hashLen:]
			ct[path] = id
		}
		for range subs {
			if err := node(path, depth+1); err != nil {
				return err
			}
		}
		return nil
	}
	if len(data) == 0 {
		return ct, nil
	}
	if err := node("", 0); err != nil {
		return nil, err
	}
	if len(rest) != 0 {
		return nil, fmt.Errorf("%d bytes after the root node", len(rest))
	}
	return ct, nil
}
