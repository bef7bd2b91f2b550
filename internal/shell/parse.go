package shell

import (
	"fmt"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// MaxPayloadDepth is how many levels of eval and `bash -c` payloads Parse
// follows. A payload nested deeper is reported as dynamic.
const MaxPayloadDepth = 3

// Origin says which construct most closely encloses a simple command.
type Origin uint8

// Origins, from the top level inwards.
const (
	OriginTop       Origin = iota // a list or pipeline at the top level
	OriginSubshell                // ( … )
	OriginGroup                   // { …; }
	OriginControl                 // if/while/until/for/select/case, condition or body
	OriginFunction                // a function body
	OriginCmdSubst                // $( … ) or `…`
	OriginProcSubst               // <( … ) or >( … )
	OriginPayload                 // the payload of eval or `bash -c`
)

var originNames = [...]string{"top", "subshell", "group", "control", "function", "cmdsubst", "procsubst", "payload"}

func (o Origin) String() string {
	if int(o) < len(originNames) {
		return originNames[o]
	}
	return fmt.Sprintf("Origin(%d)", o)
}

// Word is one shell word.
type Word struct {
	// Raw is the word as written, quotes included.
	Raw string
	// Value is the word after quote removal. It is meaningful only when
	// Static is true; a leading ~ is kept as written (no tilde expansion).
	Value string
	// Static reports that the word holds no parameter, command,
	// arithmetic or process expansion: its value is known before running.
	Static bool
	// Pattern reports unquoted glob (* ? [) or brace ({a,b} {1..3})
	// characters: the shell may turn the word into several file names.
	Pattern bool
}

// Assign is a VAR=value assignment.
type Assign struct {
	Name  string
	Value Word // for an array assignment Raw holds the whole (…) text
	Raw   string
}

// RedirKind classifies a redirection by its effect.
type RedirKind uint8

// Redirection kinds.
const (
	RedirRead       RedirKind = iota // < file
	RedirWrite                       // > file, >> file, >| file, &> file, &>> file, >&file
	RedirReadWrite                   // <> file
	RedirNull                        // output to /dev/null
	RedirDup                         // 2>&1, >&2, <&0, >&- (fd duplication or closing)
	RedirHeredoc                     // << and <<-
	RedirHereString                  // <<<
)

var redirNames = [...]string{"read", "write", "readwrite", "null", "dup", "heredoc", "herestring"}

func (k RedirKind) String() string {
	if int(k) < len(redirNames) {
		return redirNames[k]
	}
	return fmt.Sprintf("RedirKind(%d)", k)
}

// Redirect is one redirection.
type Redirect struct {
	Op     string // the operator as written: ">", ">>", "<", "<>", ">&", "<&", "&>", "&>>", ">|", "<<", "<<-", "<<<"
	Fd     string // the explicit file descriptor ("2" in 2>x), "" when implied
	Target Word   // the file, fd number or heredoc delimiter
	Kind   RedirKind
	// Heredoc is the body of a heredoc as written; Static is false when an
	// unquoted delimiter lets the body expand variables or commands.
	Heredoc string
}

// Writes reports whether the redirection may create or change a file.
func (r Redirect) Writes() bool { return r.Kind == RedirWrite || r.Kind == RedirReadWrite }

// Command is one simple command.
type Command struct {
	// Text is the whole simple command as written, assignments, wrappers
	// and redirections included.
	Text string
	// Core is the source text from the program word to the last argument,
	// quoting kept; "" when there is no program (a bare assignment).
	Core string
	// Words are all the command's words as written, wrappers included.
	Words []Word
	// Assigns are the leading VAR=value assignments, plus those given to
	// env.
	Assigns []Assign
	// Wrappers are the transparent wrappers looked through, outermost
	// first, e.g. ["timeout", "nice"].
	Wrappers []string
	// Program is the command name after assignments and wrappers; "" for
	// a bare assignment or a wrapper used alone (`env`, `nice`). It is
	// the raw text when DynamicProgram is set.
	Program string
	// Args is the argv from Program on (Args[0] == Program), each the
	// static value or, for a non-static word, its raw text.
	Args []string
	// ArgWords are the words behind Args.
	ArgWords []Word
	// DynamicProgram reports that the program name is not static
	// ($cmd, $(…), "${x}y"), so what runs is unknown.
	DynamicProgram bool
	// Redirects are the redirections of the statement the command heads.
	Redirects []Redirect
	// Decl is set for declaration builtins parsed as such (export,
	// declare, local, readonly, typeset, nameref) and for let.
	Decl bool

	// Origin is the innermost construct around the command; Depth counts
	// the enclosing constructs and payload levels.
	Origin Origin
	Depth  int
	// Subshell reports that the command runs in a child shell (inside
	// ( ), $( ), <( ), a multi-command pipeline, a background job or a
	// `bash -c` payload), so it cannot change the calling shell's state.
	Subshell bool
	// Background reports that the command's statement ends with &.
	Background bool
	// Pipeline reports that the command is part of a pipeline of two or
	// more commands.
	Pipeline bool
	// Parent is the index in Script.Commands of the command whose word
	// or payload holds this one, or -1.
	Parent int
	// Payload is the static script given to eval or `bash -c`, parsed
	// into later entries of Script.Commands; DynamicPayload is set when
	// the payload is not static (or nested too deep) and was not parsed.
	Payload        string
	DynamicPayload bool
}

// Features summarises constructs found anywhere in a script.
type Features struct {
	CmdSubst       bool // $( … ) or `…`
	ProcSubst      bool // <( … ) or >( … )
	ParamExp       bool // $var, ${…} anywhere
	DynamicProg    bool // a parameter expansion or substitution in command position
	ParamAssign    bool // ${x=…} or ${x:=…}: an expansion that assigns
	ArithAssign    bool // an arithmetic assignment or ++/--: ((x++)), $((x=1))
	Arithmetic     bool // (( … )) commands or C-style for loops
	Eval           bool // eval
	ShellPayload   bool // bash -c / sh -c and friends
	DynamicPayload bool // an eval or -c payload that is not static or nested too deep
	Heredoc        bool // << or <<<
	Background     bool // a statement ending with &
	Coprocess      bool // coproc
	FuncDecl       bool // a function definition
	Subshell       bool // ( … )
	Control        bool // if/while/until/for/select/case
	Test           bool // [[ … ]]
}

// Dynamic reports whether the script does anything whose effect cannot be
// read from its text: substitutions, expansions in command position,
// assigning expansions, eval or shell payloads that were not parsed.
func (f Features) Dynamic() bool {
	return f.CmdSubst || f.ProcSubst || f.DynamicProg || f.ParamAssign || f.DynamicPayload
}

// Script is a parsed command line.
type Script struct {
	// Source is the text that was parsed.
	Source string
	// Commands are every simple command, nested ones included, in source
	// order (an enclosing command before the commands in its words).
	Commands []*Command
	// Redirects are every redirection in the script, including those on
	// compound commands such as `{ a; b; } > f`.
	Redirects []Redirect
	Features  Features

	// notRO and state collect construct-level findings for ReadOnly and
	// ChangesState; written during Parse only.
	notRO []string
	state []string
}

// Parse parses src as bash. The error names the position of a syntax
// error. Parse never panics on any input.
func Parse(src string) (s *Script, err error) {
	s = &Script{Source: src}
	defer func() {
		if r := recover(); r != nil {
			s, err = nil, fmt.Errorf("parse shell command: internal parser failure: %v", r)
		}
	}()
	if err := s.parse(src, walkCtx{origin: OriginTop, parent: -1}); err != nil {
		return nil, err
	}
	return s, nil
}

func (s *Script) parse(src string, ctx walkCtx) error {
	f, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(src), "")
	if err != nil {
		return fmt.Errorf("parse shell command: %w", err)
	}
	w := &walker{s: s, src: src}
	w.stmts(f.Stmts, ctx)
	return nil
}

