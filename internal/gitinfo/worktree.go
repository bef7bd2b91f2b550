package gitinfo

// This file compares the work tree with the index: the second column of
// `git status --short`. Like git, it trusts an entry whose stat data
// matches and whose modification is older than the index file, and
// otherwise hashes the file's content.

import (
	"bytes"
	"crypto/sha1"
	"errors"
	"fmt"
	"hash"
	"io"
	"os"
	"strconv"
	"syscall"
)

// File type bits of st_mode.
const (
	sIFMT  = 0o170000
	sIFREG = 0o100000
	sIFLNK = 0o120000
	sIFDIR = 0o040000
)

// worktreeCheck compares index entries with the files of one work tree.
type worktreeCheck struct {
	top       string
	cfg       statConfigView
	indexTime [2]uint32 // the index file's mtime: seconds, nanoseconds
	dirs      map[string]bool
	attrs     *attrCheck
}

// statConfigView is the part of statusConfig the comparison uses.
type statConfigView struct {
	fileMode, trustCtime, crlf bool
}

// state returns the second status column for e: 0 when the file is
// unchanged, else 'M', 'D' or 'T'.
func (w *worktreeCheck) state(e *indexEntry) (byte, error) {
	if dir := parentDir(e.path); dir != "" {
		ok, err := w.realDir(dir)
		if err != nil {
			return 0, err
		}
		if !ok {
			return 'D', nil
		}
	}
	full := w.top + "/" + e.path
	st, err := lstatData(full)
	if err != nil {
		if errors.Is(err, syscall.ENOENT) || errors.Is(err, syscall.ENOTDIR) {
			return 'D', nil
		}
		return 0, fmt.Errorf("lstat %s: %w", e.path, err)
	}
	switch st.mode & sIFMT {
	case sIFDIR:
		if _, err := os.Lstat(full + "/.git"); err == nil {
			return 0, fmt.Errorf("%s: a repository where a file was: %w", e.path, errUnsupported)
		}
		return 'D', nil
	case sIFREG:
		if e.mode == modeSymlink {
			return 'T', nil
		}
		if w.cfg.fileMode && (e.mode^st.mode)&0o100 != 0 {
			return 'M', nil
		}
	case sIFLNK:
		if e.mode != modeSymlink {
			return 'T', nil
		}
	default:
		return 0, fmt.Errorf("%s: special file: %w", e.path, errUnsupported)
	}
	if st.size != e.size && e.size != 0 {
		return 'M', nil // git trusts a size change without reading
	}
	if w.statMatches(e, st) && !w.racy(e) && (e.size != 0 || e.id == emptyBlobID) {
		return 0, nil
	}
	id, err := w.hashFile(e, full, st)
	if err != nil {
		return 0, err
	}
	if id != e.id {
		return 'M', nil
	}
	return 0, nil
}

// emptyBlobID is the id of the empty blob.
var emptyBlobID = oid{0xe6, 0x9d, 0xe2, 0x9b, 0xb2, 0xd1, 0xd6, 0x43, 0x4b, 0x8b,
	0x29, 0xae, 0x77, 0x5a, 0xd8, 0xc2, 0xe4, 0x8c, 0x53, 0x91}

// statMatches compares the stat data git records. It compares every
// field git may compare (nanoseconds and the device included), so it
// hashes at least as often as git, which gives git's answer.
func (w *worktreeCheck) statMatches(e *indexEntry, st statData) bool {
	if e.mtimeSec != st.mtimeSec || e.mtimeNsec != st.mtimeNsec {
		return false
	}
	if w.cfg.trustCtime && (e.ctimeSec != st.ctimeSec || e.ctimeNsec != st.ctimeNsec) {
		return false
	}
	return e.ino == st.ino && e.dev == st.dev && e.uid == st.uid && e.gid == st.gid && e.size == st.size
}

// racy reports an entry modified in or after the second the index was
// written, whose stat data cannot prove it unchanged.
func (w *worktreeCheck) racy(e *indexEntry) bool {
	return w.indexTime[0] != 0 && e.mtimeSec >= w.indexTime[0]
}

// realDir reports whether dir (relative to the top) and its parents
// are folders, not symbolic links: git counts a file below a link as
// deleted.
func (w *worktreeCheck) realDir(dir string) (bool, error) {
	if ok, seen := w.dirs[dir]; seen {
		return ok, nil
	}
	ok := true
	if p := parentDir(dir); p != "" {
		var err error
		if ok, err = w.realDir(p); err != nil {
			return false, err
		}
	}
	if ok {
		st, err := lstatData(w.top + "/" + dir)
		switch {
		case errors.Is(err, syscall.ENOENT) || errors.Is(err, syscall.ENOTDIR):
			ok = false
		case err != nil:
			return false, fmt.Errorf("lstat %s: %w", dir, err)
		default:
			ok = st.mode&sIFMT == sIFDIR
		}
	}
	w.dirs[dir] = ok
	return ok, nil
}

