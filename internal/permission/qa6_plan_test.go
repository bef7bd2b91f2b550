package permission

import (
	"slices"
	"testing"

	"reins/internal/settings"
)

func checkerIn(t *testing.T, mode Mode, s *settings.Settings) *Checker {
	t.Helper()
	if s == nil {
		s = &settings.Settings{}
	}
	p, _, err := NewPolicy(Config{Settings: s, Mode: string(mode), Cwd: "/p", Home: "/h"})
	if err != nil {
		t.Fatal(err)
	}
	return NewChecker(p, CheckerConfig{})
}

// Leaving plan mode goes back to the mode in force when it was entered.
func TestLeavePlanReturnsToTheModeBeforePlan(t *testing.T) {
	for _, before := range []Mode{ModeDefault, ModeAcceptEdits, ModeAuto, ModeDontAsk} {
		c := checkerIn(t, before, nil)
		if got := c.PrePlanMode(); got != "" {
			t.Errorf("%s: PrePlanMode outside plan mode = %q", before, got)
		}
		if err := c.SetMode(ModePlan); err != nil {
			t.Fatal(err)
		}
		c.SetMode(ModePlan) // entering again keeps what it came from
		if got := c.PrePlanMode(); got != before {
			t.Errorf("PrePlanMode = %q, want %q", got, before)
		}
		if err := c.LeavePlan(); err != nil || c.Mode() != before {
			t.Errorf("after LeavePlan from a plan entered in %s: mode %s, err %v", before, c.Mode(), err)
		}
	}
}

// A session that started in plan mode leaves it for default; so does
// one whose mode before plan was auto when auto mode is no longer
// allowed.
func TestLeavePlanFallsBackToDefault(t *testing.T) {
	c := checkerIn(t, ModePlan, nil)
	if got := c.PrePlanMode(); got != ModeDefault {
		t.Errorf("started in plan: PrePlanMode = %q, want default", got)
	}
	c.LeavePlan()
	if c.Mode() != ModeDefault {
		t.Errorf("started in plan: left for %s", c.Mode())
	}

	c = checkerIn(t, ModeAuto, nil)
	c.SetMode(ModePlan)
	c.mu.Lock()
	c.p.AutoDisabled = true
	c.mu.Unlock()
	if err := c.LeavePlan(); err != nil || c.Mode() != ModeDefault {
		t.Errorf("auto disabled meanwhile: mode %s, err %v", c.Mode(), err)
	}
}

// Leaving plan mode by another route forgets the mode before it, and a
// clone (a sub-agent's) keeps it.
func TestPrePlanModeIsForgottenOnLeavingAndCloned(t *testing.T) {
	c := checkerIn(t, ModeAcceptEdits, nil)
	c.SetMode(ModePlan)
	cl := c.Clone()
	if got := cl.PrePlanMode(); got != ModeAcceptEdits {
		t.Errorf("clone PrePlanMode = %q", got)
	}
	c.SetMode(ModeDefault)
	c.SetMode(ModePlan)
	if got := c.PrePlanMode(); got != ModeDefault {
		t.Errorf("second entry from default: PrePlanMode = %q", got)
	}
	if c.PlanEntries() != 2 {
		t.Errorf("PlanEntries = %d, want 2", c.PlanEntries())
	}
}

// OnMode hears every change once, whatever asked for it, and not
// repeats of the same mode; a clone does not tell it.
func TestOnModeHearsEachChange(t *testing.T) {
	p, _, err := NewPolicy(Config{Settings: &settings.Settings{}, Cwd: "/p", Home: "/h"})
	if err != nil {
		t.Fatal(err)
	}
	var heard []string
	c := NewChecker(p, CheckerConfig{OnMode: func(from, to Mode) { heard = append(heard, string(from)+">"+string(to)) }})
	c.SetMode(ModePlan)
	c.SetMode(ModePlan)
	c.Apply([]Update{{Type: UpdateSetMode, Mode: ModeAuto, Destination: DestSession}})
	c.Clone().SetMode(ModeDefault)
	c.SetMode(ModeBypass)
	want := []string{"default>plan", "plan>auto", "auto>bypassPermissions"}
	if !slices.Equal(heard, want) {
		t.Errorf("heard %v, want %v", heard, want)
	}
}
