package agent

import (
	"embed"
	"fmt"
	"io/fs"
	"sort"
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
		d, problems, err := parseDefinition(data, n, SourceBuiltin)
		if err != nil || len(problems) > 0 {
			panic(fmt.Sprintf("agent: built-in %s is malformed: %v %v", n, err, problems))
		}
		d.Path = ""
		d.ReadOnly = d.Name == Explore || d.Name == Plan
		out = append(out, d)
	}
	return out
}
