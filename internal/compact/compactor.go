package compact

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"time"

	"github.com/google/uuid"

	"reins/internal/engine"
	"reins/internal/filestate"
	"reins/internal/llm"
	"reins/internal/session"
)

// DefaultMicroGap is how long without a request before microcompaction
// clears old tool results: the prompt cache has expired by then even at
// its longest TTL, so clearing costs no cache hit.
const DefaultMicroGap = 60 * time.Minute

// Config configures a Compactor. The zero value works: autocompaction on,
// microcompaction after an hour, no file restoring, no hooks.
type Config struct {
	// Getenv reads DISABLE_COMPACT (no compaction at all),
	// DISABLE_AUTO_COMPACT (manual only) and the threshold overrides of
	// LimitsFor. Nil means no environment.
	Getenv func(string) string
	// AutoDisabled turns autocompaction off (the autoCompactEnabled
	// setting set to false).
	AutoDisabled bool
	// MicroGap is the idle time that triggers microcompaction (0:
	// DefaultMicroGap; negative: never). KeepRecent is how many recent
	// results it keeps (0: DefaultKeepRecent).
	MicroGap   time.Duration
	KeepRecent int

	// Files, when set, gives the files read most recently, restored after
	// a compaction; the compaction clears it and records the restored
	// files. SkipRestore leaves more files out (plan files, say).
	Files       *filestate.State
	SkipRestore func(path string) bool
	// Todos and Plan, when set, return the current todo list and plan as
	// text, restored after a compaction ("" for none). Plan is given the
	// conversation being compacted.
	Todos func() string
	Plan  func(history []engine.HistoryItem) string
	// Restore, when set, returns more context to add after a compaction,
	// each text as its own meta message (SessionStart hook output, say).
	Restore func(ctx context.Context) []string
	// Skill, when set, says which invoked prompt commands have their text
	// restored after a compaction (skills and custom commands, say, not
	// builtins); nil restores every invocation found in the compacted
	// messages.
	Skill func(name string) bool

	// Instructions are standing instructions for every summary (the
	// "Compact Instructions" of memory files).
	Instructions string
	// PreCompact, when set, runs before a compaction with its trigger
	// ("manual" or "auto") and instructions; it returns the instructions
	// to use (hook output may add to them). An error cancels the
	// compaction.
	PreCompact func(ctx context.Context, trigger, instructions string) (string, error)
	// OnCompact, when set, is called after every compaction with the
	// session compacted (to forget nested memory already shown and read
	// the memory files again, for example).
	OnCompact func(s *engine.Session)
	// PostCompact, when set, runs after a compaction with its trigger and
	// the summary (PostCompact hooks).
	PostCompact func(ctx context.Context, trigger, summary string)

	Now    func() time.Time
	Logger *slog.Logger
}

// Compactor is the engine's compaction pipeline for one session. It is
// safe for concurrent use; compactions of one session do not overlap.
type Compactor struct {
	cfg Config

	run sync.Mutex // held for a whole compaction

	mu          sync.Mutex // guards the fields below
	failures    int        // consecutive autocompaction failures
	lastRequest time.Time  // when the last request was prepared
	lastUsage   llm.Usage  // of the last summary call
}

var _ engine.Compactor = (*Compactor)(nil)

