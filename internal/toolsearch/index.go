package toolsearch

import (
	_ "embed"
	"math"
	"sort"
	"strings"

	"reins/internal/tool"
)

// Field weights of the TF-IDF vectors (seed 000 §3.3).
const (
	nameWeight = 3.0
	hintWeight = 2.5
	descWeight = 1.0
)

// Keyword points per query term (seed002 §4.2): a name part matched
// exactly or in part, the search hint, the description.
const (
	kwNameExact   = 12
	kwNamePartial = 6
	kwHint        = 4
	kwDesc        = 2
)

//go:embed glossary.txt
var glossaryText string

// glossary maps a CJK word to English search terms, so a Chinese request
// meets English tool descriptions and the other way round.
type glossary map[string][]string

func parseGlossary(text string) glossary {
	g := glossary{}
	for _, line := range strings.Split(text, "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		word, terms, ok := strings.Cut(line, "=")
		if !ok {
			continue
		}
		word = strings.TrimSpace(word)
		for _, t := range strings.Fields(terms) {
			g[word] = append(g[word], tokenize(t)...)
		}
	}
	return g
}

// expand adds the English terms of the CJK words among terms.
func (g glossary) expand(terms []string) []string {
	out := terms
	for _, t := range terms {
		if en, ok := g[t]; ok {
			out = append(out, en...)
		}
	}
	return out
}

// entry is one searchable tool.
type entry struct {
	tool      tool.Tool
	name      string
	hint      string
	desc      string
	nameTerms []string
	hintTerms map[string]bool
	descTerms map[string]bool
	tf        map[string]float64
	vec       map[string]float64
	norm      float64
}

// index is a search index over a fixed set of tools. It is immutable
// once built and safe for concurrent use.
type index struct {
	entries []*entry
	byName  map[string]*entry
	idf     map[string]float64
	gloss   glossary
}

// searchHint returns a Deferrable tool's hint, "" otherwise.
func searchHint(t tool.Tool) string {
	if d, ok := t.(tool.Deferrable); ok {
		return d.SearchHint()
	}
	return ""
}

func buildIndex(tools []tool.Tool, g glossary) *index {
	ix := &index{byName: map[string]*entry{}, idf: map[string]float64{}, gloss: g}
	df := map[string]int{}
	for _, t := range tools {
		e := &entry{tool: t, name: t.Name(), hint: searchHint(t), desc: t.Description()}
		e.nameTerms = g.expand(nameTerms(e.name))
		hint := g.expand(tokenize(e.hint))
		desc := g.expand(tokenize(e.desc))
		e.hintTerms, e.descTerms = set(hint), set(desc)
		e.tf = map[string]float64{}
		for _, w := range e.nameTerms {
			e.tf[w] += nameWeight
		}
		for _, w := range hint {
			e.tf[w] += hintWeight
		}
		for _, w := range desc {
			e.tf[w] += descWeight
		}
		for w := range e.tf {
			df[w]++
		}
		ix.entries = append(ix.entries, e)
		ix.byName[e.name] = e
	}
	n := float64(len(ix.entries))
	for w, d := range df {
		ix.idf[w] = math.Log((n+1)/(float64(d)+1)) + 1
	}
	for _, e := range ix.entries {
		e.vec = make(map[string]float64, len(e.tf))
		for w, f := range e.tf {
			v := f * ix.idf[w]
			e.vec[w] = v
			e.norm += v * v
		}
		e.norm = math.Sqrt(e.norm)
	}
	return ix
}

func set(ws []string) map[string]bool {
	m := make(map[string]bool, len(ws))
	for _, w := range ws {
		m[w] = true
	}
	return m
}

// Weights are the parameters of the hybrid ranking.
type Weights struct {
	Keyword  float64 // share of the normalised keyword score (0.4)
	TFIDF    float64 // share of the TF-IDF cosine (0.6)
	MinScore float64 // results below this combined score are not shown (0.10)
}

// DefaultWeights are seed 000's values.
var DefaultWeights = Weights{Keyword: 0.4, TFIDF: 0.6, MinScore: 0.10}

