package session

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"
	"unicode/utf8"
)

// ErrNotFound is returned (wrapped) when no transcript matches.
var ErrNotFound = errors.New("no such session")

// Info describes a recorded session without loading it.
type Info struct {
	ID   string
	Path string
	// Cwd is the working folder recorded in the transcript.
	Cwd string
	// Created is the first recorded timestamp (the file's modification
	// time when none is readable); Modified is the file's.
	Created, Modified time.Time
	Size              int64
	// FirstPrompt is the first prompt the user typed, on one line, cut
	// to 200 characters.
	FirstPrompt string
	// Title is the custom title or summary when one was recorded, else
	// the last prompt.
	Title     string
	GitBranch string
	// CustomTitle is the title given with /rename (or the SDK's
	// renameSession), "" when none was.
	CustomTitle string
	// Foreign is set by List and ListAll for a session found in one of
	// the Also folders (Claude Code's) rather than in reins's own.
	Foreign bool
}

// Name is what a session list shows: the title, else the first prompt.
func (i Info) Name() string {
	if i.Title != "" {
		return i.Title
	}
	return i.FirstPrompt
}

// liteBytes is how much of each end of a file List reads.
const liteBytes = 64 << 10

// maxFirstLine bounds how far Stat reads to complete a line the head cut
// when no message came before it (a first prompt of pasted text can be
// longer than the head).
const maxFirstLine = 64 << 20

// List returns the sessions recorded for cwd, newest first: reins's own
// and, read-only, those of the Also folders (Claude Code's sessions of the
// same folder), a session found in several keeping its latest copy. Files
// without any message (nothing was ever said) and sub-agent transcripts
// are left out.
func (s Store) List(cwd string) ([]Info, error) {
	var all []Info
	for k, root := range s.roots() {
		infos, err := listDir(filepath.Join(root, "projects", Slug(cwd)))
		if err != nil {
			return nil, err
		}
		for i := range infos {
			infos[i].Foreign = k > 0
		}
		all = append(all, infos...)
	}
	return dedupeIDs(all), nil
}

// ListAll returns the sessions of every project, newest first, with those
// of the Also folders as List has them.
func (s Store) ListAll() ([]Info, error) {
	var all []Info
	for k, root := range s.roots() {
		dir := filepath.Join(root, "projects")
		projects, err := os.ReadDir(dir)
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				continue
			}
			return nil, fmt.Errorf("list sessions: %w", err)
		}
		for _, p := range projects {
			if !p.IsDir() {
				continue
			}
			infos, err := listDir(filepath.Join(dir, p.Name()))
			if err != nil {
				return nil, err
			}
			for i := range infos {
				infos[i].Foreign = k > 0
			}
			all = append(all, infos...)
		}
	}
	return dedupeIDs(all), nil
}

// roots are Root and the Also folders, each once.
func (s Store) roots() []string {
	out := []string{s.Root}
	for _, d := range s.Also {
		if d != "" && !slices.Contains(out, d) {
			out = append(out, d)
		}
	}
	return out
}

// Transcripts returns the path of every transcript of session id, in
// every project folder of Root and of the Also folders.
func (s Store) Transcripts(id string) []string {
	if !IsID(id) {
		return nil
	}
	var out []string
	for _, root := range s.roots() {
		m, _ := filepath.Glob(filepath.Join(root, "projects", "*", id+".jsonl"))
		out = append(out, m...)
	}
	return out
}

func sortNewest(infos []Info) {
	slices.SortStableFunc(infos, func(a, b Info) int { return b.Modified.Compare(a.Modified) })
}

func listDir(dir string) ([]Info, error) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, nil
		}
		return nil, fmt.Errorf("list sessions in %s: %w", dir, err)
	}
	var out []Info
	for _, e := range ents {
		if e.IsDir() || !strings.HasSuffix(e.Name(), ".jsonl") {
			continue
		}
		info, ok := Stat(filepath.Join(dir, e.Name()))
		if ok {
			out = append(out, info)
		}
	}
	sortNewest(out)
	return out, nil
}

