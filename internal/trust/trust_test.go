package trust

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func newStore(t *testing.T) (*Store, string) {
	t.Helper()
	root := t.TempDir()
	home := filepath.Join(root, "home")
	if err := os.MkdirAll(home, 0o755); err != nil {
		t.Fatal(err)
	}
	return &Store{ConfigDir: filepath.Join(home, ".reins"), Home: home}, root
}

func trusted(t *testing.T, s *Store, dir string) bool {
	t.Helper()
	ok, err := s.IsTrusted(dir)
	if err != nil {
		t.Fatal(err)
	}
	return ok
}

func TestParentTrustCoversChildrenOnly(t *testing.T) {
	s, root := newStore(t)
	a := filepath.Join(root, "work", "a")
	if trusted(t, s, a) {
		t.Fatal("nothing is trusted yet")
	}
	persisted, err := s.Trust(a)
	if err != nil || !persisted {
		t.Fatalf("Trust = %v, %v", persisted, err)
	}
	tests := map[string]bool{
		a:                                   true,
		filepath.Join(a, "b", "c"):          true,
		filepath.Join(root, "work"):         false,
		filepath.Join(root, "work", "ab"):   false,
		filepath.Join(root, "work", "a..."): false,
	}
	for dir, want := range tests {
		if got := trusted(t, s, dir); got != want {
			t.Errorf("IsTrusted(%s) = %v, want %v", dir, got, want)
		}
	}
	// A new store (a later session) reads the record.
	again := &Store{ConfigDir: s.ConfigDir, Home: s.Home}
	if !trusted(t, again, filepath.Join(a, "sub")) {
		t.Error("trust was not persisted")
	}
	if _, err := s.Trust(a); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(filepath.Join(s.ConfigDir, FileName))
	if strings.Count(string(data), `"path"`) != 1 {
		t.Errorf("trusting twice should record once: %s", data)
	}
}

func TestHomeIsTrustedForSessionOnly(t *testing.T) {
	s, _ := newStore(t)
	persisted, err := s.Trust(s.Home)
	if err != nil || persisted {
		t.Fatalf("Trust(home) = %v, %v; want not persisted", persisted, err)
	}
	if !trusted(t, s, filepath.Join(s.Home, "proj")) {
		t.Error("home trust should cover the session")
	}
	if _, err := os.Stat(filepath.Join(s.ConfigDir, FileName)); !os.IsNotExist(err) {
		t.Error("home trust must not be written down")
	}
	later := &Store{ConfigDir: s.ConfigDir, Home: s.Home}
	if trusted(t, later, s.Home) {
		t.Error("a new session must not trust home")
	}
}

func TestClaudeCodeTrustIsHonoured(t *testing.T) {
	s, root := newStore(t)
	proj := filepath.Join(root, "cc-proj")
	cfg := `{"projects": {"` + proj + `": {"hasTrustDialogAccepted": true}, "` + s.Home + `": {"hasTrustDialogAccepted": true}, "/other": {"hasTrustDialogAccepted": false}}}`
	if err := os.WriteFile(filepath.Join(s.Home, ".claude.json"), []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	if !trusted(t, s, filepath.Join(proj, "x")) {
		t.Error("a folder Claude Code trusts should be trusted")
	}
	if trusted(t, s, filepath.Join(s.Home, "elsewhere")) {
		t.Error("a home entry in Claude Code's file must not trust all of home")
	}
	if trusted(t, s, "/other") {
		t.Error("hasTrustDialogAccepted false is not trust")
	}
}

func TestSymlinkToTrustedFolderIsTrusted(t *testing.T) {
	s, root := newStore(t)
	real := filepath.Join(root, "real")
	link := filepath.Join(root, "link")
	if err := os.MkdirAll(real, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(real, link); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Trust(real); err != nil {
		t.Fatal(err)
	}
	if !trusted(t, s, link) {
		t.Error("a symlink to a trusted folder should be trusted")
	}
}

func TestBrokenRecordsAreAnError(t *testing.T) {
	s, root := newStore(t)
	if err := os.MkdirAll(s.ConfigDir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(s.ConfigDir, FileName), []byte("{"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := s.IsTrusted(root); err == nil || !strings.Contains(err.Error(), FileName) {
		t.Errorf("err = %v, want one naming the file", err)
	}
	if _, err := s.Trust(root); err == nil {
		t.Error("Trust should refuse to overwrite broken records")
	}
}

func TestProjectPathIsGitRoot(t *testing.T) {
	root := t.TempDir()
	sub := filepath.Join(root, "repo", "a", "b")
	if err := os.MkdirAll(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	if got := ProjectPath(sub); got != sub {
		t.Errorf("without git, ProjectPath = %s, want %s", got, sub)
	}
	if err := os.Mkdir(filepath.Join(root, "repo", ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	if got := ProjectPath(sub); got != filepath.Join(root, "repo") {
		t.Errorf("ProjectPath = %s, want the git root", got)
	}
}

func TestClaudeJSONPath(t *testing.T) {
	dir := t.TempDir()
	none := func(string) string { return "" }
	if got := ClaudeJSONPath(none, "/h"); got != "/h/.claude.json" {
		t.Errorf("default = %s", got)
	}
	env := func(k string) string {
		if k == "CLAUDE_CONFIG_DIR" {
			return dir
		}
		return ""
	}
	if got := ClaudeJSONPath(env, "/h"); got != filepath.Join(dir, ".claude.json") {
		t.Errorf("with CLAUDE_CONFIG_DIR = %s", got)
	}
	if err := os.WriteFile(filepath.Join(dir, ".config.json"), []byte("{}"), 0o600); err != nil {
		t.Fatal(err)
	}
	if got := ClaudeJSONPath(env, "/h"); got != filepath.Join(dir, ".config.json") {
		t.Errorf("legacy file should win, got %s", got)
	}
}
