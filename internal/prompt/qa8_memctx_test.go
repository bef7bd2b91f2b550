package prompt

import (
	"path/filepath"
	"strings"
	"testing"
)

// The --add-dir folders' memory files (at start and in their
// sub-folders) load only when asked for, as Claude Code loads them only
// with CLAUDE_CODE_ADDITIONAL_DIRECTORIES_CLAUDE_MD set; project memory
// may still import files from those folders.
func TestAddDirMemoryLoadsOnlyWhenAsked(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, map[string]string{
		"repo/CLAUDE.md":           "Repo memory. @../extra/shared.md",
		"extra/shared.md":          "SHARED-IMPORT",
		"extra/CLAUDE.md":          "EXTRA-TOP",
		"extra/.claude/rules/r.md": "EXTRA-RULE",
		"extra/pkg/CLAUDE.md":      "EXTRA-NESTED",
		"extra/pkg/a.go":           "package pkg",
	})
	o := MemoryOptions{Cwd: filepath.Join(root, "repo"), Home: filepath.Join(root, "home"), ManagedDirs: []string{},
		AddDirs: []string{filepath.Join(root, "extra")}, TopDir: root}
	for _, on := range []bool{false, true} {
		o.AddDirMemory = on
		m := LoadMemory(o)
		ctx := m.UserContext("2026-01-01")
		nested := m.Touch(filepath.Join(root, "extra", "pkg", "a.go"))
		if !strings.Contains(ctx, "SHARED-IMPORT") {
			t.Errorf("AddDirMemory=%v: project memory's import from the --add-dir folder was not loaded:\n%s\n%q", on, ctx, m.Warnings())
		}
		for _, s := range []string{"EXTRA-TOP", "EXTRA-RULE"} {
			if strings.Contains(ctx, s) != on {
				t.Errorf("AddDirMemory=%v: context has %s = %v", on, s, !on)
			}
		}
		if strings.Contains(nested, "EXTRA-NESTED") != on {
			t.Errorf("AddDirMemory=%v: reading in the folder gave %q", on, nested)
		}
	}
}

// A rule's paths: globs keep their brace alternatives and spaces whole,
// as the globs Claude Code documents ("src/**/*.{ts,tsx}"); they were cut
// at the comma and at white space, so the rule never applied.
func TestRuleGlobsKeepBracesAndSpaces(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, map[string]string{
		"repo/.claude/rules/scalar.md": "---\npaths: src/**/*.{ts,tsx}\n---\nSCALAR-BRACE-RULE",
		"repo/.claude/rules/list.md":   "---\npaths:\n  - \"lib/**/*.{js,jsx}\"\n  - docs/*.md\n---\nLIST-BRACE-RULE",
		"repo/.claude/rules/two.md":    "---\npaths: \"api/*.{go,proto}, cmd/**\"\n---\nTWO-GLOB-RULE",
		"repo/.claude/rules/space.md":  "---\npaths: \"My Docs/**\"\n---\nSPACE-RULE",
	})
	o := MemoryOptions{Cwd: filepath.Join(root, "repo"), Home: filepath.Join(root, "home"), ManagedDirs: []string{}, TopDir: root}
	m := LoadMemory(o)
	if w := m.Warnings(); len(w) > 0 {
		t.Errorf("warnings: %q", w)
	}
	for file, rule := range map[string]string{
		"src/ui/App.tsx":   "SCALAR-BRACE-RULE",
		"lib/x/y.jsx":      "LIST-BRACE-RULE",
		"cmd/tool/main.go": "TWO-GLOB-RULE",
		"My Docs/a.txt":    "SPACE-RULE",
	} {
		if got := m.Touch(filepath.Join(root, "repo", filepath.FromSlash(file))); !strings.Contains(got, rule) {
			t.Errorf("reading %s: want %s, got %q", file, rule, got)
		}
	}
	fresh := LoadMemory(o)
	if got := fresh.Touch(filepath.Join(root, "repo", "api", "v1.proto")); !strings.Contains(got, "TWO-GLOB-RULE") {
		t.Errorf("reading api/v1.proto: got %q", got)
	}
	if got := fresh.Touch(filepath.Join(root, "repo", "src", "a.js")); got != "" {
		t.Errorf("reading src/a.js (no rule matches): got %q", got)
	}
}