// Stat describes the transcript at path from its first and last 64 KiB.
// ok is false when the file cannot be read, holds no message, or is a
// sub-agent's transcript.
func Stat(path string) (info Info, ok bool) {
	f, err := os.Open(path)
	if err != nil {
		return Info{}, false
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil || st.Size() == 0 {
		return Info{}, false
	}
	info = Info{ID: strings.TrimSuffix(filepath.Base(path), ".jsonl"), Path: path,
		Modified: st.ModTime(), Size: st.Size(), Created: st.ModTime()}
	head := make([]byte, min(st.Size(), liteBytes))
	if _, err := io.ReadFull(f, head); err != nil {
		return Info{}, false
	}
	tail := head
	if st.Size() > liteBytes {
		tail = make([]byte, liteBytes)
		if _, err := f.ReadAt(tail, st.Size()-liteBytes); err != nil {
			return Info{}, false
		}
		// The first line of the tail is probably partial.
		if i := bytes.IndexByte(tail, '\n'); i >= 0 {
			tail = tail[i+1:]
		}
	}
	if !scanHead(&info, head) {
		// The head may hold no whole message line: read on to the end
		// of the line it cut, and look again.
		if int64(len(head)) == st.Size() {
			return Info{}, false
		}
		rest, err := readLine(f, int64(len(head)), maxFirstLine)
		if err != nil {
			return Info{}, false
		}
		info.Cwd, info.GitBranch, info.FirstPrompt = "", "", ""
		if !scanHead(&info, append(head, rest...)) {
			return Info{}, false
		}
	}
	scanTail(&info, tail)
	return info, true
}

// readLine reads f from off to the end of the line there (the newline
// included), at most max bytes.
func readLine(f *os.File, off, max int64) ([]byte, error) {
	br := bufio.NewReader(io.NewSectionReader(f, off, max))
	var out []byte
	for {
		chunk, err := br.ReadSlice('\n')
		out = append(out, chunk...)
		switch {
		case err == nil, errors.Is(err, io.EOF):
			return out, nil
		case !errors.Is(err, bufio.ErrBufferFull):
			return nil, err
		}
	}
}

// liteEntry is what Stat reads of a line.
type liteEntry struct {
	Type             string `json:"type"`
	IsSidechain      bool   `json:"isSidechain"`
	IsMeta           bool   `json:"isMeta"`
	IsCompactSummary bool   `json:"isCompactSummary"`
	Timestamp        string `json:"timestamp"`
	Cwd              string `json:"cwd"`
	GitBranch        string `json:"gitBranch"`
	Summary          string `json:"summary"`
	CustomTitle      string `json:"customTitle"`
	LastPrompt       string `json:"lastPrompt"`
	Message          *struct {
		Content json.RawMessage `json:"content"`
	} `json:"message"`
}

// scanHead fills the creation time, folder, branch and first prompt. It
// reports false for a sub-agent transcript or one without messages.
func scanHead(info *Info, head []byte) bool {
	hasMessage, first, created := false, true, false
	command := ""
	for len(head) > 0 {
		line := head
		i := bytes.IndexByte(head, '\n')
		if i < 0 {
			head = nil
		} else {
			line, head = head[:i], head[i+1:]
		}
		var e liteEntry
		if json.Unmarshal(line, &e) != nil {
			continue
		}
		if first && e.IsSidechain {
			return false
		}
		first = false
		if e.Timestamp != "" && !created {
			if ts, err := time.Parse(time.RFC3339Nano, e.Timestamp); err == nil {
				info.Created, created = ts, true
			}
		}
		if info.Cwd == "" {
			info.Cwd = e.Cwd
		}
		if info.GitBranch == "" {
			info.GitBranch = e.GitBranch
		}
		if e.Type == TypeUser || e.Type == TypeAssistant {
			hasMessage = true
		}
		if info.FirstPrompt != "" || e.Type != TypeUser || e.IsMeta || e.IsCompactSummary || e.Message == nil {
			continue
		}
		invoked := false // this message invokes a command
		for _, text := range promptTexts(e.Message.Content) {
			text = strings.Join(strings.Fields(text), " ")
			switch {
			case text == "":
			case strings.Contains(text, "<command-name>"):
				invoked = true
				if command == "" {
					command = between(text, "<command-name>", "</command-name>")
				}
			case invoked:
				// The expanded text of the command (reins records it
				// beside the invocation): not typed by the user.
			case skippedPrompt(text):
			default:
				if info.FirstPrompt == "" {
					info.FirstPrompt = cutRunes(text, 200)
				}
			}
		}
	}
	if info.FirstPrompt == "" {
		info.FirstPrompt = command
	}
	return hasMessage
}

// scanTail fills the title and the latest branch.
func scanTail(info *Info, tail []byte) {
	var title, summary, last string
	for len(tail) > 0 {
		line := tail
		i := bytes.IndexByte(tail, '\n')
		if i < 0 {
			tail = nil
		} else {
			line, tail = tail[:i], tail[i+1:]
		}
		// Only metadata lines matter here; skip message lines unparsed.
		if !bytes.Contains(line, []byte(`"customTitle"`)) && !bytes.Contains(line, []byte(`"lastPrompt"`)) &&
			!bytes.Contains(line, []byte(`"summary"`)) && !bytes.Contains(line, []byte(`"gitBranch"`)) {
			continue
		}
		var e liteEntry
		if json.Unmarshal(line, &e) != nil {
			continue
		}
		switch {
		case e.Type == TypeCustomTitle && e.CustomTitle != "":
			title = e.CustomTitle
		case e.Type == TypeSummary && e.Summary != "":
			summary = e.Summary
		case e.Type == TypeLastPrompt && e.LastPrompt != "":
			last = e.LastPrompt
		}
		if e.GitBranch != "" {
			info.GitBranch = e.GitBranch
		}
	}
	switch {
	case title != "":
		info.Title, info.CustomTitle = title, title
	case summary != "":
		info.Title = summary
	case last != "":
		info.Title = cutRunes(strings.Join(strings.Fields(typedPrompt(last)), " "), 200)
	}
}

// promptTexts returns the text of a user message's content (a string or
// blocks); a message of tool results has none.
func promptTexts(raw json.RawMessage) []string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return []string{s}
	}
	var blocks []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}
	if json.Unmarshal(raw, &blocks) != nil {
		return nil
	}
	var out []string
	for _, b := range blocks {
		if b.Type == "tool_result" {
			return nil
		}
		if b.Type == "text" {
			out = append(out, b.Text)
		}
	}
	return out
}

