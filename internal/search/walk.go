package search

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strings"
	"sync"
)

// WalkOptions says which files a walk visits. The zero value behaves like
// ripgrep without flags: ignore files are honoured, hidden files and
// directories are skipped, symbolic links are not followed.
type WalkOptions struct {
	// Hidden also visits files and directories whose name starts with ".".
	Hidden bool
	// NoIgnore disregards .gitignore, .ignore, .rgignore and
	// .git/info/exclude files.
	NoIgnore bool
	// Globs are ripgrep --glob patterns, matched against paths relative to
	// the searched directory: a pattern selects what it matches, "!"
	// before it excludes; with any selecting pattern, unselected files are
	// skipped. A match overrides ignore files and the hidden rule.
	Globs []string
	// Types are file type names (see TypeNames); only files of one of
	// these types are visited.
	Types []string
	// Threads is the number of walking goroutines; 0 means GOMAXPROCS.
	Threads int
	// Skip, when set, leaves out every file and folder for whose absolute
	// path it reports true (a folder left out is not entered), whatever
	// the globs say: paths the user's read-deny rules keep from the
	// model. It is called from several goroutines at once.
	Skip func(abs string) bool
}

// Version-control folders, never entered.
func isVCSDir(name string) bool {
	switch name {
	case ".git", ".hg", ".svn", ".bzr", ".jj", ".sl", "_darcs", "CVS":
		return true
	}
	return false
}

type entryType uint8

const (
	typeUnknown entryType = iota
	typeFile
	typeDir
	typeSymlink
	typeOther
)

type dirent struct {
	name string
	typ  entryType
}

// filter is the compiled form of WalkOptions.
type filter struct {
	hidden   bool
	noIgnore bool
	ov       *overrides
	types    *typeFilter
	// prefix, when set, limits the walk to directories whose relative
	// path leads to it or lies below it.
	prefix string
	// deny is WalkOptions.Skip.
	deny func(abs string) bool
}

// needRel reports whether skip needs entries' relative paths.
func (f *filter) needRel() bool { return f.ov != nil || f.prefix != "" }

// onPrefixPath reports whether a directory at rel leads to prefix or lies
// below it.
func onPrefixPath(rel, prefix string) bool {
	if len(rel) <= len(prefix) {
		return strings.HasPrefix(prefix, rel) && (len(rel) == len(prefix) || prefix[len(rel)] == '/')
	}
	return strings.HasPrefix(rel, prefix) && rel[len(prefix)] == '/'
}

func newFilter(o WalkOptions) (*filter, error) {
	ov, err := newOverrides(o.Globs)
	if err != nil {
		return nil, err
	}
	tf, err := newTypeFilter(o.Types)
	if err != nil {
		return nil, err
	}
	return &filter{hidden: o.Hidden, noIgnore: o.NoIgnore, ov: ov, types: tf, deny: o.Skip}, nil
}

// skip decides whether the walk leaves out an entry. dir is the absolute
// directory holding it, rel its path relative to the walk's base.
func (f *filter) skip(node *ignoreNode, dir, rel, name string, isDir bool) bool {
	if isDir && (isVCSDir(name) || f.prefix != "" && !onPrefixPath(rel, f.prefix)) {
		return true
	}
	if f.deny != nil && f.deny(joinPath(dir, name)) {
		return true
	}
	if f.ov != nil {
		if v := f.ov.match(rel, name, isDir); v != noVerdict {
			return v == ignored
		}
	}
	white := false
	if !f.noIgnore && node != nil && node.any {
		switch node.match(joinPath(dir, name), name, isDir) {
		case ignored:
			return true
		case whitelisted:
			white = true
		}
	}
	switch f.types.match(name, isDir) {
	case ignored:
		return true
	case whitelisted:
		white = true
	}
	return !white && !f.hidden && name[0] == '.'
}

func joinPath(dir, name string) string {
	if len(dir) > 0 && os.IsPathSeparator(dir[len(dir)-1]) {
		return dir + name
	}
	return dir + string(filepath.Separator) + name
}

func joinRel(rel, name string) string {
	if rel == "" {
		return name
	}
	return rel + "/" + name
}