// walkCtx is what the walker knows about the place it is in.
type walkCtx struct {
	origin   Origin
	depth    int
	subshell bool
	pipeline bool
	parent   int
	payloads int // eval/-c nesting
}

func (c walkCtx) in(o Origin, subshell bool) walkCtx {
	c.origin = o
	c.depth++
	c.subshell = c.subshell || subshell
	c.pipeline = false
	return c
}

// walker turns one syntax tree into Commands; src is the text the tree's
// positions refer to.
type walker struct {
	s   *Script
	src string
}

func (w *walker) text(from, to syntax.Pos) string {
	if !from.IsValid() || !to.IsValid() {
		return ""
	}
	a, b := int(from.Offset()), int(to.Offset())
	if a < 0 || b > len(w.src) || a > b {
		return ""
	}
	return w.src[a:b]
}

func (w *walker) stmts(list []*syntax.Stmt, ctx walkCtx) {
	for _, st := range list {
		w.stmt(st, ctx)
	}
}

func (w *walker) stmt(st *syntax.Stmt, ctx walkCtx) {
	if st == nil {
		return
	}
	if st.Background || st.Coprocess || st.Disown {
		w.s.Features.Background = true
		w.s.notRO = append(w.s.notRO, "runs a command in the background")
		ctx.subshell = true
	}
	if st.Coprocess {
		w.s.Features.Coprocess = true
	}
	var c *Command
	idx := ctx.parent
	switch x := st.Cmd.(type) {
	case *syntax.CallExpr:
		c, idx = w.call(x, st, ctx)
	case *syntax.DeclClause:
		c, idx = w.decl(x, st, ctx)
	case *syntax.LetClause:
		c, idx = w.let(x, st, ctx)
	case nil:
		// A statement of redirections only, e.g. `> file`.
	default:
		w.compound(st.Cmd, ctx)
	}
	rctx := ctx
	rctx.parent = idx
	redirs := w.redirects(st.Redirs, rctx)
	if c != nil {
		c.Redirects = redirs
	}
}

