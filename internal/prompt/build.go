package prompt

import (
	"bytes"
	"embed"
	"strings"
	"text/template"

	"reins/internal/gitinfo"
	"reins/internal/llm"
)

//go:embed text
var texts embed.FS

// staticSections are the files of the static prefix, in order.
var staticSections = []string{"intro.md", "conduct.md", "communication.md", "messages.md",
	"tasks.md", "care.md", "tools.md", "git.md"}

// styledSections are the files of the static prefix under an output style
// other than the default: an introduction that defers to the style, and
// communication rules without the ones on brevity. The "# Doing tasks"
// section (tasks.md), about conducting software engineering work, is left
// out unless the style keeps the coding instructions.
func styledSections(keepCoding bool) []string {
	out := []string{"style-intro.md", "conduct.md", "style-communication.md", "messages.md"}
	if keepCoding {
		out = append(out, "tasks.md")
	}
	return append(out, "care.md", "tools.md", "git.md")
}

func mustText(name string) string {
	b, err := texts.ReadFile("text/" + name)
	if err != nil {
		panic("prompt: missing embedded text " + name) // a build defect, caught by every test
	}
	return strings.TrimSpace(string(b))
}

// Static returns the static prefix of the default system prompt: the same
// bytes for every session.
func Static() string { return join(staticSections, false) }

// StyledStatic returns the static prefix under an output style other than
// the default (see Options.Style): the same bytes for every session with a
// style that keeps (or drops) the coding instructions alike.
func StyledStatic(keepCoding bool) string { return join(styledSections(keepCoding), false) }

// join joins the texts of names, leaving out the git section when noGit.
func join(names []string, noGit bool) string {
	parts := make([]string, 0, len(names))
	for _, name := range names {
		if noGit && name == "git.md" {
			continue
		}
		parts = append(parts, mustText(name))
	}
	return strings.Join(parts, "\n\n")
}

// Style is an output style other than the default, as Options.Style
// takes it.
type Style struct {
	// Name heads the style's section; Prompt is its text.
	Name, Prompt string
	// KeepCodingInstructions keeps the "Doing tasks" section.
	KeepCodingInstructions bool
}

// KV is one key: value line of the system context.
type KV struct {
	Key, Value string
}

// Options are the inputs of Build. Everything in them must be fixed for
// the session: the prompt is rebuilt identically every turn.
type Options struct {
	// Cwd is the working folder; AddDirs are the --add-dir folders.
	Cwd     string
	AddDirs []string
	// Platform (runtime.GOOS) and OSVersion (for example "Linux
	// 6.8.0-45-generic"); see Host.
	Platform  string
	OSVersion string
	// Date is the local date when the session started, YYYY-MM-DD; see
	// SessionDate.
	Date string
	// Model is the model id.
	Model string

	// Git is the snapshot taken at start. Its IsRepo fills the
	// environment's git line; its text becomes the gitStatus context line.
	Git gitinfo.Snapshot

	// Sections are extra per-session sections (MCP server instructions,
	// a language preference), placed after the environment and the
	// output style, in order. Empty ones are skipped.
	Sections []string

	// Style, when set, is the output style in force (nil for the default
	// style, which changes nothing). Its text follows the environment, and
	// the static prefix is StyledStatic's. It goes with the default
	// prompt: Custom leaves it out.
	Style *Style

	// Custom replaces the default prompt (--system-prompt). The
	// environment and Sections go with the default prompt; Append and the
	// system context are kept.
	Custom string
	// Append is added after the prompt (--append-system-prompt).
	Append string
	// Context are further system-context lines, after gitStatus.
	Context []KV
	// NoGitInstructions leaves out the git section (commit and pull
	// request workflow) and the gitStatus snapshot: the
	// includeGitInstructions setting set to false.
	NoGitInstructions bool
	// ExcludeDynamic leaves the per-user parts of the default prompt (the
	// working folders, whether they are a git repository, the date and
	// the gitStatus snapshot) out of the system prompt, so that it is the
	// same for every user and the prompt cache can be shared; the front
	// end sends them with the conversation instead (DynamicContext). The
	// Agent SDK's excludeDynamicSections; no effect with Custom or
	// Simple.
	ExcludeDynamic bool
	// Simple is bare mode's prompt: a short introduction with the working
	// folders and the date, in place of the default prompt and its
	// environment, Sections, style and system context (Custom still
	// replaces it; Append is kept).
	Simple bool
}

// Build returns the system prompt blocks: the static prefix and the
// per-session part, each marked as a cache breakpoint.
func Build(o Options) []llm.SystemBlock {
	var blocks []llm.SystemBlock
	var tail []string
	if o.Simple {
		text := withoutBoundary(o.Custom)
		if text == "" {
			text = simple(o)
		}
		if s := strings.TrimSpace(o.Append); s != "" {
			text += "\n\n" + s
		}
		return []llm.SystemBlock{{Text: text, Cache: true}}
	}
	if o.Custom != "" {
		blocks = append(blocks, CustomBlocks(o.Custom)...)
	} else {
		static := join(staticSections, o.NoGitInstructions)
		if o.Style != nil {
			static = join(styledSections(o.Style.KeepCodingInstructions), o.NoGitInstructions)
		}
		blocks = append(blocks, llm.SystemBlock{Text: static, Cache: true})
		tail = append(tail, environment(o))
		if o.Style != nil {
			tail = append(tail, styleSection(*o.Style))
		}
		for _, s := range o.Sections {
			if s = strings.TrimSpace(s); s != "" {
				tail = append(tail, s)
			}
		}
	}
	if s := strings.TrimSpace(o.Append); s != "" {
		tail = append(tail, s)
	}
	git := o.Git
	if o.NoGitInstructions || (o.ExcludeDynamic && o.Custom == "") {
		git = gitinfo.Snapshot{}
	}
	if ctx := SystemContext(git, o.Context); ctx != "" {
		tail = append(tail, ctx)
	}
	if len(tail) > 0 {
		blocks = append(blocks, llm.SystemBlock{Text: strings.Join(tail, "\n\n"), Cache: true})
	}
	return blocks
}

