package shell

import "strings"

// readOnlyProgram reports whether running name with args only reads.
// Programs with no writing option at all accept any arguments, computed
// ones included; programs with writing options require static arguments
// (a computed word could expand to such an option) and are checked for
// them.
func readOnlyProgram(name string, args []Word) bool {
	switch name {
	// Readers and printers with no option that writes or runs code.
	case "cat", "head", "tail", "wc", "grep", "egrep", "fgrep", "zgrep", "ls", "pwd", "echo",
		"which", "whereis", "type", "stat", "du", "df", "cut", "tr", "jq", "basename",
		"dirname", "realpath", "readlink", "true", "false", ":", "test", "[", "seq", "expr",
		"diff", "cmp", "comm", "md5sum", "sha1sum", "sha224sum", "sha256sum", "sha384sum",
		"sha512sum", "b2sum", "cksum", "sum", "od", "hexdump", "strings", "column", "nl",
		"paste", "fold", "fmt", "rev", "tac", "expand", "unexpand", "join", "id", "whoami",
		"groups", "uname", "arch", "nproc", "uptime", "free", "printenv", "locale", "tty",
		"ps", "pgrep", "pidof", "lsof", "sleep", "wait", "dircolors", "getconf", "numfmt",
		"look", "zcat", "bzcat", "xzcat", "zstdcat", "lsblk", "lscpu", "ldd",
		"lsattr", "vdir", "dir", "users", "who", "w", "logname", "hostid", "printf":
		if name == "printf" {
			return !hasOption(args, "-v")
		}
		return true
	case "command":
		return len(args) > 0 && (args[0].Value == "-v" || args[0].Value == "-V")
	case "file":
		return strictWords(args) && !hasOption(args, "-C", "--compile")
	case "sort":
		return strictWords(args) && !hasOption(args, "-o", "--output", "--compress-program")
	case "uniq":
		return strictWords(args) && len(operands(args, " -f -s -w --skip-fields --skip-chars --check-chars ")) <= 1
	case "xxd":
		return strictWords(args) && len(operands(args, " -c -g -l -o -s -n --cols --groupsize --len --offset --seek --name ")) <= 1
	case "base64", "base32", "basenc":
		return strictWords(args) && !hasOption(args, "-o", "--output") && len(operands(args, " -w --wrap ")) <= 1
	case "tee":
		return len(operands(args, " ")) == 0
	case "tree":
		return strictWords(args) && !hasOption(args, "-o", "-R", "--output")
	case "date":
		return dateReadOnly(args)
	case "hostname", "domainname":
		return strictWords(args) && len(operands(args, " ")) == 0 && !hasOption(args, "-F", "-b", "--file", "--boot")
	case "rg":
		return strictWords(args) && !hasOption(args, "--pre", "--pre-glob", "--search-zip", "-z")
	case "find":
		return findReadOnly(args)
	case "sed":
		return sedReadOnly(args)
	case "git":
		return gitReadOnly(args)
	case "go":
		return goReadOnly(args)
	}
	return false
}

func dateReadOnly(args []Word) bool {
	if !strictWords(args) || hasOption(args, "-s", "--set") {
		return false
	}
	for _, o := range operands(args, " -d -f -r -I --date --file --reference ") {
		if !strings.HasPrefix(o.Value, "+") {
			return false // an operand without + sets the clock
		}
	}
	return true
}

func findReadOnly(args []Word) bool {
	if !strictWords(args) {
		return false
	}
	for _, a := range args {
		switch a.Value {
		case "-exec", "-execdir", "-ok", "-okdir", "-delete", "-fls", "-fprint", "-fprint0", "-fprintf":
			return false
		}
	}
	return true
}

func goReadOnly(args []Word) bool {
	if !strictWords(args) || len(args) == 0 {
		return len(args) == 0
	}
	switch args[0].Value {
	case "version", "doc", "list", "help":
		return !hasExact(args[1:], "-toolexec", "--toolexec", "-exec", "--exec", "-overlay", "--overlay", "-o", "--o")
	case "env":
		return !hasExact(args[1:], "-w", "--w", "-u", "--u")
	}
	return false
}

// gitReadOnly checks git's global options and then the subcommand.
func gitReadOnly(args []Word) bool {
	if !strictWords(args) {
		return false
	}
	i := 0
	for ; i < len(args); i++ {
		v := args[i].Value
		switch {
		case v == "-C" || v == "--git-dir" || v == "--work-tree" || v == "--namespace":
			i++
		case strings.HasPrefix(v, "--git-dir=") || strings.HasPrefix(v, "--work-tree=") || strings.HasPrefix(v, "--namespace="):
		case v == "--no-pager" || v == "-P" || v == "--no-optional-locks" || v == "--bare" ||
			v == "--literal-pathspecs" || v == "--glob-pathspecs" || v == "--noglob-pathspecs" ||
			v == "--icase-pathspecs" || v == "--no-replace-objects" || v == "--no-lazy-fetch":
		case v == "--version" || v == "--help" || v == "-h":
			return true
		case strings.HasPrefix(v, "-"):
			return false // -c, --config-env, --exec-path and anything unknown
		default:
			return gitSubReadOnly(v, args[i+1:])
		}
	}
	return true // plain `git` prints usage
}