func (w *walker) compound(cmd syntax.Command, ctx walkCtx) {
	switch c := cmd.(type) {
	case *syntax.BinaryCmd:
		if c.Op == syntax.Pipe || c.Op == syntax.PipeAll {
			// Every element of a pipeline runs in a child shell (bash
			// without lastpipe).
			pctx := ctx
			pctx.subshell, pctx.pipeline = true, true
			w.stmt(c.X, pctx)
			w.stmt(c.Y, pctx)
			return
		}
		w.stmt(c.X, ctx)
		w.stmt(c.Y, ctx)
	case *syntax.Subshell:
		w.s.Features.Subshell = true
		w.stmts(c.Stmts, ctx.in(OriginSubshell, true))
	case *syntax.Block:
		w.stmts(c.Stmts, ctx.in(OriginGroup, false))
	case *syntax.IfClause:
		w.s.Features.Control = true
		in := ctx.in(OriginControl, false)
		for ic := c; ic != nil; ic = ic.Else {
			w.stmts(ic.Cond, in)
			w.stmts(ic.Then, in)
		}
	case *syntax.WhileClause:
		w.s.Features.Control = true
		in := ctx.in(OriginControl, false)
		w.stmts(c.Cond, in)
		w.stmts(c.Do, in)
	case *syntax.ForClause:
		w.s.Features.Control = true
		in := ctx.in(OriginControl, false)
		switch l := c.Loop.(type) {
		case *syntax.WordIter:
			for _, it := range l.Items {
				w.word(it, in)
			}
			if l.Name != nil && !ctx.subshell && !lowerName(l.Name.Value) {
				// A loop over an upper-case name may overwrite an
				// exported variable that outlives the command.
				w.s.state = append(w.s.state, "assigns loop variable "+l.Name.Value)
				w.s.notRO = append(w.s.notRO, "assigns loop variable "+l.Name.Value)
			}
		case *syntax.CStyleLoop:
			w.s.Features.Arithmetic = true
			w.s.notRO = append(w.s.notRO, "uses a C-style for loop")
			w.scan(l, in)
		}
		w.stmts(c.Do, in)
	case *syntax.CaseClause:
		w.s.Features.Control = true
		in := ctx.in(OriginControl, false)
		w.word(c.Word, in)
		for _, it := range c.Items {
			for _, p := range it.Patterns {
				w.word(p, in)
			}
			w.stmts(it.Stmts, in)
		}
	case *syntax.FuncDecl:
		w.s.Features.FuncDecl = true
		w.s.notRO = append(w.s.notRO, "defines a function")
		if !ctx.subshell {
			w.s.state = append(w.s.state, "defines a function")
		}
		in := ctx.in(OriginFunction, false)
		if b, ok := c.Body.Cmd.(*syntax.Block); ok && len(c.Body.Redirs) == 0 {
			w.stmts(b.Stmts, in)
		} else {
			w.stmt(c.Body, in)
		}
	case *syntax.ArithmCmd:
		w.s.Features.Arithmetic = true
		w.scan(c.X, ctx)
	case *syntax.TestClause:
		w.s.Features.Test = true
		w.scan(c.X, ctx)
	case *syntax.TimeClause:
		w.stmt(c.Stmt, ctx)
	case *syntax.CoprocClause:
		w.s.Features.Coprocess = true
		w.s.notRO = append(w.s.notRO, "starts a coprocess")
		w.stmt(c.Stmt, ctx.in(OriginSubshell, true))
	default:
		// TestDecl (bats) and anything newer: not understood.
		w.s.notRO = append(w.s.notRO, fmt.Sprintf("uses an unsupported construct (%T)", cmd))
		w.s.state = append(w.s.state, fmt.Sprintf("uses an unsupported construct (%T)", cmd))
	}
}