// skippedPrompt reports text that is not something the user typed.
func skippedPrompt(text string) bool {
	for _, p := range []string{"<local-command-stdout>", "<local-command-stderr>", "<session-start-hook>", "<system-reminder>", "[Request interrupted by user"} {
		if strings.HasPrefix(text, p) {
			return true
		}
	}
	return false
}

// typedPrompt is what the user typed for a recorded prompt: "/name args"
// for a command invocation recorded with its header (and its expanded
// text), the text itself otherwise.
func typedPrompt(text string) string {
	if !strings.HasPrefix(strings.TrimSpace(text), "<command-message>") || !strings.Contains(text, "<command-name>") {
		return text
	}
	name := between(text, "<command-name>", "</command-name>")
	if args := between(text, "<command-args>", "</command-args>"); args != "" {
		return name + " " + args
	}
	return name
}

func between(s, open, close string) string {
	_, after, ok := strings.Cut(s, open)
	if !ok {
		return ""
	}
	v, _, _ := strings.Cut(after, close)
	return strings.TrimSpace(v)
}

// cutRunes shortens s to n characters, marking the cut with "…".
func cutRunes(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)[:n]
	return strings.TrimRight(string(r), " ") + "…"
}

// Latest returns the most recently modified session of cwd (for
// --continue). It wraps ErrNotFound when there is none. When the newest
// transcript of the folder cannot be read (no permission, an I/O error,
// or content that is no JSON lines at all), it returns an *UnreadableError
// naming it rather than the session before it: the user asked for the
// last conversation and would otherwise go on with an older one without
// knowing. Transcripts that hold no message (a session quit before
// anything was said) and sub-agents' are passed over, as List does.
func (s Store) Latest(cwd string) (Info, error) {
	type file struct {
		path string
		mod  time.Time
	}
	var files []file
	for _, root := range s.roots() {
		dir := filepath.Join(root, "projects", Slug(cwd))
		ents, err := os.ReadDir(dir)
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				continue
			}
			return Info{}, fmt.Errorf("continue session in %s: %w", cwd, err)
		}
		for _, e := range ents {
			if !strings.HasSuffix(e.Name(), ".jsonl") || !e.Type().IsRegular() {
				continue
			}
			fi, err := e.Info()
			if err != nil {
				continue // removed meanwhile
			}
			files = append(files, file{filepath.Join(dir, e.Name()), fi.ModTime()})
		}
	}
	slices.SortStableFunc(files, func(a, b file) int { return b.mod.Compare(a.mod) })
	for i, f := range files {
		if info, ok := Stat(f.path); ok {
			return info, nil
		}
		why := unreadable(f.path)
		if why == "" {
			continue
		}
		e := &UnreadableError{Path: f.path, Reason: why}
		for _, g := range files[i+1:] {
			if info, ok := Stat(g.path); ok {
				e.Next = info.ID
				break
			}
		}
		return Info{}, e
	}
	return Info{}, fmt.Errorf("continue session in %s: %w", cwd, ErrNotFound)
}