// visitor receives the files a walk selects. visit is called from the
// walk's goroutines, several at once; worker identifies the goroutine so
// that per-goroutine state needs no lock.
type visitor interface {
	visit(wk *worker, d dirHandle, dir, rel, name string)
}

// job is a unit of work: list a directory, or visit a batch of files of
// one directory.
type job struct {
	dir   string
	rel   string
	node  *ignoreNode // for a listing: the parent's rules; for a batch: the directory's
	files []string    // a batch when non-nil
}

// filesPerJob is the largest batch of files one goroutine visits before
// the rest of a directory is offered to the others.
const filesPerJob = 64

type walker struct {
	ctx    context.Context
	filter *filter
	v      visitor

	mu      sync.Mutex
	cond    *sync.Cond
	stack   []job // guarded by mu
	pending int   // jobs queued or running; guarded by mu
	stop    bool  // guarded by mu

	errMu  sync.Mutex
	errs   []error // the first few, guarded by errMu
	nerrs  int     // guarded by errMu
	maxErr int
}

// worker is the state of one walking goroutine.
type worker struct {
	id    int
	w     *walker
	dents []dirent
	dbuf  []byte
	buf   []byte
	// scratch holds text converted from UTF-16.
	scratch []byte
	// mmapMin overrides defaultMmapMin (for tests).
	mmapMin int64
}

// defaultMmapMin is the size from which files are mapped rather than read.
const defaultMmapMin = 64 << 20

// walkRoot is a directory to walk and the base that relative paths and
// glob overrides are measured from (the directory itself, or an ancestor).
type walkRoot struct {
	dir  string // absolute
	base string // absolute; dir or an ancestor of it
}

// walk visits the selected files under the roots. It returns the
// context's error if cancelled; errors reading single entries are
// collected and returned by the walker's errors method instead.
func (w *walker) run(roots []walkRoot, threads int) error {
	w.cond = sync.NewCond(&w.mu)
	if w.maxErr == 0 {
		w.maxErr = 10
	}
	for _, r := range roots {
		var parent *ignoreNode
		if !w.filter.noIgnore {
			parent = parentNodes(r.dir)
		}
		w.stack = append(w.stack, job{dir: r.dir, rel: relTo(r.base, r.dir), node: parent})
	}
	w.pending = len(w.stack)
	if threads <= 0 {
		threads = runtime.GOMAXPROCS(0)
	}
	var wg sync.WaitGroup
	workers := make([]*worker, threads)
	for i := range workers {
		workers[i] = &worker{id: i, w: w}
		wk := workers[i]
		wg.Go(wk.loop)
	}
	stopWatch := context.AfterFunc(w.ctx, func() {
		w.mu.Lock()
		w.stop = true
		w.mu.Unlock()
		w.cond.Broadcast()
	})
	wg.Wait()
	stopWatch()
	return w.ctx.Err()
}

func (w *walker) addErr(err error) {
	w.errMu.Lock()
	defer w.errMu.Unlock()
	w.nerrs++
	if len(w.errs) < w.maxErr {
		w.errs = append(w.errs, err)
	}
}

func (wk *worker) loop() {
	// A mapped file truncated under us raises SIGBUS; make it a panic
	// that visit recovers from instead of a crash.
	debug.SetPanicOnFault(true)
	w := wk.w
	for {
		w.mu.Lock()
		for len(w.stack) == 0 && w.pending > 0 && !w.stop {
			w.cond.Wait()
		}
		if w.stop || len(w.stack) == 0 {
			w.mu.Unlock()
			return
		}
		j := w.stack[len(w.stack)-1]
		w.stack = w.stack[:len(w.stack)-1]
		w.mu.Unlock()

		var next []job
		if j.files != nil {
			wk.visitBatch(j)
		} else {
			next = wk.list(j)
		}

		w.mu.Lock()
		w.stack = append(w.stack, next...)
		w.pending += len(next) - 1
		done := w.pending == 0
		w.mu.Unlock()
		if len(next) > 0 || done {
			w.cond.Broadcast()
		}
	}
}

