package permission

import "fmt"

// Mode is a permission mode.
type Mode string

// The modes.
const (
	ModeDefault     Mode = "default"
	ModeAcceptEdits Mode = "acceptEdits"
	ModePlan        Mode = "plan"
	ModeBypass      Mode = "bypassPermissions"
	ModeDontAsk     Mode = "dontAsk"
)

// Modes lists the modes in the order Shift+Tab cycles them (bypass only
// when available).
var Modes = []Mode{ModeDefault, ModeAcceptEdits, ModePlan, ModeBypass, ModeDontAsk}

// ParseMode parses a --permission-mode or defaultMode value. "" is the
// default mode.
func ParseMode(s string) (Mode, error) {
	if s == "" {
		return ModeDefault, nil
	}
	for _, m := range Modes {
		if string(m) == s {
			return m, nil
		}
	}
	return "", fmt.Errorf("unknown permission mode %q (want default, acceptEdits, plan, bypassPermissions or dontAsk)", s)
}

// Next is the mode after m in the Shift+Tab cycle: default → acceptEdits
// → plan → bypassPermissions (when allowed) → default.
func (m Mode) Next(bypassAllowed bool) Mode {
	switch m {
	case ModeDefault:
		return ModeAcceptEdits
	case ModeAcceptEdits:
		return ModePlan
	case ModePlan:
		if bypassAllowed {
			return ModeBypass
		}
	}
	return ModeDefault
}
