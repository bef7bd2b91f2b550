package agent

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"reins/internal/confdirs"
	"reins/internal/frontmatter"
	"reins/internal/fsutil"
	"reins/internal/llm"
)

// Roots are the configuration folders custom agents are read from, each
// list in rising precedence. A folder that appears twice is read once.
type Roots = confdirs.Roots

// StandardRoots returns the usual roots (see confdirs.Standard).
func StandardRoots(home, configDir, cwd string) Roots { return confdirs.Standard(home, configDir, cwd) }

// Load reads every <root>/agents/**/*.md under roots, in precedence
// order (pass the result to NewCatalog or Catalog.With). A file that
// cannot be read or lacks a name or description is skipped; a bad field is
// ignored; both are reported in the returned errors, which name the file
// and line.
func Load(roots Roots) ([]*Definition, []error) {
	var (
		defs []*Definition
		errs []error
	)
	seen := map[string]bool{}
	load := func(root string, src Source) {
		real := realPath(root)
		if seen[real] {
			return
		}
		seen[real] = true
		for _, p := range markdownFiles(filepath.Join(root, "agents"), &errs) {
			data, err := fsutil.ReadRegularFileMax(p, MaxFileSize)
			if err != nil {
				errs = append(errs, fmt.Errorf("load agent %s: %w; the agent is left out", p, err))
				continue
			}
			d, problems, err := parseDefinition(data, p, src)
			for _, pr := range problems {
				errs = append(errs, fmt.Errorf("load agent %s: %w (ignored)", p, pr))
			}
			if err != nil {
				errs = append(errs, fmt.Errorf("load agent %s: %w; the agent is left out", p, err))
				continue
			}
			defs = append(defs, d)
		}
	}
	for _, r := range roots.User {
		load(r, SourceUser)
	}
	for _, r := range roots.Project {
		load(r, SourceProject)
	}
	for _, r := range roots.Managed {
		load(r, SourceManaged)
	}
	return defs, errs
}

// markdownFiles lists the .md files below dir, sorted, following symbolic
// links to folders once each and skipping dot files.
func markdownFiles(dir string, errs *[]error) []string {
	var out []string
	visited := map[string]bool{}
	var walk func(string)
	walk = func(d string) {
		real := realPath(d)
		if visited[real] {
			return
		}
		visited[real] = true
		entries, err := os.ReadDir(d)
		if err != nil {
			if !errors.Is(err, fs.ErrNotExist) {
				*errs = append(*errs, fmt.Errorf("load agents %s: %w", d, err))
			}
			return
		}
		for _, en := range entries {
			if strings.HasPrefix(en.Name(), ".") {
				continue
			}
			p := filepath.Join(d, en.Name())
			isDir := en.IsDir()
			if en.Type()&fs.ModeSymlink != 0 {
				fi, err := os.Stat(p)
				if err != nil {
					continue
				}
				isDir = fi.IsDir()
			}
			switch {
			case isDir:
				walk(p)
			case strings.HasSuffix(en.Name(), ".md"):
				out = append(out, p)
			}
		}
	}
	walk(dir)
	sort.Strings(out)
	return out
}

func realPath(p string) string {
	if r, err := filepath.EvalSymlinks(p); err == nil {
		return r
	}
	if a, err := filepath.Abs(p); err == nil {
		return a
	}
	return p
}

// MaxFileSize is the largest agent file read: a larger one is left out
// with a warning instead of being read whole at every start.
const MaxFileSize = 4 << 20

// ErrNoFrontmatter is the error for a Markdown file in an agents folder
// that has no frontmatter at all (a README beside the definitions, say).
var ErrNoFrontmatter = errors.New("no frontmatter: an agent file starts with --- and gives at least name and description")

