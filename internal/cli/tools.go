package cli

import (
	"sort"

	"reins/internal/tool"
)

// builtinTools constructs the built-in tools for this session, restricted
// by --tools when given.
func (a *app) builtinTools() []tool.Tool {
	var all []tool.Tool
	if a.opts.ToolsSet {
		keep := map[string]bool{}
		for _, n := range splitRules(a.opts.Tools) {
			keep[n] = true
		}
		if !keep["default"] {
			var out []tool.Tool
			for _, t := range all {
				if keep[t.Name()] {
					out = append(out, t)
				}
			}
			all = out
		}
	}
	sort.SliceStable(all, func(i, j int) bool { return all[i].Name() < all[j].Name() })
	return all
}
