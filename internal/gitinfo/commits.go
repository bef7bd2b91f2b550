package gitinfo

// This file lists the last commits the way `git log --oneline
// --no-decorate --no-color -n<n>` does, from the repository's files: it
// resolves HEAD, walks the history by committer date and abbreviates ids
// as git's core.abbrev=auto does. Anything it cannot reproduce exactly
// is an error wrapping errUnsupported, so that the caller runs git.

import (
	"bytes"
	"container/heap"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// maxSymrefDepth is how many symbolic refs git follows (SYMREF_MAXDEPTH).
const maxSymrefDepth = 5

// recentCommits returns what `git log --oneline --no-decorate --no-color
// -n<n>` prints for the repository whose git folder is gitDir (a
// worktree's folder works too): one "<abbreviated id> <subject>" string
// per commit, newest first, exactly as git prints the line without its
// newline (so an empty subject leaves a trailing space). It reads the
// user's git configuration from this process's environment.
//
// A HEAD naming a branch without commits gives nil and no error. An
// error wrapping errUnsupported means the repository uses something this
// reader does not reproduce (see recentCommitsEnv); any other error
// means a file could not be read or is damaged. In both cases the caller
// should run git log instead.
func recentCommits(gitDir string, n int) ([]string, error) {
	return recentCommitsEnv(gitDir, n, nil)
}

// recentCommitsEnv is recentCommits with env (nil: this process's
// environment) as the environment git would run with. It returns an
// error wrapping errUnsupported when git's output could differ from what
// it computes:
//   - env sets a variable that moves objects, refs or configuration
//     (GIT_OBJECT_DIRECTORY, GIT_CONFIG_PARAMETERS, … see checkEnv);
//   - a configuration file (system, global, repository, worktree) sets
//     core.abbrev, i18n.logOutputEncoding or i18n.commitEncoding other
//     than UTF-8, log.showSignature, a SHA-256 object format, another
//     ref storage, or includes other files;
//   - the repository has alternates, replace refs, a grafts file, a
//     pack without its own index, an incremental multi-pack-index, or a
//     reftable;
//   - a commit on the way has an encoding header other than UTF-8 or a
//     committer line git versions read differently.
//
// Commits listed in the shallow file are shown without their parents,
// as git does.
func recentCommitsEnv(gitDir string, n int, env []string) ([]string, error) {
	if n <= 0 {
		return nil, nil
	}
	if env == nil {
		env = os.Environ()
	}
	if err := checkEnv(env); err != nil {
		return nil, err
	}
	r, err := openRepo(gitDir, env)
	if err != nil {
		return nil, err
	}
	head, ok, err := r.resolveHead()
	if err != nil || !ok {
		return nil, err
	}
	store, err := openObjectStore(filepath.Join(r.common, "objects"))
	if err != nil {
		return nil, err
	}
	defer store.close()
	return walkLog(store, head, n, r.shallow)
}

// checkEnv refuses an environment under which git would look elsewhere
// for objects, refs or configuration, or rewrite history.
func checkEnv(env []string) error {
	for _, kv := range env {
		k, v, _ := strings.Cut(kv, "=")
		if v == "" {
			continue
		}
		switch k {
		case "GIT_OBJECT_DIRECTORY", "GIT_ALTERNATE_OBJECT_DIRECTORIES", "GIT_COMMON_DIR",
			"GIT_REPLACE_REF_BASE", "GIT_GRAFT_FILE", "GIT_SHALLOW_FILE", "GIT_NAMESPACE",
			"GIT_CONFIG", "GIT_CONFIG_GLOBAL", "GIT_CONFIG_SYSTEM", "GIT_CONFIG_PARAMETERS",
			"GIT_CONFIG_COUNT":
			return fmt.Errorf("read git environment: %s is set: %w", k, errUnsupported)
		}
	}
	return nil
}

// repo is the part of a repository's layout the log needs.
type repo struct {
	gitDir  string // this worktree's git folder: HEAD, per-worktree refs
	common  string // the common folder: objects, refs, packed-refs
	packed  []byte // packed-refs, nil when absent
	shallow map[oid]bool
}

// openRepo resolves the common folder of gitDir, reads its configuration
// and the user's, and refuses the features the reader does not handle.
func openRepo(gitDir string, env []string) (*repo, error) {
	r := &repo{gitDir: gitDir, common: gitDir}
	if data, err := readFile(filepath.Join(gitDir, "commondir")); err == nil {
		c := strings.TrimSpace(string(data))
		if !filepath.IsAbs(c) {
			c = filepath.Join(gitDir, c)
		}
		r.common = c
	} else if !errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("read commondir %s: %w", gitDir, err)
	}
	for _, f := range configFiles(r, env) {
		data, err := readFile(f)
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) || errors.Is(err, fs.ErrPermission) {
				continue
			}
			return nil, fmt.Errorf("read git config %s: %w", f, err)
		}
		if err := checkConfig(data); err != nil {
			return nil, fmt.Errorf("read git config %s: %w", f, err)
		}
	}
	for _, name := range []string{"info/grafts", "reftable"} {
		if _, err := os.Stat(filepath.Join(r.common, filepath.FromSlash(name))); err == nil {
			return nil, fmt.Errorf("open repository %s: %s: %w", r.common, name, errUnsupported)
		}
	}
	if entries, _ := os.ReadDir(filepath.Join(r.common, "refs", "replace")); len(entries) > 0 {
		return nil, fmt.Errorf("open repository %s: refs/replace: %w", r.common, errUnsupported)
	}
	packed, err := readFile(filepath.Join(r.common, "packed-refs"))
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("read packed-refs %s: %w", r.common, err)
	}
	if bytes.Contains(packed, []byte(" refs/replace/")) {
		return nil, fmt.Errorf("open repository %s: refs/replace in packed-refs: %w", r.common, errUnsupported)
	}
	r.packed = packed
	shallow, err := readFile(filepath.Join(r.common, "shallow"))
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("read shallow %s: %w", r.common, err)
	}
	for line := range bytes.Lines(shallow) {
		id, ok := parseOID(bytes.TrimSpace(line))
		if !ok {
			return nil, fmt.Errorf("read shallow %s: bad line %q", r.common, line)
		}
		if r.shallow == nil {
			r.shallow = map[oid]bool{}
		}
		r.shallow[id] = true
	}
	return r, nil
}