func gitSubReadOnly(sub string, rest []Word) bool {
	if hasOption(rest, "--output") {
		return false
	}
	switch sub {
	case "status", "log", "diff", "show", "rev-parse", "ls-files", "blame", "annotate", "shortlog",
		"describe", "ls-tree", "cat-file", "rev-list", "show-ref", "merge-base", "name-rev",
		"diff-tree", "diff-files", "diff-index", "for-each-ref", "count-objects", "check-ignore",
		"check-attr", "whatchanged", "cherry", "ls-remote", "var", "help", "version",
		"show-branch", "range-diff", "grep", "verify-commit", "verify-tag", "check-ref-format":
		if sub == "grep" && hasOption(rest, "-O", "--open-files-in-pager") {
			return false
		}
		return !hasOption(rest, "--ext-diff")
	case "branch":
		return listingOnly(rest, " --list -l -a -r --all --remotes -v -vv --verbose --show-current --color --no-color --column --no-column -i --ignore-case --omit-empty ",
			" --sort --format --contains --no-contains --merged --no-merged --points-at --abbrev --color --column ",
			" --contains --no-contains --merged --no-merged --points-at ")
	case "tag":
		return listingOnly(rest, " --list -l -n --color --no-color --column --no-column -i --ignore-case --omit-empty ",
			" --sort --format --contains --no-contains --merged --no-merged --points-at --color --column ",
			" --contains --no-contains --merged --no-merged --points-at ")
	case "remote":
		if len(rest) == 0 {
			return true
		}
		switch rest[0].Value {
		case "-v", "--verbose", "show", "get-url":
			return true
		}
		return false
	case "stash":
		return len(rest) > 0 && (rest[0].Value == "list" || rest[0].Value == "show")
	case "worktree":
		return len(rest) > 0 && rest[0].Value == "list"
	case "reflog":
		return len(rest) == 0 || rest[0].Value == "show" || rest[0].Value == "exists" || strings.HasPrefix(rest[0].Value, "-")
	case "submodule":
		return len(rest) > 0 && (rest[0].Value == "status" || rest[0].Value == "summary")
	case "config":
		return gitConfigReadOnly(rest)
	}
	return false
}

// listingOnly accepts the listing forms of git branch and git tag: known
// flags, and pattern operands only with --list (or -l).
func listingOnly(rest []Word, flags, valued, commitArgs string) bool {
	list := false
	for i := 0; i < len(rest); i++ {
		v := rest[i].Value
		name, _, hasVal := strings.Cut(v, "=")
		switch {
		case v == "--list" || v == "-l":
			list = true
		case strings.HasPrefix(v, "-") && hasVal && strings.Contains(valued, " "+name+" "):
		case strings.HasPrefix(v, "-") && strings.Contains(commitArgs, " "+v+" "):
			if i+1 < len(rest) && !strings.HasPrefix(rest[i+1].Value, "-") {
				i++ // the optional commit
			}
		case strings.HasPrefix(v, "-") && strings.Contains(valued, " "+v+" ") && !strings.Contains(flags, " "+v+" "):
			i++
		case strings.HasPrefix(v, "-"):
			if !strings.Contains(flags, " "+v+" ") {
				return false
			}
		default:
			if !list {
				return false // `git branch name` creates a branch
			}
		}
	}
	return true
}

func gitConfigReadOnly(rest []Word) bool {
	ops := operands(rest, " -f --file --blob --type --default ")
	if len(ops) > 0 {
		switch ops[0].Value {
		case "get", "list":
			return !hasOption(rest, "--add", "--unset", "--unset-all", "--replace-all", "--edit", "-e")
		case "set", "unset", "rename-section", "remove-section", "edit":
			return false
		}
	}
	if hasOption(rest, "--add", "--unset", "--unset-all", "--replace-all", "--edit", "-e",
		"--rename-section", "--remove-section") {
		return false
	}
	if hasOption(rest, "--get", "--get-all", "--get-regexp", "--get-urlmatch", "--list", "-l", "--get-color", "--get-colorbool") {
		return true
	}
	return len(ops) == 1 // `git config key` reads; `git config key value` writes
}

