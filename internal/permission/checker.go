package permission

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"reins/internal/settings"
)

// UpdateType is the kind of a permission update.
type UpdateType string

// Update types, as Claude Code names them on the SDK wire.
const (
	UpdateAddRules          UpdateType = "addRules"
	UpdateReplaceRules      UpdateType = "replaceRules"
	UpdateRemoveRules       UpdateType = "removeRules"
	UpdateSetMode           UpdateType = "setMode"
	UpdateAddDirectories    UpdateType = "addDirectories"
	UpdateRemoveDirectories UpdateType = "removeDirectories"
)

// Destination says where an update is kept.
type Destination string

// Destinations.
const (
	DestSession Destination = "session"
	DestLocal   Destination = "localSettings"
	DestProject Destination = "projectSettings"
	DestUser    Destination = "userSettings"
	DestCLI     Destination = "cliArg"
)

// Update changes permissions during a session, for example a "don't ask
// again" answer.
type Update struct {
	Type        UpdateType  `json:"type"`
	Rules       []string    `json:"rules,omitempty"`
	Behavior    Behavior    `json:"behavior,omitempty"`
	Destination Destination `json:"destination"`
	Mode        Mode        `json:"mode,omitempty"`
	Directories []string    `json:"directories,omitempty"`
}

// CheckerConfig says where persisted updates are written.
type CheckerConfig struct {
	// ProjectDir holds .claude/settings.local.json (localSettings) and
	// .claude/settings.json (projectSettings).
	ProjectDir string
	// UserDir holds settings.json for userSettings (reins' user config
	// folder).
	UserDir string
	// OnMode, when set, hears each change of mode (from whatever asked
	// for it: a key, a control request, an approval's setMode update,
	// the plan tools), after it was made. A clone does not inherit it.
	OnMode func(from, to Mode)
}

// Checker holds a session's permission state: the policy it started with
// plus the mode and rules changed since. It is safe for concurrent use.
type Checker struct {
	cfg CheckerConfig

	mu sync.Mutex // guards the fields below; p's slices are replaced, never changed in place
	p  Policy
	// prePlan is the mode in force when plan mode was entered ("" when
	// the session started in plan mode or is not in it); leaving plan
	// mode goes back to it. planEntries counts the entries into plan
	// mode, so a front end can tell whether it made the last one.
	prePlan     Mode
	planEntries int
}

// NewChecker returns a checker starting from p.
func NewChecker(p *Policy, cfg CheckerConfig) *Checker {
	return &Checker{cfg: cfg, p: *p}
}

// Policy returns a snapshot of the current policy.
func (c *Checker) Policy() *Policy {
	c.mu.Lock()
	defer c.mu.Unlock()
	p := c.p
	return &p
}

// Mode is the current mode.
func (c *Checker) Mode() Mode {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.p.Mode
}

// ErrBypassDisabled is returned when bypassPermissions is refused.
var ErrBypassDisabled = errors.New("bypassPermissions mode is disabled by policy")

// AutoAvailable reports whether auto mode may be switched on.
func (c *Checker) AutoAvailable() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return !c.p.AutoDisabled
}

// AutoSetAside returns the allow rules auto mode sets aside because they
// let any code run (Bash, Bash(python3:*) …), as written.
func (c *Checker) AutoSetAside() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	var out []string
	for _, r := range c.p.Rules {
		if r.Behavior == Allow && r.Tool == "Bash" && runsAnyCode(r.Content) {
			out = append(out, r.String())
		}
	}
	return out
}

// SetMode changes the mode; bypassPermissions and auto are refused when
// settings disable them. "manual" is default. Entering plan mode
// remembers the mode it leaves (PrePlanMode); leaving it forgets it.
func (c *Checker) SetMode(m Mode) error {
	m, err := ParseMode(string(m))
	if err != nil {
		return err
	}
	c.mu.Lock()
	if err := c.allowedLocked(m); err != nil {
		c.mu.Unlock()
		return err
	}
	from := c.p.Mode
	switch {
	case m == ModePlan && from != ModePlan:
		c.prePlan = from
		c.planEntries++
	case m != ModePlan:
		c.prePlan = ""
	}
	c.p.Mode = m
	onMode := c.cfg.OnMode
	c.mu.Unlock()
	if onMode != nil && from != m {
		onMode(from, m)
	}
	return nil
}

// allowedLocked refuses the modes settings disable. c.mu is held.
func (c *Checker) allowedLocked(m Mode) error {
	if m == ModeBypass && c.p.BypassDisabled {
		return fmt.Errorf("set mode: %w (%s)", ErrBypassDisabled, c.p.BypassDisabledBy)
	}
	if m == ModeAuto && c.p.AutoDisabled {
		return fmt.Errorf("set mode: %w (%s)", ErrAutoDisabled, c.p.AutoDisabledBy)
	}
	return nil
}