// list reads a directory, returns jobs for its subdirectories and for
// batches of its files, and visits the first batch itself.
func (wk *worker) list(j job) []job {
	w := wk.w
	d, err := openDir(j.dir)
	if err != nil {
		w.addErr(err)
		return nil
	}
	defer d.close()
	if wk.dbuf == nil {
		wk.dbuf = make([]byte, 32<<10)
	}
	wk.dents, err = d.readEntries(wk.dbuf, wk.dents[:0])
	if err != nil {
		w.addErr(err)
	}
	node := j.node
	if !w.filter.noIgnore {
		var hasGit, hasGI, hasIgn, hasRG bool
		for _, e := range wk.dents {
			switch e.name {
			case gitDirName:
				hasGit = true
			case gitignoreName:
				hasGI = true
			case ignoreName:
				hasIgn = true
			case rgignoreName:
				hasRG = true
			}
		}
		if hasGit || hasGI || hasIgn || hasRG {
			node = newIgnoreNode(j.node, j.dir, func(name string) bool {
				switch name {
				case gitDirName:
					return hasGit
				case gitignoreName:
					return hasGI
				case ignoreName:
					return hasIgn
				case rgignoreName:
					return hasRG
				}
				return false
			})
		}
	}
	var next []job
	var files []string
	for _, e := range wk.dents {
		t := e.typ
		if t == typeUnknown {
			t = d.lstat(e.name)
		}
		if t != typeDir && t != typeFile {
			continue // symbolic links are not followed, devices not read
		}
		isDir := t == typeDir
		rel := ""
		if w.filter.needRel() {
			rel = joinRel(j.rel, e.name)
		}
		if w.filter.skip(node, j.dir, rel, e.name, isDir) {
			continue
		}
		if isDir {
			if rel == "" {
				rel = joinRel(j.rel, e.name)
			}
			next = append(next, job{dir: joinPath(j.dir, e.name), rel: rel, node: node})
			continue
		}
		files = append(files, e.name)
	}
	for len(files) > filesPerJob {
		tail := files[len(files)-filesPerJob:]
		files = files[:len(files)-filesPerJob]
		next = append(next, job{dir: j.dir, rel: j.rel, node: node, files: tail})
	}
	// Offer the subdirectories before visiting, so other goroutines can
	// start on them.
	if len(next) > 0 {
		w.mu.Lock()
		w.stack = append(w.stack, next...)
		w.pending += len(next)
		w.mu.Unlock()
		w.cond.Broadcast()
	}
	for _, name := range files {
		if wk.stopped() {
			break
		}
		w.v.visit(wk, d, j.dir, j.rel, name)
	}
	return nil
}

func (wk *worker) visitBatch(j job) {
	d, err := openDir(j.dir)
	if err != nil {
		wk.w.addErr(err)
		return
	}
	defer d.close()
	for _, name := range j.files {
		if wk.stopped() {
			return
		}
		wk.w.v.visit(wk, d, j.dir, j.rel, name)
	}
}

func (wk *worker) stopped() bool { return wk.w.ctx.Err() != nil }

// readAll reads a whole file into the worker's buffer, which stays valid
// until the next call. Files over mmapMin are mapped instead; release
// must then be called when done.
func (wk *worker) readAll(f fileHandle) (data []byte, release func(), err error) {
	const (
		initial = 256 << 10
		keepMax = 8 << 20 // largest buffer kept between files
	)
	mmapMin := wk.mmapMin
	if mmapMin == 0 {
		mmapMin = defaultMmapMin
	}
	if wk.buf == nil {
		wk.buf = make([]byte, initial)
	}
	buf := wk.buf
	n := 0
	for {
		if n == len(buf) {
			size, _, err := f.stat()
			if err != nil {
				return nil, nil, err
			}
			if size >= mmapMin {
				return f.mmap(size)
			}
			grow := max(int(size)+1, 2*len(buf))
			nb := make([]byte, grow)
			copy(nb, buf[:n])
			buf = nb
			if len(buf) <= keepMax {
				wk.buf = buf
			}
		}
		m, err := f.read(buf[n:])
		if err != nil {
			return nil, nil, err
		}
		if m == 0 {
			return buf[:n], nil, nil
		}
		n += m
	}
}

// statRoot reports whether a path to search is a directory, with a
// clear error when it does not exist.
func statRoot(path string) (isDir bool, err error) {
	fi, err := os.Stat(path)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return false, fmt.Errorf("path %s does not exist", path)
		}
		return false, err
	}
	return fi.IsDir(), nil
}
