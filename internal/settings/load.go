package settings

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"reins/internal/fsutil"
)

// DefaultManagedPaths are the managed-policy files, highest first:
// reins's own, then Claude Code's (Linux, then macOS). Beside each, the
// drop-in folder named like it with ".d" for ".json"
// (/etc/claude-code/managed-settings.d/) holds more policy files.
var DefaultManagedPaths = []string{
	"/etc/reins/managed-settings.json",
	"/etc/claude-code/managed-settings.json",
	"/Library/Application Support/ClaudeCode/managed-settings.json",
}

// ManagedDirEnv names the environment variable that points at a folder
// holding a managed-settings.json and a managed-settings.d/ folder, used
// as the managed policy when none is installed at DefaultManagedPaths
// (for tests, and for trying a policy out before installing it). An
// installed policy always wins: the variable is then ignored with a
// warning, so that it cannot lift a policy.
const ManagedDirEnv = "REINS_MANAGED_SETTINGS_DIR"

// Options says where Load looks. The zero value loads every source for the
// process's working folder and home.
type Options struct {
	// Cwd is the working folder ("" means os.Getwd).
	Cwd string
	// ProjectDir holds the project's .claude/ and .reins/ folders ("" means
	// Cwd).
	ProjectDir string
	// Home is the user's home folder ("" means os.UserHomeDir).
	Home string
	// ConfigDir is reins' user config folder ("" means $REINS_CONFIG_DIR,
	// else ~/.reins).
	ConfigDir string
	// ClaudeDir is Claude Code's user config folder ("" means
	// $CLAUDE_CONFIG_DIR, else ~/.claude).
	ClaudeDir string
	// CLISettings is the --settings value: a file path or inline JSON.
	CLISettings string
	// FlagOverlay changes the flag layer (CLISettings) at run time, as
	// the SDK's apply_flag_settings does: each key replaces the layer's
	// value, a null removes it. Check it with CheckOverlay first.
	FlagOverlay map[string]json.RawMessage
	// Sources are the file sources --setting-sources selects, among
	// SourceUser, SourceProject and SourceLocal. nil loads all three; an
	// empty non-nil slice loads none. Managed policy and --settings always
	// load.
	Sources []Source
	// Trusted says the project folder is trusted; before that its files
	// apply only their safe subset.
	Trusted bool
	// ParentManaged is policy settings, as inline JSON, from the program
	// that started reins (--managed-settings, the Agent SDK's
	// managedSettings option). It applies as the policy tier when no
	// managed policy is installed (one that is wins, and this is dropped
	// with a warning), and only its restrictive part: the rest is dropped
	// with a warning naming the keys.
	ParentManaged string
	// ManagedPaths are the managed-policy files, highest first (nil means
	// DefaultManagedPaths, or the folder ManagedDirEnv names when no
	// policy is installed there). Each file's drop-in folder (the path
	// with ".json" replaced by ".d") is read too.
	ManagedPaths []string
	// Getenv reads the environment (nil means os.Getenv).
	Getenv func(string) string
}

// ParseSources parses a --setting-sources value such as "user,project,local".
// An empty value selects no file sources.
func ParseSources(s string) ([]Source, error) {
	out := []Source{}
	for _, part := range strings.FieldsFunc(s, func(r rune) bool { return r == ',' || r == ' ' }) {
		switch part {
		case "user":
			out = append(out, SourceUser)
		case "project":
			out = append(out, SourceProject)
		case "local":
			out = append(out, SourceLocal)
		default:
			return nil, fmt.Errorf("--setting-sources: unknown source %q (want user, project or local)", part)
		}
	}
	return out, nil
}

// resolve fills the defaults of o.
func (o Options) resolve() (Options, error) {
	if o.Getenv == nil {
		o.Getenv = os.Getenv
	}
	if o.Cwd == "" {
		wd, err := os.Getwd()
		if err != nil {
			return o, fmt.Errorf("load settings: working folder: %w", err)
		}
		o.Cwd = wd
	}
	if o.ProjectDir == "" {
		o.ProjectDir = o.Cwd
	}
	if o.Home == "" {
		h, err := os.UserHomeDir()
		if err != nil {
			h = ""
		}
		o.Home = h
	}
	if o.ConfigDir == "" {
		o.ConfigDir = UserConfigDir(o.Getenv, o.Home)
	}
	if o.ClaudeDir == "" {
		o.ClaudeDir = ClaudeConfigDir(o.Getenv, o.Home)
	}
	return o, nil
}

