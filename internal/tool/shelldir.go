package tool

// ShellDir gives a tool the folder a search starts from when its input
// names none, and that relative paths start from. Tools that search the
// workspace (Glob, Grep) embed it so that they follow the Bash tool's cd,
// as in Claude Code.
type ShellDir struct {
	// Dir returns that folder: the Bash tool's current folder. Nil, or a
	// Dir that returns "", means the call's working folder.
	Dir func() string
}

// Cwd returns the folder relative paths start from when Dir gives one,
// else ""; the permission gate resolves the input's path from it too.
func (s *ShellDir) Cwd() string {
	if s.Dir == nil {
		return ""
	}
	return s.Dir()
}

// At returns c with the working folder Dir gives, when it gives one; c
// itself is not changed.
func (s *ShellDir) At(c *Call) *Call {
	d := s.Cwd()
	if d == "" {
		return c
	}
	var cc Call
	if c != nil {
		cc = *c
	}
	cc.Cwd = d
	return &cc
}