func lowerName(name string) bool {
	return strings.ToUpper(name) != name
}

func (w *walker) redirects(rs []*syntax.Redirect, ctx walkCtx) []Redirect {
	var out []Redirect
	for _, r := range rs {
		rd := Redirect{Op: r.Op.String()}
		if r.N != nil {
			rd.Fd = r.N.Value
		}
		if r.Word != nil {
			rd.Target = w.word(r.Word, ctx)
		}
		switch r.Op {
		case syntax.RdrIn:
			rd.Kind = RedirRead
		case syntax.RdrInOut:
			rd.Kind = RedirReadWrite
		case syntax.DplIn, syntax.DplOut:
			rd.Kind = RedirDup
			if !isFdTarget(rd.Target) {
				// >&file is bash's spelling of &>file.
				rd.Kind = RedirWrite
				if r.Op == syntax.DplIn {
					rd.Kind = RedirRead
				}
			}
		case syntax.Hdoc, syntax.DashHdoc:
			w.s.Features.Heredoc = true
			rd.Kind = RedirHeredoc
			if r.Hdoc != nil {
				body := w.word(r.Hdoc, ctx)
				rd.Heredoc = body.Raw
			}
		case syntax.WordHdoc:
			w.s.Features.Heredoc = true
			rd.Kind = RedirHereString
		default: // > >> >| &> &>> and zsh forms
			rd.Kind = RedirWrite
		}
		if rd.Kind == RedirWrite && rd.Target.Static && rd.Target.Value == "/dev/null" {
			rd.Kind = RedirNull
		}
		out = append(out, rd)
	}
	w.s.Redirects = append(w.s.Redirects, out...)
	return out
}