// managedPaths says which managed-policy files Load reads: the ones given,
// else the defaults, else (when nothing is installed at the defaults) the
// folder ManagedDirEnv names.
func (o Options) managedPaths() ([]string, []Warning) {
	if o.ManagedPaths != nil {
		return o.ManagedPaths, nil
	}
	dir := strings.TrimSpace(o.Getenv(ManagedDirEnv))
	if dir == "" {
		return DefaultManagedPaths, nil
	}
	for _, p := range DefaultManagedPaths {
		for _, q := range []string{p, dropInDir(p)} {
			if _, err := os.Lstat(q); err == nil {
				return DefaultManagedPaths, []Warning{{Message: fmt.Sprintf(
					"%s is ignored: a managed policy is installed at %s, and it cannot be replaced", ManagedDirEnv, q)}}
			}
		}
	}
	dir = expandHome(dir, o.Home)
	if !filepath.IsAbs(dir) {
		dir = filepath.Join(o.Cwd, dir)
	}
	return []string{filepath.Join(dir, "managed-settings.json")}, nil
}

// dropInDir is the drop-in folder of a managed-policy file:
// managed-settings.json → managed-settings.d.
func dropInDir(path string) string {
	return strings.TrimSuffix(path, ".json") + ".d"
}

// dropIns lists the policy files of path's drop-in folder, as Claude Code
// reads them: the *.json files in name order (a later name wins a scalar),
// hidden files left out. A folder that does not exist holds none; one that
// cannot be read is an error, as policy fails closed.
func dropIns(path string) ([]string, error) {
	dir := dropInDir(path)
	entries, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read managed settings folder %s: %w", dir, err)
	}
	var out []string
	for _, e := range entries { // os.ReadDir sorts by name
		name := e.Name()
		if strings.HasPrefix(name, ".") || !strings.HasSuffix(name, ".json") {
			continue
		}
		out = append(out, filepath.Join(dir, name))
	}
	return out, nil
}

// UserConfigDir is reins' user config folder: $REINS_CONFIG_DIR, else
// ~/.reins. getenv nil means os.Getenv.
func UserConfigDir(getenv func(string) string, home string) string {
	if getenv == nil {
		getenv = os.Getenv
	}
	if d := getenv("REINS_CONFIG_DIR"); d != "" {
		return d
	}
	return filepath.Join(home, ".reins")
}

// ClaudeConfigDir is Claude Code's user config folder: $CLAUDE_CONFIG_DIR,
// else ~/.claude.
func ClaudeConfigDir(getenv func(string) string, home string) string {
	if getenv == nil {
		getenv = os.Getenv
	}
	if d := getenv("CLAUDE_CONFIG_DIR"); d != "" {
		return d
	}
	return filepath.Join(home, ".claude")
}

// candidate is a file Load considers.
type candidate struct {
	path   string
	source Source
	root   string
	inline []byte // --settings given as JSON
	// parent marks the policy settings of the program that started
	// reins (Options.ParentManaged).
	parent bool
}

// candidates lists the files of every selected source, highest first.
// Each managed file comes after its drop-ins, the last-named first.
func (o Options) candidates(managed []string) ([]candidate, error) {
	var out []candidate
	for _, p := range managed {
		extra, err := dropIns(p)
		if err != nil {
			return nil, err
		}
		for i := len(extra) - 1; i >= 0; i-- {
			out = append(out, candidate{path: extra[i], source: SourcePolicy, root: o.Cwd})
		}
		out = append(out, candidate{path: p, source: SourcePolicy, root: o.Cwd})
	}
	if s := strings.TrimSpace(o.ParentManaged); s != "" {
		out = append(out, candidate{path: parentManagedName, source: SourcePolicy, root: o.Cwd, inline: []byte(s), parent: true})
	}
	if strings.TrimSpace(o.CLISettings) == "" && len(o.FlagOverlay) > 0 {
		out = append(out, candidate{path: "flag settings", source: SourceFlag, root: o.Cwd, inline: []byte("{}")})
	}
	if s := strings.TrimSpace(o.CLISettings); s != "" {
		if strings.HasPrefix(s, "{") {
			out = append(out, candidate{path: "--settings", source: SourceFlag, root: o.Cwd, inline: []byte(s)})
		} else {
			p := expandHome(s, o.Home)
			if !filepath.IsAbs(p) {
				p = filepath.Join(o.Cwd, p)
			}
			out = append(out, candidate{path: p, source: SourceFlag, root: o.Cwd})
		}
	}
	want := func(s Source) bool {
		if o.Sources == nil {
			return true
		}
		for _, x := range o.Sources {
			if x == s {
				return true
			}
		}
		return false
	}
	if want(SourceLocal) {
		for _, d := range []string{".reins", ".claude"} {
			out = append(out, candidate{path: filepath.Join(o.ProjectDir, d, "settings.local.json"), source: SourceLocal, root: o.ProjectDir})
		}
	}
	if want(SourceProject) {
		for _, d := range []string{".reins", ".claude"} {
			out = append(out, candidate{path: filepath.Join(o.ProjectDir, d, "settings.json"), source: SourceProject, root: o.ProjectDir})
		}
	}
	if want(SourceUser) {
		for _, d := range []string{o.ConfigDir, o.ClaudeDir} {
			out = append(out, candidate{path: filepath.Join(d, "settings.json"), source: SourceUser, root: d})
		}
	}
	return dedupeCandidates(out), nil
}

