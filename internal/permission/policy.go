package permission

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"reins/internal/settings"
)

// Policy is everything a decision depends on. Build one with NewPolicy;
// a Checker keeps the session's current one.
type Policy struct {
	Mode Mode
	// Rules are the rules of every source, any behaviour, any order.
	Rules []Rule
	Cwd   string
	Home  string
	// WorkDirs are the working folders (launch folder, --add-dir,
	// additionalDirectories), absolute, with symlink-resolved forms too.
	WorkDirs []string
	// SessionDirs may be read and edited without asking (the session's
	// tool-result and temp folders).
	SessionDirs []string
	// ReadDirs may be read without asking, never written (loaded
	// skills, and the folders of loaded plugins).
	ReadDirs []string
	// BypassDisabled refuses bypassPermissions; BypassDisabledBy says
	// where that was set.
	BypassDisabled   bool
	BypassDisabledBy string
	// AutoDisabled refuses auto mode (disableAutoMode); AutoDisabledBy
	// says where that was set.
	AutoDisabled   bool
	AutoDisabledBy string
	// ClassifyAllShell suspends Bash allow rules in auto mode, so that
	// every command goes to the classifier (autoMode.classifyAllShell).
	ClassifyAllShell bool
	// Refusals maps a tool name to the message it is refused with, for
	// protections asked for but not provided (sandbox.enabled).
	Refusals map[string]string
	// IgnoreAllow drops allow rules from sources other than managed
	// policy (allowManagedPermissionRulesOnly), session answers included.
	IgnoreAllow bool
	// MCPAsk are MCP servers, by the server part of their tool names,
	// whose tools are asked about under bypassPermissions as in the
	// default mode (the SDK's per-server mode override "default").
	MCPAsk map[string]bool
}

// Config builds a Policy from settings and command-line flags.
type Config struct {
	// Settings are the merged settings (nil means none).
	Settings *settings.Settings
	// Mode is --permission-mode ("" means the settings' defaultMode, else
	// default). SkipPermissions (--dangerously-skip-permissions) means
	// bypassPermissions.
	Mode            string
	SkipPermissions bool
	// AllowedTools and DisallowedTools are --allowedTools and
	// --disallowedTools values (split with SplitToolList).
	AllowedTools    []string
	DisallowedTools []string
	// AddDirs are --add-dir folders (relative to Cwd).
	AddDirs []string
	Cwd     string
	Home    string
	// SessionDirs and ReadDirs: see Policy.
	SessionDirs []string
	ReadDirs    []string
}

