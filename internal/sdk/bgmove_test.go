package sdk

import "testing"

func TestBackgroundTasksMovesTheNamedCallOrAllAndSaysWhetherAnyMoved(t *testing.T) {
	var asked []string
	h := newHarness(t, Config{MoveToBackground: func(id string) bool {
		asked = append(asked, id)
		return id != "toolu_gone"
	}})
	if got := okBody(t, h.ask("a", `{"subtype":"background_tasks","tool_use_id":"toolu_1"}`)); got != `{"backgrounded":true}` {
		t.Errorf("background_tasks(toolu_1) answered %s", got)
	}
	if got := okBody(t, h.ask("b", `{"subtype":"background_tasks","tool_use_id":"toolu_gone"}`)); got != `{"backgrounded":false}` {
		t.Errorf("background_tasks of a call that cannot move answered %s", got)
	}
	if got := okBody(t, h.ask("c", `{"subtype":"background_tasks"}`)); got != `{"backgrounded":true}` {
		t.Errorf("background_tasks without an id answered %s", got)
	}
	if len(asked) != 3 || asked[0] != "toolu_1" || asked[1] != "toolu_gone" || asked[2] != "" {
		t.Errorf("the application was asked to move %q, want toolu_1, toolu_gone, then every call", asked)
	}
	h.finish()
}
