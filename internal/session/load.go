package session

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/google/uuid"

	"reins/internal/llm"
)

// Item is one message of a loaded history with its transcript identity.
// It mirrors engine.HistoryItem field for field.
type Item struct {
	UUID    string
	Message *llm.Message
	// Meta marks a message the user did not type (an expanded command, a
	// continuation nudge).
	Meta bool
	// Summary marks a compaction summary.
	Summary bool
}

// Boundary is a compaction boundary found in a transcript.
type Boundary struct {
	UUID      string
	Line      int
	Trigger   string // "manual" or "auto"
	PreTokens int
}

// FileRead is a file the model read or wrote through a tool, as recorded in
// the transcript.
type FileRead struct {
	Path string
	// Time is when the call's result was recorded.
	Time time.Time
	// Partial is true when only part of the file was read (offset or
	// limit given).
	Partial bool
}

// Transcript is a transcript read back for resuming: the history from the
// last compaction boundary to the leaf, and the session state recorded
// along the way.
type Transcript struct {
	Path      string
	SessionID string
	// Items is the history to resume with, oldest first. Every tool_use in
	// it is answered: calls left without a result (a crash in the middle
	// of a tool turn) get a synthetic error result.
	Items []Item
	// Leaf is the uuid the next recorded entry must name as its parent.
	Leaf string
	// Repairs are entries the load added to Items that are not in the
	// file (the answers to calls left open at the end). Append them, in
	// order, before recording anything else: see WriteRepairs.
	Repairs []*Entry
	// Boundary is the last compaction boundary, nil when the session was
	// never compacted. Items start with the summary that follows it.
	Boundary *Boundary

	// Recorded state.
	Todos        json.RawMessage // the todo list to go on with, nil if none (see lastTodoList)
	Plan         string          // the plan approved last (ExitPlanMode), "" if none
	Replacements []Replacement   // tool-result budget decisions, in order
	ReadFiles    []FileRead      // files read or written, oldest first, one per path
	LastUsage    *llm.Usage      // usage of the last assistant message in Items
	Model        string          // model of the last assistant message
	Title        string          // the latest custom title or summary
	CustomTitle  string          // the latest title given with /rename
	LastPrompt   string          // the latest recorded prompt
	Cwd          string          // working folder of the leaf entry
	GitBranch    string          // git branch of the leaf entry
	// LastActivity is the time of the last message recorded (zero when
	// unknown): how long the prompt cache has been idle.
	LastActivity time.Time

	// Lines is the number of lines read; Warnings are the lines skipped
	// and anything repaired, each with its line number.
	Lines    int
	Warnings []Warning
}

// node is a chain link: an entry with a uuid.
type node struct {
	uuid      string
	parent    string // "" when none
	logical   string // a compaction boundary's logicalParentUuid
	line      int
	sidechain bool
	meta      bool
	summary   bool
	msg       *llm.Message // nil for links that are not messages
	ts        string
	boundary  *CompactMetadata
	cwd       string
	branch    string
	prevFile  int // index of the previous main-chain node in file order, -1 if none
}

// loadEntry is the part of an Entry a load needs. Fields it leaves out
// (toolUseResult above all) are skipped by the decoder without being
// built.
type loadEntry struct {
	Type             string           `json:"type"`
	UUID             string           `json:"uuid"`
	ParentUUID       *string          `json:"parentUuid"`
	LogicalParent    string           `json:"logicalParentUuid"`
	IsSidechain      bool             `json:"isSidechain"`
	SessionID        string           `json:"sessionId"`
	Timestamp        string           `json:"timestamp"`
	Cwd              string           `json:"cwd"`
	GitBranch        string           `json:"gitBranch"`
	IsMeta           bool             `json:"isMeta"`
	IsCompactSummary bool             `json:"isCompactSummary"`
	IsAPIError       bool             `json:"isApiErrorMessage"`
	Message          *llm.Message     `json:"message"`
	Subtype          string           `json:"subtype"`
	CompactMetadata  *CompactMetadata `json:"compactMetadata"`
	Todos            json.RawMessage  `json:"todos"`
	Replacements     []Replacement    `json:"replacements"`
	Summary          string           `json:"summary"`
	CustomTitle      string           `json:"customTitle"`
	LastPrompt       string           `json:"lastPrompt"`
}