// PrePlanMode is the mode leaving plan mode returns to: the one in force
// when plan mode was entered, or default when there was none (the
// session started in plan mode) or settings now disable it. It is ""
// when the session is not in plan mode.
func (c *Checker) PrePlanMode() Mode {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.p.Mode != ModePlan {
		return ""
	}
	if c.prePlan == "" || c.allowedLocked(c.prePlan) != nil {
		return ModeDefault
	}
	return c.prePlan
}

// PlanEntries counts the times the session entered plan mode.
func (c *Checker) PlanEntries() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.planEntries
}

// LeavePlan leaves plan mode for PrePlanMode; it does nothing outside
// plan mode.
func (c *Checker) LeavePlan() error {
	m := c.PrePlanMode()
	if m == "" {
		return nil
	}
	return c.SetMode(m)
}

// Check builds, resolves and decides the request for a call whose
// relative paths start from the working folder.
func (c *Checker) Check(tool string, input json.RawMessage, readOnly bool) Decision {
	return c.CheckIn("", tool, input, readOnly)
}

// CheckIn is Check for a call whose relative paths start from dir (a
// shell whose cd moved it); "" means the working folder.
func (c *Checker) CheckIn(dir, tool string, input json.RawMessage, readOnly bool) Decision {
	p := c.Policy()
	if dir == "" {
		dir = p.Cwd
	}
	if p.Mode == ModeBypass && strings.HasPrefix(tool, "mcp__") {
		server, _, _ := strings.Cut(strings.TrimPrefix(tool, "mcp__"), "__")
		if p.MCPAsk[server] {
			p.Mode = ModeDefault
		}
	}
	r := NewRequest(tool, input, readOnly, dir, p.Home)
	r.Resolve(dir, p.Home)
	r.ResolveTrees(p, dir, p.Home)
	return Decide(p, r)
}

// SetMCPAsk makes the tools of the MCP server whose tool names start
// mcp__<server>__ be asked about under bypassPermissions (ask true), or
// lets them follow the session's mode again (ask false). It never
// widens what is allowed.
func (c *Checker) SetMCPAsk(server string, ask bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	m := maps.Clone(c.p.MCPAsk)
	if m == nil {
		m = map[string]bool{}
	}
	if ask {
		m[server] = true
	} else {
		delete(m, server)
	}
	c.p.MCPAsk = m
}

// FilterTools returns names without the tools the current policy denies
// outright.
func (c *Checker) FilterTools(names []string) []string { return FilterTools(c.Policy(), names) }

