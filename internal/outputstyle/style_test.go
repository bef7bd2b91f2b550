package outputstyle

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func write(t *testing.T, path, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestBuiltinsAreDefaultExplanatoryLearning(t *testing.T) {
	got := Names(Builtins())
	if strings.Join(got, ",") != "default,Explanatory,Learning" {
		t.Fatalf("built-ins = %v", got)
	}
	for _, s := range Builtins()[1:] {
		if !s.KeepCodingInstructions || s.Prompt == "" || s.Description == "" {
			t.Errorf("%s: keep=%v, prompt %d bytes, description %q", s.Name, s.KeepCodingInstructions, len(s.Prompt), s.Description)
		}
	}
	if l, _ := Match(Builtins(), "Learning"); !strings.Contains(l.Prompt, "TODO(human)") {
		t.Error("the Learning style does not ask for TODO(human) markers")
	}
	if e, _ := Match(Builtins(), "Explanatory"); !strings.Contains(e.Prompt, "Insight") {
		t.Error("the Explanatory style has no Insight notes")
	}
}

func TestDefaultIsFoundWithoutReadingAnything(t *testing.T) {
	// A root that cannot be read at all would give an error if touched.
	dir := t.TempDir()
	write(t, filepath.Join(dir, "output-styles", "bad.md"), "---\nname: [unclosed\n")
	r := Roots{User: []string{dir}, Project: []string{dir}}
	for _, name := range []string{"", "default", "Default", " DEFAULT "} {
		s, ok, errs := Find(r, name)
		if !ok || !s.IsDefault() || len(errs) != 0 {
			t.Errorf("Find(%q) = %+v, %v, %v", name, s, ok, errs)
		}
	}
}

func TestCustomStylesFromFrontmatterAndFileName(t *testing.T) {
	user, proj, plug := t.TempDir(), t.TempDir(), t.TempDir()
	write(t, filepath.Join(user, "output-styles", "pirate.md"), "---\nname: Pirate\ndescription: Arr\n---\n\nTalk like a pirate.\n")
	write(t, filepath.Join(user, "output-styles", "plain.md"), "# Plain words\n\nUse plain words.\n")
	write(t, filepath.Join(user, "output-styles", "shared.md"), "---\ndescription: from the user\n---\nuser text\n")
	write(t, filepath.Join(proj, "output-styles", "shared.md"), "---\ndescription: from the project\nkeep-coding-instructions: true\n---\nproject text\n")
	write(t, filepath.Join(plug, "haiku.md"), "---\ndescription: five seven five\n---\nAnswer in haiku.\n")
	write(t, filepath.Join(user, "output-styles", "notes.txt"), "not a style")
	all, errs := Load(Roots{User: []string{user}, Project: []string{proj},
		Plugins: []PluginStyles{{Plugin: "poetry", Paths: []string{plug}}}})
	if len(errs) != 0 {
		t.Fatalf("errors: %v", errs)
	}
	want := "default,Explanatory,Learning,Pirate,plain,poetry:haiku,shared"
	if got := strings.Join(Names(all), ","); got != want {
		t.Fatalf("names = %s, want %s", got, want)
	}
	p, _ := Match(all, "Pirate")
	if p.Description != "Arr" || p.Prompt != "Talk like a pirate." || p.KeepCodingInstructions || p.Source != SourceUser {
		t.Errorf("Pirate = %+v", p)
	}
	if s, _ := Match(all, "plain"); s.Description != "Plain words" {
		t.Errorf("description from the first line = %q", s.Description)
	}
	if s, _ := Match(all, "shared"); s.Source != SourceProject || s.Prompt != "project text" || !s.KeepCodingInstructions {
		t.Errorf("the project's style does not override the user's: %+v", s)
	}
	if s, _ := Match(all, "poetry:haiku"); s.Source != SourcePlugin || s.Prompt != "Answer in haiku." {
		t.Errorf("plugin style = %+v", s)
	}
}

func TestMatchPrefersExactThenIgnoresCase(t *testing.T) {
	styles := []Style{{Name: "explanatory"}, {Name: "Explanatory", Description: "exact"}}
	if s, ok := Match(styles, "Explanatory"); !ok || s.Description != "exact" {
		t.Errorf("exact match lost: %+v", s)
	}
	if s, ok := Match(Builtins(), "learning"); !ok || s.Name != "Learning" {
		t.Errorf("case-insensitive match: %+v %v", s, ok)
	}
	if _, ok := Match(Builtins(), "nope"); ok {
		t.Error("an unknown name matched")
	}
}

func TestBadFilesAreReportedAndSkipped(t *testing.T) {
	user := t.TempDir()
	write(t, filepath.Join(user, "output-styles", "broken.md"), "---\nname: broken\n")
	write(t, filepath.Join(user, "output-styles", "flag.md"), "---\nkeep-coding-instructions: maybe\n---\ntext\n")
	write(t, filepath.Join(user, "output-styles", "default.md"), "text\n")
	all, errs := Load(Roots{User: []string{user}})
	joined := ""
	for _, e := range errs {
		joined += e.Error() + "\n"
	}
	for _, want := range []string{"broken.md", "flag.md", "keep-coding-instructions", "default.md"} {
		if !strings.Contains(joined, want) {
			t.Errorf("errors do not mention %s:\n%s", want, joined)
		}
	}
	if _, ok := Match(all, "broken"); ok {
		t.Error("an unparsable file became a style")
	}
	if s, ok := Match(all, "flag"); !ok || s.KeepCodingInstructions {
		t.Errorf("a bad flag: %+v %v", s, ok)
	}
	if s, _ := Match(all, "default"); !s.IsDefault() {
		t.Error("a file named default.md replaced the default style")
	}
}

func TestFindReportsAnUnknownName(t *testing.T) {
	if _, ok, _ := Find(Roots{User: []string{t.TempDir()}}, "Nope"); ok {
		t.Error("found a style that does not exist")
	}
}
