package agent

import (
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"sort"
	"strings"

	"reins/internal/frontmatter"
)

//go:embed builtin/*.md
var builtinFiles embed.FS

// Built-in agent type names.
const (
	GeneralPurpose = "general-purpose"
	Explore        = "Explore"
	Plan           = "Plan"
)

// Builtin returns fresh copies of the built-in definitions, sorted by name.
// Explore and Plan are read-only.
func Builtin() []*Definition {
	names, err := fs.Glob(builtinFiles, "builtin/*.md")
	if err != nil {
		panic(err)
	}
	sort.Strings(names)
	var out []*Definition
	for _, n := range names {
		data, err := builtinFiles.ReadFile(n)
		if err != nil {
			panic(err)
		}
		d, err := builtinDefinition(data)
		if err != nil {
			panic(fmt.Sprintf("agent: built-in %s is malformed: %v", n, err))
		}
		d.ReadOnly = d.Name == Explore || d.Name == Plan
		out = append(out, d)
	}
	return out
}

// builtinDefinition reads one of reins's own agent files without the YAML
// parser, whose first use costs about a millisecond of start-up: their
// frontmatter is plain "key: value" lines (TestBuiltinsReadLikeAgentFiles
// checks that the YAML reading gives the same definitions).
func builtinDefinition(data []byte) (*Definition, error) {
	rest, ok := strings.CutPrefix(string(data), "---\n")
	if !ok {
		return nil, errors.New("no frontmatter")
	}
	head, body, ok := strings.Cut(rest, "\n---\n")
	if !ok {
		return nil, errors.New("frontmatter does not end")
	}
	f := map[string]string{}
	for _, line := range strings.Split(head, "\n") {
		k, v, ok := strings.Cut(line, ": ")
		if !ok {
			return nil, fmt.Errorf("line %q is not key: value", line)
		}
		f[k] = strings.TrimSpace(v)
	}
	d := &Definition{Name: f["name"], Description: f["description"], Prompt: strings.TrimSpace(body),
		Tools: frontmatter.SplitList(f["tools"]), DisallowedTools: frontmatter.SplitList(f["disallowedTools"]),
		Model: f["model"], Source: SourceBuiltin}
	if d.Name == "" || d.Description == "" {
		return nil, errors.New("name and description are required")
	}
	return d, nil
}
