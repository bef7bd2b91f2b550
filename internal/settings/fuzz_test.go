package settings

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// FuzzParseFile checks that any bytes as a settings file give either data
// or warnings that locate the problem inside the file, never a panic.
func FuzzParseFile(f *testing.F) {
	for _, s := range []string{
		`{}`, ``, `{"model": "x"}`, `{"permissions": {"allow": ["Bash(ls)"], "deny": 3}}`,
		`{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "x", "timeout": 5}]}]}}`,
		`{"env": {"A": 1, "B": true, "C": null}}`, `[1]`, `{"a":`, "\xef\xbb\xbf{}", `{"a": 1} {"b": 2}`,
		`{"permissions": {"defaultMode": "nope"}}`, `{"models": {"m": {"contextWindow": "big"}}}`,
		`{"permissions": {"deny": ["x", 3], "ask": "y", "allow": {}, "defaultMode": 5}, "hooks": {"Stop": {}, "PreToolUse": [{"hooks": "x"}, {"hooks": []}]}, "env": {"A": [1], "B": "2"}}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		fd, warns := parseFile("s.json", data)
		lines := strings.Count(string(data), "\n") + 1
		for _, w := range warns {
			if w.File != "s.json" || w.Message == "" {
				t.Fatalf("warning without file or message: %+v", w)
			}
			if w.Line < 1 || w.Line > lines || w.Column < 1 {
				t.Fatalf("warning outside the file (%d lines): %+v", lines, w)
			}
		}
		if fd == nil && len(warns) == 0 {
			t.Fatal("file skipped without a warning")
		}
		if fd != nil {
			for k, raw := range fd.values {
				if msg, _ := validateKey(k, raw); msg != "" {
					t.Fatalf("kept invalid key %s: %s", k, msg)
				}
			}
		}
	})
}

// FuzzLoad runs the whole loader over a fuzzed project file, trusted and
// not, and checks the merged result is consistent.
func FuzzLoad(f *testing.F) {
	f.Add([]byte(`{"env": {"ANTHROPIC_BASE_URL": "x", "ANTHROPIC_MODEL": "m"}, "permissions": {"allow": ["Bash"]}}`), false)
	f.Add([]byte(`{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "true"}]}]}, "apiKeyHelper": "x"}`), true)
	f.Add([]byte(`{"permissions": {"additionalDirectories": ["../x", "~/y", ""]}}`), true)
	f.Fuzz(func(t *testing.T, data []byte, trusted bool) {
		dir := t.TempDir()
		proj := filepath.Join(dir, "p")
		if err := os.MkdirAll(filepath.Join(proj, ".claude"), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(proj, ".claude", "settings.json"), data, 0o644); err != nil {
			t.Fatal(err)
		}
		s, _, err := Load(context.Background(), Options{Cwd: proj, Home: filepath.Join(dir, "h"), Trusted: trusted,
			ManagedPaths: []string{}, Getenv: func(string) string { return "" }})
		if err != nil {
			t.Fatal(err)
		}
		if !trusted {
			for k := range s.Env {
				if !SafeEnv(k) {
					t.Fatalf("untrusted project set env %s", k)
				}
			}
			if len(s.Hooks) != 0 || s.APIKeyHelper != nil || len(s.RulesFor(Allow)) != 0 || len(s.AdditionalDirectories) != 0 {
				t.Fatalf("untrusted project widened settings: %+v", s)
			}
		}
		for _, d := range s.AdditionalDirectories {
			if !filepath.IsAbs(d.Path) {
				t.Fatalf("relative directory %q", d.Path)
			}
		}
	})
}
