package anthropic

import "testing"

func TestAPIModelDropsTheLongContextSuffixForItsBeta(t *testing.T) {
	cases := []struct{ id, model, beta string }{
		{"claude-sonnet-4-5[1m]", "claude-sonnet-4-5", LongContextBeta},
		{"claude-sonnet-4-5[1M]", "claude-sonnet-4-5", LongContextBeta},
		{"claude-sonnet-4-5", "claude-sonnet-4-5", ""},
		{"[1m]", "[1m]", ""},
		{"", "", ""},
		{"my-model[2m]", "my-model[2m]", ""},
	}
	for _, tc := range cases {
		if m, b := apiModel(tc.id); m != tc.model || b != tc.beta {
			t.Errorf("apiModel(%q) = %q, %q; want %q, %q", tc.id, m, b, tc.model, tc.beta)
		}
	}
}
