package session

import (
	"path/filepath"
	"strconv"
	"unicode/utf16"

	"github.com/google/uuid"
)

// ConfigDirEnv names the environment variable that moves the user config
// folder away from ~/.reins.
const ConfigDirEnv = "REINS_CONFIG_DIR"

// ConfigDir returns the user config folder: $REINS_CONFIG_DIR when set,
// else home/.reins. getenv nil means no environment.
func ConfigDir(getenv func(string) string, home string) string {
	if getenv != nil {
		if d := getenv(ConfigDirEnv); d != "" {
			return d
		}
	}
	return filepath.Join(home, ".reins")
}

// MaxSlugLen is the longest project-folder name kept as is; longer names
// are cut to this length and given a hash suffix.
const MaxSlugLen = 200

// Slug returns the project-folder name for a working folder, as Claude Code
// derives it: every character outside [A-Za-z0-9] becomes "-" (counting
// UTF-16 code units, as JavaScript does, so a character outside the Basic
// Multilingual Plane becomes "--"); a result longer than MaxSlugLen is cut
// to MaxSlugLen and suffixed with "-" and a base-36 hash of the folder.
func Slug(cwd string) string {
	units := utf16.Encode([]rune(cwd))
	b := make([]byte, len(units))
	for i, u := range units {
		if u < 0x80 && isAlnum(byte(u)) {
			b[i] = byte(u)
		} else {
			b[i] = '-'
		}
	}
	if len(b) <= MaxSlugLen {
		return string(b)
	}
	return string(b[:MaxSlugLen]) + "-" + slugHash(units)
}

func isAlnum(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// slugHash is the 32-bit "h = h*31 + unit" string hash over UTF-16 code
// units, made non-negative and written in base 36.
func slugHash(units []uint16) string {
	var h int32
	for _, u := range units {
		h = h*31 + int32(u) // wraps like JavaScript's (h << 5) - h + c | 0
	}
	v := int64(h)
	if v < 0 {
		v = -v
	}
	return strconv.FormatInt(v, 36)
}

// Store locates transcripts under a user config folder. The zero value is
// not usable; set Root.
type Store struct {
	// Root is the user config folder (see ConfigDir). Transcripts are
	// written only here.
	Root string
	// Also are further config folders searched read-only by Find (for
	// example ~/.claude, to resume a session Claude Code recorded).
	Also []string
}

// ProjectsDir is the folder holding one folder per project.
func (s Store) ProjectsDir() string { return filepath.Join(s.Root, "projects") }

// ProjectDir is the folder holding the transcripts of sessions started in
// cwd. Pass cwd absolute and with symbolic links resolved, so that one
// project always maps to one folder.
func (s Store) ProjectDir(cwd string) string {
	return filepath.Join(s.ProjectsDir(), Slug(cwd))
}

// TranscriptPath is projects/<slug>/<id>.jsonl.
func (s Store) TranscriptPath(cwd, id string) string {
	return filepath.Join(s.ProjectDir(cwd), id+".jsonl")
}

// SessionDir is projects/<slug>/<id>/, the folder of a session's side
// files.
func (s Store) SessionDir(cwd, id string) string {
	return filepath.Join(s.ProjectDir(cwd), id)
}

// ToolResultsDir is projects/<slug>/<id>/tool-results/, where oversized
// tool results are persisted (tool.ResultStore.Dir).
func (s Store) ToolResultsDir(cwd, id string) string {
	return filepath.Join(s.SessionDir(cwd, id), "tool-results")
}

// IsID reports whether s has the form of a session id: a UUID in its
// canonical 36-character form, as Claude Code and reins name transcripts.
func IsID(s string) bool {
	if len(s) != 36 {
		return false
	}
	_, err := uuid.Parse(s)
	return err == nil
}