// Load reads the transcript at path. Bad lines do not fail the load: they
// are skipped and reported in Warnings. An error means the file could not
// be read at all.
func Load(path string) (*Transcript, error) {
	return LoadAt(path, "")
}

// LoadAt is Load with the history cut after the message whose uuid is
// at (--resume-session-at): the conversation goes on from that point, and
// what was recorded after it stays in the file as another branch. The todo
// list is the one recorded last before that message. An at that names no
// message of the file is an error. An empty at loads the whole history.
func LoadAt(path, at string) (*Transcript, error) {
	return loadPath(path, at, false)
}

func loadPath(path, at string, settled bool) (*Transcript, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("load session: %w", err)
	}
	defer f.Close()
	parallel := false
	if st, err := f.Stat(); err == nil && st.Size() >= parallelMin {
		parallel = true
	}
	t, err := readAt(f, parallel, at, settled)
	if err != nil {
		return nil, fmt.Errorf("load session %s: %w", path, err)
	}
	t.Path = path
	// The file name is the session's id, as Claude Code names its
	// transcripts: lines copied from an earlier session (a transcript a
	// resume began by copying) still carry that session's id.
	if name := strings.TrimSuffix(filepath.Base(path), ".jsonl"); IsID(name) || t.SessionID == "" {
		t.SessionID = name
	}
	for _, r := range t.Repairs {
		r.SessionID = t.SessionID
	}
	return t, nil
}

// LoadSettled is Load for a session that another process is recording
// at the same time (see Busy): when the newest entry is part of a turn
// still under way (a prompt without its answer, a tool call whose result
// is not in yet), the history ends before that turn's prompt instead, at
// the last answer given, so the turn another process is running is
// neither answered with made-up errors nor mixed into this conversation.
// What the other process records goes on in the file as its own branch.
func LoadSettled(path string) (*Transcript, error) {
	return loadPath(path, "", true)
}

// Read reads a transcript from r, streaming it line by line.
func Read(r io.Reader) (*Transcript, error) {
	return read(r, false)
}

// read reads a transcript; parallel decodes lines on several cores
// (worth it for large files).
func read(r io.Reader, parallel bool) (*Transcript, error) {
	return readAt(r, parallel, "", false)
}

// readAt is read with the leaf chosen by uuid (see LoadAt).
func readAt(r io.Reader, parallel bool, at string, settled bool) (*Transcript, error) {
	ld := loader{t: &Transcript{}, index: map[string]int{}, lastMain: -1, at: at, settled: settled}
	var err error
	if parallel {
		err = decodeParallel(r, &ld)
	} else {
		err = eachLine(r, ld.line)
	}
	if err != nil {
		return nil, err
	}
	if at != "" {
		i, ok := ld.index[at]
		if !ok {
			// A later block of a message, as stream-json showed it.
			if i, ok = ld.blockNode(at); ok {
				ld.at = ld.nodes[i].uuid
			}
		}
		if !ok || ld.nodes[i].msg == nil {
			return nil, fmt.Errorf("no message with uuid %s in the session", at)
		}
	}
	ld.finish()
	return ld.t, nil
}

type loader struct {
	t        *Transcript
	nodes    []node
	index    map[string]int // uuid → nodes index (the last line wins)
	lastMain int            // last node not on a sidechain
	lastAny  int
	replSeen map[string]int
	at       string          // the leaf's uuid when chosen (LoadAt)
	todos    []lineTodo      // every todo list recorded, when at is set
	settled  bool            // end at the last finished turn (LoadSettled)
	answered map[string]bool // tool_use ids answered without error (lastCall; nil until needed)
}

