package trust

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"reins/internal/settings"
)

// FileName is the trust record file in the user config folder.
const FileName = "trust.json"

// Store answers and records trust decisions. Its methods are safe for
// concurrent use.
type Store struct {
	// ConfigDir is reins' user config folder, where trust.json lives.
	ConfigDir string
	// ClaudeJSON is Claude Code's global config file, whose trusted
	// projects are honoured ("" means ~/.claude.json; see ClaudeJSONPath).
	ClaudeJSON string
	// Home is the user's home folder, trusted for the session only.
	Home string
	// Now is the clock (nil means time.Now).
	Now func() time.Time

	mu      sync.Mutex // guards session
	session []string   // folders trusted for this session only
}

// record is the content of trust.json.
type record struct {
	Folders []entry `json:"folders"`
}

type entry struct {
	Path    string `json:"path"`
	Trusted string `json:"trustedAt"`
}

// ProjectPath is the folder a trust decision is about: the enclosing git
// work tree's root, else dir itself.
func ProjectPath(dir string) string {
	dir = filepath.Clean(dir)
	for d := dir; ; {
		if _, err := os.Stat(filepath.Join(d, ".git")); err == nil {
			return d
		}
		parent := filepath.Dir(d)
		if parent == d {
			return dir
		}
		d = parent
	}
}

// IsTrusted reports whether dir or one of its parents is trusted, by this
// session, by reins' records, or by Claude Code's.
func (s *Store) IsTrusted(dir string) (bool, error) {
	dir = clean(dir)
	if real, err := filepath.EvalSymlinks(dir); err == nil && real != dir {
		if ok, err := s.isTrusted(real); ok || err != nil {
			return ok, err
		}
	}
	return s.isTrusted(dir)
}

func (s *Store) isTrusted(dir string) (bool, error) {
	s.mu.Lock()
	for _, p := range s.session {
		if within(dir, p) {
			s.mu.Unlock()
			return true, nil
		}
	}
	s.mu.Unlock()
	rec, err := s.read()
	if err != nil {
		return false, err
	}
	for _, e := range rec.Folders {
		if within(dir, clean(e.Path)) {
			return true, nil
		}
	}
	for _, p := range s.claudeTrusted() {
		if within(dir, clean(p)) {
			return true, nil
		}
	}
	return false, nil
}

// Trust records that the user trusts dir. The home folder and the file
// system root are trusted for this session only. It reports whether the
// decision was written down.
func (s *Store) Trust(dir string) (persisted bool, err error) {
	dir = clean(dir)
	if dir == "" || dir == clean(s.Home) || dir == string(filepath.Separator) {
		s.mu.Lock()
		s.session = append(s.session, dir)
		s.mu.Unlock()
		return false, nil
	}
	now := time.Now
	if s.Now != nil {
		now = s.Now
	}
	path := filepath.Join(s.ConfigDir, FileName)
	err = settings.UpdateFile(path, 0o600, func(old []byte) ([]byte, error) {
		var rec record
		if len(strings.TrimSpace(string(old))) > 0 {
			if err := json.Unmarshal(old, &rec); err != nil {
				return nil, fmt.Errorf("trust records are not valid JSON, not changed: %w", err)
			}
		}
		if !slices.ContainsFunc(rec.Folders, func(e entry) bool { return clean(e.Path) == dir }) {
			rec.Folders = append(rec.Folders, entry{Path: dir, Trusted: now().UTC().Format(time.RFC3339)})
		}
		out, err := json.MarshalIndent(rec, "", "  ")
		return append(out, '\n'), err
	})
	if err != nil {
		return false, fmt.Errorf("trust %s: %w", dir, err)
	}
	return true, nil
}

func (s *Store) read() (record, error) {
	var rec record
	path := filepath.Join(s.ConfigDir, FileName)
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return rec, nil
	}
	if err != nil {
		return rec, fmt.Errorf("read trust records %s: %w", path, err)
	}
	if err := json.Unmarshal(data, &rec); err != nil {
		return rec, fmt.Errorf("read trust records %s: %w", path, err)
	}
	return rec, nil
}

// claudeTrusted lists the folders Claude Code's config marks trusted.
// Problems reading it are not errors: it is not our file.
func (s *Store) claudeTrusted() []string {
	path := s.ClaudeJSON
	if path == "" {
		if s.Home == "" {
			return nil
		}
		path = filepath.Join(s.Home, ".claude.json")
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil
	}
	var cfg struct {
		Projects map[string]struct {
			HasTrustDialogAccepted bool `json:"hasTrustDialogAccepted"`
		} `json:"projects"`
	}
	if json.Unmarshal(data, &cfg) != nil {
		return nil
	}
	var out []string
	for p, v := range cfg.Projects {
		// Claude Code never persists home trust; ignore it if present.
		if v.HasTrustDialogAccepted && clean(p) != clean(s.Home) {
			out = append(out, p)
		}
	}
	return out
}

// ClaudeJSONPath is where Claude Code keeps its global config: a legacy
// .config.json in its config folder when present, else .claude.json in
// $CLAUDE_CONFIG_DIR when set, else ~/.claude.json.
func ClaudeJSONPath(getenv func(string) string, home string) string {
	if getenv == nil {
		getenv = os.Getenv
	}
	dir := settings.ClaudeConfigDir(getenv, home)
	if legacy := filepath.Join(dir, ".config.json"); fileExists(legacy) {
		return legacy
	}
	if d := getenv("CLAUDE_CONFIG_DIR"); d != "" {
		return filepath.Join(d, ".claude.json")
	}
	return filepath.Join(home, ".claude.json")
}

func fileExists(p string) bool {
	st, err := os.Stat(p)
	return err == nil && !st.IsDir()
}

func clean(p string) string {
	if p == "" {
		return ""
	}
	if abs, err := filepath.Abs(p); err == nil {
		p = abs
	}
	return filepath.Clean(p)
}

// within reports whether dir is root or below it.
func within(dir, root string) bool {
	if root == "" {
		return false
	}
	if dir == root {
		return true
	}
	if root == string(filepath.Separator) {
		return strings.HasPrefix(dir, root)
	}
	return strings.HasPrefix(dir, root+string(filepath.Separator))
}