// SetSourceRules replaces the rules of the settings source src with
// those of rules that come from it (the flag settings layer, changed
// while the session runs). It fails, changing nothing, when one does not
// parse.
func (c *Checker) SetSourceRules(src settings.Source, rules []settings.Rule) error {
	var parsed []Rule
	for _, r := range rules {
		if r.Source != src {
			continue
		}
		rule, err := ruleFrom(r.Text, r.Behavior, r.Source, r.File, r.Root)
		if err != nil {
			return fmt.Errorf("permissions.%s: %w", r.Behavior, err)
		}
		rule.Line, rule.Column = r.Line, r.Column
		parsed = append(parsed, rule)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	kept := slices.DeleteFunc(slices.Clone(c.p.Rules), func(r Rule) bool { return r.Source == src })
	c.p.Rules = append(kept, parsed...)
	return nil
}

// SetReadDirs replaces the folders that may be read without asking
// (Policy.ReadDirs: loaded skills and plugins), when a reload changes
// them.
func (c *Checker) SetReadDirs(dirs []string) {
	real := withReal(dirs)
	c.mu.Lock()
	defer c.mu.Unlock()
	c.p.ReadDirs = real
}

// Clone returns an independent checker with the same state, for a
// sub-agent. Changes to the clone do not reach c.
func (c *Checker) Clone() *Checker {
	c.mu.Lock()
	defer c.mu.Unlock()
	cfg := c.cfg
	cfg.OnMode = nil
	return &Checker{cfg: cfg, p: c.p, prePlan: c.prePlan, planEntries: c.planEntries}
}

// Apply applies updates: rules and directories take effect in this
// session at once, and updates whose destination is a settings file are
// also written there (atomically, under a lock). A write failure is
// returned after the session change was made.
func (c *Checker) Apply(updates []Update) error {
	var errs []error
	for _, u := range updates {
		if err := c.apply(u); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

func (c *Checker) apply(u Update) error {
	switch u.Type {
	case UpdateSetMode:
		return c.SetMode(u.Mode)
	case UpdateAddDirectories, UpdateRemoveDirectories:
		c.mu.Lock()
		dirs := slices.Clone(c.p.WorkDirs)
		for _, d := range u.Directories {
			d = absPath(d, c.p.Cwd, c.p.Home)
			if u.Type == UpdateAddDirectories {
				dirs = append(dirs, d)
			} else {
				dirs = slices.DeleteFunc(dirs, func(x string) bool { return x == d })
			}
		}
		c.p.WorkDirs = withReal(dirs)
		c.mu.Unlock()
		return nil
	case UpdateAddRules, UpdateReplaceRules, UpdateRemoveRules:
	default:
		return fmt.Errorf("permission update: unknown type %q", u.Type)
	}
	if u.Behavior != Allow && u.Behavior != Ask && u.Behavior != Deny {
		return fmt.Errorf("permission update: unknown behavior %q", u.Behavior)
	}
	src, root, file := c.destination(u.Destination)
	var parsed []Rule
	for _, text := range u.Rules {
		r, err := ruleFrom(text, u.Behavior, src, file, root)
		if err != nil {
			return fmt.Errorf("permission update: %w", err)
		}
		parsed = append(parsed, r)
	}
	c.mu.Lock()
	rules := slices.Clone(c.p.Rules)
	switch u.Type {
	case UpdateReplaceRules:
		rules = slices.DeleteFunc(rules, func(r Rule) bool { return r.Source == src && r.Behavior == u.Behavior })
		rules = append(rules, parsed...)
	case UpdateRemoveRules:
		rules = slices.DeleteFunc(rules, func(r Rule) bool {
			return r.Behavior == u.Behavior && slices.ContainsFunc(parsed, func(x Rule) bool { return x.Tool == r.Tool && x.Content == r.Content })
		})
	default:
		for _, r := range parsed {
			if !slices.ContainsFunc(rules, func(x Rule) bool {
				return x.Behavior == r.Behavior && x.Tool == r.Tool && x.Content == r.Content && x.Source == r.Source
			}) {
				rules = append(rules, r)
			}
		}
	}
	c.p.Rules = rules
	c.mu.Unlock()
	if file == "" || u.Type != UpdateAddRules {
		return nil
	}
	if err := settings.AddRules(file, u.Behavior, u.Rules); err != nil {
		return fmt.Errorf("remember permission rules: %w", err)
	}
	return nil
}

// destination maps an update destination to a rule source, its root
// folder and the settings file to write ("" for none).
func (c *Checker) destination(d Destination) (settings.Source, string, string) {
	c.mu.Lock()
	cwd := c.p.Cwd
	c.mu.Unlock()
	project := c.cfg.ProjectDir
	if project == "" {
		project = cwd
	}
	switch d {
	case DestLocal:
		return settings.SourceLocal, project, filepath.Join(project, ".claude", "settings.local.json")
	case DestProject:
		return settings.SourceProject, project, filepath.Join(project, ".claude", "settings.json")
	case DestUser:
		if c.cfg.UserDir != "" {
			return settings.SourceUser, c.cfg.UserDir, filepath.Join(c.cfg.UserDir, "settings.json")
		}
		return settings.SourceSession, cwd, ""
	case DestCLI:
		return settings.SourceCLI, cwd, ""
	}
	return settings.SourceSession, cwd, ""
}

// FilterTools returns names without the tools that a deny rule without a
// specifier denies outright ("Bash", "mcp__server", "Edit" for every
// editing tool). The order of names is kept. Tools refused because a
// protection is missing (Policy.Refusals) stay visible and refuse with
// their message when called.
func FilterTools(p *Policy, names []string) []string {
	out := make([]string, 0, len(names))
	for _, n := range names {
		if p.whole(Deny, n) != nil {
			continue
		}
		out = append(out, n)
	}
	return out
}

// ReadDenyFilter returns what a call of tool that reads many files (Grep
// and Glob over a folder) must leave out: the paths its read-deny rules
// cover, given absolute. It returns nil when no such rule applies. The
// call itself is allowed by Check, since its folder is not denied; the
// filter keeps denied files inside it from being read.
func (c *Checker) ReadDenyFilter(tool string) func(abs string) bool {
	p := c.Policy()
	rules := p.pathRules(Deny, canonical(tool), false)
	if len(rules) == 0 {
		return nil
	}
	var pats []pathPattern
	for _, r := range rules {
		if pp, err := compilePath(r.Content, r.Root, p.Cwd, p.Home); err == nil {
			pats = append(pats, pp)
		}
	}
	if len(pats) == 0 {
		return nil
	}
	return func(abs string) bool {
		for _, pp := range pats {
			if pp.match(abs) {
				return true
			}
		}
		return false
	}
}