// New returns a Compactor.
func New(cfg Config) *Compactor {
	if cfg.Getenv == nil {
		cfg.Getenv = func(string) string { return "" }
	}
	if cfg.MicroGap == 0 {
		cfg.MicroGap = DefaultMicroGap
	}
	if cfg.KeepRecent <= 0 {
		cfg.KeepRecent = DefaultKeepRecent
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	return &Compactor{cfg: cfg}
}

// SetLastActivity tells a Compactor for a resumed session when its last
// message was recorded (session.Transcript.LastActivity), so that
// microcompaction knows how cold the prompt cache is.
func (c *Compactor) SetLastActivity(t time.Time) {
	c.mu.Lock()
	c.lastRequest = t
	c.mu.Unlock()
}

// Enabled reports whether any compaction may run (DISABLE_COMPACT unset).
func (c *Compactor) Enabled() bool { return !truthy(c.cfg.Getenv("DISABLE_COMPACT")) }

// AutoEnabled reports whether autocompaction may run.
func (c *Compactor) AutoEnabled() bool {
	return c.Enabled() && !c.cfg.AutoDisabled && !truthy(c.cfg.Getenv("DISABLE_AUTO_COMPACT"))
}

// Status is the context use of a session, for /context and status lines.
type Status struct {
	Limits
	Used int // tokens in use (last exact usage plus an estimate)
	// Auto is false when autocompaction is off, by configuration or
	// after MaxFailures failures.
	Auto     bool
	Failures int
}

// Status reports s's context use.
func (c *Compactor) Status(s *engine.Session) Status {
	c.mu.Lock()
	fails := c.failures
	c.mu.Unlock()
	return Status{Limits: c.limits(s), Used: used(s), Auto: c.AutoEnabled() && fails < MaxFailures, Failures: fails}
}

// LastSummaryUsage is the usage of the most recent summary call (it is
// not part of the session's own account).
func (c *Compactor) LastSummaryUsage() llm.Usage {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.lastUsage
}

func (c *Compactor) limits(s *engine.Session) Limits {
	return LimitsFor(s.Config().Models.Info(s.Model()), c.cfg.Getenv)
}

// used is the context in use; with no usage reported yet the system
// prompt and user context are estimated too.
func used(s *engine.Session) int {
	return ContextTokens(s.Messages(), fixedTokens(s))
}

// fixedTokens estimates what every request carries besides the messages:
// the system prompt and the user context.
func fixedTokens(s *engine.Session) int {
	cfg := s.Config()
	n := EstimateText(cfg.UserContext)
	for _, b := range cfg.System {
		n += EstimateText(b.Text)
	}
	return n
}

// Prepare runs before every request: microcompaction when the cache is
// cold, then autocompaction past the threshold. With autocompaction off,
// a context past the blocking limit returns engine.ErrBlockingLimit.
func (c *Compactor) Prepare(ctx context.Context, s *engine.Session, emit func(engine.Event)) error {
	now := c.cfg.Now()
	c.mu.Lock()
	last := c.lastRequest
	c.lastRequest = now
	fails := c.failures
	c.mu.Unlock()
	if c.cfg.MicroGap > 0 && !last.IsZero() && now.Sub(last) >= c.cfg.MicroGap {
		c.microcompact(s, now.Sub(last))
	}
	if !c.Enabled() {
		return nil
	}
	lim := c.limits(s)
	items := s.History()
	p := pendingPrompt(items)
	if p >= 0 {
		// The newest prompt is never summarised away: if it cannot fit
		// even alone, the turn ends here, before it is sent.
		own := EstimateMessages(messagesOf(items[p:])) + fixedTokens(s)
		if own >= lim.Blocking {
			size := 0
			for _, it := range items[p:] {
				size += messageBytes(it.Message)
			}
			err := &PromptTooLongError{Tokens: own, Bytes: size, Limit: lim.Blocking, Window: lim.Window}
			// The prompt stays in the transcript, but out of the
			// conversation: the notice recorded after it continues the
			// chain from what came before the prompt, so a resumed
			// session does not send it either.
			s.SetHistory(items[:p])
			s.Record(&session.Entry{Type: session.TypeSystem, Subtype: session.SubtypeNotice, UUID: uuid.NewString(),
				Level: "error", Content: err.Error()})
			return err
		}
	}
	n := used(s)
	if !c.AutoEnabled() {
		if n >= lim.Blocking {
			return engine.ErrBlockingLimit
		}
		return nil
	}
	if n < lim.Threshold || fails >= MaxFailures || (p >= 0 && !hasResponse(items[:p])) {
		// (Before the first response there is only the prompt, which
		// stays as it is.)
		return nil
	}
	err := c.compact(ctx, s, "auto", "", n, emit)
	c.mu.Lock()
	defer c.mu.Unlock()
	if err == nil {
		c.failures = 0
		return nil
	}
	if ctx.Err() != nil {
		return err // an interrupt is not a failure of compaction
	}
	c.failures++
	if c.failures == MaxFailures {
		emit(&engine.Notice{Level: "warning", Text: fmt.Sprintf(
			"Automatic compaction failed %d times in a row and is off for this session; run /compact to try again.", MaxFailures)})
	}
	return err
}

func (c *Compactor) microcompact(s *engine.Session, idle time.Duration) {
	items, n, saved := Microcompact(s.History(), c.cfg.KeepRecent)
	if n == 0 {
		return
	}
	s.SetHistory(items)
	c.cfg.Logger.Info("cleared old tool results", "idle", idle.Round(time.Second), "results", n, "tokens", saved)
}

// Reactive compacts once after the API refused the prompt as too long.
func (c *Compactor) Reactive(ctx context.Context, s *engine.Session, emit func(engine.Event)) (bool, error) {
	if !c.Enabled() {
		return false, nil
	}
	if err := c.compact(ctx, s, "auto", "", used(s), emit); err != nil {
		if errors.Is(err, errNothingBefore) {
			return false, nil // the API's own "prompt is too long" says it best
		}
		return false, err
	}
	return true, nil
}

// ErrDisabled is returned by Compact when DISABLE_COMPACT is set.
var ErrDisabled = errors.New("compaction is disabled (DISABLE_COMPACT)")

// Compact compacts now, with optional instructions for the summary
// (/compact [instructions]). Call it between turns. The failure breaker
// does not apply, and a success resets it.
func (c *Compactor) Compact(ctx context.Context, s *engine.Session, instructions string, emit func(engine.Event)) error {
	if !c.Enabled() {
		return ErrDisabled
	}
	if err := c.compact(ctx, s, "manual", instructions, used(s), emit); err != nil {
		return err
	}
	c.mu.Lock()
	c.failures = 0
	c.mu.Unlock()
	return nil
}

// maxTailShare bounds the verbatim tail: at most this fraction of the
// threshold.
const maxTailShare = 4

// compact summarises the history and replaces it.
func (c *Compactor) compact(ctx context.Context, s *engine.Session, trigger, instructions string, pre int, emit func(engine.Event)) error {
	c.run.Lock()
	defer c.run.Unlock()
	if emit == nil {
		emit = func(engine.Event) {}
	}
	all := s.History()
	if len(all) == 0 {
		return errors.New("compact: the conversation is empty")
	}
	items := all
	// A prompt the model has not answered yet is kept verbatim after the
	// summary of what came before it, whatever its size: summarised, it
	// would be answered from the summary's account of it.
	var pending []engine.HistoryItem
	if p := pendingPrompt(items); p >= 0 {
		if !hasResponse(items[:p]) {
			return errNothingBefore
		}
		items, pending = items[:p], items[p:]
	}
	instructions = joinNonEmpty("\n\n", c.cfg.Instructions, instructions)
	if c.cfg.PreCompact != nil {
		var err error
		if instructions, err = c.cfg.PreCompact(ctx, trigger, instructions); err != nil {
			return fmt.Errorf("compaction stopped by a PreCompact hook: %w", err)
		}
	}
	emit(&engine.Notice{Level: "info", Text: "Compacting the conversation…"})
	summary, usage, err := summarize(ctx, s, messagesOf(items), instructions)
	c.mu.Lock()
	c.lastUsage = usage
	c.mu.Unlock()
	if !usage.IsZero() {
		// The summary call is paid for like any other.
		s.AddUsage(s.Model(), usage, 0)
	}
	if err != nil {
		return fmt.Errorf("compact conversation: %w", err)
	}

	tail := keptTail(items, c.limits(s).Threshold/maxTailShare)
	tailMsgs := messagesOf(append(tail[:len(tail):len(tail)], pending...))
	next := []engine.HistoryItem{{UUID: uuid.NewString(), Message: summaryMessage(summary, len(tail)+len(pending) > 0, trigger), Meta: true, Summary: true}}
	for _, it := range tail {
		next = append(next, engine.HistoryItem{UUID: uuid.NewString(), Message: it.Message, Meta: it.Meta})
	}
	for _, m := range c.restored(ctx, items, len(items)-len(tail), tailMsgs) {
		next = append(next, engine.HistoryItem{UUID: uuid.NewString(), Message: m, Meta: true})
	}
	// The prompt to answer comes last, after the restored context.
	for _, it := range pending {
		next = append(next, engine.HistoryItem{UUID: uuid.NewString(), Message: it.Message, Meta: it.Meta})
	}

	boundary := &session.Entry{Type: session.TypeSystem, Subtype: session.SubtypeCompactBoundary,
		UUID: uuid.NewString(), LogicalParentUUID: all[len(all)-1].UUID, Level: "info",
		Content: "Conversation compacted", CompactMetadata: &session.CompactMetadata{Trigger: trigger, PreTokens: pre}}
	s.Record(boundary)
	for _, it := range next {
		typ := session.TypeUser
		if it.Message.Role == llm.RoleAssistant {
			typ = session.TypeAssistant
		}
		s.Record(&session.Entry{Type: typ, UUID: it.UUID, Message: it.Message, IsMeta: it.Meta, IsCompactSummary: it.Summary})
	}
	s.SetHistory(next)
	if c.cfg.OnCompact != nil {
		c.cfg.OnCompact(s)
	}
	emit(&engine.CompactBoundary{UUID: boundary.UUID, Trigger: trigger, PreTokens: pre})
	if c.cfg.PostCompact != nil {
		c.cfg.PostCompact(ctx, trigger, summary)
	}
	return nil
}

// keptTail is the last API round (the last assistant message and what
// follows it), kept verbatim after the summary when it costs at most
// budget tokens; otherwise nothing is kept.
func keptTail(items []engine.HistoryItem, budget int) []engine.HistoryItem {
	start := -1
	for i := len(items) - 1; i >= 0; i-- {
		m := items[i].Message
		if m.Role != llm.RoleAssistant {
			continue
		}
		start = i
		// Parts of one response recorded apart belong together.
		for j := i - 1; j >= 0; j-- {
			p := items[j].Message
			if p.Role == llm.RoleAssistant {
				if p.ID != "" && p.ID == m.ID {
					start = j
					continue
				}
				break
			}
		}
		break
	}
	if start < 0 {
		return nil
	}
	tail := items[start:]
	n := 0
	for _, it := range tail {
		if it.Summary {
			return nil // a summary is not kept inside the next one
		}
		n += EstimateMessage(it.Message)
	}
	if n > budget {
		return nil
	}
	return tail
}

// summaryMessage is the user message that carries the summary.
func summaryMessage(summary string, tail bool, trigger string) *llm.Message {
	var b strings.Builder
	b.WriteString(mustText("continuation.md"))
	b.WriteString("\n\n<summary>\n" + summary + "\n</summary>\n\n")
	if tail {
		b.WriteString("The most recent messages follow unchanged. ")
	}
	if trigger == "manual" {
		b.WriteString(mustText("continue-manual.md"))
	} else {
		b.WriteString(mustText("continue-auto.md"))
	}
	return llm.NewUserText(b.String())
}

// restored is the context given back after a compaction of items, whose
// first cut were summarised away (gone): recent files, todos, plan, the
// skills invoked in the summarised part, and the caller's extra context.
func (c *Compactor) restored(ctx context.Context, items []engine.HistoryItem, cut int, tail []*llm.Message) []*llm.Message {
	gone := items[:cut]
	out := restoreFiles(c.cfg.Files, c.cfg.SkipRestore, readPaths(tail))
	if c.cfg.Todos != nil {
		if t := strings.TrimSpace(c.cfg.Todos()); t != "" {
			out = append(out, reminder("The todo list when the conversation was compacted:\n\n"+t))
		}
	}
	if c.cfg.Plan != nil {
		if p := strings.TrimSpace(c.cfg.Plan(items)); p != "" {
			out = append(out, reminder("The current plan:\n\n"+p))
		}
	}
	out = append(out, restoreSkills(invokedSkills(gone, c.cfg.Skill), tail)...)
	if c.cfg.Restore != nil {
		for _, t := range c.cfg.Restore(ctx) {
			if strings.TrimSpace(t) != "" {
				out = append(out, llm.NewUserText(t))
			}
		}
	}
	return out
}

// messagesOf is the messages of items.
func messagesOf(items []engine.HistoryItem) []*llm.Message {
	out := make([]*llm.Message, len(items))
	for i, it := range items {
		out[i] = it.Message
	}
	return out
}

func joinNonEmpty(sep string, parts ...string) string {
	var keep []string
	for _, p := range parts {
		if p = strings.TrimSpace(p); p != "" {
			keep = append(keep, p)
		}
	}
	return strings.Join(keep, sep)
}
