package gitinfo

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"strings"
)

// midxInfo is what the log needs of a multi-pack-index.
type midxInfo struct {
	count uint64          // distinct objects it lists
	packs map[string]bool // the packs it covers, by name without extension
}

// Chunk ids of a multi-pack-index.
const (
	midxPackNames = 0x504e414d // "PNAM"
	midxFanout    = 0x4f494446 // "OIDF"
)

// readMidx reads the header of a multi-pack-index (version 1, SHA-1, no
// base files): its object count from the last fan-out entry and its pack
// names. Git looks objects up through it, but the same objects are in
// the packs' own indexes, which this reader uses; only the count, which
// sets the abbreviation length, needs the file.
func readMidx(name string) (*midxInfo, error) {
	f, err := openFile(name)
	if err != nil {
		return nil, fmt.Errorf("open multi-pack-index %s: %w", name, err)
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("read multi-pack-index %s: %w", name, err)
	}
	m, err := parseMidx(f, fi.Size())
	if err != nil {
		return nil, fmt.Errorf("read multi-pack-index %s: %w", name, err)
	}
	return m, nil
}

// parseMidx reads the header, chunk table, pack names and fan-out of a
// multi-pack-index of size bytes.
func parseMidx(f io.ReaderAt, size int64) (*midxInfo, error) {
	var head [12]byte
	if _, err := f.ReadAt(head[:], 0); err != nil {
		return nil, fmt.Errorf("header: %w", err)
	}
	switch {
	case string(head[:4]) != "MIDX":
		return nil, errors.New("bad signature")
	case head[4] != 1 || head[5] != 1 || head[7] != 0:
		return nil, fmt.Errorf("version %d, hash %d, %d base files: %w", head[4], head[5], head[7], errUnsupported)
	}
	chunks := int(head[6])
	npacks := binary.BigEndian.Uint32(head[8:])
	table := make([]byte, (chunks+1)*12)
	if _, err := f.ReadAt(table, 12); err != nil {
		return nil, fmt.Errorf("chunk table: %w", err)
	}
	var names, fanout []byte
	for i := range chunks {
		id := binary.BigEndian.Uint32(table[i*12:])
		start := binary.BigEndian.Uint64(table[i*12+4:])
		end := binary.BigEndian.Uint64(table[i*12+16:])
		if start > end || end > uint64(size) {
			return nil, fmt.Errorf("chunk %08x at %d-%d outside %d bytes", id, start, end, size)
		}
		var dst *[]byte
		switch id {
		case midxPackNames:
			dst = &names
		case midxFanout:
			dst = &fanout
		default:
			continue
		}
		if end-start > 1<<20 {
			return nil, fmt.Errorf("chunk %08x of %d bytes", id, end-start)
		}
		*dst = make([]byte, end-start)
		if _, err := f.ReadAt(*dst, int64(start)); err != nil {
			return nil, fmt.Errorf("chunk %08x: %w", id, err)
		}
	}
	if len(fanout) != 256*4 {
		return nil, fmt.Errorf("fan-out of %d bytes", len(fanout))
	}
	m := &midxInfo{count: uint64(binary.BigEndian.Uint32(fanout[255*4:])), packs: map[string]bool{}}
	for n := range bytes.SplitSeq(names, []byte{0}) {
		if len(n) == 0 || uint32(len(m.packs)) == npacks {
			continue
		}
		base := strings.TrimSuffix(strings.TrimSuffix(string(n), ".idx"), ".pack")
		if base == "" || strings.ContainsAny(base, "/\\") {
			return nil, fmt.Errorf("bad pack name %q", n)
		}
		m.packs[base] = true
	}
	if uint32(len(m.packs)) != npacks {
		return nil, fmt.Errorf("%d pack names for %d packs", len(m.packs), npacks)
	}
	return m, nil
}
