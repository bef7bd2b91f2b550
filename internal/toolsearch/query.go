package toolsearch

import (
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"
)

// queryKind is one of the four query forms of seed 000 §3.3.
type queryKind int

const (
	// kindKeyword: plain words, ranked; an exact tool name or an mcp__
	// server prefix is answered directly.
	kindKeyword queryKind = iota
	// kindSelect: "select:A,B" fetches tools by exact name.
	kindSelect
	// kindDiscover: "discover:<need in words>" ranks without name shortcuts.
	kindDiscover
)

// query is a parsed SearchExtraTools query. Words written "+word" are
// required: a tool must mention each of them.
type query struct {
	kind     queryKind
	raw      string
	text     string     // the query without its prefix and "+" marks
	names    []string   // kindSelect
	terms    []string   // all search terms, required ones included
	required [][]string // per required word, the tokens any of which must match
}

// maxQueryLen bounds what is tokenized; longer text is cut.
const maxQueryLen = 2000

// parseQuery reads a query in one of its four forms.
func parseQuery(q string) (query, error) {
	q = strings.TrimSpace(q)
	if len(q) > maxQueryLen {
		q = q[:maxQueryLen]
		for !utf8.ValidString(q) {
			q = q[:len(q)-1]
		}
	}
	if q == "" {
		return query{}, errors.New("query is empty: give keywords, select:<name>[,<name>…] or discover:<what you need>")
	}
	out := query{raw: q, kind: kindKeyword}
	lower := strings.ToLower(q)
	switch {
	case strings.HasPrefix(lower, "select:"):
		out.kind = kindSelect
		for _, n := range strings.Split(q[len("select:"):], ",") {
			if n = strings.TrimSpace(n); n != "" {
				out.names = append(out.names, n)
			}
		}
		if len(out.names) == 0 {
			return query{}, fmt.Errorf("query %q names no tool: write select:<name>[,<name>…]", q)
		}
		return out, nil
	case strings.HasPrefix(lower, "discover:"):
		out.kind = kindDiscover
		q = strings.TrimSpace(q[len("discover:"):])
		if q == "" {
			return query{}, errors.New("discover: needs a description of what you need, e.g. discover:send a chat message")
		}
	}
	var words []string
	for _, w := range strings.Fields(q) {
		if strings.HasPrefix(w, "+") && len(w) > 1 {
			w = w[1:]
			if g := requiredTokens(w); len(g) > 0 {
				out.required = append(out.required, g)
			}
		}
		words = append(words, w)
	}
	out.text = strings.Join(words, " ")
	out.terms = tokenize(out.text)
	for _, w := range words {
		// Name-like words ("get_issue", "CronCreate") also count as their parts.
		if strings.ContainsAny(w, "_-") || hasInnerUpper(w) {
			out.terms = append(out.terms, nameTerms(w)...)
		}
	}
	return out, nil
}

// requiredTokens returns the tokens of a required word any of which must
// match: its stem for a Latin word, its longest pieces for a CJK one.
func requiredTokens(w string) []string {
	toks := tokenize(w)
	if len(toks) == 0 {
		toks = []string{strings.ToLower(w)} // a stopword named on purpose
	}
	longest := 0
	for _, t := range toks {
		longest = max(longest, utf8.RuneCountInString(t))
	}
	var out []string
	for _, t := range toks {
		if utf8.RuneCountInString(t) == longest || isASCII(t) {
			out = append(out, t)
		}
	}
	return out
}

func hasInnerUpper(w string) bool {
	for i, r := range w {
		if i > 0 && r >= 'A' && r <= 'Z' {
			return true
		}
	}
	return false
}