// configFiles lists the configuration files git reads, system first.
// The system file's place depends on how git was built; the usual ones
// are all checked.
func configFiles(r *repo, env []string) []string {
	get := func(k string) string {
		v := ""
		for _, kv := range env {
			if val, ok := strings.CutPrefix(kv, k+"="); ok {
				v = val // the last one wins, as in exec
			}
		}
		return v
	}
	var files []string
	if !gitBool(get("GIT_CONFIG_NOSYSTEM")) {
		files = append(files, "/etc/gitconfig", "/usr/local/etc/gitconfig", "/opt/homebrew/etc/gitconfig")
	}
	home := get("HOME")
	if x := get("XDG_CONFIG_HOME"); x != "" {
		files = append(files, filepath.Join(x, "git", "config"))
	} else if home != "" {
		files = append(files, filepath.Join(home, ".config", "git", "config"))
	}
	if home != "" {
		files = append(files, filepath.Join(home, ".gitconfig"))
	}
	return append(files, filepath.Join(r.common, "config"), filepath.Join(r.gitDir, "config.worktree"))
}

// gitBool reads a boolean as git does for environment variables.
func gitBool(v string) bool {
	switch strings.ToLower(strings.TrimSpace(v)) {
	case "", "0", "false", "no", "off":
		return false
	}
	return true
}

