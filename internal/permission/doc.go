// Package permission decides whether a tool call may run: allow, ask the
// user, or deny, from permission rules, the permission mode and the
// working folders, the way Claude Code users already configure them.
//
// # Rules
//
// A rule is "Tool" or "Tool(specifier)" (ParseRule). Rules are evaluated
// deny → ask → allow: the first tier with a matching rule decides, and an
// allow rule never carves a hole in a deny rule. Specifiers:
//
//   - Bash: "npm run build" (exact), "npm run test:*" (legacy prefix, at a
//     word boundary), "git log *" (wildcard). Compound commands are split
//     with the shell package: a call is allowed only when every simple
//     command in it is, and denied when any is. Command and process
//     substitution, eval of computed text, and variables in command
//     position always ask. Leading VAR=value assignments and wrappers
//     (timeout, nice, env …) are looked through; commands run by xargs,
//     find -exec or sudo must match too. Files a command names (operands
//     of file commands, redirections) are checked like Read and Edit
//     calls; a glob is checked for the folder it expands in and for the
//     files it matches on disk (Request.Resolve), and a command that
//     reads a whole folder (grep -r, rg, cp -r) for the files under it
//     that Read deny and ask rules cover (Request.ResolveTrees), so that
//     "grep -r KEY ." cannot print a denied .env. A git command that prints
//     repository content (git grep, log -p, diff, show, cat-file -p,
//     stash show -p, archive) is checked, when Read deny or ask rules exist, for the
//     tracked files under its pathspecs (git ls-files, and the files
//     removed since when it prints past commits) and the paths of its
//     REV:path operands, so that "git show HEAD:secrets/key" is
//     refused while a gitignored .env does not stop "git grep". A bare
//     "Bash" rule, like bypassPermissions, allows any command (deny and
//     ask rules still apply).
//   - Read and Edit: gitignore-style paths. "//abs/path" is absolute,
//     "~/path" is in the home folder, "/path" is relative to the folder of
//     the settings file's project (Rule.Root), "./path" or "path" is
//     relative to the working folder. Edit rules cover every editing tool
//     (Edit, MultiEdit, Write, NotebookEdit) and redirections of Bash;
//     Read rules cover every reading tool (Read, Grep, Glob, LS). Paths are
//     checked as given and with symlinks resolved; deny wins. A search
//     of a folder that is not denied runs, but the files and folders
//     Read deny rules cover inside it are left out
//     (Checker.ReadDenyFilter).
//   - WebFetch(domain:example.com), with "*.example.com" for subdomains.
//   - mcp__server, mcp__server__* and mcp__server__tool.
//   - Agent(type), also written with the older name Task.
//
// # Modes
//
// default asks for edits and commands that no rule allows; acceptEdits
// also allows edits and file-system commands inside the working folders;
// plan allows read-only tools only; auto allows what acceptEdits allows
// and marks the other asks Decision.Classify, for auto mode's classifier
// (package automode) to settle in the user's place, except asks from an
// ask rule or a safety check, which still go to the user
// (Bash allow rules that let any code run, Bash or Bash(python3:*), are
// set aside in auto mode; autoMode.classifyAllShell suspends every Bash
// allow rule and sends every command to it; disableAutoMode refuses the
// mode);
// bypassPermissions allows everything that no deny or ask rule stops
// (refused when policy disables it); dontAsk denies whatever would ask.
// "manual" is read as default wherever a mode is parsed.
//
// Whatever the mode, edits of .git/, .claude/, .reins/, .vscode/, .idea/
// and shell start-up files ask, and reads and edits outside the working
// folders ask.
//
// # Use
//
// Decide(policy, request) is pure and tested with tables. A Checker holds
// a session's mutable state (mode, rules added by "don't ask again"
// answers, persisted to .claude/settings.local.json and friends) and is
// what the engine's gate calls. It remembers the mode in force when plan
// mode was entered (PrePlanMode), which leaving plan mode returns to
// (LeavePlan), and tells CheckerConfig.OnMode of every change of mode,
// whoever asked for it. FilterTools hides tools denied outright from the
// model (DESIGN invariant 7).
//
// This package decides; it never asks the user or runs anything.
package permission