// dedupeCandidates drops a file listed twice (ConfigDir == ClaudeDir, or
// the project is the home folder).
func dedupeCandidates(in []candidate) []candidate {
	seen := map[string]bool{}
	out := in[:0]
	for _, c := range in {
		key := c.path
		if c.inline == nil {
			key = filepath.Clean(c.path)
		}
		if seen[key] {
			continue
		}
		seen[key] = true
		out = append(out, c)
	}
	return out
}

func expandHome(p, home string) string {
	if p == "~" {
		return home
	}
	if strings.HasPrefix(p, "~/") {
		return filepath.Join(home, p[2:])
	}
	return p
}

// loaded is a parsed file with its origin.
type loaded struct {
	candidate
	data *fileData
}

// Load reads and merges the settings sources. It returns the warnings of
// files it skipped or keys it ignored, and an error only when a managed
// policy file exists but cannot be read or parsed (or ctx is done).
func Load(ctx context.Context, opt Options) (*Settings, []Warning, error) {
	o, err := opt.resolve()
	if err != nil {
		return nil, nil, err
	}
	var files []loaded
	var withheld []Withheld
	managed, warns := o.managedPaths()
	cands, err := o.candidates(managed)
	if err != nil {
		return nil, warns, err
	}
	installed := "" // the first managed policy file read
	for _, c := range cands {
		if err := ctx.Err(); err != nil {
			return nil, nil, fmt.Errorf("load settings: %w", err)
		}
		data := c.inline
		if c.parent {
			if installed != "" {
				warns = append(warns, Warning{Message: fmt.Sprintf(
					"%s (the SDK's managedSettings) is ignored: a managed policy is installed at %s", parentManagedName, installed)})
				continue
			}
			kept, dropped, err := restrictOnly(data)
			if err != nil {
				return nil, warns, err // policy fails closed
			}
			if len(dropped) > 0 {
				warns = append(warns, Warning{Message: fmt.Sprintf(
					"%s (the SDK's managedSettings) may only restrict; ignored: %s", parentManagedName, strings.Join(dropped, ", "))})
			}
			data = kept
		}
		if data == nil {
			data, err = fsutil.ReadRegularFile(c.path) // a named pipe would block the start
			if err != nil && c.source == SourceFlag {
				// Settings asked for on the command line must apply.
				return nil, warns, fmt.Errorf("--settings %s: %w", c.path, err)
			}
			if errors.Is(err, fs.ErrNotExist) {
				continue
			}
			if err != nil {
				if c.source == SourcePolicy {
					return nil, warns, fmt.Errorf("read managed settings %s: %w", c.path, err)
				}
				warns = append(warns, Warning{File: c.path, Message: fmt.Sprintf("cannot read settings file: %v; skipped", err)})
				continue
			}
		}
		if c.source == SourceFlag && len(o.FlagOverlay) > 0 {
			data = overlay(data, o.FlagOverlay)
		}
		fd, ws := parseFile(c.path, data)
		if c.source == SourcePolicy && len(ws) > 0 {
			// Policy fails closed: a managed file that is not wholly
			// understood stops reins rather than weakening the policy.
			return nil, warns, fmt.Errorf("managed settings: %s", withoutSkipped(ws[0].String()))
		}
		if c.source == SourceFlag && fd == nil && len(ws) > 0 {
			msg := withoutSkipped(ws[0].String())
			if c.inline == nil {
				msg = "--settings " + msg
			}
			return nil, warns, errors.New(msg)
		}
		warns = append(warns, ws...)
		if fd == nil {
			continue
		}
		if !o.Trusted && (c.source == SourceProject || c.source == SourceLocal) {
			withheld = append(withheld, restrict(c.path, fd)...)
		}
		if c.source == SourcePolicy && !c.parent && installed == "" {
			installed = c.path
		}
		files = append(files, loaded{candidate: c, data: fd})
	}
	s, mw := merge(files, o)
	s.Withheld = withheld
	return s, append(warns, mw...), nil
}

// withoutSkipped returns a file warning's text without its "; skipped"
// ending, for a file that stops the run instead of being skipped (a
// managed policy, or --settings).
func withoutSkipped(msg string) string {
	for _, suffix := range []string{"; file skipped", "; skipped"} {
		msg = strings.TrimSuffix(msg, suffix)
	}
	return msg
}
