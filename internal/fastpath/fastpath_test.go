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

func TestTrustedRunOnlyForPrintAndSDK(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want bool
	}{
		{[]string{"-p", "hi"}, true},
		{[]string{"--print", "hi"}, true},
		{[]string{"--output-format", "stream-json", "--input-format", "stream-json"}, true},
		{[]string{"--input-format=stream-json"}, true},
		{[]string{"fix the bug"}, false},
		{[]string{}, false},
		{[]string{"mcp", "serve"}, false},
		{[]string{"--", "-p"}, false},
	} {
		if got := trustedRun(tc.args); got != tc.want {
			t.Errorf("trustedRun(%q) = %v", tc.args, got)
		}
	}
}
