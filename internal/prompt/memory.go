package prompt

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"

	"github.com/bmatcuk/doublestar/v4"

	"reins/internal/frontmatter"
)

// Kind says where a memory file comes from.
type Kind string

// Memory file kinds, in load order.
const (
	KindManaged    Kind = "managed"    // set for the machine by an administrator
	KindUser       Kind = "user"       // the user's own, for every project
	KindProject    Kind = "project"    // shared with the project
	KindLocal      Kind = "local"      // the user's own, for this project (CLAUDE.local.md)
	KindAdditional Kind = "additional" // from an --add-dir folder
)

// DefaultImportDepth is how many @path import hops are followed.
const DefaultImportDepth = 5

// maxMemoryBytes is the largest memory file read.
const maxMemoryBytes = 1 << 20

// File is one loaded memory file.
type File struct {
	// Path is the file as found (absolute and clean, links not resolved).
	Path string
	Kind Kind
	// Content is the text, without frontmatter. Imports are separate
	// Files placed after the file that imports them.
	Content string
	// ImportedBy is the path of the importing file, "" for a file found
	// by discovery.
	ImportedBy string
	// Paths are the globs of a rule's paths: frontmatter: the rule applies
	// only to matching files. Nil for files that always apply.
	Paths []string
	// BaseDir is the folder Paths are relative to.
	BaseDir string
}

// MemoryOptions says where to look. Cwd and Home are required; the other
// zero values give the defaults.
type MemoryOptions struct {
	Cwd  string
	Home string
	// ClaudeDir is the user's Claude Code folder (default Home/.claude;
	// the caller applies CLAUDE_CONFIG_DIR).
	ClaudeDir string
	// ConfigDir is reins's user config folder (default Home/.reins; the
	// caller applies REINS_CONFIG_DIR).
	ConfigDir string
	// ManagedDirs are the administrator's folders (default
	// DefaultManagedDirs()). Set to a non-nil empty slice for none.
	ManagedDirs []string
	// AddDirs are the --add-dir folders. Project memory may import files
	// in them; their own memory files load only with AddDirMemory.
	AddDirs []string
	// AddDirMemory loads the memory files of the AddDirs folders (at start,
	// and those of their sub-folders when the model reads there), as
	// Claude Code does only with CLAUDE_CODE_ADDITIONAL_DIRECTORIES_CLAUDE_MD
	// set.
	AddDirMemory bool
	// Excludes are the claudeMdExcludes globs: memory files (CLAUDE.md,
	// rules, imports) whose absolute path, or real path, matches one are
	// not loaded. Managed memory cannot be excluded.
	Excludes []string
	// MaxImportDepth bounds @path imports (default DefaultImportDepth).
	MaxImportDepth int
	// ExternalImports lets project, local and additional memory files
	// import files outside the working folder and the AddDirs folders (a
	// cloned repository's CLAUDE.md importing @~/.ssh/id_rsa, say).
	// Claude Code follows such imports only once the user has approved
	// them for the project; without approval they are left out with a
	// warning. User and managed memory files import from anywhere.
	ExternalImports bool
	// Kinds, when not nil, are the only kinds of memory that load besides
	// managed memory, which always does (--setting-sources: the Agent
	// SDK's isolation mode, settingSources [], loads no CLAUDE.md).
	Kinds []Kind
	// TopDir, when set, is the folder where the walk up from Cwd stops
	// (excluded, like the filesystem root it stands in for). Tests use it
	// to keep to a fixture tree.
	TopDir string
}

// DefaultManagedDirs returns the administrator's memory folders for this
// platform: Claude Code's managed folder and reins's.
func DefaultManagedDirs() []string {
	switch runtime.GOOS {
	case "darwin":
		return []string{"/Library/Application Support/ClaudeCode", "/etc/reins"}
	case "windows":
		return []string{`C:\Program Files\ClaudeCode`, `C:\ProgramData\reins`}
	}
	return []string{"/etc/claude-code", "/etc/reins"}
}