// Damaged returns the transcripts of cwd's project folders (of every
// project when cwd is "") that List leaves out because they cannot be
// read, each with the reason; those left out for no fault (no message in
// them, a sub-agent's) are not named.
func (s Store) Damaged(cwd string) []UnreadableError {
	var dirs []string
	for _, root := range s.roots() {
		if cwd != "" {
			dirs = append(dirs, filepath.Join(root, "projects", Slug(cwd)))
			continue
		}
		m, _ := filepath.Glob(filepath.Join(root, "projects", "*"))
		dirs = append(dirs, m...)
	}
	var out []UnreadableError
	for _, dir := range dirs {
		ents, _ := os.ReadDir(dir)
		for _, e := range ents {
			if !strings.HasSuffix(e.Name(), ".jsonl") || !e.Type().IsRegular() {
				continue
			}
			path := filepath.Join(dir, e.Name())
			if _, ok := Stat(path); ok {
				continue
			}
			if why := unreadable(path); why != "" {
				out = append(out, UnreadableError{Path: path, Reason: why})
			}
		}
	}
	return out
}

// UnreadableError is Latest's error for a newest transcript that cannot
// be read. Next is the id of the newest readable session before it, ""
// when there is none.
type UnreadableError struct {
	Path, Reason, Next string
}

// Error says which transcript, why, and which session comes before it.
func (e *UnreadableError) Error() string {
	msg := fmt.Sprintf("the latest session's transcript %s %s", e.Path, e.Reason)
	if e.Next != "" {
		msg += fmt.Sprintf("; the session before it is %s", e.Next)
	}
	return msg
}

// unreadable says why the transcript at path, which Stat passed over,
// cannot be read, or returns "" when it was passed over for a reason that
// is no fault (it is empty, holds no message, or is a sub-agent's, or
// only a torn first line is in it).
func unreadable(path string) string {
	f, err := os.Open(path)
	if err != nil {
		return fmt.Sprintf("cannot be read (%v)", err)
	}
	defer f.Close()
	head := make([]byte, liteBytes)
	n, err := io.ReadFull(f, head)
	if err != nil && !errors.Is(err, io.EOF) && !errors.Is(err, io.ErrUnexpectedEOF) {
		return fmt.Sprintf("cannot be read (%v)", err)
	}
	head = head[:n]
	complete := bytes.LastIndexByte(head, '\n')
	if complete < 0 {
		return "" // empty, or a first line torn by a crash: nothing was recorded
	}
	for _, line := range bytes.Split(head[:complete], []byte("\n")) {
		if len(bytes.TrimSpace(line)) > 0 && json.Valid(line) {
			return "" // JSON lines without a message
		}
	}
	if len(bytes.TrimSpace(head[:complete])) == 0 {
		return ""
	}
	return "is damaged: none of its lines is JSON, so it holds no message that can be read"
}

