package search

import (
	"regexp/syntax"
	"slices"
	"strings"
	"unicode/utf8"
)

// Limits of the literal analysis.
const (
	maxExactSet = 16 // most strings an exact set may hold
	maxExactLen = 64 // longest string an exact set may hold
)

// litSet is what the analysis knows about a regexp node.
//
// When exact is true, the node matches exactly one of strs and nothing
// else (pure additionally says no zero-width assertion was involved, so an
// occurrence of a string is a match of the node). Otherwise strs, when non
// empty, is a requirement: every match of the node contains one of strs.
// An empty strs with exact false means nothing is known.
//
// fold marks strings to be compared without regard to ASCII case; they
// are stored in lower case.
type litSet struct {
	strs  []string
	exact bool
	pure  bool
	fold  bool
}

// anyLits is the set that knows nothing.
func anyLits() litSet { return litSet{} }

// emptyLits is the exact set of the empty string.
func emptyLits() litSet { return litSet{strs: []string{""}, exact: true, pure: true} }

func (s litSet) hasEmpty() bool { return slices.Contains(s.strs, "") }

// allEmpty reports whether the set is the set of the empty string, whose
// fold flag does not matter.
func (s litSet) allEmpty() bool { return len(s.strs) == 1 && s.strs[0] == "" }

// requirement returns the set as a requirement, or nothing if it cannot
// serve as one (it is empty or matches the empty string).
func (s litSet) requirement() litSet {
	if len(s.strs) == 0 || s.hasEmpty() {
		return anyLits()
	}
	return litSet{strs: s.strs, fold: s.fold}
}

// analyze computes the literal facts of re.
func analyze(re *syntax.Regexp) litSet {
	switch re.Op {
	case syntax.OpEmptyMatch:
		return emptyLits()
	case syntax.OpBeginLine, syntax.OpEndLine, syntax.OpBeginText, syntax.OpEndText,
		syntax.OpWordBoundary, syntax.OpNoWordBoundary:
		return litSet{strs: []string{""}, exact: true}
	case syntax.OpLiteral:
		return literalSet(re.Rune, re.Flags&syntax.FoldCase != 0)
	case syntax.OpCharClass:
		return classSet(re.Rune)
	case syntax.OpCapture:
		return analyze(re.Sub[0])
	case syntax.OpQuest:
		s := analyze(re.Sub[0])
		if s.exact && !s.hasEmpty() && len(s.strs) < maxExactSet {
			return litSet{strs: append(slices.Clone(s.strs), ""), exact: true, pure: s.pure, fold: s.fold}
		}
		return anyLits()
	case syntax.OpPlus:
		return analyze(re.Sub[0]).requirement()
	case syntax.OpRepeat:
		if re.Min == 0 {
			return anyLits()
		}
		s := analyze(re.Sub[0])
		if re.Min == re.Max && re.Min <= 4 && s.exact {
			out := emptyLits()
			for range re.Min {
				if out = concatExact(out, s); !out.exact {
					return s.requirement()
				}
			}
			return out
		}
		return s.requirement()
	case syntax.OpConcat:
		return analyzeConcat(re.Sub)
	case syntax.OpAlternate:
		return analyzeAlternate(re.Sub)
	}
	// OpNoMatch, OpAnyChar, OpAnyCharNotNL, OpStar and anything new.
	return anyLits()
}

func literalSet(runes []rune, fold bool) litSet {
	s := string(runes)
	if fold {
		s = lowerASCIIString(s)
	}
	return litSet{strs: []string{s}, exact: true, pure: true, fold: fold && foldable(s)}
}

// classSet turns a small character class into an exact set. A class that
// is one ASCII letter in both cases, such as [Mm], becomes a folded literal.
func classSet(ranges []rune) litSet {
	n := 0
	for i := 0; i < len(ranges); i += 2 {
		n += int(ranges[i+1]-ranges[i]) + 1
		if n > 4 {
			return anyLits()
		}
	}
	var runes []rune
	for i := 0; i < len(ranges); i += 2 {
		for r := ranges[i]; r <= ranges[i+1]; r++ {
			runes = append(runes, r)
		}
	}
	if len(runes) == 2 && runes[0] < utf8.RuneSelf && runes[1] < utf8.RuneSelf &&
		isASCIILetter(byte(runes[0])) && runes[1] == runes[0]+('a'-'A') {
		return litSet{strs: []string{string(runes[1])}, exact: true, pure: true, fold: true}
	}
	out := litSet{exact: true, pure: true}
	for _, r := range runes {
		out.strs = append(out.strs, string(r))
	}
	return out
}

// concatExact returns the cross product of two exact sets, or a non-exact
// set when the product would be too large or mixes folded and unfolded
// strings.
func concatExact(a, b litSet) litSet {
	fold := a.fold || b.fold
	if !a.allEmpty() && !b.allEmpty() && a.fold != b.fold {
		return anyLits()
	}
	if len(a.strs)*len(b.strs) > maxExactSet {
		return anyLits()
	}
	out := litSet{exact: true, pure: a.pure && b.pure, fold: fold}
	for _, x := range a.strs {
		for _, y := range b.strs {
			if len(x)+len(y) > maxExactLen {
				return anyLits()
			}
			out.strs = append(out.strs, x+y)
		}
	}
	slices.Sort(out.strs)
	out.strs = slices.Compact(out.strs)
	return out
}

