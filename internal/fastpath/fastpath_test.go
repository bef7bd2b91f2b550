package fastpath

import "testing"

func TestAnswerOnlyForVersionFlagsBeforeDashDash(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--version"}, VersionLine},
		{[]string{"-v"}, SDKVersionLine},
		{[]string{"-p", "hi", "--version"}, VersionLine},
		{[]string{"--", "--version"}, ""},
		{[]string{"-p", "what is -v"}, ""},
		{[]string{"--verbose"}, ""},
		{nil, ""},
	} {
		if got := Answer(tc.args); got != tc.want {
			t.Errorf("Answer(%q) = %q, want %q", tc.args, got, tc.want)
		}
	}
}