// sedReadOnly accepts sed without in-place editing whose scripts use only
// commands that print, delete from the output, or read.
func sedReadOnly(args []Word) bool {
	if !strictWords(args) {
		return false
	}
	var scripts []string
	explicit := false
	for i := 0; i < len(args); i++ {
		v := args[i].Value
		switch {
		case v == "--":
			i = len(args)
		case v == "-i" || v == "-I" || strings.HasPrefix(v, "--in-place") || v == "-f" || strings.HasPrefix(v, "--file"):
			return false
		case v == "-e" || v == "--expression":
			if i+1 >= len(args) {
				return false
			}
			scripts, explicit = append(scripts, args[i+1].Value), true
			i++
		case strings.HasPrefix(v, "--expression="):
			scripts, explicit = append(scripts, strings.TrimPrefix(v, "--expression=")), true
		case v == "-l" || v == "--line-length":
			i++
		case strings.HasPrefix(v, "--"):
		case strings.HasPrefix(v, "-") && len(v) > 1:
			flags := v[1:]
			if strings.ContainsAny(flags, "iIf") {
				return false
			}
			if k := strings.IndexByte(flags, 'e'); k >= 0 {
				if k < len(flags)-1 {
					scripts = append(scripts, flags[k+1:])
				} else if i+1 < len(args) {
					scripts = append(scripts, args[i+1].Value)
					i++
				} else {
					return false
				}
				explicit = true
			}
		default:
			if !explicit && len(scripts) == 0 {
				scripts = append(scripts, v)
			}
		}
	}
	if len(scripts) == 0 {
		return false
	}
	for _, sc := range scripts {
		if !sedScriptSafe(sc) {
			return false
		}
	}
	return true
}

// sedScriptSafe scans a sed script and rejects the commands that write
// files (w, W, and the w flag of s) or run commands (e, and the e flag of
// s), and anything it does not recognise.
func sedScriptSafe(sc string) bool {
	i := 0
	n := len(sc)
	skipTo := func(stop string) {
		for i < n && !strings.ContainsRune(stop, rune(sc[i])) {
			i++
		}
	}
	for i < n {
		c := sc[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == ';' || c == '{' || c == '}' || c == '!' || c == ',':
			i++
			continue
		case c >= '0' && c <= '9' || c == '$' || c == '~' || c == '+':
			i++
			continue
		case c == '/' || c == '\\':
			// An address regex: /re/ or \cREc.
			delim := byte('/')
			if c == '\\' {
				if i+1 >= n {
					return false
				}
				delim = sc[i+1]
				i++
			}
			end := delimited(sc, i+1, delim)
			if end < 0 {
				return false
			}
			i = end + 1
			for i < n && (sc[i] == 'I' || sc[i] == 'M') {
				i++
			}
			continue
		case c == '#':
			skipTo("\n")
			continue
		}
		i++
		switch c {
		case 'p', 'P', 'd', 'D', 'q', 'Q', '=', 'l', 'n', 'N', 'g', 'G', 'h', 'H', 'x', 'z', 'F':
			if c == 'q' || c == 'Q' || c == 'l' {
				for i < n && sc[i] >= '0' && sc[i] <= '9' {
					i++
				}
			}
		case 'a', 'i', 'c', 'r', 'R', ':', 'b', 't', 'T':
			if c == 'a' || c == 'i' || c == 'c' || c == 'r' || c == 'R' || c == ':' {
				skipTo("\n")
				// a\, i\ and c\ continue their text on the next lines.
				for (c == 'a' || c == 'i' || c == 'c') && i < n && i > 0 && sc[i-1] == '\\' {
					i++
					skipTo("\n")
				}
			} else {
				skipTo(";\n}")
			}
		case 's', 'y':
			if i >= n || sc[i] == '\n' || sc[i] == '\\' {
				return false
			}
			delim := sc[i]
			mid := delimited(sc, i+1, delim)
			if mid < 0 {
				return false
			}
			end := delimited(sc, mid+1, delim)
			if end < 0 {
				return false
			}
			i = end + 1
			if c == 's' {
				for i < n && strings.IndexByte("gpiImM0123456789", sc[i]) >= 0 {
					i++
				}
				if i < n && strings.IndexByte("we", sc[i]) >= 0 {
					return false
				}
			}
		default:
			return false // w, W, e and anything unknown
		}
	}
	return true
}

// delimited returns the index of the first unescaped delim at or after
// i, or -1.
func delimited(s string, i int, delim byte) int {
	for ; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
		case delim:
			return i
		case '\n':
			return -1
		}
	}
	return -1
}

// hasExact reports whether any word is one of names, alone or as
// name=value (for Go-style single-dash long flags).
func hasExact(args []Word, names ...string) bool {
	for _, a := range args {
		for _, n := range names {
			if a.Value == n || strings.HasPrefix(a.Value, n+"=") {
				return true
			}
		}
	}
	return false
}
