package tui

import "testing"

func TestShiftTabCyclesThroughAutoMode(t *testing.T) {
	h := newHarness(t, nil, harnessOpts{opts: func(o *Options) { o.BypassAvailable, o.AutoAvailable = true, true }})
	want := []string{"acceptEdits", "plan", "auto", "bypassPermissions", "default"}
	labels := []string{"accept edits on", "plan mode on", "auto mode on", "bypass permissions on", ""}
	for i, w := range want {
		h.key("shift+tab")
		if labels[i] != "" {
			h.waitFor(labels[i])
		}
		h.waitUntil("mode "+w, func(string) bool { return h.mode.Mode() == w })
	}
}