// Memory is the memory of one session: the files loaded at start and the
// state needed to load more as the model reaches new folders. It is safe
// for concurrent use.
type Memory struct {
	opts MemoryOptions

	mu       sync.Mutex // guards the fields below
	files    []File     // loaded at start
	seen     map[string]bool
	pending  []File // rules whose paths have not matched yet
	scanned  map[string]bool
	warnings []string

	// the state right after LoadMemory, for ForgetNested
	startSeen    map[string]bool
	startPending []File
	startScanned map[string]bool
}

// LoadMemory finds and reads the memory files for o, in order: managed,
// user, each folder from below the filesystem root down to Cwd (its
// project files, then its CLAUDE.local.md, as Claude Code orders them, so
// a folder nearer to Cwd comes later and takes precedence), then the
// AddDirs folders when AddDirMemory is set. A file reached twice
// (a link, an import of a file already loaded) is loaded once. Problems
// with single files (unreadable, too large, an import cycle) are
// warnings, not errors.
func LoadMemory(o MemoryOptions) *Memory {
	o.Cwd = filepath.Clean(o.Cwd)
	dirs := make([]string, len(o.AddDirs))
	for i, d := range o.AddDirs {
		if !filepath.IsAbs(d) {
			d = filepath.Join(o.Cwd, d) // --add-dir ../shared
		}
		dirs[i] = filepath.Clean(d)
	}
	o.AddDirs = dirs
	if o.ClaudeDir == "" {
		o.ClaudeDir = filepath.Join(o.Home, ".claude")
	}
	if o.ConfigDir == "" {
		o.ConfigDir = filepath.Join(o.Home, ".reins")
	}
	if o.ManagedDirs == nil {
		o.ManagedDirs = DefaultManagedDirs()
	}
	if o.MaxImportDepth <= 0 {
		o.MaxImportDepth = DefaultImportDepth
	}
	m := &Memory{opts: o, seen: map[string]bool{}, scanned: map[string]bool{}}
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, g := range o.Excludes {
		if !doublestar.ValidatePattern(filepath.ToSlash(g)) {
			m.warn("claudeMdExcludes: bad glob %q ignored", g)
		}
	}
	var out []File
	for _, d := range o.ManagedDirs {
		out = m.load(out, filepath.Join(d, "CLAUDE.md"), KindManaged, "")
		out = m.rules(out, filepath.Join(d, ".claude", "rules"), KindManaged, o.Cwd)
	}
	out = m.load(out, filepath.Join(o.ClaudeDir, "CLAUDE.md"), KindUser, "")
	out = m.rules(out, filepath.Join(o.ClaudeDir, "rules"), KindUser, o.Cwd)
	out = m.load(out, filepath.Join(o.ConfigDir, "AGENTS.md"), KindUser, "")
	out = m.load(out, filepath.Join(o.ConfigDir, "CLAUDE.md"), KindUser, "")
	out = m.rules(out, filepath.Join(o.ConfigDir, "rules"), KindUser, o.Cwd)
	for _, d := range ancestors(o.Cwd, o.TopDir) {
		out = m.projectFiles(out, d, KindProject)
		out = m.load(out, filepath.Join(d, "CLAUDE.local.md"), KindLocal, "")
		m.scanned[d] = true
	}
	for _, d := range m.memoryRoots()[1:] {
		out = m.projectFiles(out, d, KindAdditional)
		m.scanned[d] = true
	}
	m.files = out
	m.startSeen, m.startScanned = maps.Clone(m.seen), maps.Clone(m.scanned)
	m.startPending = slices.Clone(m.pending)
	return m
}

// ForgetNested forgets what Touch loaded, so that the same files are
// loaded again when next touched. Call it after compaction: the summary
// replaced the messages that carried them.
func (m *Memory) ForgetNested() {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.seen, m.scanned = maps.Clone(m.startSeen), maps.Clone(m.startScanned)
	m.pending = slices.Clone(m.startPending)
}

