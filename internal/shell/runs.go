package shell

// This file serves the permission system: commands that run other
// commands from their arguments, and per-command judgements.

// Run is a command line that a command runs from its own arguments, such
// as the `rm {}` of `find . -exec rm {} ;` or the `rm` of `xargs rm`.
type Run struct {
	// Via is the program that runs it: "xargs", "find", "sudo" …
	Via string
	// Args is the argv, each the static value or, for a non-static word,
	// its raw text. Args[0] has the system folders removed (/bin/rm is
	// rm). Empty when the runner starts an unknown or interactive command
	// (sudo -s, xargs with no command runs echo).
	Args []string
	// Static reports that every word of Args is static.
	Static bool
}

// Runs returns the command lines c runs from its arguments: xargs, find
// -exec/-execdir/-ok/-okdir, sudo, doas and watch. A permission rule must
// hold for each of them as well as for c itself.
func (c *Command) Runs() []Run {
	if len(c.ArgWords) == 0 {
		return nil
	}
	args := c.ArgWords[1:]
	switch c.Name() {
	case "xargs":
		i := skipOptions(args, 0, " -a -d -E -I -L -n -P -s --arg-file --delimiter --eof --replace --max-lines --max-args --max-procs --max-chars --process-slot-var ")
		if i >= len(args) {
			return []Run{{Via: "xargs", Args: []string{"echo"}, Static: true}}
		}
		return []Run{makeRun("xargs", args[i:])}
	case "find":
		var out []Run
		for i := 0; i < len(args); i++ {
			switch args[i].Value {
			case "-exec", "-execdir", "-ok", "-okdir":
				j := i + 1
				for j < len(args) && args[j].Value != ";" && args[j].Value != "+" {
					j++
				}
				out = append(out, makeRun("find", args[i+1:j]))
				i = j
			}
		}
		return out
	case "sudo":
		i := skipOptions(args, 0, " -u -g -C -D -h -p -r -t -U -T --user --group --close-from --chdir --host --prompt --role --type --other-user --command-timeout ")
		if i >= len(args) || hasOption(args[:i], "-s", "-i", "--shell", "--login", "-e", "--edit") {
			return []Run{{Via: "sudo"}}
		}
		return []Run{makeRun("sudo", args[i:])}
	case "doas":
		i := skipOptions(args, 0, " -u -C ")
		if i >= len(args) || hasOption(args[:i], "-s") {
			return []Run{{Via: "doas"}}
		}
		return []Run{makeRun("doas", args[i:])}
	case "watch":
		i := skipOptions(args, 0, " -n -d --interval --differences -q --equexit ")
		if i >= len(args) {
			return nil
		}
		return []Run{makeRun("watch", args[i:])}
	}
	return nil
}

func makeRun(via string, words []Word) Run {
	r := Run{Via: via, Static: true}
	for i, w := range words {
		v := wordArg(w)
		if i == 0 && w.Static {
			v = baseProgram(v)
		}
		r.Args = append(r.Args, v)
		r.Static = r.Static && w.Static
	}
	return r
}

// ReadOnly reports whether this one command is read-only by itself, with
// the same rules as Script.ReadOnly applied to one simple command (its
// redirections included), and the reason when it is not.
func (c *Command) ReadOnly() (bool, string) {
	for _, r := range c.Redirects {
		if r.Writes() {
			return false, "redirects output to " + r.Target.Raw
		}
	}
	return commandReadOnly(c)
}

// DangerousEnv reports whether setting the variable name for a command
// can make it run other code or write elsewhere (PATH, LD_PRELOAD,
// GIT_SSH_COMMAND, PAGER …).
func DangerousEnv(name string) bool { return dangerousEnv(name) }
