package command

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func writePluginFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for rel, content := range files {
		p := filepath.Join(dir, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func TestLoadPluginNamespacesCommandsAndSkillsWithThePluginName(t *testing.T) {
	root := t.TempDir()
	writePluginFiles(t, root, map[string]string{
		"commands/review.md":          "---\ndescription: Review\n---\nReview with ${CLAUDE_PLUGIN_ROOT}/rules.md",
		"commands/git/commit.md":      "Commit",
		"commands/bundle/SKILL.md":    "A skill inside commands/",
		"skills/style/SKILL.md":       "---\ndescription: Style guide\n---\nStyle",
		"skills/not-a-skill/notes.md": "x",
		"single/SKILL.md":             "One skill folder named in the manifest",
		"extra.md":                    "A command file named in the manifest",
		"about.md":                    "---\ndescription: from the file\n---\nAbout",
	})
	cmds, errs := LoadPlugin(PluginSource{
		Name:     "tools",
		Commands: []string{filepath.Join(root, "commands"), filepath.Join(root, "extra.md"), filepath.Join(root, "single")},
		Skills:   []string{filepath.Join(root, "skills")},
		Inline: []PluginCommand{
			{Name: "about", Path: filepath.Join(root, "about.md"), Description: "from the manifest", ArgumentHint: "[topic]"},
			{Name: "hi", Content: "---\nmodel: haiku\n---\nSay hi"},
		},
		Expand: func(s string) string { return strings.ReplaceAll(s, "${CLAUDE_PLUGIN_ROOT}", "/plug") },
	})
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	type row struct {
		Name, Desc, Hint, Model, Body string
		Skill                         bool
		Source                        Source
	}
	var got []row
	for _, c := range cmds {
		got = append(got, row{c.Name, c.Description, c.ArgumentHint, c.Model, c.Body, c.Skill, c.Source})
	}
	want := []row{
		{"tools:about", "from the manifest", "[topic]", "", "About", false, SourcePlugin},
		{"tools:bundle", "A skill inside commands/", "", "", "A skill inside commands/", true, SourcePlugin},
		{"tools:extra", "A command file named in the manifest", "", "", "A command file named in the manifest", false, SourcePlugin},
		{"tools:git:commit", "Commit", "", "", "Commit", false, SourcePlugin},
		{"tools:hi", "Say hi", "", "haiku", "Say hi", false, SourcePlugin},
		{"tools:review", "Review", "", "", "Review with /plug/rules.md", false, SourcePlugin},
		{"tools:single", "One skill folder named in the manifest", "", "", "One skill folder named in the manifest", true, SourcePlugin},
		{"tools:style", "Style guide", "", "", "Style", true, SourcePlugin},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("commands (-want +got):\n%s", diff)
	}
}

func TestLoadPluginReportsMissingPaths(t *testing.T) {
	root := t.TempDir()
	_, errs := LoadPlugin(PluginSource{Name: "p", Commands: []string{filepath.Join(root, "nope.md")}, Skills: []string{filepath.Join(root, "none")}})
	if len(errs) != 2 || !strings.Contains(errs[0].Error(), "plugin p") || !strings.Contains(errs[1].Error(), "skills of plugin p") {
		t.Errorf("errors = %v", errs)
	}
}