// Fork returns a Memory for another conversation of the session (a
// sub-agent): the same files loaded at start, and none of those Touch has
// loaded since, so the new conversation gets the memory of the folders it
// reaches itself.
func (m *Memory) Fork() *Memory {
	m.mu.Lock()
	defer m.mu.Unlock()
	return &Memory{opts: m.opts, files: m.files,
		seen: maps.Clone(m.startSeen), scanned: maps.Clone(m.startScanned), pending: slices.Clone(m.startPending),
		startSeen: m.startSeen, startScanned: m.startScanned, startPending: m.startPending}
}

// ancestors returns the folders from just below the filesystem root (or
// top) down to dir.
func ancestors(dir, top string) []string {
	var rev []string
	if top != "" {
		top = filepath.Clean(top)
	}
	for d := dir; d != top; {
		parent := filepath.Dir(d)
		if parent == d {
			break // d is the root: excluded
		}
		rev = append(rev, d)
		d = parent
	}
	slices.Reverse(rev)
	return rev
}

// projectFiles loads the memory files a project folder holds. The
// .reins twins load after the .claude files they mirror.
func (m *Memory) projectFiles(out []File, d string, kind Kind) []File {
	out = m.load(out, filepath.Join(d, "CLAUDE.md"), kind, "")
	out = m.load(out, filepath.Join(d, "AGENTS.md"), kind, "")
	out = m.load(out, filepath.Join(d, ".claude", "CLAUDE.md"), kind, "")
	out = m.load(out, filepath.Join(d, ".reins", "CLAUDE.md"), kind, "")
	out = m.rules(out, filepath.Join(d, ".claude", "rules"), kind, d)
	out = m.rules(out, filepath.Join(d, ".reins", "rules"), kind, d)
	return out
}

// memoryRoots are the folders whose sub-folders' memory loads: the
// working folder, then the AddDirs folders when their memory loads.
func (m *Memory) memoryRoots() []string {
	roots := []string{m.opts.Cwd}
	if m.opts.AddDirMemory {
		for _, d := range m.opts.AddDirs {
			roots = append(roots, filepath.Clean(d))
		}
	}
	return roots
}

// Files returns the files loaded at start, in order.
func (m *Memory) Files() []File {
	m.mu.Lock()
	defer m.mu.Unlock()
	return slices.Clone(m.files)
}

// Warnings returns the problems met so far, oldest first.
func (m *Memory) Warnings() []string {
	m.mu.Lock()
	defer m.mu.Unlock()
	return slices.Clone(m.warnings)
}

func (m *Memory) warn(format string, args ...any) {
	m.warnings = append(m.warnings, fmt.Sprintf(format, args...))
}

// key is the identity of a file for de-duplication: its real path, folded
// to lower case where file names are case-insensitive.
func key(path string) (string, bool) {
	real, err := filepath.EvalSymlinks(path)
	if err != nil {
		return "", false
	}
	if runtime.GOOS == "darwin" || runtime.GOOS == "windows" {
		real = strings.ToLower(real)
	}
	return real, true
}

// read returns a memory file's text, or ok=false when it is missing or
// unusable (a warning says why, except for a plain missing file).
func (m *Memory) read(path string) (string, bool) {
	st, err := os.Stat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return "", false
	case err != nil:
		m.warn("memory file %s: %v", path, err)
		return "", false
	case !st.Mode().IsRegular():
		return "", false
	case st.Size() > maxMemoryBytes:
		m.warn("memory file %s: %d bytes is over the %d-byte limit; not loaded", path, st.Size(), maxMemoryBytes)
		return "", false
	}
	b, err := os.ReadFile(path)
	if err != nil {
		m.warn("memory file %s: %v", path, err)
		return "", false
	}
	if bytes.IndexByte(b, 0) >= 0 {
		m.warn("memory file %s: binary content; not loaded", path)
		return "", false
	}
	return string(b), true
}

