package sdk

import "testing"

// reload_output_styles reads the styles again and answers with them, not
// a fixed ["default"].
func TestReloadOutputStylesAnswersTheStylesThereAre(t *testing.T) {
	calls := 0
	h := newHarness(t, Config{OutputStyles: func() (string, []string) {
		calls++
		return "Explanatory", []string{"default", "Explanatory", "Learning", "pirate"}
	}})
	got := okBody(t, h.ask("o", `{"subtype":"reload_output_styles"}`))
	if got != `{"available_output_styles":["default","Explanatory","Learning","pirate"]}` || calls != 1 {
		t.Errorf("reload_output_styles answered %s (%d reads)", got, calls)
	}
	h.finish()
}
