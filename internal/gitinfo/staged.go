package gitinfo

// This file compares the index with HEAD's tree: the first column of
// `git status --short`.

import (
	"bytes"
	"fmt"
	"strconv"
)

// headFile is a file of HEAD's tree.
type headFile struct {
	mode uint32
	id   oid
}

// commitTree returns the tree id of commit id.
func commitTree(store *objectStore, id oid) (oid, error) {
	typ, data, err := store.readObject(id)
	if err != nil {
		return oid{}, err
	}
	if typ != objCommit {
		return oid{}, fmt.Errorf("read commit %s: object is a %s: %w", id, typeName(typ), errUnsupported)
	}
	if len(data) < treeLineLen || !bytes.HasPrefix(data, []byte("tree ")) || data[treeLineLen-1] != '\n' {
		return oid{}, fmt.Errorf("read commit %s: no tree line", id)
	}
	t, ok := parseOID(data[len("tree ") : treeLineLen-1])
	if !ok {
		return oid{}, fmt.Errorf("read commit %s: bad tree id", id)
	}
	return t, nil
}

// treeEntry is one entry of a tree object.
type treeEntry struct {
	mode uint32 // canonical: modeTree, modeRegular, modeExec, modeSymlink or modeGitlink
	name string
	id   oid
}

// parseTree reads a tree object: "<octal mode> <name>\0<20-byte id>"
// repeated. Modes are made canonical as git does when it reads trees.
func parseTree(data []byte) ([]treeEntry, error) {
	var out []treeEntry
	for off := 0; off < len(data); {
		sp := bytes.IndexByte(data[off:], ' ')
		if sp <= 0 || sp > 7 {
			return nil, fmt.Errorf("tree entry at %d: bad mode", off)
		}
		m, err := strconv.ParseUint(string(data[off:off+sp]), 8, 32)
		if err != nil {
			return nil, fmt.Errorf("tree entry at %d: bad mode %q", off, data[off:off+sp])
		}
		nul := bytes.IndexByte(data[off+sp+1:], 0)
		if nul <= 0 || off+sp+1+nul+1+hashLen > len(data) {
			return nil, fmt.Errorf("tree entry at %d: bad name or id", off)
		}
		name := string(data[off+sp+1 : off+sp+1+nul])
		if name == "." || name == ".." || bytes.IndexByte([]byte(name), '/') >= 0 {
			return nil, fmt.Errorf("tree entry at %d: bad name %q", off, name)
		}
		e := treeEntry{name: name}
		copy(e.id[:], data[off+sp+1+nul+1:])
		switch uint32(m) & modeTypeBits {
		case modeTree:
			e.mode = modeTree
		case 0o100000:
			e.mode = modeRegular
			if m&0o111 != 0 {
				e.mode = modeExec
			}
		case modeSymlink:
			e.mode = modeSymlink
		case modeGitlink:
			e.mode = modeGitlink
		default:
			return nil, fmt.Errorf("tree entry %q: mode %o: %w", name, m, errUnsupported)
		}
		out = append(out, e)
		off += sp + 1 + nul + 1 + hashLen
	}
	return out, nil
}

// maxTreeDepth bounds the folder depth of HEAD's tree.
const maxTreeDepth = 1024

// stagedChanges returns the first status column for each path that
// differs between HEAD's tree root and the index: 'A', 'D', 'M' or 'T'.
// Folders whose cache-tree entry equals HEAD's tree are not read. A
// staged addition together with a staged deletion could be a rename,
// which is errUnsupported.
func stagedChanges(store *objectStore, root oid, ix *gitIndex) (map[string]byte, error) {
	if id, ok := ix.cacheTree[""]; ok && id == root {
		return nil, nil
	}
	head := map[string]headFile{}
	skipped := map[string]bool{}
	var walk func(id oid, dir string, depth int) error
	walk = func(id oid, dir string, depth int) error {
		if depth > maxTreeDepth {
			return fmt.Errorf("read tree %s: deeper than %d", dir, maxTreeDepth)
		}
		if ct, ok := ix.cacheTree[dir]; ok && ct == id {
			skipped[dir] = true
			return nil
		}
		typ, data, err := store.readObject(id)
		if err != nil {
			return err
		}
		if typ != objTree {
			return fmt.Errorf("read tree %s (%q): object is a %s", id, dir, typeName(typ))
		}
		entries, err := parseTree(data)
		if err != nil {
			return fmt.Errorf("read tree %s (%q): %w", id, dir, err)
		}
		for _, e := range entries {
			path := e.name
			if dir != "" {
				path = dir + "/" + e.name
			}
			switch e.mode {
			case modeTree:
				if err := walk(e.id, path, depth+1); err != nil {
					return err
				}
				continue
			case modeGitlink:
				return fmt.Errorf("HEAD has submodule %s: %w", path, errUnsupported)
			}
			if _, dup := head[path]; dup {
				return fmt.Errorf("HEAD tree lists %s twice: %w", path, errUnsupported)
			}
			head[path] = headFile{mode: e.mode, id: e.id}
		}
		return nil
	}
	if err := walk(root, "", 0); err != nil {
		return nil, err
	}
	out := map[string]byte{}
	for i := range ix.entries {
		e := &ix.entries[i]
		if underSkipped(e.path, skipped) {
			continue
		}
		h, ok := head[e.path]
		if !ok {
			out[e.path] = 'A'
			continue
		}
		delete(head, e.path)
		switch {
		case h.mode&modeTypeBits != e.mode&modeTypeBits:
			out[e.path] = 'T'
		case h.mode != e.mode || h.id != e.id:
			out[e.path] = 'M'
		}
	}
	added := 0
	for _, x := range out {
		if x == 'A' {
			added++
		}
	}
	for path := range head {
		out[path] = 'D'
	}
	if added > 0 && len(head) > 0 {
		return nil, fmt.Errorf("staged additions and deletions may be renames: %w", errUnsupported)
	}
	return out, nil
}

// underSkipped reports whether a folder holding path is in skipped.
func underSkipped(path string, skipped map[string]bool) bool {
	if len(skipped) == 0 {
		return false
	}
	for {
		i := lastSlash(path)
		if i < 0 {
			return skipped[""]
		}
		path = path[:i]
		if skipped[path] {
			return true
		}
	}
}

func lastSlash(s string) int {
	for i := len(s) - 1; i >= 0; i-- {
		if s[i] == '/' {
			return i
		}
	}
	return -1
}