// lineTodo is a todo list and the line that recorded it.
type lineTodo struct {
	line  int
	todos json.RawMessage
}

func (ld *loader) warn(line int, format string, args ...any) {
	ld.t.Warnings = append(ld.t.Warnings, Warning{Line: line, Msg: fmt.Sprintf(format, args...)})
}

func (ld *loader) line(b []byte, n int, complete bool) error {
	if len(bytes.TrimSpace(b)) == 0 {
		ld.t.Lines = n
		return nil
	}
	e, err := decodeEntry(b)
	ld.apply(&e, err, n, complete)
	return nil
}

// apply takes in one decoded line; err is its decoding error.
func (ld *loader) apply(e *loadEntry, err error, n int, complete bool) {
	ld.t.Lines = n
	if err != nil {
		if !complete {
			ld.warn(n, "incomplete last line skipped (the session was probably stopped while writing it)")
		} else {
			ld.warn(n, "unreadable line skipped: %v", err)
		}
		return
	}
	if e.SessionID != "" && ld.t.SessionID == "" {
		ld.t.SessionID = e.SessionID
	}
	switch e.Type {
	case TypeUser, TypeAssistant, TypeSystem, TypeAttachment, TypeProgress:
		ld.link(e, n)
	case TypeTodos:
		ld.t.Todos = e.Todos
		if ld.at != "" {
			ld.todos = append(ld.todos, lineTodo{n, e.Todos})
		}
	case TypeReplacement:
		ld.replacements(e.Replacements)
	case TypeSummary:
		if e.Summary != "" {
			ld.t.Title = e.Summary
		}
	case TypeCustomTitle:
		if e.CustomTitle != "" {
			ld.t.Title, ld.t.CustomTitle = e.CustomTitle, e.CustomTitle
		}
	case TypeLastPrompt:
		ld.t.LastPrompt = typedPrompt(e.LastPrompt)
	default:
		// A kind of line this reader does not know (a newer Claude
		// Code's) that is a link of the chain: keep it as a link, so
		// the entries after it still find their way back instead of
		// being bridged to whatever line came before (possibly another
		// branch). Without a parent it could only cut the history.
		if e.UUID != "" && e.ParentUUID != nil && *e.ParentUUID != "" {
			ld.link(e, n)
		}
	}
}

func (ld *loader) replacements(rs []Replacement) {
	if ld.replSeen == nil {
		ld.replSeen = map[string]int{}
	}
	for _, r := range rs {
		if i, ok := ld.replSeen[r.ToolUseID]; ok {
			ld.t.Replacements[i] = r
			continue
		}
		ld.replSeen[r.ToolUseID] = len(ld.t.Replacements)
		ld.t.Replacements = append(ld.t.Replacements, r)
	}
}

func (ld *loader) link(e *loadEntry, n int) {
	if e.UUID == "" {
		if e.Type == TypeUser || e.Type == TypeAssistant {
			ld.warn(n, "%s message without a uuid skipped", e.Type)
		}
		return
	}
	nd := node{uuid: e.UUID, line: n, sidechain: e.IsSidechain, ts: e.Timestamp,
		cwd: e.Cwd, branch: e.GitBranch, prevFile: -1}
	if e.ParentUUID != nil {
		nd.parent = *e.ParentUUID
	}
	nd.logical = e.LogicalParent
	switch e.Type {
	case TypeUser, TypeAssistant:
		// A message that cannot be used is left out of the history but
		// stays a link of the chain, so what follows it finds its way
		// back through it.
		switch want := llm.Role(e.Type); {
		case e.IsAPIError && e.Type == TypeAssistant:
			// Claude Code records a failed request as an assistant
			// message of its own making ("API Error: ...", model
			// "<synthetic>") and never sends it to the model.
		case e.Message == nil:
			ld.warn(n, "%s entry without a message skipped", e.Type)
		case e.Message.Role != want:
			ld.warn(n, "%s entry holds a message with role %q; skipped", e.Type, e.Message.Role)
		default:
			nd.msg, nd.meta, nd.summary = e.Message, e.IsMeta, e.IsCompactSummary
		}
	case TypeSystem:
		if e.Subtype == SubtypeCompactBoundary {
			nd.boundary = e.CompactMetadata
			if nd.boundary == nil {
				nd.boundary = &CompactMetadata{}
			}
		}
	}
	if !nd.sidechain {
		nd.prevFile = ld.lastMain
	}
	i := len(ld.nodes)
	ld.nodes = append(ld.nodes, nd)
	ld.index[nd.uuid] = i
	ld.lastAny = i
	if !nd.sidechain {
		ld.lastMain = i
	}
}

