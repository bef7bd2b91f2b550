package settings

import (
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// A misspelt or mistyped member of autoMode is named in a warning and
// dropped on its own: the members beside it still apply, and a misspelt
// list no longer leaves the built-in rules in place without a word.
func TestQA5AutoModeUnknownOrMistypedMemberIsNamedAndTheRestKept(t *testing.T) {
	e := newEnv(t)
	e.write(filepath.Join(e.claude, "settings.json"), `{"autoMode": {
  "softDeny": ["Running database migrations"],
  "environment": ["$defaults", "staging.example.com is ours"],
  "hard_deny": [1],
  "classifyAllShell": true
}}`)
	s, w := e.load(e.opts())
	want := AutoMode{Environment: []string{"$defaults", "staging.example.com is ours"}, ClassifyAllShell: true}
	if !reflect.DeepEqual(s.AutoMode, want) {
		t.Errorf("autoMode = %+v, want %+v", s.AutoMode, want)
	}
	var msgs []string
	for _, x := range w {
		msgs = append(msgs, x.Message)
		if x.Line < 2 {
			t.Errorf("warning %q is not placed at its member (line %d)", x.Message, x.Line)
		}
	}
	all := strings.Join(msgs, "\n")
	if len(w) != 2 || !strings.Contains(all, "autoMode.softDeny") || !strings.Contains(all, "did you mean soft_deny?") || !strings.Contains(all, "autoMode.hard_deny") {
		t.Errorf("warnings = %q, want one naming autoMode.softDeny (did you mean soft_deny?) and one naming autoMode.hard_deny", msgs)
	}
}
