package archtest

import (
	"encoding/json"
	"os/exec"
	"strings"
	"testing"
)

type pkg struct {
	ImportPath string
	Doc        string
	Name       string
	Imports    []string
	Deps       []string
	GoFiles    []string
}

// under reports whether path is pkg or inside it ("reins/internal/tool"
// is not under "reins/internal/toolsearch"). A pkg ending in "/" matches
// its sub-packages only.
func under(path, pkg string) bool {
	if strings.HasSuffix(pkg, "/") {
		return strings.HasPrefix(path, pkg)
	}
	return path == pkg || strings.HasPrefix(path, pkg+"/")
}

func list(t *testing.T) []pkg {
	t.Helper()
	out, err := exec.Command("go", "list", "-json", "reins/...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	var pkgs []pkg
	dec := json.NewDecoder(strings.NewReader(string(out)))
	for dec.More() {
		var p pkg
		if err := dec.Decode(&p); err != nil {
			t.Fatal(err)
		}
		pkgs = append(pkgs, p)
	}
	return pkgs
}

func TestEveryPackageHasADocComment(t *testing.T) {
	for _, p := range list(t) {
		if len(p.GoFiles) > 0 && strings.TrimSpace(p.Doc) == "" {
			t.Errorf("%s has no package doc comment", p.ImportPath)
		}
	}
}

// layers maps a package prefix to the packages it must never depend on
// (directly or not): lower layers never import higher ones.
var layers = []struct {
	pkg     string
	forbid  []string
	comment string
}{
	{"reins/internal/llm", []string{"reins/internal/engine", "reins/internal/tool", "reins/internal/cli", "reins/internal/tui", "reins/internal/sdk"}, "capabilities sit below tools and the engine"},
	{"reins/internal/tool", []string{"reins/internal/engine", "reins/internal/cli", "reins/internal/tui", "reins/internal/sdk"}, "the tool contract sits below the engine"},
	{"reins/internal/tools/", []string{"reins/internal/engine", "reins/internal/cli", "reins/internal/tui", "reins/internal/sdk"}, "tools never reach up to the engine or a front end"},
	{"reins/internal/permission", []string{"reins/internal/engine", "reins/internal/cli", "reins/internal/tui"}, "infrastructure sits below the engine"},
	{"reins/internal/settings", []string{"reins/internal/engine", "reins/internal/cli", "reins/internal/tui"}, "infrastructure sits below the engine"},
	{"reins/internal/hooks", []string{"reins/internal/engine", "reins/internal/cli", "reins/internal/tui"}, "infrastructure sits below the engine"},
	{"reins/internal/shell", []string{"reins/internal/engine", "reins/internal/tool", "reins/internal/cli"}, "infrastructure sits below the engine"},
	{"reins/internal/plugin", []string{"reins/internal/engine", "reins/internal/cli", "reins/internal/tui", "reins/internal/sdk", "reins/internal/command", "reins/internal/agent"}, "plugins are found and read below the loaders that use them"},
	{"reins/internal/outputstyle", []string{"reins/internal/engine", "reins/internal/cli", "reins/internal/tui", "reins/internal/sdk", "reins/internal/prompt", "reins/internal/plugin"}, "output styles are found and read below the prompt and the front ends that use them"},
	{"reins/internal/session", []string{"reins/internal/engine", "reins/internal/cli", "reins/internal/tui"}, "transcripts know nothing of the engine"},
	{"reins/internal/engine", []string{"reins/internal/cli", "reins/internal/tui", "reins/internal/sdk", "reins/internal/streamjson", "charm.land/bubbletea/v2"}, "the engine knows no front end"},
}

func TestDependenciesPointDown(t *testing.T) {
	for _, p := range list(t) {
		for _, l := range layers {
			if !under(p.ImportPath, l.pkg) {
				continue
			}
			for _, d := range append(append([]string{}, p.Imports...), p.Deps...) {
				for _, f := range l.forbid {
					if under(d, f) || strings.HasSuffix(f, "/") && strings.HasPrefix(d, f) {
						t.Errorf("%s depends on %s (%s)", p.ImportPath, d, l.comment)
					}
				}
			}
		}
	}
}

func TestOnlyTheTerminalUIImportsBubbleTea(t *testing.T) {
	for _, p := range list(t) {
		if strings.HasPrefix(p.ImportPath, "reins/internal/tui") || p.ImportPath == "reins/internal/cli" || p.ImportPath == "reins/cmd/reins" || strings.HasPrefix(p.ImportPath, "reins/e2e") {
			continue
		}
		for _, d := range p.Imports {
			if strings.HasPrefix(d, "charm.land/bubbletea") {
				t.Errorf("%s imports %s; only internal/tui may", p.ImportPath, d)
			}
		}
	}
}