// hashFile computes the blob id of the file (or the link's target).
// Content git might convert on its way into the repository (a CR byte
// while autocrlf, core.eol or an attributes file is in force) is
// errUnsupported.
func (w *worktreeCheck) hashFile(e *indexEntry, full string, st statData) (oid, error) {
	if st.mode&sIFMT == sIFLNK {
		target, err := os.Readlink(full)
		if err != nil {
			return oid{}, fmt.Errorf("read link %s: %w", e.path, err)
		}
		return blobID([]byte(target)), nil
	}
	convert := w.cfg.crlf
	if !convert {
		var err error
		if convert, err = w.attrs.applies(e.path); err != nil {
			return oid{}, err
		}
	}
	f, err := openFile(full)
	if err != nil {
		return oid{}, fmt.Errorf("hash %s: %w", e.path, err)
	}
	defer f.Close()
	h := sha1.New()
	h.Write([]byte("blob " + strconv.FormatInt(st.fullSize, 10) + "\x00"))
	cw := &crWatch{h: h}
	n, err := io.Copy(cw, f)
	if err != nil {
		return oid{}, fmt.Errorf("hash %s: %w", e.path, err)
	}
	if n != st.fullSize {
		return oid{}, fmt.Errorf("hash %s: size changed while reading: %w", e.path, errUnsupported)
	}
	if convert && cw.sawCR {
		return oid{}, fmt.Errorf("hash %s: CR byte with line-ending conversion: %w", e.path, errUnsupported)
	}
	var id oid
	h.Sum(id[:0])
	return id, nil
}

// crWatch hashes what it is given and notes a CR byte.
type crWatch struct {
	h     hash.Hash
	sawCR bool
}

func (c *crWatch) Write(p []byte) (int, error) {
	if !c.sawCR && bytes.IndexByte(p, '\r') >= 0 {
		c.sawCR = true
	}
	return c.h.Write(p)
}

// blobID is git's id of a blob holding data.
func blobID(data []byte) oid {
	h := sha1.New()
	h.Write([]byte("blob " + strconv.Itoa(len(data)) + "\x00"))
	h.Write(data)
	var id oid
	h.Sum(id[:0])
	return id
}

// parentDir is the folder part of a slash-separated path, "" at the top.
func parentDir(p string) string {
	if i := lastSlash(p); i >= 0 {
		return p[:i]
	}
	return ""
}

// attrWords are the attribute names that make git convert content on
// its way into the repository; an attributes file naming any of them
// is errUnsupported.
var attrWords = [][]byte{[]byte("filter"), []byte("ident"), []byte("working-tree-encoding"), []byte("eol"), []byte("crlf")}

// attrCheck tracks which attributes files exist for the work tree.
type attrCheck struct {
	top    string
	global bool            // a system, user or repository attributes file exists
	dirs   map[string]bool // folder -> it holds a .gitattributes
}

// checkAttrFile reads an attributes file: exists is false when it is
// missing; a file naming a converting attribute is errUnsupported.
func checkAttrFile(name string) (exists bool, err error) {
	data, err := readFile(name)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) || errors.Is(err, syscall.ENOTDIR) {
			return false, nil
		}
		return false, fmt.Errorf("read attributes %s: %w", name, err)
	}
	for _, w := range attrWords {
		if bytes.Contains(data, w) {
			return true, fmt.Errorf("attributes %s name %q: %w", name, w, errUnsupported)
		}
	}
	return true, nil
}

// applies reports whether any attributes file could apply to path: a
// global one, or a .gitattributes in its folder or one above.
func (a *attrCheck) applies(path string) (bool, error) {
	if a.global {
		return true, nil
	}
	for dir := parentDir(path); ; dir = parentDir(dir) {
		has, seen := a.dirs[dir]
		if !seen {
			name := a.top + "/.gitattributes"
			if dir != "" {
				name = a.top + "/" + dir + "/.gitattributes"
			}
			var err error
			if has, err = checkAttrFile(name); err != nil {
				return false, err
			}
			a.dirs[dir] = has
		}
		if has {
			return true, nil
		}
		if dir == "" {
			return false, nil
		}
	}
}
