package tui

import (
	"testing"
)

// A message for the user that arrives before the UI is drawn (here a
// SessionStart hook's systemMessage) is shown, and the UI starts: it used
// to freeze on the trust screen.
func TestQANoticeBeforeTheUIStartsIsShown(t *testing.T) {
	tt := newTerm(t)
	tt.sb.Write(t, ".claude/settings.json", `{"hooks":{"SessionStart":[{"hooks":[{"type":"command","command":"echo '{\"systemMessage\": \"qa hello from the hook\"}'"}]}]}}`)
	tt.start()
	tt.ready()
	tt.waitFor("qa hello from the hook")
}
