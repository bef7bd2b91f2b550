package tui

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"reins/internal/llm/llmtest"
)

// /output-style opens a picker of the styles with their descriptions;
// choosing one switches the conversation from its next request on, saves
// the choice in .claude/settings.local.json, and /output-style NAME
// switches directly, for the sessions /clear starts too.
func TestOutputStylePickerSwitchesAndSaves(t *testing.T) {
	tt := newTerm(t, llmtest.Reply("first answer"), llmtest.Reply("second answer"), llmtest.Reply("after clear"))
	tt.sb.Write(t, ".claude/output-styles/terse.md", "---\ndescription: Very few words\n---\nUse very few words.\n")
	tt.start()
	tt.ready()
	tt.prompt("hello")
	tt.waitFor("first answer")
	tt.prompt("/output-style")
	tt.waitFor("Output style (now default)", "Explains its implementation choices", "terse", "Very few words")
	tt.typeText("learn")
	tt.waitFor("Learn by doing")
	tt.keys("Enter")
	tt.waitFor("Output style set to Learning")
	tt.prompt("again")
	if screen := tt.waitFor("second answer"); strings.Contains(screen, "output style is active") {
		t.Errorf("the style's reminder to the model is shown:\n%s", screen)
	}
	tt.prompt("/output-style terse")
	tt.waitFor("Output style set to terse")
	tt.prompt("/status")
	tt.waitFor("Output style:     terse")
	tt.prompt("/config")
	tt.waitFor("Output style: terse (available: default, Explanatory, Learning, terse;")
	tt.prompt("/clear")
	tt.waitFor("Conversation cleared")
	tt.prompt("next")
	tt.waitFor("after clear")
	rs := tt.requests(3)
	if sys := rs[0].SystemText(); strings.Contains(sys, "# Output style") {
		t.Error("the first request already had a style")
	}
	if sys := rs[1].SystemText(); !strings.Contains(sys, "# Output style: Learning") || !strings.Contains(sys, "TODO(human)") {
		t.Error("the request after choosing Learning does not carry it")
	}
	if u := rs[1].LastUserText(); !strings.Contains(u, "The Learning output style is active") {
		t.Errorf("the prompt after choosing Learning carries no reminder: %q", u)
	}
	if sys := rs[2].SystemText(); !strings.Contains(sys, "# Output style: terse\n\nUse very few words.") || strings.Contains(sys, "# Doing tasks") {
		t.Error("the session /clear started does not carry the terse style")
	}
	data, err := os.ReadFile(filepath.Join(tt.sb.Dir, ".claude", "settings.local.json"))
	var saved map[string]any
	if err != nil || json.Unmarshal(data, &saved) != nil || saved["outputStyle"] != "terse" {
		t.Errorf("settings.local.json = %s (%v)", data, err)
	}
}

// An outputStyle no style has is reported as a notice when the UI
// starts, and the default style is used.
func TestOutputStyleUnknownIsANotice(t *testing.T) {
	tt := newTerm(t, llmtest.Reply("answer"))
	tt.sb.Write(t, ".claude/settings.json", `{"outputStyle": "Shakespeare"}`)
	tt.start()
	tt.ready()
	tt.waitFor(`outputStyle "Shakespeare"`)
	tt.prompt("hello")
	tt.waitFor("answer")
	if sys := tt.requests(1)[0].SystemText(); strings.Contains(sys, "# Output style") {
		t.Error("an unknown style changed the prompt")
	}
}

// A statusLine command is given the active style's name
// (output_style.name), not a fixed "default".
func TestStatusLineCommandGetsTheOutputStyle(t *testing.T) {
	tt := newTerm(t)
	dump := filepath.Join(t.TempDir(), "status.json")
	tt.sb.Write(t, ".claude/settings.json", `{"outputStyle":"Explanatory","statusLine":{"type":"command","command":"cat > `+dump+`; echo MY-STATUS"}}`)
	tt.start()
	tt.ready()
	tt.waitFor("MY-STATUS")
	tt.prompt("/output-style Learning")
	tt.waitFor("Output style set to Learning")
	var in struct {
		OutputStyle struct {
			Name string `json:"name"`
		} `json:"output_style"`
	}
	tt.waitUntil("the status line input to carry the Learning style", func(string) bool {
		data, err := os.ReadFile(dump)
		return err == nil && json.Unmarshal(data, &in) == nil && in.OutputStyle.Name == "Learning"
	})
}
