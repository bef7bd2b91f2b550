package toolsearch

import (
	"context"
	"fmt"
	"reflect"
	"sort"
	"strings"
	"sync"

	"reins/internal/engine"
	"reins/internal/llm"
	"reins/internal/tool"
)

// Options configure a Session. The zero value defers deferrable tools
// with seed 000's weights.
type Options struct {
	Mode Mode
	// ContextWindow is the model's context in tokens, for Auto (0 means
	// 200,000).
	ContextWindow int
	// Weights of the ranking; the zero value means DefaultWeights.
	Weights Weights
	// PrefetchMax is how many tools one discovery reminder names (0 means
	// 3); PrefetchOff turns prefetch off.
	PrefetchMax int
	PrefetchOff bool
	// Unavailable says why a tool of that name cannot be run right now
	// (its MCP server is down, say), "" when it knows of no such tool.
	// ExecuteExtraTool answers with it instead of "no deferred tool is
	// named", which sent the model searching for a tool that exists.
	Unavailable func(name string) string
}

// maxStrong bounds the candidates one prefetch search returns; those not
// yet recommended are announced, PrefetchMax at a time.
const maxStrong = 10

// Bounds of the set of tools recommended in a session (seed 000 §4.3).
const (
	discoveredCap  = 500
	discoveredTrim = 400
)

// Session is the deferred-tool state of one conversation: the tools
// discovered so far and the background prefetch. Make one per engine
// session (sub-agents included) and Close it when the session ends.
type Session struct {
	opts  Options
	gloss glossary

	bg     context.Context // parent of background searches; cancelled by Close
	stop   context.CancelFunc
	wg     sync.WaitGroup
	mu     sync.Mutex // guards the fields below
	cat    *catalog
	catKey string
	autoOn bool // Auto mode switched on (latched for the session)
	seen   bool // history scanned for earlier discoveries
	// recommended is the bounded set of tools already named to the model.
	recommended map[string]bool
	order       []string
	zeroDone    bool
	assistants  int      // assistant messages seen at the last Reminders call
	pending     []string // found by the background search, to announce next
	closed      bool
}

// NewSession returns a Session for one conversation.
func NewSession(opts Options) *Session {
	if opts.ContextWindow <= 0 {
		opts.ContextWindow = 200_000
	}
	if opts.Weights == (Weights{}) {
		opts.Weights = DefaultWeights
	}
	if opts.PrefetchMax <= 0 {
		opts.PrefetchMax = 3
	}
	s := &Session{opts: opts, gloss: parseGlossary(glossaryText), recommended: map[string]bool{}}
	s.bg, s.stop = context.WithCancel(context.Background())
	return s
}

// Close stops background searches and waits for them.
func (s *Session) Close() {
	s.mu.Lock()
	s.closed = true
	s.mu.Unlock()
	s.stop()
	s.wg.Wait()
}