func isFdTarget(t Word) bool {
	if !t.Static {
		return false
	}
	v := strings.TrimSuffix(t.Value, "-")
	if v == "" {
		return t.Value == "-"
	}
	for _, r := range v {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}

// stmtText is a statement's source without a leading ! and a trailing
// ; or &.
func (w *walker) stmtText(st *syntax.Stmt) string {
	from, to := st.Cmd.Pos(), st.Cmd.End()
	for _, r := range st.Redirs {
		if r.Pos().Offset() < from.Offset() {
			from = r.Pos()
		}
		if r.End().Offset() > to.Offset() {
			to = r.End()
		}
	}
	return w.text(from, to)
}

// newCommand registers a command for statement st and returns it with its
// index.
func (w *walker) newCommand(st *syntax.Stmt, ctx walkCtx) (*Command, int) {
	c := &Command{
		Text:       w.stmtText(st),
		Origin:     ctx.origin,
		Depth:      ctx.depth,
		Subshell:   ctx.subshell,
		Background: st.Background,
		Pipeline:   ctx.pipeline,
		Parent:     ctx.parent,
	}
	w.s.Commands = append(w.s.Commands, c)
	return c, len(w.s.Commands) - 1
}

func (w *walker) call(ce *syntax.CallExpr, st *syntax.Stmt, ctx walkCtx) (*Command, int) {
	c, idx := w.newCommand(st, ctx)
	inner := ctx
	inner.parent = idx
	for _, a := range ce.Assigns {
		c.Assigns = append(c.Assigns, w.assign(a, inner))
	}
	for _, wd := range ce.Args {
		c.Words = append(c.Words, w.word(wd, inner))
	}
	if len(ce.Args) == 0 {
		if !ctx.subshell {
			for _, a := range c.Assigns {
				w.s.state = append(w.s.state, "assigns "+a.Name)
			}
		}
		return c, idx
	}
	start := unwrap(c)
	if start < len(c.Words) {
		c.Core = w.text(ce.Args[start].Pos(), ce.Args[len(ce.Args)-1].End())
		first := c.Words[start]
		c.DynamicProgram = !first.Static
		if c.DynamicProgram {
			w.s.Features.DynamicProg = true
			c.Program = first.Raw
		} else {
			c.Program = first.Value
		}
		for _, wd := range c.Words[start:] {
			c.ArgWords = append(c.ArgWords, wd)
			c.Args = append(c.Args, wordArg(wd))
		}
	}
	w.payload(c, idx, ctx)
	return c, idx
}

func wordArg(wd Word) string {
	if wd.Static {
		return wd.Value
	}
	return wd.Raw
}

func (w *walker) decl(d *syntax.DeclClause, st *syntax.Stmt, ctx walkCtx) (*Command, int) {
	c, idx := w.newCommand(st, ctx)
	c.Decl = true
	inner := ctx
	inner.parent = idx
	name := d.Variant.Value
	c.Program = name
	c.Args = []string{name}
	c.ArgWords = []Word{{Raw: name, Value: name, Static: true}}
	c.Words = c.ArgWords
	for _, a := range d.Args {
		as := w.assign(a, inner)
		var wd Word
		switch {
		case a.Naked && a.Name == nil && a.Value != nil:
			wd = as.Value // an option or a dynamic name
		case a.Naked && a.Name != nil && a.Index == nil:
			wd = Word{Raw: a.Name.Value, Value: a.Name.Value, Static: true}
		default:
			wd = Word{Raw: as.Raw, Value: as.Raw, Static: as.Value.Static || as.Value.Raw == ""}
			if a.Name != nil {
				c.Assigns = append(c.Assigns, as)
			}
		}
		c.Words = append(c.Words, wd)
		c.ArgWords = append(c.ArgWords, wd)
		c.Args = append(c.Args, wordArg(wd))
	}
	c.Core = w.text(d.Pos(), d.End())
	return c, idx
}

func (w *walker) let(l *syntax.LetClause, st *syntax.Stmt, ctx walkCtx) (*Command, int) {
	c, idx := w.newCommand(st, ctx)
	c.Decl = true
	c.Program = "let"
	c.Core = w.text(l.Pos(), l.End())
	c.Args = []string{"let"}
	c.ArgWords = []Word{{Raw: "let", Value: "let", Static: true}}
	c.Words = c.ArgWords
	inner := ctx
	inner.parent = idx
	for _, e := range l.Exprs {
		raw := w.text(e.Pos(), e.End())
		wd := Word{Raw: raw, Value: raw, Static: true}
		c.Args = append(c.Args, raw)
		c.ArgWords = append(c.ArgWords, wd)
		w.scan(e, inner)
	}
	w.s.Features.Arithmetic = true
	return c, idx
}

func (w *walker) assign(a *syntax.Assign, ctx walkCtx) Assign {
	as := Assign{Raw: w.text(a.Pos(), a.End())}
	if a.Name != nil {
		as.Name = a.Name.Value
	}
	if a.Index != nil {
		w.scan(a.Index, ctx)
	}
	switch {
	case a.Value != nil:
		as.Value = w.word(a.Value, ctx)
	case a.Array != nil:
		w.scan(a.Array, ctx)
		raw := w.text(a.Array.Pos(), a.Array.End())
		as.Value = Word{Raw: raw, Value: raw}
	default:
		as.Value = Word{Static: true}
	}
	return as
}

// word converts a syntax word and scans it for substitutions.
func (w *walker) word(sw *syntax.Word, ctx walkCtx) Word {
	if sw == nil || len(sw.Parts) == 0 {
		return Word{Static: true}
	}
	out := Word{Raw: w.text(sw.Pos(), sw.End()), Static: true}
	var sb strings.Builder
	for _, part := range sw.Parts {
		switch p := part.(type) {
		case *syntax.Lit:
			v, pat := unquotedLit(p.Value)
			sb.WriteString(v)
			out.Pattern = out.Pattern || pat
		case *syntax.SglQuoted:
			if p.Dollar {
				v, ok := ansiC(p.Value)
				if !ok {
					out.Static = false
				}
				sb.WriteString(v)
			} else {
				sb.WriteString(p.Value)
			}
		case *syntax.DblQuoted:
			if p.Dollar { // $"…" is locale translation
				out.Static = false
			}
			for _, dp := range p.Parts {
				if l, ok := dp.(*syntax.Lit); ok {
					sb.WriteString(dquotedLit(l.Value))
					continue
				}
				out.Static = false
			}
		default:
			out.Static = false
		}
	}
	if out.Static {
		out.Value = sb.String()
	}
	w.scan(sw, ctx)
	return out
}

// scan walks any node for substitutions and expansions, recursing into
// the statements of command and process substitutions.
func (w *walker) scan(n syntax.Node, ctx walkCtx) {
	if n == nil {
		return
	}
	syntax.Walk(n, func(n syntax.Node) bool {
		switch x := n.(type) {
		case *syntax.CmdSubst:
			w.s.Features.CmdSubst = true
			w.stmts(x.Stmts, ctx.in(OriginCmdSubst, true))
			return false
		case *syntax.ProcSubst:
			w.s.Features.ProcSubst = true
			w.stmts(x.Stmts, ctx.in(OriginProcSubst, true))
			return false
		case *syntax.ParamExp:
			w.s.Features.ParamExp = true
			if x.Exp != nil && (x.Exp.Op == syntax.AssignUnset || x.Exp.Op == syntax.AssignUnsetOrNull) {
				w.s.Features.ParamAssign = true
				w.s.notRO = append(w.s.notRO, "assigns through ${…=…}")
				if !ctx.subshell {
					w.s.state = append(w.s.state, "assigns through ${…=…}")
				}
			}
		case *syntax.BinaryArithm:
			if isArithAssign(x.Op) {
				w.arithAssign(ctx)
			}
		case *syntax.UnaryArithm:
			if x.Op == syntax.Inc || x.Op == syntax.Dec {
				w.arithAssign(ctx)
			}
		}
		return true
	})
}

func (w *walker) arithAssign(ctx walkCtx) {
	w.s.Features.ArithAssign = true
	w.s.notRO = append(w.s.notRO, "assigns in an arithmetic expression")
	if !ctx.subshell {
		w.s.state = append(w.s.state, "assigns in an arithmetic expression")
	}
}

func isArithAssign(op syntax.BinAritOperator) bool {
	switch op {
	case syntax.Assgn, syntax.AddAssgn, syntax.SubAssgn, syntax.MulAssgn, syntax.QuoAssgn,
		syntax.RemAssgn, syntax.AndAssgn, syntax.OrAssgn, syntax.XorAssgn, syntax.ShlAssgn,
		syntax.ShrAssgn, syntax.AndBoolAssgn, syntax.OrBoolAssgn, syntax.XorBoolAssgn, syntax.PowAssgn:
		return true
	}
	return false
}

// payload parses the static payload of eval and `bash -c`.
func (w *walker) payload(c *Command, idx int, ctx walkCtx) {
	text, isPayload, static := payloadOf(c)
	if !isPayload {
		return
	}
	if c.Program == "eval" {
		w.s.Features.Eval = true
	} else {
		w.s.Features.ShellPayload = true
	}
	if !static || ctx.payloads >= MaxPayloadDepth {
		c.DynamicPayload = true
		w.s.Features.DynamicPayload = true
		return
	}
	c.Payload = text
	in := ctx.in(OriginPayload, c.Program != "eval")
	in.parent = idx
	in.payloads++
	if err := w.s.parse(text, in); err != nil {
		c.DynamicPayload = true
		w.s.Features.DynamicPayload = true
	}
}

// payloadOf finds the script an eval or shell -c command runs.
func payloadOf(c *Command) (text string, isPayload, static bool) {
	args := c.ArgWords
	switch c.Program {
	case "eval":
		var parts []string
		for _, a := range args[1:] {
			if !a.Static {
				return "", true, false
			}
			parts = append(parts, a.Value)
		}
		return strings.Join(parts, " "), true, true
	case "bash", "sh", "zsh", "dash", "ksh", "mksh", "ash", "busybox":
	default:
		return "", false, false
	}
	i := 1
	if c.Program == "busybox" {
		if len(args) < 2 || !args[1].Static || (args[1].Value != "sh" && args[1].Value != "ash") {
			return "", false, false
		}
		i = 2
	}
	hasC := false
	for ; i < len(args); i++ {
		a := args[i]
		if !a.Static {
			if hasC {
				return "", true, false
			}
			return "", false, false
		}
		v := a.Value
		switch {
		case v == "--":
			i++
			if hasC && i < len(args) {
				return args[i].Value, true, args[i].Static
			}
			return "", hasC, false
		case v == "-o" || v == "+o" || v == "-O" || v == "+O" || v == "--rcfile" || v == "--init-file":
			i++ // takes a value
		case strings.HasPrefix(v, "--"):
		case strings.HasPrefix(v, "-") || strings.HasPrefix(v, "+"):
			if strings.ContainsRune(v[1:], 'c') {
				hasC = true
			}
		default:
			if hasC {
				return v, true, true
			}
			return "", false, false // a script file
		}
	}
	return "", hasC, false
}