// Find locates a session by id (for --resume): first in cwd's project
// folder, then in every project of Root and of the Also folders. A unique
// prefix of an id is accepted, and so is the path of a .jsonl file. It
// wraps ErrNotFound when nothing matches and reports an ambiguous prefix.
func (s Store) Find(id, cwd string) (Info, error) {
	if strings.HasSuffix(id, ".jsonl") {
		if info, ok := Stat(id); ok {
			return info, nil
		}
		if _, err := os.Stat(id); err == nil {
			return Info{}, fmt.Errorf("resume %s: %s: %w", id, whyNoMessage(id), ErrNotFound)
		}
		return Info{}, fmt.Errorf("resume %s: %w", id, ErrNotFound)
	}
	if id == "" || strings.ContainsAny(id, `/\`) || id == "." || id == ".." {
		return Info{}, fmt.Errorf("resume %q: not a session id", id)
	}
	var empty string // a transcript of that id holding no message
	// The exact id, in cwd's project folders first, then in every
	// project. The same id can be in several places (a session continued
	// in another folder or store goes on in a copy): the one recorded last.
	var here, anywhere []string
	for _, root := range s.roots() {
		if cwd != "" {
			here = append(here, filepath.Join(root, "projects", Slug(cwd), id+".jsonl"))
		}
		m, _ := filepath.Glob(filepath.Join(root, "projects", "*", globEscape(id)+".jsonl"))
		anywhere = append(anywhere, m...)
	}
	for _, paths := range [][]string{here, anywhere} {
		var newest *Info
		for _, p := range paths {
			info, ok := Stat(p)
			switch {
			case ok && (newest == nil || info.Modified.After(newest.Modified)):
				newest = &info
			case !ok && empty == "":
				if _, err := os.Stat(p); err == nil {
					empty = p
				}
			}
		}
		if newest != nil {
			return *newest, nil
		}
	}
	var found []Info
	if empty == "" {
		for _, root := range s.roots() {
			pre, _ := filepath.Glob(filepath.Join(root, "projects", "*", globEscape(id)+"*.jsonl"))
			for _, m := range pre {
				if info, ok := Stat(m); ok {
					found = append(found, info)
				}
			}
		}
		found = dedupeIDs(found)
	}
	if len(found) == 0 && empty == "" && !idLike(id) {
		// Not an id: perhaps the title given with /rename, as
		// claude --resume <name> takes one. (A mistyped id is not
		// looked for among titles, which reads every transcript.)
		byTitle, err := s.findTitle(id, cwd)
		if err != nil {
			return Info{}, err
		}
		found = byTitle
	}
	switch len(found) {
	case 0:
		if empty != "" {
			return Info{}, fmt.Errorf("resume %s: %s %s: %w", id, empty, whyNoMessage(empty), ErrNotFound)
		}
		return Info{}, fmt.Errorf("resume %s: %w", id, ErrNotFound)
	case 1:
		return found[0], nil
	}
	ids := make([]string, len(found))
	for i, f := range found {
		ids[i] = f.ID
	}
	if found[0].CustomTitle == id {
		return Info{}, fmt.Errorf("resume %s: %d sessions have that title (%s); give the id of one", id, len(found), strings.Join(ids, ", "))
	}
	return Info{}, fmt.Errorf("resume %s: the prefix matches %d sessions (%s); give more of the id", id, len(found), strings.Join(ids, ", "))
}

// idLike reports whether s reads as a session id or the start of one:
// hexadecimal digits and dashes only, with at least one digit.
func idLike(s string) bool {
	digit := false
	for _, r := range s {
		switch {
		case r >= '0' && r <= '9':
			digit = true
		case r >= 'a' && r <= 'f', r >= 'A' && r <= 'F', r == '-':
		default:
			return false
		}
	}
	return digit
}

// findTitle returns the sessions whose custom title is title: those of
// cwd's project folders when any has it, else those of every project.
func (s Store) findTitle(title, cwd string) ([]Info, error) {
	roots := s.roots()
	var here []string
	if cwd != "" {
		for _, root := range roots {
			here = append(here, filepath.Join(root, "projects", Slug(cwd)))
		}
	}
	var everywhere []string
	for _, root := range roots {
		dirs, _ := filepath.Glob(filepath.Join(root, "projects", "*"))
		everywhere = append(everywhere, dirs...)
	}
	for _, dirs := range [][]string{here, everywhere} {
		var out []Info
		seen := map[string]bool{}
		for _, dir := range dirs {
			if seen[dir] {
				continue
			}
			seen[dir] = true
			paths, _ := filepath.Glob(filepath.Join(dir, "*.jsonl"))
			for _, p := range paths {
				if customTitle(p) != title {
					continue
				}
				if info, ok := Stat(p); ok {
					info.CustomTitle = title
					out = append(out, info)
				}
			}
		}
		if len(out) > 0 {
			return dedupeIDs(out), nil
		}
	}
	return nil, nil
}

// dedupeIDs keeps, of sessions sharing an id (a session continued in
// another folder or store), the one modified last; newest first.
func dedupeIDs(infos []Info) []Info {
	sortNewest(infos)
	seen := map[string]bool{}
	out := infos[:0]
	for _, in := range infos {
		if !seen[in.ID] {
			seen[in.ID] = true
			out = append(out, in)
		}
	}
	return out
}

// customTitle returns the last custom title recorded in the transcript at
// path, reading the whole file (a title may be set early in a long
// session), or "".
func customTitle(path string) string {
	f, err := os.Open(path)
	if err != nil {
		return ""
	}
	defer f.Close()
	title := ""
	eachLine(f, func(line []byte, _ int, _ bool) error {
		if !bytes.Contains(line, []byte(`"customTitle"`)) {
			return nil
		}
		var e liteEntry
		if json.Unmarshal(line, &e) == nil && e.Type == TypeCustomTitle && e.CustomTitle != "" {
			title = e.CustomTitle
		}
		return nil
	})
	return title
}

func globEscape(s string) string {
	r := strings.NewReplacer(`*`, `\*`, `?`, `\?`, `[`, `\[`)
	return r.Replace(s)
}

// whyNoMessage says why Stat found no session in the transcript at path:
// it cannot be read, is empty, is not JSON lines, is a sub-agent's, or has
// no message.
func whyNoMessage(path string) string {
	f, err := os.Open(path)
	if err != nil {
		return fmt.Sprintf("cannot be read (%v)", err)
	}
	defer f.Close()
	st, err := f.Stat()
	switch {
	case err != nil:
		return fmt.Sprintf("cannot be read (%v)", err)
	case st.Size() == 0:
		return "is empty: it holds no message (nothing was recorded in it)"
	}
	head := make([]byte, min(st.Size(), liteBytes))
	if _, err := io.ReadFull(f, head); err != nil {
		return fmt.Sprintf("cannot be read (%v)", err)
	}
	for _, line := range bytes.Split(head, []byte("\n")) {
		var e liteEntry
		if json.Unmarshal(line, &e) != nil {
			continue
		}
		if e.IsSidechain {
			return "is a sub-agent's transcript: it holds no message of a main conversation to resume"
		}
		return "holds no message that can be read (no user or assistant line)"
	}
	if int64(len(head)) < st.Size() {
		return "holds no message that can be read in its first 64 KB"
	}
	return "is not a transcript: none of its lines is JSON, so it holds no message"
}
