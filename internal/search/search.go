package search

import (
	"bytes"
	"context"
	"fmt"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"slices"
	"strings"
	"time"
	"unicode/utf16"
	"unicode/utf8"
)

// Mode selects what a search reports.
type Mode int

const (
	// FilesWithMatches reports the files that hold a match (rg -l). Each
	// file is read only up to its first match.
	FilesWithMatches Mode = iota
	// Content reports the matching lines, with context lines if asked.
	Content
	// Count reports the number of matching lines per file (rg -c); in
	// multiline mode, the number of matches.
	Count
)

// Options configures Search.
type Options struct {
	Mode Mode
	// Before and After are the numbers of context lines shown around each
	// match in Content mode (rg -B / -A).
	Before, After int
	// ModTime fills FileMatch.ModTime.
	ModTime bool
	Walk    WalkOptions
}

// FileMatch is one file with matches.
type FileMatch struct {
	Path    string    // absolute
	ModTime time.Time // set when Options.ModTime
	// Count is the number of matching lines (matches in multiline mode).
	// In FilesWithMatches mode it is 1.
	Count int
	// Lines are the matching and context lines, in order (Content mode).
	Lines []Line
	// Binary marks a file named explicitly that holds NUL bytes; it is
	// searched, but its lines are not reported.
	Binary bool
	// Stopped marks a file found by the walk whose matching lines come
	// before binary data, where the search of the file stopped (Content
	// mode; ripgrep warns about such files).
	Stopped bool
}

// Line is one reported line.
type Line struct {
	Num     int    // 1-based line number
	Text    string // without the line terminator
	Context bool   // a context line rather than a match
}

// Result is the outcome of a search.
type Result struct {
	Files []FileMatch // sorted by path
	// Errors are the first problems met reading entries (permission
	// denied and the like); ErrorCount counts all of them. A search goes
	// on past them, as ripgrep does.
	Errors     []error
	ErrorCount int
}

// Search finds the files under root (a directory or a single file) that
// match m, with ripgrep's rules for what to search: see WalkOptions. A
// file named as root is always searched, whatever the rules say.
func Search(ctx context.Context, root string, m *Matcher, opts Options) (*Result, error) {
	if m == nil {
		panic("search.Search: nil Matcher")
	}
	abs, err := filepath.Abs(root)
	if err != nil {
		return nil, fmt.Errorf("search %s: %w", root, err)
	}
	isDir, err := statRoot(abs)
	if err != nil {
		return nil, fmt.Errorf("search: %w", err)
	}
	f, err := newFilter(opts.Walk)
	if err != nil {
		return nil, fmt.Errorf("search: %w", err)
	}
	s := &searcher{m: m, opts: opts}
	if !isDir {
		fh, err := openFilePath(abs)
		if err != nil {
			return nil, fmt.Errorf("search: %w", err)
		}
		defer fh.close()
		// As in the walk's goroutines: a mapped file that shrinks under
		// us must not crash the process.
		defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
		wk := &worker{}
		s.out = make([][]FileMatch, 1)
		s.searchFile(wk, fh, abs, true)
		return &Result{Files: s.out[0]}, ctx.Err()
	}
	threads := opts.Walk.Threads
	if threads <= 0 {
		threads = defaultThreads()
	}
	s.out = make([][]FileMatch, threads)
	w := &walker{ctx: ctx, filter: f, v: s}
	if err := w.run([]walkRoot{{dir: abs, base: abs}}, threads); err != nil {
		return nil, err
	}
	var all []FileMatch
	for _, part := range s.out {
		all = append(all, part...)
	}
	slices.SortFunc(all, func(a, b FileMatch) int { return strings.Compare(a.Path, b.Path) })
	return &Result{Files: all, Errors: w.errs, ErrorCount: w.nerrs}, nil
}

// searcher is the visitor of a content search.
type searcher struct {
	m    *Matcher
	opts Options
	out  [][]FileMatch // per worker
}

func (s *searcher) visit(wk *worker, d dirHandle, dir, rel, name string) {
	fh, err := d.openFile(name)
	if err != nil {
		wk.w.addErr(fmt.Errorf("open %s: %w", joinPath(dir, name), err))
		return
	}
	defer fh.close()
	s.searchFile(wk, fh, dir+string(filepath.Separator)+name, false)
}

// searchFile reads and searches one file. path is built by the caller
// only as a string to report; the file is already open.
func (s *searcher) searchFile(wk *worker, fh fileHandle, path string, explicit bool) {
	data, release, err := wk.readAll(fh)
	if err != nil {
		if wk.w != nil {
			wk.w.addErr(fmt.Errorf("read %s: %w", path, err))
		}
		return
	}
	if release != nil {
		defer release()
		defer func() {
			if r := recover(); r != nil && wk.w != nil {
				wk.w.addErr(fmt.Errorf("read %s: file changed while searched", path))
			}
		}()
	}
	data = decodeBOM(data, &wk.scratch)
	binary, stopped := false, false
	if nul := bytes.IndexByte(data, 0); nul >= 0 {
		if explicit {
			// Like ripgrep, search a named binary file with its NUL
			// bytes taken as line ends, and report only that it matches.
			binary = true
			data = bytes.ReplaceAll(data, []byte{0}, []byte{'\n'})
		} else {
			// ripgrep searches such a file up to the buffer that holds
			// the NUL. It lists it in FilesWithMatches mode when a match
			// comes first, shows those lines with a warning in Content
			// mode, and leaves it out of Count mode, where a partial
			// count would mislead.
			if s.opts.Mode == Count {
				return
			}
			stopped = true
			data = data[:binaryPrefix(data, nul)]
			if len(data) == 0 {
				return
			}
		}
	}
	fm := s.match(data, binary)
	if fm.Count == 0 {
		return
	}
	fm.Path = path
	fm.Binary = binary
	fm.Stopped = stopped && s.opts.Mode == Content
	if s.opts.ModTime {
		if _, mt, err := fh.stat(); err == nil {
			fm.ModTime = mt
		}
	}
	s.out[wk.id] = append(s.out[wk.id], fm)
}