// finish rebuilds the chain and derives the state.
func (ld *loader) finish() {
	t := ld.t
	if len(ld.nodes) == 0 {
		return
	}
	leaf := ld.lastMain
	if leaf < 0 {
		leaf = ld.lastAny
	}
	if i, ok := ld.index[ld.at]; ok && ld.at != "" {
		leaf = i
		t.Todos = nil
		for _, td := range ld.todos {
			if td.line < ld.nodes[leaf].line {
				t.Todos = td.todos
			}
		}
	}
	if nd := &ld.nodes[leaf]; nd.boundary != nil {
		// The session stopped during a compaction, after its boundary and
		// before its summary: go on with the history it was compacting,
		// which the file still holds, and leave the boundary aside.
		p := nd.logical
		if p == "" {
			p = nd.parent
		}
		next, ok := ld.index[p]
		if !ok {
			next = nd.prevFile
		}
		if next >= 0 {
			ld.warn(nd.line, "the compaction begun here has no summary after it (the session stopped during it); resuming with the history before it")
			leaf = next
		}
	}
	nw := len(t.Warnings)
	chain := ld.chain(leaf)
	if ld.settled && ld.at == "" {
		if k := ld.lastAnswer(chain); k >= 0 && chain[k] != leaf {
			t.Warnings, t.Boundary = t.Warnings[:nw], nil
			leaf = chain[k]
			chain = ld.chain(leaf)
		}
	}
	t.Leaf = ld.nodes[leaf].uuid
	t.Cwd, t.GitBranch = ld.nodes[leaf].cwd, ld.nodes[leaf].branch
	if t.Todos == nil {
		// No list recorded as its own entry (Claude Code's transcripts
		// and reins's hold none): the conversation's last TodoWrite call
		// says what it is.
		t.Todos = ld.lastTodoList(leaf)
	}
	t.Plan = ld.lastPlan(leaf)

	items := make([]stamped, 0, len(chain))
	for _, i := range chain {
		nd := &ld.nodes[i]
		if nd.msg == nil {
			continue
		}
		items = append(items, stamped{Item: Item{UUID: nd.uuid, Message: nd.msg, Meta: nd.meta, Summary: nd.summary}, ts: nd.ts, line: nd.line})
	}
	items = mergeSplitAssistant(items)
	items = ld.recoverParallelResults(items, chain)
	items = ld.applyReplacements(items)
	items, tail := ld.answerOpenCalls(items)
	items = resultsInCallOrder(items)
	if tail != nil {
		last := ld.nodes[leaf]
		p := t.Leaf
		tail.ParentUUID = &p
		tail.SessionID = t.SessionID
		tail.Timestamp = last.ts
		tail.Cwd = last.cwd
		tail.GitBranch = last.branch
		t.Repairs = append(t.Repairs, tail)
		t.Leaf = tail.UUID
	}
	for i := len(items) - 1; i >= 0; i-- {
		if ts, err := time.Parse(time.RFC3339Nano, items[i].ts); err == nil {
			t.LastActivity = ts
			break
		}
	}
	t.Items = make([]Item, len(items))
	for i, it := range items {
		t.Items[i] = it.Item
	}
	t.ReadFiles = readFiles(items)
	for i := len(items) - 1; i >= 0; i-- {
		if m := items[i].Message; m.Role == llm.RoleAssistant {
			t.LastUsage, t.Model = m.Usage, m.Model
			break
		}
	}
}

