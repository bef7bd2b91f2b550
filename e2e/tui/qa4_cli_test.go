package tui

import "testing"

// /doctor's terminal line says what colours the screen is drawn with:
// with TERM=dumb the terminal has none, and NO_COLOR turns them off; it
// used to say "colour true" in both cases.
func TestQA4DoctorSaysWhenThereIsNoColour(t *testing.T) {
	cases := []struct{ env, want string }{
		{"TERM=dumb", "no colour (the terminal has none)"},
		{"NO_COLOR=1", "no colour (NO_COLOR is set)"},
	}
	for _, tc := range cases {
		t.Run(tc.env, func(t *testing.T) {
			tt := newTerm(t)
			tt.sb.Env = append(tt.sb.Env, tc.env)
			tt.start()
			tt.ready()
			tt.prompt("/doctor")
			tt.waitFor("built-in tools", tc.want)
		})
	}
}