// Enabled reports whether tools are deferred for this pool: always in On,
// never in Off, and in Auto once the deferrable tools' definitions exceed
// the threshold (then for the rest of the session, so the tools array does
// not flip back and forth).
func (s *Session) Enabled(all []tool.Tool) bool {
	switch s.opts.Mode.Kind {
	case Off:
		return false
	case On:
		return true
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.autoOn {
		return true
	}
	chars := 0
	for _, t := range all {
		if IsDeferred(t) {
			chars += len(t.Name()) + len(t.Description()) + len(t.InputSchema())
		}
	}
	// About four characters a token.
	if chars/4*100 > s.opts.Mode.Percent*s.opts.ContextWindow || (s.opts.Mode.Percent == 0 && chars > 0) {
		s.autoOn = true
	}
	return s.autoOn
}

// ToolSet returns the tools of a turn for the full pool all (built-ins
// and MCP tools, in the order they should be sent). With deferral on, the
// tools sent and callable are the loaded ones plus SearchExtraTools and
// ExecuteExtraTool; deferred tools run only through ExecuteExtraTool, and a
// direct call to one is answered with a hint (Deferred). Reminders lists
// the deferred tools to the model as a delta and announces prefetched
// discoveries. With deferral off every tool is sent as is.
func (s *Session) ToolSet(all []tool.Tool) engine.ToolSet {
	if !s.Enabled(all) {
		return engine.ToolSet{Tools: all}
	}
	cat := s.catalog(all)
	search := &searchTool{cat: cat, weights: s.opts.Weights, found: s.markRecommended}
	exec := &executeTool{cat: cat, unavailable: s.opts.Unavailable}
	var ts engine.ToolSet
	sent := map[string]bool{SearchToolName: true, ExecuteToolName: true}
	for _, t := range all {
		name := t.Name()
		if _, ok := cat.loaded[name]; ok && !sent[name] {
			sent[name] = true
			ts.Tools = append(ts.Tools, t)
		}
	}
	ts.Tools = append(ts.Tools, search, exec)
	for _, t := range ts.Tools {
		ts.Specs = append(ts.Specs, llm.ToolSpec{Name: t.Name(), Description: t.Description(), InputSchema: t.InputSchema()})
	}
	ts.Deferred = func(name string) (string, bool) {
		if _, ok := cat.byName[name]; ok {
			return deferredHint(name), true
		}
		return "", false
	}
	ts.Reminders = func(ctx context.Context, history []*llm.Message) []string {
		return s.reminders(ctx, cat, history)
	}
	return ts
}

// catalog returns the catalog of all, rebuilt only when the pool changed.
func (s *Session) catalog(all []tool.Tool) *catalog {
	var kb strings.Builder
	for _, t := range all {
		fmt.Fprintf(&kb, "%s\x00%T\x00%x\x00%d\x00%d\x01", t.Name(), t, identity(t), len(t.Description()), len(t.InputSchema()))
	}
	key := kb.String()
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.cat == nil || s.catKey != key {
		s.cat, s.catKey = newCatalog(all, true, s.gloss), key
	}
	return s.cat
}

// identity is the address of a tool held by pointer, 0 otherwise.
func identity(t tool.Tool) uintptr {
	if v := reflect.ValueOf(t); v.Kind() == reflect.Pointer {
		return v.Pointer()
	}
	return 0
}

// reminders computes the texts to add before a request: the deferred-tool
// delta, then discoveries of the prefetch.
func (s *Session) reminders(_ context.Context, cat *catalog, history []*llm.Message) []string {
	var out []string
	if r := deltaReminder(cat, history); r != "" {
		out = append(out, r)
	}
	if s.opts.PrefetchOff || len(cat.deferred) == 0 {
		return out
	}
	s.mu.Lock()
	if !s.seen {
		s.seen = true
		for _, n := range scanDiscovered(history) {
			s.addRecommendedLocked(n)
		}
	}
	var found []string
	if !s.zeroDone {
		s.zeroDone = true
		if countAssistant(history) == 0 {
			s.mu.Unlock()
			found = s.strongMatches(cat, lastUserText(history))
			s.mu.Lock()
		}
	}
	found = append(found, s.pending...)
	s.pending = nil
	n := countAssistant(history)
	startBG := n > s.assistants && !s.closed
	s.assistants = n
	var fresh []tool.Tool
	for _, name := range found {
		t, ok := cat.byName[name]
		if !ok || s.recommended[name] || len(fresh) >= s.opts.PrefetchMax {
			continue
		}
		s.addRecommendedLocked(name)
		fresh = append(fresh, t)
	}
	if startBG {
		q := conversationQuery(history)
		s.wg.Add(1)
		go s.prefetch(cat, q)
	}
	s.mu.Unlock()
	if len(fresh) > 0 {
		out = append(out, discoveryReminder(fresh))
	}
	return out
}

// prefetch searches the conversation in the background; what it finds is
// announced before the next request.
func (s *Session) prefetch(cat *catalog, q string) {
	defer s.wg.Done()
	if s.bg.Err() != nil {
		return
	}
	found := s.strongMatches(cat, q)
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.closed {
		s.pending = append(s.pending, found...)
	}
}

// settle waits for background searches started so far (tests).
func (s *Session) settle() { s.wg.Wait() }

// strongMatches returns the deferred tools that match text well enough to
// recommend unasked.
func (s *Session) strongMatches(cat *catalog, text string) []string {
	if strings.TrimSpace(text) == "" {
		return nil
	}
	q, err := parseQuery(text)
	if err != nil || q.kind == kindSelect {
		return nil
	}
	terms := set(cat.ix.gloss.expand(q.terms))
	type strong struct {
		name  string
		named bool // the tool's server is named too
	}
	var found []strong
	for _, m := range cat.ix.rank(q.terms, nil, s.opts.Weights, true, nil) {
		if named, ok := strongMatch(m.e.name, terms); ok {
			found = append(found, strong{m.e.name, named})
		}
	}
	// A tool of a server the text does not name is left out when a named
	// server has a tool of the same name ("create a GitHub issue" is not
	// about Jira's create_issue). Tools of named servers come first.
	namedOps := map[string]bool{}
	for _, f := range found {
		if f.named {
			namedOps[ownName(f.name)] = true
		}
	}
	sort.SliceStable(found, func(i, j int) bool { return found[i].named && !found[j].named })
	var out []string
	for _, f := range found {
		if len(out) == maxStrong {
			break
		}
		if !f.named && namedOps[ownName(f.name)] {
			continue
		}
		out = append(out, f.name)
	}
	return out
}

// ownName is an MCP tool's name without its server ("create_issue").
func ownName(name string) string {
	if rest, ok := strings.CutPrefix(name, "mcp__"); ok {
		if _, own, ok := strings.Cut(rest, "__"); ok {
			return own
		}
	}
	return name
}

// strongMatch reports whether terms contain every word of a tool's own
// name (after the server of an MCP tool), two words at least or one beside
// the server's name, and whether they name its server. Prefetch runs unasked, so it wants this much
// evidence rather than a score that is high only next to weaker ones.
func strongMatch(name string, terms map[string]bool) (serverNamed, ok bool) {
	words := nameTerms(name)
	if server, rest, isMCP := strings.Cut(strings.TrimPrefix(name, "mcp__"), "__"); isMCP && strings.HasPrefix(name, "mcp__") {
		words = nameTerms(rest)
		for _, w := range nameTerms(server) {
			serverNamed = serverNamed || terms[w]
		}
	}
	own := set(words)
	if len(own) < 2 && !(len(own) == 1 && serverNamed) {
		return serverNamed, false
	}
	for w := range own {
		if !terms[w] {
			return serverNamed, false
		}
	}
	return serverNamed, true
}

// markRecommended records tools the model found by searching.
func (s *Session) markRecommended(names []string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, n := range names {
		s.addRecommendedLocked(n)
	}
}

func (s *Session) addRecommendedLocked(name string) {
	if s.recommended[name] {
		return
	}
	s.recommended[name] = true
	s.order = append(s.order, name)
	if len(s.order) > discoveredCap {
		drop := s.order[:len(s.order)-discoveredTrim]
		for _, n := range drop {
			delete(s.recommended, n)
		}
		s.order = append([]string(nil), s.order[len(s.order)-discoveredTrim:]...)
	}
}