// lastAnswer returns the position in chain of the model's last answer
// that ended a turn: the newest assistant message that is the chain's last
// message and calls no tool, or that a prompt of the user follows. It
// returns -1 when there is none (the first turn is still under way).
func (ld *loader) lastAnswer(chain []int) int {
	next := -1 // the message after position k on the chain, as a node index
	for k := len(chain) - 1; k >= 0; k-- {
		m := ld.nodes[chain[k]].msg
		if m == nil {
			continue
		}
		if m.Role == llm.RoleAssistant {
			if next < 0 && !callsTools(m) {
				return k
			}
			if next >= 0 && isPrompt(ld.nodes[next].msg) {
				return k
			}
		}
		next = chain[k]
	}
	return -1
}

func callsTools(m *llm.Message) bool {
	for _, b := range m.Content {
		if b.Type == llm.BlockToolUse {
			return true
		}
	}
	return false
}

// isPrompt reports a user message that is not the results of tool calls.
func isPrompt(m *llm.Message) bool {
	if m.Role != llm.RoleUser {
		return false
	}
	for _, b := range m.Content {
		if b.Type == llm.BlockToolResult {
			return false
		}
	}
	return true
}

// stamped is an item with its timestamp and line, for the derivations.
type stamped struct {
	Item
	ts   string
	line int // 0 for synthetic items
}

// chain walks from leaf to the root or the last compaction boundary and
// returns the node indexes oldest first, without the boundary itself.
func (ld *loader) chain(leaf int) []int {
	var rev []int
	seen := map[int]bool{}
	for cur := leaf; cur >= 0; {
		if seen[cur] {
			ld.warn(ld.nodes[cur].line, "parentUuid loop at %s; history cut there", ld.nodes[cur].uuid)
			break
		}
		seen[cur] = true
		nd := &ld.nodes[cur]
		if nd.boundary != nil {
			ld.t.Boundary = &Boundary{UUID: nd.uuid, Line: nd.line, Trigger: nd.boundary.Trigger, PreTokens: nd.boundary.PreTokens}
			break
		}
		rev = append(rev, cur)
		if nd.parent == "" {
			break
		}
		p, ok := ld.index[nd.parent]
		if !ok {
			// A missing link (a line lost to corruption, or entries this
			// reader does not keep): rather than drop the older history,
			// go on with the previous entry in the file.
			if nd.prevFile >= 0 {
				ld.warn(nd.line, "parent %s not found; continuing with the entry on line %d", nd.parent, ld.nodes[nd.prevFile].line)
			} else {
				ld.warn(nd.line, "parent %s not found; history starts here", nd.parent)
			}
			p = nd.prevFile
		}
		cur = p
	}
	for i, j := 0, len(rev)-1; i < j; i, j = i+1, j-1 {
		rev[i], rev[j] = rev[j], rev[i]
	}
	return rev
}

