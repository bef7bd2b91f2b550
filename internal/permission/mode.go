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

// rank orders the modes that only differ in how much they allow without
// asking.
func (m Mode) rank() int {
	switch m {
	case ModeBypass:
		return 3
	case ModeAcceptEdits:
		return 2
	case ModeDefault:
		return 1
	}
	return 0
}

// Narrow returns the mode a sub-agent or background task runs in when its
// parent runs in parent and it asks for requested: never more permissive
// than the parent (DESIGN invariant 5). plan and dontAsk only narrow and
// are kept once the parent is in them; "" means the parent's mode.
func Narrow(parent, requested Mode) Mode {
	switch {
	case requested == "":
		return parent
	case parent == ModePlan || parent == ModeDontAsk:
		return parent
	case requested == ModePlan || requested == ModeDontAsk:
		return requested
	case requested.rank() > parent.rank():
		return parent
	}
	return requested
}