func analyzeConcat(subs []*syntax.Regexp) litSet {
	cur := emptyLits()
	allExact := true
	var candidates []litSet
	flush := func() {
		if r := cur.requirement(); len(r.strs) > 0 {
			candidates = append(candidates, r)
		}
		cur = emptyLits()
	}
	for _, sub := range subs {
		s := analyze(sub)
		if s.exact {
			if next := concatExact(cur, s); next.exact {
				cur = next
				continue
			}
			allExact = false
			flush()
			cur = s
			continue
		}
		allExact = false
		flush()
		if len(s.strs) > 0 {
			candidates = append(candidates, s)
		}
	}
	if allExact {
		return cur
	}
	flush()
	return bestRequirement(candidates)
}

func analyzeAlternate(subs []*syntax.Regexp) litSet {
	out := litSet{exact: true, pure: true}
	sets := make([]litSet, len(subs))
	for i, sub := range subs {
		sets[i] = analyze(sub)
	}
	// Exact union when every branch is exact and they agree on folding.
	for i, s := range sets {
		if !s.exact || (i > 0 && s.fold != sets[0].fold && !s.allEmpty() && !sets[0].allEmpty()) {
			out.exact = false
			break
		}
		out.fold = out.fold || s.fold
		out.pure = out.pure && s.pure
		out.strs = append(out.strs, s.strs...)
	}
	if out.exact && len(out.strs) <= maxExactSet {
		slices.Sort(out.strs)
		out.strs = slices.Compact(out.strs)
		return out
	}
	// Otherwise a requirement: one string from each branch's requirement.
	req := litSet{}
	for _, s := range sets {
		r := s.requirement()
		if len(r.strs) == 0 {
			return anyLits()
		}
		req.fold = req.fold || r.fold
		req.strs = append(req.strs, r.strs...)
	}
	if req.fold {
		for i, s := range req.strs {
			req.strs[i] = lowerASCIIString(s)
		}
	}
	slices.Sort(req.strs)
	req.strs = slices.Compact(req.strs)
	return req
}

// bestRequirement picks the candidate that should reject the most text.
func bestRequirement(cands []litSet) litSet {
	best, bestCost := anyLits(), 0
	for _, c := range cands {
		cost := setCost(c)
		if len(best.strs) == 0 || cost < bestCost {
			best, bestCost = c, cost
		}
	}
	return best
}

// setCost estimates how often a set of literals occurs: lower is rarer.
// It is driven by the rarest byte of the worst member, then by length and
// by the number of members.
func setCost(s litSet) int {
	worst := 0
	for _, str := range s.strs {
		worst = max(worst, litCost(str, s.fold))
	}
	return worst + 8*(len(s.strs)-1)
}

func litCost(s string, fold bool) int {
	rarest := 256
	for i := 0; i < len(s); i++ {
		c := s[i]
		r := int(byteRank[c])
		if fold && isASCIILetter(c) {
			r = max(r, int(byteRank[upperASCII(c)])) + 8
		}
		rarest = min(rarest, r)
	}
	return rarest*4 - 3*min(len(s), 12)
}

// longestCommonSubstring returns the longest string contained in every
// member of strs.
func longestCommonSubstring(strs []string) string {
	if len(strs) == 0 {
		return ""
	}
	shortest := strs[0]
	for _, s := range strs[1:] {
		if len(s) < len(shortest) {
			shortest = s
		}
	}
	for n := len(shortest); n > 0; n-- {
		for i := 0; i+n <= len(shortest); i++ {
			sub := shortest[i : i+n]
			ok := true
			for _, s := range strs {
				if !strings.Contains(s, sub) {
					ok = false
					break
				}
			}
			if ok {
				return sub
			}
		}
	}
	return ""
}

func lowerASCIIString(s string) string {
	for i := 0; i < len(s); i++ {
		if s[i] >= 'A' && s[i] <= 'Z' {
			b := []byte(s)
			for j := i; j < len(b); j++ {
				b[j] = lowerASCII(b[j])
			}
			return string(b)
		}
	}
	return s
}

// foldable reports whether case folding can change what s matches: it
// holds an ASCII letter or a non-ASCII character.
func foldable(s string) bool {
	for i := 0; i < len(s); i++ {
		if isASCIILetter(s[i]) || s[i] >= utf8.RuneSelf {
			return true
		}
	}
	return false
}

// foldSafe reports whether every match of s under Unicode case folding is
// also a match under ASCII case folding: s is ASCII and holds no letter
// whose fold orbit leaves ASCII (k: KELVIN SIGN, s: LONG S).
func foldSafe(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= utf8.RuneSelf || c == 'k' || c == 's' {
			return false
		}
	}
	return true
}

// longestFoldSafeRun returns the longest fold-safe piece of s.
func longestFoldSafeRun(s string) string {
	best, start := "", 0
	for i := 0; i <= len(s); i++ {
		if i == len(s) || !foldSafe(s[i:i+1]) {
			if i-start > len(best) {
				best = s[start:i]
			}
			start = i + 1
		}
	}
	return best
}