// claudeMdExcludes globs, matched against absolute paths, leave out the
// memory files they match (at start, nested, rules and imports), but never
// managed memory.
func TestExcludesLeaveOutMatchingMemoryFiles(t *testing.T) {
	root := t.TempDir()
	if r, err := filepath.EvalSymlinks(root); err == nil {
		root = r
	}
	writeTree(t, root, map[string]string{
		"etc/CLAUDE.md":                        "MANAGED-KEPT",
		"repo/CLAUDE.md":                       "ROOT-KEPT @docs/imported.md",
		"repo/docs/imported.md":                "IMPORT-EXCLUDED",
		"repo/.claude/rules/legacy-style.md":   "RULE-EXCLUDED",
		"repo/.claude/rules/style.md":          "RULE-KEPT",
		"repo/packages/web/CLAUDE.md":          "WEB-EXCLUDED",
		"repo/packages/web/.claude/rules/r.md": "WEB-RULE-EXCLUDED",
		"repo/packages/web/main.ts":            "x",
		"repo/packages/api/CLAUDE.md":          "API-KEPT",
		"repo/packages/api/main.go":            "x",
	})
	o := MemoryOptions{Cwd: filepath.Join(root, "repo"), Home: filepath.Join(root, "home"),
		ManagedDirs: []string{filepath.Join(root, "etc")}, TopDir: root,
		Excludes: []string{"**/packages/web/**", "**/docs/imported.md", "**/rules/legacy-*.md", "**/etc/CLAUDE.md", "[bad"}}
	m := LoadMemory(o)
	all := m.UserContext("2026-01-01") + m.Touch(filepath.Join(root, "repo", "packages", "web", "main.ts")) +
		m.Touch(filepath.Join(root, "repo", "packages", "api", "main.go"))
	for _, s := range []string{"MANAGED-KEPT", "ROOT-KEPT", "RULE-KEPT", "API-KEPT"} {
		if !strings.Contains(all, s) {
			t.Errorf("%s was left out:\n%s", s, all)
		}
	}
	for _, s := range []string{"IMPORT-EXCLUDED", "RULE-EXCLUDED", "WEB-EXCLUDED", "WEB-RULE-EXCLUDED"} {
		if strings.Contains(all, s) {
			t.Errorf("%s was loaded", s)
		}
	}
	if w := strings.Join(m.Warnings(), "\n"); !strings.Contains(w, `"[bad"`) {
		t.Errorf("no warning for the bad glob: %q", w)
	}
}

// Rules reached through symbolic links load: a rules folder that is a
// link (one shared set linked into many projects) and linked sub-folders,
// each real folder once, so a link back up does not loop. The walk did
// not follow links, so such rules never loaded.
func TestRulesFollowSymbolicLinks(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, map[string]string{
		"shared/a.md":               "SHARED-RULE-A",
		"shared/sub/b.md":           "---\npaths: \"**/*.go\"\n---\nSHARED-GO-RULE",
		"team/c.md":                 "TEAM-RULE-C",
		"repo/.claude/rules/own.md": "OWN-RULE",
		"repo/.claude/rules/team":   "->" + filepath.Join(root, "team"),
		"repo/.claude/rules/loop":   "->" + filepath.Join(root, "repo", ".claude", "rules"),
		"repo/.claude/rules/x.md":   "->" + filepath.Join(root, "team", "c.md"),
		"repo2/.claude/rules":       "->" + filepath.Join(root, "shared"),
		"repo2/main.go":             "package main",
	})
	m := LoadMemory(MemoryOptions{Cwd: filepath.Join(root, "repo"), Home: filepath.Join(root, "home"), ManagedDirs: []string{}, TopDir: root})
	ctx := m.UserContext("2026-01-01")
	if !strings.Contains(ctx, "OWN-RULE") || strings.Count(ctx, "TEAM-RULE-C") != 1 {
		t.Errorf("want the own rule and the linked team rule once:\n%s", ctx)
	}
	m2 := LoadMemory(MemoryOptions{Cwd: filepath.Join(root, "repo2"), Home: filepath.Join(root, "home"), ManagedDirs: []string{}, TopDir: root})
	if ctx := m2.UserContext("2026-01-01"); !strings.Contains(ctx, "SHARED-RULE-A") {
		t.Errorf("the linked rules folder was not read:\n%s", ctx)
	}
	if got := m2.Touch(filepath.Join(root, "repo2", "main.go")); !strings.Contains(got, "SHARED-GO-RULE") {
		t.Errorf("the linked folder's path rule did not apply: %q", got)
	}
	if w := append(m.Warnings(), m2.Warnings()...); len(w) > 0 {
		t.Errorf("warnings: %q", w)
	}
}

// An --add-dir folder given relative to the working folder gets its
// sub-folders' memory when the model reads there, as an absolute one
// does; the relative root matched no file read.
func TestRelativeAddDirGetsNestedMemory(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, map[string]string{
		"repo/CLAUDE.md":       "REPO",
		"shared/CLAUDE.md":     "SHARED-TOP",
		"shared/pkg/CLAUDE.md": "SHARED-NESTED",
		"shared/pkg/lib.go":    "package pkg",
	})
	m := LoadMemory(MemoryOptions{Cwd: filepath.Join(root, "repo"), Home: filepath.Join(root, "home"), ManagedDirs: []string{},
		AddDirs: []string{"../shared"}, AddDirMemory: true, TopDir: root})
	if ctx := m.UserContext("2026-01-01"); !strings.Contains(ctx, "SHARED-TOP") {
		t.Errorf("the relative --add-dir folder's memory is missing:\n%s", ctx)
	}
	if got := m.Touch(filepath.Join(root, "shared", "pkg", "lib.go")); !strings.Contains(got, "SHARED-NESTED") {
		t.Errorf("reading in the relative --add-dir folder gave %q", got)
	}
}