// recoverParallelResults puts back the results of parallel tool calls
// that are off the chain. Claude Code records each call of a response as
// its own entry and each result with the entry of its call as parent, so
// the chain from the leaf passes through the last result only; the others
// hang off it as side branches. They are added to the results message
// that follows the call (a call with no result anywhere is answered later
// by answerOpenCalls).
func (ld *loader) recoverParallelResults(items []stamped, chain []int) []stamped {
	onChain := make(map[int]bool, len(chain))
	for _, i := range chain {
		onChain[i] = true
	}
	var off map[string]llm.ContentBlock // tool_use id → its result, off the chain
	for i := range ld.nodes {
		nd := &ld.nodes[i]
		if onChain[i] || nd.sidechain || nd.msg == nil || nd.msg.Role != llm.RoleUser {
			continue
		}
		for _, b := range nd.msg.Content {
			if b.Type == llm.BlockToolResult {
				if off == nil {
					off = map[string]llm.ContentBlock{}
				}
				off[b.ToolUseID] = b
			}
		}
	}
	if off == nil {
		return items
	}
	out := items[:0:0]
	for i := 0; i < len(items); i++ {
		it := items[i]
		out = append(out, it)
		if it.Message.Role != llm.RoleAssistant {
			continue
		}
		// The results recorded after this call message, up to the next
		// message that is not results.
		answered := map[string]bool{}
		j := i + 1
		for ; j < len(items) && items[j].Message.Role == llm.RoleUser && hasResults(items[j].Message); j++ {
			for _, b := range items[j].Message.Content {
				if b.Type == llm.BlockToolResult {
					answered[b.ToolUseID] = true
				}
			}
		}
		var found []llm.ContentBlock
		for _, b := range it.Message.Content {
			if r, ok := off[b.ID]; ok && b.Type == llm.BlockToolUse && !answered[b.ID] {
				found = append(found, r)
				answered[b.ID] = true
			}
		}
		if len(found) == 0 {
			continue
		}
		if j > i+1 {
			// Into the first results message, so that every result of the
			// call message is in the message right after it.
			first := items[i+1]
			first.Message = &llm.Message{Role: llm.RoleUser,
				Content: append(append([]llm.ContentBlock(nil), first.Message.Content...), found...)}
			out = append(out, first)
			i++
		} else {
			out = append(out, stamped{Item: Item{UUID: uuid.NewSHA1(repairSpace, []byte("recovered:"+it.UUID)).String(),
				Message: &llm.Message{Role: llm.RoleUser, Content: found}}, ts: it.ts})
		}
	}
	return out
}

// mergeSplitAssistant joins assistant entries that are parts of one API
// response (Claude Code records each content block of a response as its
// own entry, all with the response's message id). Tool results recorded
// between the parts stay after the joined message.
func mergeSplitAssistant(items []stamped) []stamped {
	out := items[:0:0]
	lastAsst := -1
	for _, it := range items {
		m := it.Message
		if m.Role == llm.RoleAssistant && m.ID != "" && lastAsst >= 0 && out[lastAsst].Message.ID == m.ID && onlyResultsSince(out, lastAsst) {
			prev := out[lastAsst].Message
			joined := &llm.Message{Role: llm.RoleAssistant, ID: m.ID, Model: m.Model,
				StopReason: m.StopReason, StopSequence: m.StopSequence, Usage: m.Usage}
			joined.Content = append(joined.Content, prev.Content...)
			for _, b := range m.Content {
				// A block recorded twice (a retried write) is kept once.
				if b.Type == llm.BlockToolUse && hasToolUse(joined.Content, b.ID) {
					continue
				}
				joined.Content = append(joined.Content, b)
			}
			out[lastAsst].Message = joined
			out[lastAsst].UUID = it.UUID
			continue
		}
		if m.Role == llm.RoleAssistant {
			lastAsst = len(out)
		}
		out = append(out, it)
	}
	return out
}

func hasToolUse(blocks []llm.ContentBlock, id string) bool {
	for _, b := range blocks {
		if b.Type == llm.BlockToolUse && b.ID == id {
			return true
		}
	}
	return false
}

func onlyResultsSince(items []stamped, i int) bool {
	for _, it := range items[i+1:] {
		if it.Message.Role != llm.RoleUser || !allResults(it.Message) {
			return false
		}
	}
	return true
}

func allResults(m *llm.Message) bool {
	if len(m.Content) == 0 {
		return false
	}
	for _, b := range m.Content {
		if b.Type != llm.BlockToolResult {
			return false
		}
	}
	return true
}
