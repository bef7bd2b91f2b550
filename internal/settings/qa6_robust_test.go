package settings

import (
	"path/filepath"
	"strings"
	"testing"
)

// A hook matcher that Go's regular expressions refuse selects nothing, so
// its hooks never run: that is warned about, naming the event, the
// matcher and the file. Matchers that read fine, and matchers of events
// that ignore them, give no warning.
func TestHookMatcherThatIsNoRegularExpressionIsWarnedAbout(t *testing.T) {
	e := newEnv(t)
	path := e.write(filepath.Join(e.claude, "settings.json"), `{"hooks": {
  "PreToolUse": [
    {"matcher": "(?!Bash).*", "hooks": [{"type": "command", "command": "a"}]},
    {"matcher": "Edit[", "hooks": [{"type": "command", "command": "b"}]},
    {"matcher": "Edit|Write", "hooks": [{"type": "command", "command": "c"}]},
    {"matcher": "mcp__.*__write", "hooks": [{"type": "command", "command": "d"}]}
  ],
  "Stop": [{"matcher": "((", "hooks": [{"type": "command", "command": "e"}]}]
}}`)
	o := e.opts()
	o.ClaudeDir = e.claude
	_, warns := e.load(o)
	var got []string
	for _, w := range warns {
		if strings.Contains(w.Message, "matcher") {
			got = append(got, w.String())
		}
	}
	if len(got) != 2 {
		t.Fatalf("matcher warnings = %q, want two (for (?!Bash).* and Edit[)", got)
	}
	for i, want := range []string{`PreToolUse matcher "(?!Bash).*"`, `PreToolUse matcher "Edit["`} {
		if !strings.Contains(got[i], want) || !strings.Contains(got[i], path) || !strings.Contains(got[i], "never run") {
			t.Errorf("warning %q does not name %s, the file and the effect", got[i], want)
		}
	}
}

// A misspelt hook event is named with the event it likely means.
func TestMisspeltHookEventSuggestsTheKnownOne(t *testing.T) {
	e := newEnv(t)
	e.write(filepath.Join(e.claude, "settings.json"), `{"hooks": {
  "PreToolUs": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "a"}]}],
  "posttooluse": [{"hooks": [{"type": "command", "command": "b"}]}],
  "Teleport": [{"hooks": [{"type": "command", "command": "c"}]}]
}}`)
	o := e.opts()
	o.ClaudeDir = e.claude
	_, warns := e.load(o)
	want := map[string]string{
		`"PreToolUs"`:   `(did you mean "PreToolUse"?)`,
		`"posttooluse"`: `(did you mean "PostToolUse"?)`,
		`"Teleport"`:    `is not one reins fires; its hooks never run`,
	}
	for ev, suffix := range want {
		found := false
		for _, w := range warns {
			if strings.Contains(w.Message, "hook event "+ev) {
				found = true
				if !strings.Contains(w.Message, suffix) {
					t.Errorf("warning %q does not contain %q", w.Message, suffix)
				}
				if ev == `"Teleport"` && strings.Contains(w.Message, "did you mean") {
					t.Errorf("warning %q suggests an event far from the name", w.Message)
				}
			}
		}
		if !found {
			t.Errorf("no warning for %s: %v", ev, warns)
		}
	}
}

// A hook without "type" is told to say "command", not that the type ""
// is unsupported.
func TestHookWithoutTypeSaysWhatToWrite(t *testing.T) {
	e := newEnv(t)
	e.write(filepath.Join(e.claude, "settings.json"), `{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"command": "check.sh"}]}]}}`)
	o := e.opts()
	o.ClaudeDir = e.claude
	_, warns := e.load(o)
	if len(warns) != 1 || !strings.Contains(warns[0].Message, `a PreToolUse hook has no "type" (write "type": "command" beside its command); that hook is skipped`) {
		t.Errorf("warnings = %v", warns)
	}
}

// A settings file saved as UTF-16 with its byte-order mark (as Windows
// editors save it) is read as the text it is; it was skipped as "not
// valid UTF-8".
func TestSettingsFileInUTF16IsRead(t *testing.T) {
	e := newEnv(t)
	text := "{\r\n  \"model\": \"claude-haiku-4-5\",\r\n  \"permissions\": {\"allow\": [\"Bash(ls:*)\"]}\r\n}\r\n"
	le := []byte{0xFF, 0xFE}
	for _, r := range text {
		le = append(le, byte(r), 0)
	}
	e.write(filepath.Join(e.claude, "settings.json"), string(le))
	o := e.opts()
	o.ClaudeDir = e.claude
	s, warns := e.load(o)
	if len(warns) != 0 || s.Model != "claude-haiku-4-5" || len(s.Rules) != 1 || s.Rules[0].Text != "Bash(ls:*)" {
		t.Errorf("model %q, rules %v, warnings %v", s.Model, s.Rules, warns)
	}
}

// An env key that is no variable name (empty, or holding '=') is
// reported and left out: "A=B": "x" reached commands as A set to "B=x".
func TestEnvKeyThatIsNoVariableNameIsLeftOut(t *testing.T) {
	e := newEnv(t)
	e.write(filepath.Join(e.claude, "settings.json"), `{"env": {"": "v", "PATH=/evil:$PATH": "x", "GOOD": "1"}}`)
	o := e.opts()
	o.ClaudeDir = e.claude
	s, warns := e.load(o)
	if len(s.Env) != 1 || s.Env["GOOD"] != "1" {
		t.Errorf("env = %v, want GOOD only", s.Env)
	}
	if len(warns) != 2 || !strings.Contains(warns[0].Message, `"" is not a variable name`) || !strings.Contains(warns[1].Message, `"PATH=/evil:$PATH" is not a variable name`) {
		t.Errorf("warnings = %v", warns)
	}
}