// simple is the whole default prompt of bare mode.
func simple(o Options) string {
	var b strings.Builder
	b.WriteString(mustText("simple.md"))
	b.WriteString("\n\nWorking folder: " + o.Cwd)
	for _, d := range o.AddDirs {
		b.WriteString("\nAdditional working folder: " + d)
	}
	b.WriteString("\nDate when the session started: " + o.Date)
	return b.String()
}

// styleSection is the output style's part of the prompt: a heading with
// its name, then its text.
func styleSection(st Style) string {
	text := "# Output style: " + st.Name
	if p := strings.TrimSpace(st.Prompt); p != "" {
		text += "\n\n" + p
	}
	return text
}

// SystemContext renders the system context as key: value lines: the git
// snapshot as gitStatus (when in a repository), then extra. Empty values
// are left out; "" when nothing remains.
func SystemContext(git gitinfo.Snapshot, extra []KV) string {
	kvs := append([]KV{{"gitStatus", git.Text()}}, extra...)
	var lines []string
	for _, kv := range kvs {
		if kv.Value != "" {
			lines = append(lines, kv.Key+": "+kv.Value)
		}
	}
	return strings.Join(lines, "\n")
}

// Environment returns the environment section of the default prompt
// (working folder, platform, date, model), for prompts that replace the
// default but still need it, such as a sub-agent's.
func Environment(o Options) string { return environment(o) }

var envTemplate = template.Must(template.New("environment").Parse(mustText("environment.tmpl")))

func environment(o Options) string {
	data := struct {
		Cwd       string
		AddDirs   []string
		IsGitRepo bool
		Platform  string
		OSVersion string
		Date      string
		Model     string
		Cutoff    string
		Static    bool
	}{o.Cwd, o.AddDirs, o.Git.IsRepo, o.Platform, o.OSVersion, o.Date, o.Model, KnowledgeCutoff(o.Model), o.ExcludeDynamic}
	var b bytes.Buffer
	if err := envTemplate.Execute(&b, data); err != nil {
		panic("prompt: environment template: " + err.Error()) // fixed template and data: a build defect
	}
	return strings.TrimSpace(b.String())
}

// DynamicContext is what ExcludeDynamic leaves out of the system prompt,
// as a <system-reminder> for the front of the conversation: the working
// folders, whether they are a git repository, the date the session
// started and the gitStatus snapshot (unless NoGitInstructions).
func DynamicContext(o Options) string {
	var b strings.Builder
	b.WriteString("<system-reminder>\n")
	b.WriteString("The environment this session works in. It is not part of the user's message.\n\n")
	b.WriteString("Working folder: " + o.Cwd)
	for _, d := range o.AddDirs {
		b.WriteString("\nAdditional working folder: " + d)
	}
	repo := "no"
	if o.Git.IsRepo {
		repo = "yes"
	}
	b.WriteString("\nIs a git repository: " + repo)
	if o.Date != "" {
		b.WriteString("\nDate when the session started: " + o.Date)
	}
	git := o.Git
	if o.NoGitInstructions {
		git = gitinfo.Snapshot{}
	}
	if ctx := SystemContext(git, nil); ctx != "" {
		b.WriteString("\n\n" + ctx)
	}
	b.WriteString("\n</system-reminder>")
	return b.String()
}

// Attribution returns the section that tells the model what to add to the
// commits and pull requests it writes: commit is the text to end commit
// messages with, pr the text to end pull request descriptions with (the
// attribution setting). Empty texts add nothing; "" when both are empty.
func Attribution(commit, pr string) string {
	commit, pr = strings.TrimSpace(commit), strings.TrimSpace(pr)
	var parts []string
	if commit != "" {
		parts = append(parts, "End every git commit message you write with the following lines, after a blank line, exactly as given:\n\n"+commit)
	}
	if pr != "" {
		parts = append(parts, "End every pull request description you write with the following text, after a blank line, exactly as given:\n\n"+pr)
	}
	if len(parts) == 0 {
		return ""
	}
	return "# Attribution\n\n" + strings.Join(parts, "\n\n")
}

// Language returns the section asking the model to answer in language
// (the language setting, such as "japanese"); "" when it is empty.
func Language(language string) string {
	language = strings.TrimSpace(language)
	if language == "" {
		return ""
	}
	return "# Language\n\nWrite your replies to the user in " + language + ", whatever language the code, tool results or memory files are in. Code, commands, file names and identifiers stay as they are."
}