// NewPolicy builds the session's starting policy. Rules that do not parse
// become warnings naming their file. It fails for an unknown mode and for
// bypassPermissions when policy disables it.
func NewPolicy(cfg Config) (*Policy, []settings.Warning, error) {
	s := cfg.Settings
	if s == nil {
		s = &settings.Settings{}
	}
	p := &Policy{Cwd: filepath.Clean(cfg.Cwd), Home: cfg.Home, BypassDisabled: s.DisableBypassPermissions, IgnoreAllow: s.ManagedRulesOnly}
	if p.BypassDisabled {
		p.BypassDisabledBy = "permissions.disableBypassPermissionsMode in settings"
		if s.DisableBypassPermissionsFile != "" {
			p.BypassDisabledBy = "permissions.disableBypassPermissionsMode in " + s.DisableBypassPermissionsFile
		}
	}
	p.AutoDisabled, p.ClassifyAllShell = s.DisableAutoMode, s.AutoMode.ClassifyAllShell
	if p.AutoDisabled {
		p.AutoDisabledBy = "disableAutoMode in " + s.DisableAutoModeFile
	}
	var warns []settings.Warning
	mode := cfg.Mode
	if cfg.SkipPermissions {
		mode = string(ModeBypass)
	}
	fromSettings := false
	if mode == "" {
		mode, fromSettings = s.DefaultMode, true
	}
	m, err := ParseMode(mode)
	if err != nil {
		return nil, nil, fmt.Errorf("permission mode: %w", err)
	}
	if m == ModeBypass && p.BypassDisabled {
		if !fromSettings {
			return nil, nil, fmt.Errorf("bypassPermissions mode is disabled by %s", p.BypassDisabledBy)
		}
		warns = append(warns, settings.Warning{Message: "defaultMode bypassPermissions is disabled by " + p.BypassDisabledBy + "; using default"})
		m = ModeDefault
	}
	if m == ModeAuto && p.AutoDisabled {
		if !fromSettings {
			return nil, nil, fmt.Errorf("--permission-mode auto: auto mode is disabled by %s", p.AutoDisabledBy)
		}
		warns = append(warns, settings.Warning{Message: fmt.Sprintf("defaultMode auto is not available: auto mode is disabled by %s; using default", p.AutoDisabledBy)})
		m = ModeDefault
	}
	p.Mode = m
	for _, r := range s.Rules {
		rule, err := ruleFrom(r.Text, r.Behavior, r.Source, r.File, r.Root)
		if err != nil {
			warns = append(warns, settings.Warning{File: r.File, Line: r.Line, Column: r.Column, Message: err.Error() + "; rule ignored"})
			continue
		}
		rule.Line, rule.Column = r.Line, r.Column
		p.Rules = append(p.Rules, rule)
	}
	for _, list := range []struct {
		b     Behavior
		items []string
	}{{Deny, cfg.DisallowedTools}, {Allow, cfg.AllowedTools}} {
		for _, text := range SplitToolList(list.items...) {
			rule, err := ruleFrom(text, list.b, settings.SourceCLI, "", p.Cwd)
			if err != nil {
				warns = append(warns, settings.Warning{File: "command line", Message: err.Error() + "; rule ignored"})
				continue
			}
			p.Rules = append(p.Rules, rule)
		}
	}
	for _, w := range p.Rules {
		if msg := checkSpecifier(w, p); msg != "" {
			warns = append(warns, settings.Warning{File: w.File, Line: w.Line, Column: w.Column, Message: msg})
		}
	}
	dirs := []string{p.Cwd}
	for _, d := range cfg.AddDirs {
		dirs = append(dirs, absPath(d, p.Cwd, p.Home))
	}
	for _, d := range s.AdditionalDirectories {
		dirs = append(dirs, d.Path)
	}
	p.WorkDirs = withReal(dirs)
	p.SessionDirs = withReal(cfg.SessionDirs)
	p.ReadDirs = withReal(cfg.ReadDirs)
	if s.Sandbox.Enabled {
		p.Refusals = map[string]string{"Bash": fmt.Sprintf(
			"Bash is refused: sandbox.enabled is set in %s, and reins has no sandbox yet, so commands will not run unprotected. Remove that setting to run commands without a sandbox.", s.Sandbox.File)}
	}
	return p, warns, nil
}

func ruleFrom(text string, b Behavior, src settings.Source, file, root string) (Rule, error) {
	tool, content, err := ParseRule(text)
	if err != nil {
		return Rule{}, err
	}
	return Rule{Tool: tool, Content: content, Behavior: b, Source: src, File: file, Root: root, Text: strings.TrimSpace(text)}, nil
}

// checkSpecifier warns about a specifier that can never match.
func checkSpecifier(r Rule, p *Policy) string {
	if known := builtinCase(r.Tool); known != "" {
		return fmt.Sprintf("rule %s: no tool is named %q (tool names are matched exactly: %s); it never matches", r, r.Tool, known)
	}
	if r.Content == "" {
		return ""
	}
	switch {
	case editTools[r.Tool] || readTools[r.Tool]:
		if _, err := compilePath(r.Content, r.Root, p.Cwd, p.Home); err != nil {
			return fmt.Sprintf("rule %s: %q is not a valid path pattern; it never matches", r, r.Content)
		}
	case r.Tool == "WebFetch":
		if !strings.HasPrefix(r.Content, "domain:") {
			return fmt.Sprintf("rule %s: WebFetch rules take domain:HOST; it never matches", r)
		}
	}
	return ""
}

// builtinNames are the built-in tools whose names a rule may miswrite in
// case.
var builtinNames = []string{"Agent", "AskUserQuestion", "Bash", "BashOutput", "Edit", "ExitPlanMode", "Glob", "Grep",
	"KillShell", "LS", "MultiEdit", "NotebookEdit", "NotebookRead", "Read", "Skill", "TaskOutput", "TaskStop",
	"Task", "TodoWrite", "WebFetch", "WebSearch", "Write"}

// builtinCase returns the built-in tool name that tool spells in another
// case (bash for Bash), or "" when there is none: such a rule never
// matches, and a deny rule that never matches protects nothing.
func builtinCase(tool string) string {
	for _, n := range builtinNames {
		if tool != n && strings.EqualFold(tool, n) {
			return n
		}
	}
	return ""
}