// load reads path (if present and not loaded yet) and its imports,
// appending them to out.
func (m *Memory) load(out []File, path string, kind Kind, importedBy string) []File {
	return m.loadAt(out, path, kind, importedBy, nil)
}

func (m *Memory) loadAt(out []File, path string, kind Kind, importedBy string, stack []string) []File {
	if !m.wants(kind) {
		return out
	}
	path = filepath.Clean(path)
	k, ok := key(path)
	if !ok || m.excluded(path, kind) {
		return out
	}
	if slices.Contains(stack, k) {
		m.warn("memory import cycle: %s imports %s again; not followed", importedBy, path)
		return out
	}
	if m.seen[k] {
		return out
	}
	text, ok := m.read(path)
	if !ok {
		return out
	}
	m.seen[k] = true
	f := File{Path: path, Kind: kind, Content: strings.TrimSpace(text), ImportedBy: importedBy}
	out = append(out, f)
	return m.imports(out, f, append(stack, k))
}

// imports loads the files f imports, after f.
func (m *Memory) imports(out []File, f File, stack []string) []File {
	refs := importRefs(f.Content)
	if len(refs) == 0 {
		return out
	}
	if len(stack) > m.opts.MaxImportDepth {
		m.warn("memory file %s: imports deeper than %d levels are not followed", f.Path, m.opts.MaxImportDepth)
		return out
	}
	for _, ref := range refs {
		p, ok := m.resolve(ref, filepath.Dir(f.Path))
		if !ok {
			if strings.Contains(ref, "/") || strings.HasSuffix(ref, ".md") {
				m.warn("memory file %s: imported file @%s not found", f.Path, ref)
			}
			continue
		}
		if !m.opts.ExternalImports && f.Kind != KindUser && f.Kind != KindManaged && !m.inProject(p) {
			m.warn("memory file %s: @%s (%s) is outside the project and was not imported; external imports need the user's approval", f.Path, ref, p)
			continue
		}
		out = m.loadAt(out, p, f.Kind, f.Path, stack)
	}
	return out
}

// inProject reports whether p lies in the working folder or an AddDirs
// folder, symbolic links resolved.
func (m *Memory) inProject(p string) bool {
	real, err := filepath.EvalSymlinks(p)
	if err != nil {
		real = p
	}
	for _, root := range append([]string{m.opts.Cwd}, m.opts.AddDirs...) {
		r, err := filepath.EvalSymlinks(root)
		if err != nil {
			r = filepath.Clean(root)
		}
		if rel, err := filepath.Rel(r, real); err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			return true
		}
	}
	return false
}

// excluded reports whether a memory file of kind at path is left out by
// the Excludes globs.
func (m *Memory) excluded(path string, kind Kind) bool {
	if kind == KindManaged || len(m.opts.Excludes) == 0 {
		return false
	}
	paths := []string{filepath.ToSlash(path)}
	if real, err := filepath.EvalSymlinks(path); err == nil && real != path {
		paths = append(paths, filepath.ToSlash(real))
	}
	for _, g := range m.opts.Excludes {
		for _, p := range paths {
			if ok, _ := doublestar.Match(filepath.ToSlash(g), p); ok {
				return true
			}
		}
	}
	return false
}

// resolve turns an import reference into an existing file's path:
// "~/x" is under Home, "/x" is absolute, anything else is relative to dir.
// A "#section" suffix is dropped, and so is trailing punctuation when the
// path with it does not exist ("see @notes.md.").
func (m *Memory) resolve(ref, dir string) (string, bool) {
	if i := strings.IndexByte(ref, '#'); i >= 0 {
		ref = ref[:i]
	}
	for ref != "" {
		var p string
		switch {
		case ref == "~" || strings.HasPrefix(ref, "~/"):
			p = filepath.Join(m.opts.Home, ref[1:])
		case filepath.IsAbs(ref):
			p = ref
		default:
			p = filepath.Join(dir, ref)
		}
		if st, err := os.Stat(p); err == nil && st.Mode().IsRegular() {
			return p, true
		}
		trimmed := strings.TrimRight(ref, ".,;:!?)]}'\"")
		if trimmed == ref {
			break
		}
		ref = trimmed
	}
	return "", false
}