// checkConfig looks through one configuration file for the settings
// that change what git log prints or where git finds objects and refs.
// It is a simple reader of sections and keys, enough to notice them.
func checkConfig(data []byte) error {
	section, cont := "", false
	for raw := range bytes.Lines(data) {
		line := strings.TrimSpace(string(raw))
		wasCont := cont
		cont = strings.HasSuffix(line, `\`)
		if wasCont {
			continue // the rest of a value
		}
		if strings.HasPrefix(line, "[") {
			end := headerEnd(line)
			if end < 0 {
				return fmt.Errorf("bad section line %q: %w", line, errUnsupported)
			}
			name := strings.ToLower(line[1:end])
			if i := strings.IndexAny(name, " \t."); i >= 0 {
				name = name[:i]
			}
			section = name
			if section == "include" || section == "includeif" {
				return fmt.Errorf("[%s]: %w", section, errUnsupported)
			}
			line = strings.TrimSpace(line[end+1:])
		}
		if line == "" || line[0] == '#' || line[0] == ';' {
			continue
		}
		key, value, _ := strings.Cut(line, "=")
		key = strings.ToLower(strings.TrimSpace(key))
		value = configValue(value)
		if err := blockedSetting(section, key, value); err != nil {
			return err
		}
	}
	return nil
}

// headerEnd finds the "]" closing a section header, skipping a quoted
// subsection name.
func headerEnd(line string) int {
	quoted := false
	for i := 1; i < len(line); i++ {
		switch c := line[i]; {
		case c == '\\' && quoted:
			i++
		case c == '"':
			quoted = !quoted
		case c == ']' && !quoted:
			return i
		}
	}
	return -1
}

// configValue strips a value's comment and quotes, roughly.
func configValue(v string) string {
	if i := strings.IndexAny(v, "#;"); i >= 0 && !strings.Contains(v[:i], `"`) {
		v = v[:i]
	}
	return strings.ToLower(strings.Trim(strings.TrimSpace(v), `"`))
}

// blockedSetting says whether section.key=value changes the log or the
// repository layout.
func blockedSetting(section, key, value string) error {
	bad := false
	switch section + "." + key {
	case "core.abbrev":
		bad = true
	case "i18n.logoutputencoding", "i18n.commitencoding":
		bad = value != "utf-8" && value != "utf8"
	case "log.showsignature":
		bad = value != "false" && value != "no" && value != "off" && value != "0"
	case "extensions.objectformat":
		bad = value != "sha1"
	case "extensions.refstorage":
		bad = value != "files"
	case "extensions.compatobjectformat":
		bad = true
	case "core.multipackindex":
		bad = !gitBool(value) && value != "" // false: git ignores the multi-pack-index
	}
	if bad {
		return fmt.Errorf("%s.%s = %q: %w", section, key, value, errUnsupported)
	}
	return nil
}

// resolveHead reads HEAD and follows symbolic refs to a commit id. ok is
// false when HEAD names a branch that does not exist yet.
func (r *repo) resolveHead() (id oid, ok bool, err error) {
	data, err := readFile(filepath.Join(r.gitDir, "HEAD"))
	if err != nil {
		return id, false, fmt.Errorf("read HEAD %s: %w", r.gitDir, err)
	}
	for range maxSymrefDepth + 1 {
		content := strings.TrimRight(string(data), " \t\r\n")
		target, sym := strings.CutPrefix(content, "ref:")
		if !sym {
			id, ok := parseOID([]byte(content))
			if !ok {
				return id, false, fmt.Errorf("read HEAD %s: bad ref content %q", r.gitDir, content)
			}
			return id, true, nil
		}
		name := strings.TrimSpace(target)
		if !validRefName(name) {
			return id, false, fmt.Errorf("read HEAD %s: bad ref name %q", r.gitDir, name)
		}
		var found bool
		data, found, err = r.readRef(name)
		if err != nil || !found {
			return id, false, err
		}
	}
	return id, false, fmt.Errorf("read HEAD %s: more than %d symbolic refs", r.gitDir, maxSymrefDepth)
}

// validRefName accepts the names under refs/ that are safe as paths.
func validRefName(name string) bool {
	if !strings.HasPrefix(name, "refs/") || strings.ContainsAny(name, "\\\x00 ~^:?*[") {
		return false
	}
	for part := range strings.SplitSeq(name, "/") {
		if part == "" || part[0] == '.' || strings.HasSuffix(part, ".lock") {
			return false
		}
	}
	return true
}

// readRef returns the content of a ref as a loose file holds it: from
// its loose file (this worktree's for per-worktree refs) or else as a
// "<id>" line built from packed-refs.
func (r *repo) readRef(name string) (data []byte, found bool, err error) {
	dir := r.common
	for _, p := range []string{"refs/bisect/", "refs/worktree/", "refs/rewritten/"} {
		if strings.HasPrefix(name, p) {
			dir = r.gitDir
		}
	}
	path := filepath.Join(dir, filepath.FromSlash(name))
	data, err = readFile(path)
	if err == nil {
		return data, true, nil
	}
	if !errors.Is(err, fs.ErrNotExist) {
		// A folder of refs (or a file in the way of one) is no ref.
		if fi, serr := os.Stat(path); serr == nil && !fi.IsDir() {
			return nil, false, fmt.Errorf("read ref %s: %w", name, err)
		}
	}
	if dir != r.common {
		return nil, false, nil
	}
	for line := range bytes.Lines(r.packed) {
		line = bytes.TrimRight(line, "\r\n")
		if len(line) < hexLen+1 || line[0] == '#' || line[0] == '^' {
			continue
		}
		if line[hexLen] == ' ' && string(line[hexLen+1:]) == name {
			return line[:hexLen], true, nil
		}
	}
	return nil, false, nil
}

// logCommit is one commit as the walk needs it.
type logCommit struct {
	id      oid
	parents []oid
	date    uint64
	subject string
	seq     int // order of insertion, to break ties of date as git does
}

// commitQueue orders commits newest first by committer date, then by
// insertion, like git's commit_list_insert_by_date.
type commitQueue []*logCommit

func (q commitQueue) Len() int { return len(q) }
func (q commitQueue) Less(i, j int) bool {
	if q[i].date != q[j].date {
		return q[i].date > q[j].date
	}
	return q[i].seq < q[j].seq
}
func (q commitQueue) Swap(i, j int) { q[i], q[j] = q[j], q[i] }
func (q *commitQueue) Push(x any)   { *q = append(*q, x.(*logCommit)) }
func (q *commitQueue) Pop() any {
	old := *q
	c := old[len(old)-1]
	*q = old[:len(old)-1]
	return c
}

// walkLog walks the history from head as git log does by default and
// formats the first n commits. Like git, it reads the parents of every
// commit it shows, to place them in the queue.
func walkLog(store *objectStore, head oid, n int, shallow map[oid]bool) ([]string, error) {
	minLen := defaultAbbrev(store.approxObjectCount())
	seen := map[oid]bool{head: true}
	seq := 0
	load := func(id oid) (*logCommit, error) {
		c, err := loadCommit(store, id)
		if err != nil {
			return nil, err
		}
		if shallow[id] {
			c.parents = nil
		}
		c.seq = seq
		seq++
		return c, nil
	}
	first, err := load(head)
	if err != nil {
		return nil, err
	}
	q := commitQueue{first}
	var out []string
	for len(q) > 0 && len(out) < n {
		c := heap.Pop(&q).(*logCommit)
		for _, p := range c.parents {
			if seen[p] {
				continue
			}
			seen[p] = true
			pc, err := load(p)
			if err != nil {
				return nil, err
			}
			heap.Push(&q, pc)
		}
		l, err := store.abbrevLen(c.id, minLen)
		if err != nil {
			return nil, fmt.Errorf("abbreviate %s: %w", c.id, err)
		}
		out = append(out, c.id.String()[:l]+" "+c.subject)
	}
	return out, nil
}

// defaultAbbrev is git's automatic abbreviation length for a repository
// of about count objects: half the bits needed to count them, in hex
// digits rounded up, and at least 7.
func defaultAbbrev(count uint64) int {
	bits := 0
	for count >>= 1; count > 0; count >>= 1 {
		bits++
	}
	n := (bits + 1 + 1) / 2
	return max(n, 7)
}

// loadCommit reads and parses commit id.
func loadCommit(store *objectStore, id oid) (*logCommit, error) {
	typ, data, err := store.readObject(id)
	if err != nil {
		return nil, err
	}
	if typ != objCommit {
		return nil, fmt.Errorf("read commit %s: object is a %s: %w", id, typeName(typ), errUnsupported)
	}
	c, err := parseCommit(data)
	if err != nil {
		return nil, fmt.Errorf("parse commit %s: %w", id, err)
	}
	c.id = id
	return c, nil
}

func typeName(typ int) string {
	return [...]string{"", "commit", "tree", "blob", "tag", "", "", ""}[typ&7]
}
