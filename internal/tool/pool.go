package tool

import "sort"

// Assemble builds a turn's tool list: the built-in tools sorted by name,
// then the others (MCP tools) sorted by name, without duplicates (the
// first tool of a name wins, so a built-in is never shadowed). Keeping the
// built-ins a contiguous sorted prefix keeps the request prefix stable when
// servers come and go.
func Assemble(builtins, extras []Tool) []Tool {
	out := make([]Tool, 0, len(builtins)+len(extras))
	seen := make(map[string]bool, len(builtins)+len(extras))
	for _, group := range [][]Tool{sortedByName(builtins), sortedByName(extras)} {
		for _, t := range group {
			if !seen[t.Name()] {
				seen[t.Name()] = true
				out = append(out, t)
			}
		}
	}
	return out
}

func sortedByName(ts []Tool) []Tool {
	s := append([]Tool(nil), ts...)
	sort.SliceStable(s, func(i, j int) bool { return s[i].Name() < s[j].Name() })
	return s
}