// rules loads the *.md files under dir (sub-folders included, in path
// order). Rules with paths: frontmatter are held back until a matching
// file is touched; base is the folder their globs are relative to.
// wants reports whether memory of kind loads (MemoryOptions.Kinds).
func (m *Memory) wants(kind Kind) bool {
	return kind == KindManaged || m.opts.Kinds == nil || slices.Contains(m.opts.Kinds, kind)
}

func (m *Memory) rules(out []File, dir string, kind Kind, base string) []File {
	if !m.wants(kind) {
		return out
	}
	paths := m.ruleFiles(dir, map[string]bool{}, nil)
	slices.Sort(paths)
	for _, p := range paths {
		k, ok := key(p)
		if !ok || m.seen[k] || m.excluded(p, kind) {
			continue
		}
		text, ok := m.read(p)
		if !ok {
			continue
		}
		m.seen[k] = true
		body, globs := m.parseRule(p, text)
		f := File{Path: filepath.Clean(p), Kind: kind, Content: body, Paths: globs, BaseDir: base}
		if globs != nil {
			m.pending = append(m.pending, f)
			continue
		}
		out = append(out, f)
		out = m.imports(out, f, []string{k})
	}
	return out
}

// ruleFiles returns the *.md files under dir, following symbolic links to
// folders and files (a team's shared rules linked into the project) and
// visiting each real folder once, so a link back up does not loop.
func (m *Memory) ruleFiles(dir string, visited map[string]bool, paths []string) []string {
	real, err := filepath.EvalSymlinks(dir)
	if err != nil || visited[real] {
		return paths // no rules folder (the usual case), or one seen already
	}
	if st, err := os.Stat(real); err != nil || !st.IsDir() {
		return paths
	}
	visited[real] = true
	entries, err := os.ReadDir(dir)
	if err != nil {
		m.warn("memory rules in %s: %v", dir, err)
		return paths
	}
	for _, e := range entries {
		p := filepath.Join(dir, e.Name())
		isDir, isFile := e.IsDir(), e.Type().IsRegular()
		if e.Type()&fs.ModeSymlink != 0 {
			st, err := os.Stat(p)
			if err != nil {
				m.warn("memory rules in %s: %v", dir, err)
				continue
			}
			isDir, isFile = st.IsDir(), st.Mode().IsRegular()
		}
		switch {
		case isDir:
			paths = m.ruleFiles(p, visited, paths)
		case isFile && strings.HasSuffix(e.Name(), ".md"):
			paths = append(paths, p)
		}
	}
	return paths
}

// parseRule splits a rule's frontmatter from its body and returns the
// globs of its paths: key (globs: is read too, as some write it). A rule
// whose frontmatter cannot be read applies everywhere, with a warning.
func (m *Memory) parseRule(path, text string) (body string, globs []string) {
	doc, err := frontmatter.Parse([]byte(text))
	if err != nil {
		m.warn("memory rule %s: %v; applied to every file", path, err)
		_, _, body, _, serr := frontmatter.Split([]byte(text))
		if serr != nil {
			body = text
		}
		return strings.TrimSpace(body), nil
	}
	body = strings.TrimSpace(doc.Body)
	key := "paths"
	if !doc.Fields.Has(key) && doc.Fields.Has("globs") {
		key = "globs"
	}
	list := ruleGlobs(doc.Fields, key)
	if len(list) == 0 {
		return body, nil
	}
	for _, g := range list {
		g = strings.TrimPrefix(strings.Trim(g, `"'`), "./")
		if g == "" {
			continue
		}
		if !doublestar.ValidatePattern(g) {
			m.warn("memory rule %s: bad glob %q ignored", path, g)
			continue
		}
		globs = append(globs, g)
	}
	if globs == nil {
		globs = []string{} // paths were given but none is usable: never applies
	}
	return body, globs
}

