package llm

import (
	"slices"
	"strings"
	"testing"
)

func TestParseEffortAcceptsTheLevelsAndNamesThemOnError(t *testing.T) {
	for in, want := range map[string]string{
		"low": "low", " Medium ": "medium", "HIGH": "high", "xhigh": "xhigh", "max": "max", "auto": "auto", "": "",
	} {
		got, err := ParseEffort(in)
		if err != nil || got != want {
			t.Errorf("ParseEffort(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	for _, bad := range []string{"extreme", "hi", "5", "ultrathink"} {
		_, err := ParseEffort(bad)
		if err == nil || !strings.Contains(err.Error(), bad) || !strings.Contains(err.Error(), "low, medium, high, xhigh, max") {
			t.Errorf("ParseEffort(%q) error = %v; want one naming the value and the levels", bad, err)
		}
	}
}

func TestEffortForUsesTheNearestLevelTheModelTakes(t *testing.T) {
	m := NewModels(func(string) string { return "" })
	for _, tc := range []struct {
		model, asked, want string
	}{
		{"claude-opus-5-5", "xhigh", "xhigh"},
		{"claude-opus-5-5", "", "medium"}, // its default
		{"claude-opus-5-5", "auto", "medium"},
		{"opus", "max", "max"},
		{"claude-opus-4-5", "xhigh", "high"}, // no xhigh or max: the highest below
		{"claude-opus-4-5", "max", "high"},
		{"claude-opus-4-5", "low", "low"},
		{"claude-opus-4-5", "", ""}, // no default: the API's own
		{"claude-opus-4-5-20251101", "medium", "medium"},
		{"claude-opus-4-6", "xhigh", "high"},
		{"claude-opus-4-6", "max", "max"},
		{"claude-sonnet-4-6", "low", "low"},
		{"claude-opus-4-7", "xhigh", "xhigh"},
		{"claude-sonnet-4-5", "high", ""}, // refuses effort: none sent
		{"claude-haiku-4-5", "low", ""},
		{"some-proxy-model", "high", ""},
	} {
		if got := m.Info(tc.model).EffortFor(tc.asked); got != tc.want {
			t.Errorf("%s asked %q: got %q, want %q", tc.model, tc.asked, got, tc.want)
		}
	}
}

func TestModelEffortLevelsAreOverridable(t *testing.T) {
	m := NewModels(func(string) string { return "" })
	m.Set(ModelInfo{ID: "my-gateway-model", Efforts: []string{"low", "high"}, DefaultEffort: "high"})
	if got := m.Info("my-gateway-model"); !slices.Equal(got.Efforts, []string{"low", "high"}) || got.EffortFor("") != "high" || got.EffortFor("medium") != "low" {
		t.Errorf("override: %+v", got)
	}
	m.Set(ModelInfo{ID: "claude-opus-5-5", Efforts: []string{}})
	if m.Info("claude-opus-5-5").SupportsEffort() {
		t.Error("an empty list of levels should turn effort off for the model")
	}
	m.Set(ModelInfo{ID: "claude-opus-4-5", ContextWindow: 300_000})
	if !m.Info("claude-opus-4-5").SupportsEffort() {
		t.Error("an override without levels should keep the model's levels")
	}
}

func TestAtLeastEffortRaisesOnlyWhatIsBelow(t *testing.T) {
	m := NewModels(func(string) string { return "" })
	for _, tc := range []struct{ model, level, min, want string }{
		{"claude-opus-5-5", "", "high", "high"}, // its default, medium, is below
		{"claude-opus-5-5", "low", "high", "high"},
		{"claude-opus-5-5", "max", "high", "max"},
		{"claude-opus-5-5", "xhigh", "high", "xhigh"},
		{"claude-opus-4-5", "", "high", ""}, // the API's default is high already
		{"claude-opus-5-5", "low", "", "low"},
	} {
		if got := AtLeastEffort(tc.level, tc.min, m.Info(tc.model)); got != tc.want {
			t.Errorf("%s %q at least %q = %q, want %q", tc.model, tc.level, tc.min, got, tc.want)
		}
	}
}
