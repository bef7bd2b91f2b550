package gitinfo

// This file computes what `git status --short` prints from the
// repository's files, so that the start-up snapshot needs no git
// process. It reproduces git's default behaviour only; any setting,
// index feature or path it does not reproduce exactly is an error
// wrapping errUnsupported, and the caller runs git.

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"unicode/utf8"
)

// nativeStatus returns exactly what `git -c core.quotepath=off status
// --short` prints when run at worktree, the top of the work tree whose
// git folder is gitDir (which must be worktree/.git): one "XY path\n"
// line per changed path in path order, then one "?? path\n" line per
// untracked file or folder, "" for a clean tree. env (nil: this
// process's environment) supplies HOME and XDG_CONFIG_HOME and is
// checked for variables that change git's behaviour. It gives up with
// ctx's error once ctx ends (a huge or slow work tree).
//
// An error wrapping errUnsupported means git could print something
// else (see the package's tests for the list); any other error means a
// file could not be read or is damaged. Either way the caller should
// run git.
func nativeStatus(ctx context.Context, gitDir, worktree string, env []string) (string, error) {
	if !statSupported {
		return "", fmt.Errorf("status on this system: %w", errUnsupported)
	}
	if env == nil {
		env = os.Environ()
	}
	if err := checkStatusEnv(env); err != nil {
		return "", err
	}
	if filepath.Clean(gitDir) != filepath.Join(worktree, ".git") {
		return "", fmt.Errorf("status: git folder %s is not %s/.git: %w", gitDir, worktree, errUnsupported)
	}
	if err := checkRepoLayout(gitDir, worktree); err != nil {
		return "", err
	}
	r, err := openRepo(gitDir, env)
	if err != nil {
		return "", err
	}
	if r.common != gitDir {
		return "", fmt.Errorf("status: linked worktree: %w", errUnsupported)
	}
	cfg, err := readStatusConfig(r, env)
	if err != nil {
		return "", err
	}
	ix, indexTime, err := readIndexFile(filepath.Join(gitDir, "index"))
	if err != nil {
		return "", err
	}
	if len(ix.entries) > maxNativeEntries {
		// A large tree: git's untracked cache and file-system monitor can
		// answer faster than a full walk, so let git answer.
		return "", fmt.Errorf("status: %d index entries: %w", len(ix.entries), errUnsupported)
	}
	head, born, err := r.resolveHead()
	if err != nil {
		return "", err
	}
	staged := map[string]byte{}
	if born {
		store, err := openObjectStore(filepath.Join(r.common, "objects"))
		if err != nil {
			return "", err
		}
		defer store.close()
		root, err := commitTree(store, head)
		if err != nil {
			return "", err
		}
		if staged, err = stagedChanges(store, root, ix); err != nil {
			return "", err
		}
	} else {
		for _, e := range ix.entries {
			staged[e.path] = 'A'
		}
	}
	attrs, err := newAttrCheck(worktree, gitDir, cfg, ix, env)
	if err != nil {
		return "", err
	}
	w := &worktreeCheck{
		top:       worktree,
		cfg:       statConfigView{fileMode: cfg.fileMode, trustCtime: cfg.trustCtime, crlf: cfg.crlf},
		indexTime: indexTime,
		dirs:      map[string]bool{},
		attrs:     attrs,
	}
	changes := map[string][2]byte{}
	for path, x := range staged {
		changes[path] = [2]byte{x, ' '}
	}
	for i := range ix.entries {
		if i%512 == 0 && ctx.Err() != nil {
			return "", fmt.Errorf("status: %w", ctx.Err())
		}
		e := &ix.entries[i]
		y, err := w.state(e)
		if err != nil {
			return "", err
		}
		if y == 0 {
			continue
		}
		c, ok := changes[e.path]
		if !ok {
			c[0] = ' '
		}
		c[1] = y
		changes[e.path] = c
	}
	untracked, err := findUntracked(ctx, worktree, gitDir, ix, cfg, env)
	if err != nil {
		return "", err
	}
	return formatStatus(changes, untracked)
}

// maxNativeEntries is the largest index nativeStatus reads: beyond it a
// walk of the whole work tree may take longer than git with its caches.
const maxNativeEntries = 20000

// checkStatusEnv refuses an environment under which git would read
// another index or work tree, or other configuration.
func checkStatusEnv(env []string) error {
	if err := checkEnv(env); err != nil {
		return err
	}
	for _, kv := range env {
		k, v, _ := strings.Cut(kv, "=")
		if v == "" {
			continue
		}
		switch {
		case k == "GIT_DIR", k == "GIT_WORK_TREE", k == "GIT_INDEX_FILE", k == "GIT_PREFIX",
			strings.HasPrefix(k, "GIT_TEST_"):
			return fmt.Errorf("read git environment: %s is set: %w", k, errUnsupported)
		}
	}
	return nil
}