// withReal cleans dirs and adds their symlink-resolved forms.
func withReal(dirs []string) []string {
	var out []string
	seen := map[string]bool{}
	add := func(d string) {
		if d != "" && !seen[d] {
			seen[d] = true
			out = append(out, d)
		}
	}
	for _, d := range dirs {
		d = filepath.Clean(d)
		add(d)
		if real, err := filepath.EvalSymlinks(d); err == nil {
			add(real)
		}
	}
	return out
}

// rules returns the rules with behaviour b that apply to tool, honouring
// IgnoreAllow.
func (p *Policy) rules(b Behavior, tool string) []Rule {
	var out []Rule
	for _, r := range p.Rules {
		if r.Behavior != b || !toolMatches(r.Tool, tool) {
			continue
		}
		if b == Allow && p.IgnoreAllow && r.Source != settings.SourcePolicy {
			continue
		}
		if b == Allow && r.Tool == "Bash" && p.Mode == ModeAuto && (p.ClassifyAllShell || runsAnyCode(r.Content)) {
			// classifyAllShell: the classifier sees every command; and a
			// rule that lets any code run (Bash, Bash(python:*)) would
			// skip it, so auto mode sets it aside, as Claude Code does.
			continue
		}
		out = append(out, r)
	}
	return out
}

// whole returns the first rule with behaviour b that covers every call of
// tool.
func (p *Policy) whole(b Behavior, tool string) *Rule {
	for _, r := range p.rules(b, tool) {
		if r.Content == "" {
			return &r
		}
	}
	return nil
}

// inWorkDirs reports whether abs is inside a working folder.
func (p *Policy) inWorkDirs(abs string) bool {
	for _, d := range p.WorkDirs {
		if within(abs, d) {
			return true
		}
	}
	for _, d := range p.SessionDirs {
		if within(abs, d) {
			return true
		}
	}
	return false
}

// workDirWithin returns the working folder that abs is, or holds, ("" for
// none): removing or moving abs takes that folder with it.
func (p *Policy) workDirWithin(abs string) string {
	for _, list := range [][]string{p.WorkDirs, p.SessionDirs} {
		for _, d := range list {
			if within(d, abs) {
				return d
			}
		}
	}
	return ""
}

// readable reports whether abs may be read without asking.
func (p *Policy) readable(abs string) bool {
	if p.inWorkDirs(abs) {
		return true
	}
	for _, d := range p.ReadDirs {
		if within(abs, d) {
			return true
		}
	}
	return false
}

// realPath resolves symlinks in abs; for a path that does not exist yet
// it resolves the deepest existing folder and keeps the rest. A dangling
// symlink is followed to where it points (writing through it creates its
// target), as is a chain of them, up to maxLinkHops links.
func realPath(abs string) string { return resolveReal(abs, map[string]bool{}) }

// maxLinkHops bounds the symlinks realPath follows by hand.
const maxLinkHops = 40

// resolveReal is realPath; seen holds the links followed so far, so that
// a loop ends it.
func resolveReal(abs string, seen map[string]bool) string {
	if r, err := filepath.EvalSymlinks(abs); err == nil {
		return r
	}
	if len(seen) >= maxLinkHops || seen[abs] {
		return abs
	}
	if t, ok := linkTarget(abs); ok {
		seen[abs] = true
		return resolveReal(t, seen)
	}
	dir, rest := abs, ""
	for {
		parent := filepath.Dir(dir)
		rest = filepath.Join(filepath.Base(dir), rest)
		if parent == dir {
			return abs
		}
		dir = parent
		if r, err := filepath.EvalSymlinks(dir); err == nil {
			return filepath.Join(r, rest)
		}
		if t, ok := linkTarget(dir); ok && !seen[dir] && len(seen) < maxLinkHops {
			seen[dir] = true
			return resolveReal(filepath.Join(t, rest), seen)
		}
		if _, err := os.Lstat(dir); err == nil {
			return abs
		}
	}
}

// linkTarget returns the absolute target of p when p is a symlink.
func linkTarget(p string) (string, bool) {
	fi, err := os.Lstat(p)
	if err != nil || fi.Mode()&os.ModeSymlink == 0 {
		return "", false
	}
	t, err := os.Readlink(p)
	if err != nil {
		return "", false
	}
	if !filepath.IsAbs(t) {
		dir := filepath.Dir(p)
		if r, err := filepath.EvalSymlinks(dir); err == nil {
			dir = r
		}
		t = filepath.Join(dir, t)
	}
	return filepath.Clean(t), true
}