// ruleGlobs returns the globs of a rule's paths: value, a list or a
// string, each item split at the commas outside braces: "src/*.{ts,tsx},
// lib/**" is two globs, the first with its brace alternatives whole. White
// space belongs to the glob (a folder name may hold a space).
func ruleGlobs(fields frontmatter.Fields, key string) []string {
	var v any
	if err := fields.Decode(key, &v); err != nil {
		return fields.List(key)
	}
	var items []string
	switch v := v.(type) {
	case string:
		items = []string{v}
	case []any:
		for _, it := range v {
			if s, ok := it.(string); ok {
				items = append(items, s)
			}
		}
	case nil:
	default: // a number or a date: its text
		items = []string{fields.String(key)}
	}
	var out []string
	for _, it := range items {
		depth, start := 0, 0
		for i := 0; i <= len(it); i++ {
			switch {
			case i < len(it) && it[i] == '{':
				depth++
			case i < len(it) && it[i] == '}' && depth > 0:
				depth--
			case i == len(it) || (it[i] == ',' && depth == 0):
				if g := strings.TrimSpace(it[start:i]); g != "" {
					out = append(out, g)
				}
				start = i + 1
			}
		}
	}
	return out
}

// matches reports whether a rule's globs match path. A glob without a
// slash matches the file name in any folder.
func (f *File) matches(path string) bool {
	rel, err := filepath.Rel(f.BaseDir, path)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return false
	}
	rel = filepath.ToSlash(rel)
	for _, g := range f.Paths {
		if ok, _ := doublestar.Match(g, rel); ok {
			return true
		}
		if !strings.Contains(g, "/") {
			if ok, _ := doublestar.Match(g, pathBase(rel)); ok {
				return true
			}
		}
	}
	return false
}

func pathBase(rel string) string {
	if i := strings.LastIndexByte(rel, '/'); i >= 0 {
		return rel[i+1:]
	}
	return rel
}

// Touch is called with the path of a file the model reads (or otherwise
// works on). It loads what becomes relevant: the memory files of folders
// between the working folder (or an --add-dir folder whose memory loads)
// and the file that were not loaded yet, and the rules whose paths match
// the file. It
// returns them as a <system-reminder> text for the model, or "" when
// nothing is new. Each file is returned once per session.
func (m *Memory) Touch(path string) string {
	text, _ := m.TouchFiles(path)
	return text
}

// TouchFiles is Touch, also returning the files it loaded (imports after
// the file that imports them), for InstructionsLoaded hooks.
func (m *Memory) TouchFiles(path string) (string, []File) {
	if !filepath.IsAbs(path) {
		path = filepath.Join(m.opts.Cwd, path)
	}
	path = filepath.Clean(path)
	m.mu.Lock()
	defer m.mu.Unlock()
	var out []File
	for _, root := range m.memoryRoots() {
		rel, err := filepath.Rel(root, filepath.Dir(path))
		if err != nil || rel == "." || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			continue
		}
		d := root
		for _, part := range strings.Split(rel, string(filepath.Separator)) {
			d = filepath.Join(d, part)
			if m.scanned[d] {
				continue
			}
			m.scanned[d] = true
			kind := KindProject
			if root != m.opts.Cwd {
				kind = KindAdditional
			}
			out = m.projectFiles(out, d, kind)
			out = m.load(out, filepath.Join(d, "CLAUDE.local.md"), KindLocal, "")
		}
	}
	var still []File
	for _, f := range m.pending {
		if !f.matches(path) {
			still = append(still, f)
			continue
		}
		k, _ := key(f.Path)
		out = append(out, f)
		out = m.imports(out, f, []string{k})
	}
	m.pending = still
	out = slices.DeleteFunc(out, func(f File) bool { return f.Content == "" })
	if len(out) == 0 {
		return "", nil
	}
	return nestedReminder(path, out), out
}
