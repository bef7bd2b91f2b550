package permission

import (
	"errors"
	"fmt"
)

// Mode is a permission mode.
type Mode string

// The modes.
const (
	ModeDefault     Mode = "default"
	ModeAcceptEdits Mode = "acceptEdits"
	ModePlan        Mode = "plan"
	ModeBypass      Mode = "bypassPermissions"
	ModeDontAsk     Mode = "dontAsk"
	// ModeAuto hands what would ask the user to auto mode's classifier,
	// a side call to the model (package automode); edits inside the
	// working folders are allowed as in acceptEdits.
	ModeAuto Mode = "auto"
)

// aliasManual is accepted wherever a mode is typed and means default.
const aliasManual = "manual"

// Modes lists the modes in the order Shift+Tab cycles them (auto and
// bypass only when available).
var Modes = []Mode{ModeDefault, ModeAcceptEdits, ModePlan, ModeAuto, ModeBypass, ModeDontAsk}

// ErrAutoDisabled is returned when auto mode is refused by settings
// (disableAutoMode: "disable" or true).
var ErrAutoDisabled = errors.New("auto mode is disabled by disableAutoMode in settings")

// ParseMode parses a --permission-mode or defaultMode value. "" and
// "manual" are the default mode.
func ParseMode(s string) (Mode, error) {
	if s == "" || s == aliasManual {
		return ModeDefault, nil
	}
	for _, m := range Modes {
		if string(m) == s {
			return m, nil
		}
	}
	return "", fmt.Errorf("unknown permission mode %q (want default, acceptEdits, plan, auto, bypassPermissions or dontAsk; manual means default)", s)
}

// Next is the mode after m in the Shift+Tab cycle: default → acceptEdits
// → plan → auto (when allowed) → bypassPermissions (when allowed) →
// default.
func (m Mode) Next(bypassAllowed, autoAllowed bool) Mode {
	switch m {
	case ModeDefault:
		return ModeAcceptEdits
	case ModeAcceptEdits:
		return ModePlan
	case ModePlan:
		if autoAllowed {
			return ModeAuto
		}
		if bypassAllowed {
			return ModeBypass
		}
	case ModeAuto:
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
		return 4
	case ModeAuto:
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
// are kept once the parent is in them; "" means the parent's mode. A
// sub-agent of an auto-mode parent runs in auto mode unless it asks for
// less; one asking for auto under a default or acceptEdits parent keeps
// the parent's mode.
func Narrow(parent, requested Mode) Mode {
	if requested == aliasManual {
		requested = ModeDefault
	}
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

// acceptsEdits reports whether the mode allows edits and file commands
// inside the working folders without asking.
func (m Mode) acceptsEdits() bool { return m == ModeAcceptEdits || m == ModeAuto }