// parseDefinition reads an agent Markdown file. err is set when the file
// cannot be used at all; problems are fields that were ignored.
func parseDefinition(data []byte, path string, src Source) (d *Definition, problems []error, err error) {
	doc, err := frontmatter.Parse(data)
	if err != nil {
		return nil, nil, err
	}
	f := doc.Fields
	d = &Definition{
		Name:            strings.TrimSpace(f.String("name")),
		Description:     agentDescription(f.String("description")),
		Prompt:          strings.TrimSpace(doc.Body),
		Tools:           f.List("tools"),
		DisallowedTools: firstList(f, "disallowedTools", "disallowed-tools"),
		Model:           strings.TrimSpace(f.String("model")),
		Skills:          f.List("skills"),
		Color:           strings.TrimSpace(f.String("color")),
		Source:          src,
		Path:            path,
	}
	switch {
	case !doc.Present:
		return nil, nil, ErrNoFrontmatter
	case d.Name == "":
		return nil, nil, &frontmatter.Error{Line: 1, Msg: "name is required"}
	case d.Description == "":
		return nil, nil, &frontmatter.Error{Line: 1, Msg: "description is required"}
	}
	pm := strings.TrimSpace(f.String("permissionMode"))
	if pm != "" && !slices.Contains(permissionModes, pm) {
		problems = append(problems, &frontmatter.Error{Line: f.Line("permissionMode"),
			Msg: fmt.Sprintf("permissionMode: %q is not one of %s", pm, strings.Join(permissionModes, ", "))})
	} else {
		d.PermissionMode = pm
	}
	if f.Has("effort") {
		if v, err := parseEffortField(f.String("effort")); err != nil {
			problems = append(problems, &frontmatter.Error{Line: f.Line("effort"), Msg: "effort: " + err.Error()})
		} else {
			d.Effort = v
		}
	}
	if f.Has("isolation") {
		if v, err := parseIsolation(f.String("isolation")); err != nil {
			problems = append(problems, &frontmatter.Error{Line: f.Line("isolation"), Msg: "isolation: " + err.Error()})
		} else {
			d.Isolation = v
		}
	}
	if f.Has("memory") {
		if v, err := parseMemory(f.String("memory")); err != nil {
			problems = append(problems, &frontmatter.Error{Line: f.Line("memory"), Msg: "memory: " + err.Error()})
		} else {
			d.Memory = v
		}
	}
	if f.Has("background") {
		if v, err := f.Bool("background"); err != nil {
			problems = append(problems, err)
		} else {
			d.Background = v
		}
	}
	d.InitialPrompt = strings.TrimSpace(f.String("initialPrompt"))
	if n, ok, err := f.Int("maxTurns"); err != nil {
		problems = append(problems, err)
	} else if ok && n <= 0 {
		problems = append(problems, &frontmatter.Error{Line: f.Line("maxTurns"), Msg: fmt.Sprintf("maxTurns: want a positive number, got %d", n)})
	} else {
		d.MaxTurns = n
	}
	for key, dst := range map[string]*json.RawMessage{"hooks": &d.Hooks, "mcpServers": &d.MCPServers} {
		if !f.Has(key) {
			continue
		}
		var v any
		if err := f.Decode(key, &v); err != nil {
			problems = append(problems, err)
			continue
		}
		if v == nil {
			continue
		}
		b, err := json.Marshal(v)
		if err != nil {
			problems = append(problems, &frontmatter.Error{Line: f.Line(key), Msg: fmt.Sprintf("%s: %v", key, err)})
			continue
		}
		*dst = b
	}
	sort.Slice(problems, func(i, j int) bool { return problems[i].Error() < problems[j].Error() })
	return d, problems, nil
}

// agentDescription is a description as the file gives it, trimmed, with
// each literal "\n" turned into a line break: agent files (those Claude
// Code's agent generator writes among them) keep a multi-line description,
// examples included, on one YAML line that way.
func agentDescription(s string) string {
	return strings.TrimSpace(strings.ReplaceAll(s, `\n`, "\n"))
}

func firstList(f frontmatter.Fields, keys ...string) []string {
	for _, k := range keys {
		if f.Has(k) {
			return f.List(k)
		}
	}
	return nil
}

// jsonAgent is one agent of --agents or the SDK's agents map.
type jsonAgent struct {
	Description     string          `json:"description"`
	Prompt          string          `json:"prompt"`
	Tools           stringList      `json:"tools"`
	DisallowedTools stringList      `json:"disallowedTools"`
	Model           string          `json:"model"`
	PermissionMode  string          `json:"permissionMode"`
	MaxTurns        int             `json:"maxTurns"`
	Skills          stringList      `json:"skills"`
	Hooks           json.RawMessage `json:"hooks"`
	MCPServers      json.RawMessage `json:"mcpServers"`
	Color           string          `json:"color"`
	// Effort is a level name; the SDK's type also allows a number, which
	// reins has no meaning for and ignores.
	Effort        json.RawMessage `json:"effort"`
	Isolation     string          `json:"isolation"`
	Memory        string          `json:"memory"`
	Background    bool            `json:"background"`
	InitialPrompt string          `json:"initialPrompt"`
}

// stringList reads a JSON list of strings or one comma-separated string.
type stringList []string

