package settings

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"
)

func TestAddRulesKeepsOtherKeysAndSkipsDuplicates(t *testing.T) {
	path := filepath.Join(t.TempDir(), ".claude", "settings.local.json")
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(`{"model": "x", "permissions": {"allow": ["Read"], "deny": ["Bash(rm:*)"]}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := AddRules(path, Allow, []string{"Read", "Bash(npm test)"}); err != nil {
		t.Fatal(err)
	}
	var got struct {
		Model       string
		Permissions map[string][]string
	}
	data, _ := os.ReadFile(path)
	if err := json.Unmarshal(data, &got); err != nil {
		t.Fatal(err)
	}
	want := map[string][]string{"allow": {"Read", "Bash(npm test)"}, "deny": {"Bash(rm:*)"}}
	if got.Model != "x" || !reflect.DeepEqual(got.Permissions, want) {
		t.Errorf("file = %s", data)
	}
	if st, _ := os.Stat(path); st.Mode().Perm() != 0o600 {
		t.Errorf("mode = %v, want the file's 0600 kept", st.Mode().Perm())
	}
}

func TestAddRulesCreatesFileAndFolders(t *testing.T) {
	path := filepath.Join(t.TempDir(), "p", ".claude", "settings.local.json")
	if err := AddRules(path, Deny, []string{"WebFetch"}); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(path)
	if !strings.Contains(string(data), `"deny": [`) || !strings.Contains(string(data), `"WebFetch"`) {
		t.Errorf("file = %s", data)
	}
}

func TestAddRulesRefusesToClobberBrokenFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "settings.local.json")
	if err := os.WriteFile(path, []byte(`{"permissions": `), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := AddRules(path, Allow, []string{"Read"}); err == nil || !strings.Contains(err.Error(), path) {
		t.Errorf("err = %v, want one naming the file", err)
	}
	if data, _ := os.ReadFile(path); string(data) != `{"permissions": ` {
		t.Errorf("broken file was changed to %s", data)
	}
}

func TestConcurrentAddRulesLoseNothing(t *testing.T) {
	path := filepath.Join(t.TempDir(), "settings.local.json")
	var wg sync.WaitGroup
	for i := range 20 {
		wg.Go(func() {
			if err := AddRules(path, Allow, []string{fmt.Sprintf("Bash(cmd%d)", i)}); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	var got struct{ Permissions struct{ Allow []string } }
	data, _ := os.ReadFile(path)
	if err := json.Unmarshal(data, &got); err != nil {
		t.Fatal(err)
	}
	if len(got.Permissions.Allow) != 20 {
		t.Errorf("%d rules kept, want 20: %s", len(got.Permissions.Allow), data)
	}
	left, _ := filepath.Glob(filepath.Join(filepath.Dir(path), ".*.tmp"))
	if len(left) != 0 {
		t.Errorf("temporary files left: %v", left)
	}
}

func TestKeyHelper(t *testing.T) {
	dir := t.TempDir()
	tests := []struct {
		name, cmd string
		timeout   time.Duration
		key, err  string
	}{
		{"prints key", "echo '  sk-test-123  '", 0, "sk-test-123", ""},
		{"runs in dir", "cat key.txt", 0, "from-file", ""},
		{"fails", "echo nope >&2; exit 3", 0, "", "failed: nope"},
		{"prints nothing", "true", 0, "", "printed no key"},
		{"times out", "sleep 5", 100 * time.Millisecond, "", "timed out"},
	}
	if err := os.WriteFile(filepath.Join(dir, "key.txt"), []byte("from-file\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := &KeyHelper{Command: tt.cmd, File: "settings.json", Dir: dir, Timeout: tt.timeout}
			start := time.Now()
			key, err := h.Key(context.Background())
			if key != tt.key {
				t.Errorf("key = %q, want %q", key, tt.key)
			}
			if (err == nil) != (tt.err == "") || (err != nil && !strings.Contains(err.Error(), tt.err)) {
				t.Errorf("err = %v, want %q", err, tt.err)
			}
			if time.Since(start) > 4*time.Second {
				t.Errorf("took %v; the timeout should have killed it", time.Since(start))
			}
		})
	}
}
