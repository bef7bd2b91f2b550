package search

import (
	"fmt"
	"slices"
	"strings"
)

// fileTypes maps a type name, as ripgrep's --type takes it, to the globs
// of its file names. The lists follow ripgrep's built-in definitions for
// the languages and formats a coding agent meets most.
var fileTypes = map[string][]string{
	"asm":        {"*.asm", "*.s", "*.S"},
	"awk":        {"*.awk"},
	"bazel":      {"*.bazel", "*.bzl", "*.BUILD", "*.bazelrc", "BUILD", "MODULE.bazel", "WORKSPACE", "WORKSPACE.bazel"},
	"c":          {"*.[chH]", "*.[chH].in", "*.cats"},
	"clojure":    {"*.clj", "*.cljc", "*.cljs", "*.cljx"},
	"cmake":      {"*.cmake", "CMakeLists.txt"},
	"config":     {"*.cfg", "*.conf", "*.config", "*.ini"},
	"cpp":        {"*.[ChH]", "*.cc", "*.[ch]pp", "*.[ch]xx", "*.hh", "*.inl", "*.[ChH].in", "*.cc.in", "*.[ch]pp.in", "*.[ch]xx.in", "*.hh.in"},
	"cs":         {"*.cs"},
	"csharp":     {"*.cs"},
	"css":        {"*.css", "*.scss"},
	"csv":        {"*.csv"},
	"cuda":       {"*.cu", "*.cuh"},
	"dart":       {"*.dart"},
	"diff":       {"*.patch", "*.diff"},
	"docker":     {"*Dockerfile*"},
	"elixir":     {"*.ex", "*.eex", "*.exs"},
	"elm":        {"*.elm"},
	"erlang":     {"*.erl", "*.hrl"},
	"fish":       {"*.fish"},
	"fsharp":     {"*.fs", "*.fsx", "*.fsi"},
	"go":         {"*.go"},
	"gradle":     {"*.gradle"},
	"graphql":    {"*.graphql", "*.graphqls"},
	"groovy":     {"*.groovy", "*.gradle"},
	"h":          {"*.h", "*.hh", "*.hpp"},
	"haskell":    {"*.hs", "*.lhs", "*.cpphs", "*.c2hs", "*.hsc"},
	"hs":         {"*.hs", "*.lhs"},
	"html":       {"*.htm", "*.html", "*.ejs"},
	"java":       {"*.java", "*.jsp", "*.jspx", "*.properties"},
	"jinja":      {"*.j2", "*.jinja", "*.jinja2"},
	"js":         {"*.js", "*.jsx", "*.vue", "*.cjs", "*.mjs"},
	"json":       {"*.json", "composer.lock"},
	"jsonl":      {"*.jsonl"},
	"julia":      {"*.jl"},
	"jupyter":    {"*.ipynb", "*.jpynb"},
	"kotlin":     {"*.kt", "*.kts"},
	"less":       {"*.less"},
	"lock":       {"*.lock", "package-lock.json"},
	"log":        {"*.log"},
	"lua":        {"*.lua"},
	"make":       {"[Gg][Nn][Uu]makefile", "[Mm]akefile", "[Gg][Nn][Uu]makefile.am", "[Mm]akefile.am", "[Gg][Nn][Uu]makefile.in", "[Mm]akefile.in", "*.mk", "*.mak"},
	"markdown":   {"*.markdown", "*.md", "*.mdown", "*.mdwn", "*.mkd", "*.mkdn", "*.mdx"},
	"md":         {"*.markdown", "*.md", "*.mdown", "*.mdwn", "*.mkd", "*.mkdn", "*.mdx"},
	"nim":        {"*.nim", "*.nimf", "*.nimble", "*.nims"},
	"nix":        {"*.nix"},
	"objc":       {"*.h", "*.m"},
	"objcpp":     {"*.h", "*.mm"},
	"ocaml":      {"*.ml", "*.mli", "*.mll", "*.mly"},
	"perl":       {"*.perl", "*.pl", "*.PL", "*.plh", "*.plx", "*.pm", "*.t"},
	"php":        {"*.php", "*.php3", "*.php4", "*.php5", "*.php7", "*.php8", "*.pht", "*.phtml"},
	"protobuf":   {"*.proto"},
	"ps":         {"*.cdxml", "*.ps1", "*.ps1xml", "*.psd1", "*.psm1"},
	"py":         {"*.py", "*.pyi"},
	"python":     {"*.py", "*.pyi"},
	"r":          {"*.R", "*.r", "*.Rmd", "*.Rnw"},
	"rst":        {"*.rst"},
	"ruby":       {"config.ru", "Gemfile", ".irbrc", "Rakefile", "*.gemspec", "*.rb", "*.rbw"},
	"rb":         {"config.ru", "Gemfile", ".irbrc", "Rakefile", "*.gemspec", "*.rb", "*.rbw"},
	"rust":       {"*.rs"},
	"sass":       {"*.sass", "*.scss"},
	"scala":      {"*.scala", "*.sbt"},
	"sh":         {".login", ".logout", ".profile", "profile", ".bash_login", "bash_login", ".bash_logout", "bash_logout", ".bash_profile", "bash_profile", ".bashrc", "bashrc", "*.bashrc", ".cshrc", "*.cshrc", ".kshrc", "*.kshrc", ".tcshrc", ".zshenv", "zshenv", ".zlogin", "zlogin", ".zlogout", "zlogout", ".zprofile", "zprofile", ".zshrc", "zshrc", "*.bash", "*.csh", "*.ksh", "*.sh", "*.tcsh", "*.zsh"},
	"sql":        {"*.sql", "*.psql"},
	"svelte":     {"*.svelte"},
	"svg":        {"*.svg"},
	"swift":      {"*.swift"},
	"tex":        {"*.tex", "*.ltx", "*.cls", "*.sty", "*.bib", "*.dtx", "*.ins"},
	"tf":         {"*.tf", "*.auto.tfvars", "terraform.tfvars", "*.tf.json", "*.auto.tfvars.json", "terraform.tfvars.json", "*.terraformrc", "terraform.rc", "*.tfrc", "*.terraform.lock.hcl"},
	"toml":       {"*.toml", "Cargo.lock"},
	"ts":         {"*.ts", "*.tsx", "*.cts", "*.mts"},
	"typescript": {"*.ts", "*.tsx", "*.cts", "*.mts"},
	"txt":        {"*.txt"},
	"vim":        {"*.vim", ".vimrc", ".gvimrc", "vimrc", "gvimrc", "_vimrc", "_gvimrc"},
	"vue":        {"*.vue"},
	"xml":        {"*.xml", "*.xml.dist", "*.dtd", "*.xsl", "*.xslt", "*.xsd", "*.xjb", "*.rng", "*.sch", "*.xhtml"},
	"yaml":       {"*.yaml", "*.yml"},
	"zig":        {"*.zig"},
	"zsh":        {".zshenv", "zshenv", ".zlogin", "zlogin", ".zlogout", "zlogout", ".zprofile", "zprofile", ".zshrc", "zshrc", "*.zsh"},
}

