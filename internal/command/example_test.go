package command_test

import (
	"context"
	"fmt"

	"reins/internal/command"
)

// A front end registers its builtins, then the loaded custom commands, and
// dispatches each line the user types.
func Example() {
	reg := command.NewRegistry(
		&command.Command{Name: "clear", Kind: command.Local, Source: command.SourceBuiltin,
			Run: func(context.Context, string) (string, error) { return "(conversation cleared)", nil }},
		&command.Command{Name: "permissions", Kind: command.UI, Source: command.SourceBuiltin},
	)
	custom, _ := command.Load(command.StandardRoots("", "", "testdata/project"))
	reg.Add(custom...)

	exp := &command.Expander{Dir: "testdata/project"} // no Runner: !`cmd` lines become notes
	for _, line := range []string{"/greet Ada", "/clear", "/permissions", "/nope", "/usr/bin/env x"} {
		out, err := reg.Dispatch(context.Background(), line, command.DispatchOptions{Mode: command.Print, Expander: exp})
		if err != nil {
			panic(err)
		}
		switch out.Action {
		case command.Query:
			fmt.Printf("%s -> model: %q\n", line, out.Expansion.Prompt)
		case command.Show:
			fmt.Printf("%s -> show: %q (error %v)\n", line, out.Text, out.IsError)
		case command.NotCommand:
			fmt.Printf("%s -> plain prompt\n", line)
		}
	}
	// Output:
	// /greet Ada -> model: "Say hello to Ada from reins."
	// /clear -> show: "(conversation cleared)" (error false)
	// /permissions -> show: "/permissions isn't available in this mode" (error true)
	// /nope -> show: "Unknown command: /nope" (error true)
	// /usr/bin/env x -> plain prompt
}