// match is a ranked tool.
type match struct {
	e       *entry
	score   float64
	keyword float64 // normalised
	cosine  float64
}

// keywordScore scores an entry by the query's terms: the points of each
// term, scaled by the share of distinct terms the entry matches at all, so
// a tool that answers the whole query beats one that strongly matches a
// single word of it.
func keywordScore(e *entry, terms []string) float64 {
	var s float64
	seen := map[string]bool{}
	matched := 0
	for _, q := range terms {
		if seen[q] {
			continue
		}
		seen[q] = true
		before := s
		best := 0
		for _, p := range e.nameTerms {
			switch {
			case p == q:
				best = kwNameExact
			case best < kwNamePartial && len(q) >= 3 && len(p) >= 3 && (strings.Contains(p, q) || strings.Contains(q, p)):
				best = kwNamePartial
			}
		}
		s += float64(best)
		if e.hintTerms[q] {
			s += kwHint
		}
		if e.descTerms[q] {
			s += kwDesc
		}
		if s > before {
			matched++
		}
	}
	if len(seen) == 0 {
		return 0
	}
	return s * float64(matched) / float64(len(seen))
}

// has reports whether an entry mentions term anywhere (for +required).
func (e *entry) has(term string) bool {
	if e.hintTerms[term] || e.descTerms[term] {
		return true
	}
	for _, p := range e.nameTerms {
		if p == term || (len(term) >= 3 && strings.Contains(p, term)) {
			return true
		}
	}
	return false
}

// rank scores every entry allowed by keep for the query terms, best first,
// dropping those under w.MinScore. keywordOn false ranks by TF-IDF alone.
func (ix *index) rank(terms []string, required [][]string, w Weights, keywordOn bool, keep func(*entry) bool) []match {
	terms = ix.gloss.expand(terms)
	qtf := map[string]float64{}
	for _, t := range terms {
		qtf[t]++
	}
	var qnorm float64
	qvec := map[string]float64{}
	for t, f := range qtf {
		v := f * ix.idfOf(t)
		qvec[t] = v
		qnorm += v * v
	}
	qnorm = math.Sqrt(qnorm)
	var ms []match
	var best float64
	for _, e := range ix.entries {
		if keep != nil && !keep(e) {
			continue
		}
		if !hasAll(e, required, ix.gloss) {
			continue
		}
		m := match{e: e}
		if keywordOn {
			m.keyword = keywordScore(e, terms)
			best = max(best, m.keyword)
		}
		if qnorm > 0 && e.norm > 0 {
			var dot float64
			for t, v := range qvec {
				dot += v * e.vec[t]
			}
			m.cosine = dot / (qnorm * e.norm)
		}
		ms = append(ms, m)
	}
	out := ms[:0]
	for _, m := range ms {
		if best > 0 {
			m.keyword /= best
		}
		if keywordOn {
			m.score = w.Keyword*m.keyword + w.TFIDF*m.cosine
		} else {
			m.score = m.cosine
		}
		if m.score >= w.MinScore && m.score > 0 {
			out = append(out, m)
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].score != out[j].score {
			return out[i].score > out[j].score
		}
		return out[i].e.name < out[j].e.name
	})
	return out
}

// hasAll reports whether e mentions each required word: one of the word's
// tokens or of their glossary translations.
func hasAll(e *entry, required [][]string, g glossary) bool {
	for _, group := range required {
		if !hasAny(e, group, g) {
			return false
		}
	}
	return true
}

func hasAny(e *entry, group []string, g glossary) bool {
	for _, r := range group {
		if e.has(r) {
			return true
		}
		for _, en := range g[r] {
			if e.has(en) {
				return true
			}
		}
	}
	return false
}

func (ix *index) idfOf(t string) float64 {
	if v, ok := ix.idf[t]; ok {
		return v
	}
	// A term no tool has: it counts in the query's length only.
	return math.Log(float64(len(ix.entries))+1) + 1
}