// TypeNames returns the file type names Search accepts, sorted.
func TypeNames() []string {
	names := make([]string, 0, len(fileTypes))
	for name := range fileTypes {
		names = append(names, name)
	}
	slices.Sort(names)
	return names
}

// TypeGlobs returns the file name globs of a type, and false when the
// type is unknown.
func TypeGlobs(name string) ([]string, bool) {
	g, ok := fileTypes[name]
	return slices.Clone(g), ok
}

// UnknownTypeError reports a file type name that is not defined.
type UnknownTypeError struct{ Name string }

func (e *UnknownTypeError) Error() string {
	return fmt.Sprintf("unknown file type %q; known types: %s", e.Name, strings.Join(TypeNames(), ", "))
}

// typeFilter selects files whose base name matches one of the globs of
// the chosen types.
type typeFilter struct {
	suffixes []string // fast path for "*.ext"
	names    map[string]bool
	globs    []*glob
}

func newTypeFilter(names []string) (*typeFilter, error) {
	if len(names) == 0 {
		return nil, nil
	}
	tf := &typeFilter{names: map[string]bool{}}
	for _, name := range names {
		globs, ok := fileTypes[strings.ToLower(strings.TrimSpace(name))]
		if !ok {
			return nil, &UnknownTypeError{Name: name}
		}
		for _, pat := range globs {
			g, _, err := parseGlob(pat)
			if err != nil {
				return nil, fmt.Errorf("file type %s: %w", name, err)
			}
			switch g.kind {
			case globLiteral:
				tf.names[g.lit] = true
			case globSuffix:
				tf.suffixes = append(tf.suffixes, g.lit)
			default:
				tf.globs = append(tf.globs, g)
			}
		}
	}
	return tf, nil
}

// match says whether a file is selected; directories are never judged.
func (tf *typeFilter) match(name string, isDir bool) verdict {
	if tf == nil || isDir {
		return noVerdict
	}
	if tf.names[name] {
		return whitelisted
	}
	for _, s := range tf.suffixes {
		if strings.HasSuffix(name, s) {
			return whitelisted
		}
	}
	for _, g := range tf.globs {
		if g.match(name, name, false) {
			return whitelisted
		}
	}
	return ignored
}