// match runs the matcher over one file's text.
func (s *searcher) match(data []byte, binary bool) FileMatch {
	var fm FileMatch
	mode := s.opts.Mode
	if binary && mode == Content {
		mode = Count
	}
	switch {
	case mode == FilesWithMatches:
		if s.m.multiline {
			s.m.eachMatch(data, true, func(int, int) bool { fm.Count = 1; return false })
		} else {
			s.m.eachLine(data, func(int, int) bool { fm.Count = 1; return false })
		}
	case mode == Count:
		if s.m.multiline {
			s.m.eachMatch(data, false, func(int, int) bool { fm.Count++; return true })
		} else {
			s.m.eachLine(data, func(int, int) bool { fm.Count++; return true })
		}
	default:
		ls := &lineSink{data: data, before: s.opts.Before, after: s.opts.After, lineNo: 1}
		if s.m.multiline {
			s.m.eachMatch(data, false, func(start, end int) bool {
				fm.Count++
				ls.matchSpan(start, end)
				return true
			})
		} else {
			s.m.eachLine(data, func(start, end int) bool {
				fm.Count++
				ls.matchLine(start, end)
				return true
			})
		}
		ls.finish()
		fm.Lines = ls.lines
	}
	return fm
}

// binaryPrefix returns how much of a file whose first NUL byte is at nul
// ripgrep searches before it gives up on the file: it reads in buffers
// (64 KiB at first, tripled when a line does not fit), searches the
// complete lines of each, and stops without searching the buffer in which
// it sees the NUL.
func binaryPrefix(data []byte, nul int) int {
	capacity := 64 << 10
	pos, end := 0, 0 // consumed up to pos, read up to end
	for {
		free := capacity - (end - pos)
		if free == 0 {
			capacity *= 3
			free = capacity - (end - pos)
		}
		newEnd := min(end+free, len(data))
		if nul < newEnd {
			return pos
		}
		if i := bytes.LastIndexByte(data[pos:newEnd], '\n'); i >= 0 {
			pos += i + 1
		}
		end = newEnd
	}
}

// decodeBOM strips a UTF-8 byte order mark and converts UTF-16 text that
// starts with one to UTF-8, as ripgrep does.
func decodeBOM(data []byte, scratch *[]byte) []byte {
	switch {
	case len(data) >= 3 && data[0] == 0xEF && data[1] == 0xBB && data[2] == 0xBF:
		return data[3:]
	case len(data) >= 2 && (data[0] == 0xFF && data[1] == 0xFE || data[0] == 0xFE && data[1] == 0xFF):
		le := data[0] == 0xFF
		units := make([]uint16, 0, (len(data)-2)/2)
		for i := 2; i+1 < len(data); i += 2 {
			if le {
				units = append(units, uint16(data[i])|uint16(data[i+1])<<8)
			} else {
				units = append(units, uint16(data[i])<<8|uint16(data[i+1]))
			}
		}
		out := (*scratch)[:0]
		for _, r := range utf16.Decode(units) {
			out = utf8.AppendRune(out, r)
		}
		*scratch = out
		return out
	}
	return data
}

func defaultThreads() int {
	return max(2, runtime.GOMAXPROCS(0))
}

// Walk-level helpers used by Files.

// FileInfo is a file found by Files.
type FileInfo struct {
	Path    string // absolute
	ModTime time.Time
}

// Files lists the files under root that the walk rules select, with
// their modification times, in no particular order. When ctx ends first,
// the files found by then come with its error.
func Files(ctx context.Context, root string, opts WalkOptions) ([]FileInfo, *Result, error) {
	abs, err := filepath.Abs(root)
	if err != nil {
		return nil, nil, fmt.Errorf("list files in %s: %w", root, err)
	}
	return filesUnder(ctx, abs, abs, opts, nil, "")
}

// filesUnder lists the files under dir; paths are matched relative to
// base, against match when it is not nil. With a prefix, only the
// directories on the way to it or below it are entered.
func filesUnder(ctx context.Context, dir, base string, opts WalkOptions, match *glob, prefix string) ([]FileInfo, *Result, error) {
	f, err := newFilter(opts)
	if err != nil {
		return nil, nil, fmt.Errorf("list files: %w", err)
	}
	f.prefix = prefix
	threads := opts.Threads
	if threads <= 0 {
		threads = defaultThreads()
	}
	l := &lister{out: make([][]FileInfo, threads), match: match}
	w := &walker{ctx: ctx, filter: f, v: l}
	err = w.run([]walkRoot{{dir: dir, base: base}}, threads)
	var all []FileInfo
	for _, part := range l.out {
		all = append(all, part...)
	}
	if err != nil {
		// The files found before the walk stopped (its context ended)
		// still go back, for a caller that shows a partial answer.
		return all, nil, err
	}
	return all, &Result{Errors: w.errs, ErrorCount: w.nerrs}, nil
}

type lister struct {
	match *glob
	out   [][]FileInfo // per worker
}

func (l *lister) visit(wk *worker, d dirHandle, dir, rel, name string) {
	if l.match != nil && !l.match.match(joinRel(rel, name), name, false) {
		return
	}
	mt, err := d.modTime(name)
	if err != nil {
		wk.w.addErr(fmt.Errorf("stat %s: %w", joinPath(dir, name), err))
		return
	}
	l.out[wk.id] = append(l.out[wk.id], FileInfo{Path: joinPath(dir, name), ModTime: mt})
}