// checkRepoLayout checks that git would use gitDir for worktree: a
// folder holding HEAD, objects and refs, owned (like the work tree) by
// this user, so that git's safe.directory check passes.
func checkRepoLayout(gitDir, worktree string) error {
	for _, p := range []string{gitDir, filepath.Join(gitDir, "objects"), filepath.Join(gitDir, "refs")} {
		fi, err := os.Lstat(p)
		if err != nil || !fi.IsDir() {
			return fmt.Errorf("status: %s is not a folder: %w", p, errUnsupported)
		}
	}
	euid := uint32(os.Geteuid())
	for _, p := range []string{gitDir, worktree} {
		st, err := lstatData(p)
		if err != nil {
			return fmt.Errorf("status: %w", err)
		}
		if st.uid != euid {
			return fmt.Errorf("status: %s is owned by uid %d: %w", p, st.uid, errUnsupported)
		}
	}
	return nil
}

// readIndexFile reads and parses the index, with its modification time.
// A missing index is an empty one.
func readIndexFile(name string) (*gitIndex, [2]uint32, error) {
	var when [2]uint32
	f, err := openFile(name)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return &gitIndex{}, when, nil
		}
		return nil, when, fmt.Errorf("read index: %w", err)
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, when, fmt.Errorf("stat index %s: %w", name, err)
	}
	data := make([]byte, fi.Size())
	if _, err := f.ReadAt(data, 0); err != nil {
		return nil, when, fmt.Errorf("read index %s: %w", name, err)
	}
	ix, err := parseIndex(data)
	if err != nil {
		return nil, when, fmt.Errorf("%s: %w", name, err)
	}
	sd, err := lstatData(name)
	if err != nil {
		return nil, when, err
	}
	when = [2]uint32{sd.mtimeSec, sd.mtimeNsec}
	return ix, when, nil
}

// newAttrCheck finds the attributes files in force: the global ones and
// every .gitattributes the index lists. Each is read; one naming a
// converting attribute, or listed but missing from the work tree (git
// would read it from the index), is errUnsupported.
func newAttrCheck(top, gitDir string, cfg statusConfig, ix *gitIndex, env []string) (*attrCheck, error) {
	a := &attrCheck{top: top, dirs: map[string]bool{}}
	globals := []string{"/etc/gitattributes", "/usr/local/etc/gitattributes", filepath.Join(gitDir, "info", "attributes")}
	if cfg.attributesFile != "" {
		p, err := expandConfigPath(cfg.attributesFile, top, env)
		if err != nil {
			return nil, err
		}
		globals = append(globals, p)
	} else if p := xdgGitFile(env, "attributes"); p != "" {
		globals = append(globals, p)
	}
	for _, g := range globals {
		exists, err := checkAttrFile(g)
		if err != nil {
			return nil, err
		}
		a.global = a.global || exists
	}
	for _, e := range ix.entries {
		if e.path != ".gitattributes" && !strings.HasSuffix(e.path, "/.gitattributes") {
			continue
		}
		exists, err := checkAttrFile(top + "/" + e.path)
		if err != nil {
			return nil, err
		}
		if !exists {
			return nil, fmt.Errorf("status: %s is deleted: %w", e.path, errUnsupported)
		}
		a.dirs[parentDir(e.path)] = true
	}
	return a, nil
}

// formatStatus prints the changes in path order, then the untracked
// paths. A path git would quote is errUnsupported.
func formatStatus(changes map[string][2]byte, untracked []string) (string, error) {
	paths := make([]string, 0, len(changes))
	for p := range changes {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	var b strings.Builder
	for _, p := range paths {
		if !plainPath(p) {
			return "", fmt.Errorf("status: path %q would be quoted: %w", p, errUnsupported)
		}
		c := changes[p]
		b.WriteByte(c[0])
		b.WriteByte(c[1])
		b.WriteByte(' ')
		b.WriteString(p)
		b.WriteByte('\n')
	}
	slices.Sort(untracked)
	for _, p := range untracked {
		if !plainPath(p) {
			return "", fmt.Errorf("status: path %q would be quoted: %w", p, errUnsupported)
		}
		b.WriteString("?? ")
		b.WriteString(p)
		b.WriteByte('\n')
	}
	return b.String(), nil
}

// plainPath reports whether git prints p as it is with
// core.quotepath=off in the short format: valid UTF-8 without spaces,
// quotes, backslashes or control characters.
func plainPath(p string) bool {
	for i := 0; i < len(p); i++ {
		if c := p[i]; c <= ' ' || c == '"' || c == '\\' || c == 0x7f {
			return false
		}
	}
	return utf8.ValidString(p)
}