func (s *stringList) UnmarshalJSON(b []byte) error {
	var one string
	if err := json.Unmarshal(b, &one); err == nil {
		*s = frontmatter.SplitList(one)
		return nil
	}
	var many []string
	if err := json.Unmarshal(b, &many); err != nil {
		return errors.New("want a list of strings or a comma-separated string")
	}
	*s = nil
	for _, m := range many {
		*s = append(*s, frontmatter.SplitList(m)...)
	}
	return nil
}

// ParseJSON reads agents given as JSON, as --agents and the SDK initialize
// request send them: {"name": {"description", "prompt", "tools",
// "disallowedTools", "model", "permissionMode", "maxTurns", "skills",
// "hooks", "mcpServers", "effort", "isolation", "memory", "background",
// "initialPrompt"}}. description and prompt are required. The
// definitions come back sorted by name, with source src.
func ParseJSON(data []byte, src Source) ([]*Definition, error) {
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(data, &raw); err != nil {
		return nil, fmt.Errorf("agents JSON: want an object of agent names to definitions: %w", err)
	}
	names := make([]string, 0, len(raw))
	for n := range raw {
		names = append(names, n)
	}
	sort.Strings(names)
	var out []*Definition
	for _, n := range names {
		var a jsonAgent
		dec := json.NewDecoder(strings.NewReader(string(raw[n])))
		if err := dec.Decode(&a); err != nil {
			return nil, fmt.Errorf("agents JSON: agent %q: %w", n, cleanJSONError(err))
		}
		switch {
		case strings.TrimSpace(n) == "":
			return nil, errors.New("agents JSON: an agent has an empty name")
		case strings.TrimSpace(a.Description) == "":
			return nil, fmt.Errorf("agents JSON: agent %q: description is required", n)
		case strings.TrimSpace(a.Prompt) == "":
			return nil, fmt.Errorf("agents JSON: agent %q: prompt is required", n)
		case a.PermissionMode != "" && !slices.Contains(permissionModes, a.PermissionMode):
			return nil, fmt.Errorf("agents JSON: agent %q: permissionMode %q is not one of %s", n, a.PermissionMode, strings.Join(permissionModes, ", "))
		case a.MaxTurns < 0:
			return nil, fmt.Errorf("agents JSON: agent %q: maxTurns must be positive", n)
		}
		var effort string
		if e := a.Effort; len(e) > 0 && e[0] == '"' {
			var s string
			_ = json.Unmarshal(e, &s) // a quoted JSON value is a string
			var err error
			if effort, err = parseEffortField(s); err != nil {
				return nil, fmt.Errorf("agents JSON: agent %q: effort: %w", n, err)
			}
		}
		isolation, err := parseIsolation(a.Isolation)
		if err != nil {
			return nil, fmt.Errorf("agents JSON: agent %q: isolation: %w", n, err)
		}
		memory, err := parseMemory(a.Memory)
		if err != nil {
			return nil, fmt.Errorf("agents JSON: agent %q: memory: %w", n, err)
		}
		out = append(out, &Definition{
			Name: n, Description: strings.TrimSpace(a.Description), Prompt: strings.TrimSpace(a.Prompt),
			Tools: a.Tools, DisallowedTools: a.DisallowedTools, Model: a.Model, PermissionMode: a.PermissionMode,
			MaxTurns: a.MaxTurns, Skills: a.Skills, Hooks: nullToNil(a.Hooks), MCPServers: nullToNil(a.MCPServers),
			Color: a.Color, Effort: effort, Isolation: isolation, Memory: memory, Background: a.Background,
			InitialPrompt: strings.TrimSpace(a.InitialPrompt), Source: src,
		})
	}
	return out, nil
}

// parseEffortField checks an agent's effort level; "auto" means none of
// its own.
func parseEffortField(v string) (string, error) {
	lvl, err := llm.ParseEffort(v)
	if err != nil {
		return "", err
	}
	if lvl == llm.EffortAuto {
		return "", nil
	}
	return lvl, nil
}

// parseIsolation checks an agent's isolation: "worktree" or nothing.
func parseIsolation(v string) (string, error) {
	switch v = strings.TrimSpace(v); v {
	case "", IsolationWorktree:
		return v, nil
	}
	return "", fmt.Errorf("%q is not supported; the only isolation is %q", v, IsolationWorktree)
}

func nullToNil(b json.RawMessage) json.RawMessage {
	if len(b) == 0 || string(b) == "null" {
		return nil
	}
	return b
}

func cleanJSONError(err error) error {
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		return fmt.Errorf("field %s: want %s, got %s", te.Field, te.Type, te.Value)
	}
	return err
}
