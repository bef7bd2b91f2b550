package shell_test

import (
	"fmt"

	"reins/internal/shell"
)

func ExampleParse() {
	s, err := shell.Parse(`cd src && FOO=1 timeout 30 go test ./... 2>&1 | tail -5`)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, c := range s.Commands {
		fmt.Printf("%s %q wrappers=%v subshell=%v\n", c.Program, c.Args[1:], c.Wrappers, c.Subshell)
	}
	ro, why := s.ReadOnly()
	fmt.Println("read-only:", ro, "-", why)
	fmt.Println("changes state:", s.ChangesState())
	// Output:
	// cd ["src"] wrappers=[] subshell=false
	// go ["test" "./..."] wrappers=[timeout] subshell=true
	// tail ["-5"] wrappers=[] subshell=true
	// read-only: false - cd changes the shell's state
	// changes state: true
}

func ExampleIsReadOnly() {
	for _, cmd := range []string{
		"git status && git diff --stat",
		"find . -name '*.tmp' -delete",
		"grep -rn TODO . > todos.txt",
	} {
		fmt.Println(shell.IsReadOnly(cmd), cmd)
	}
	// Output:
	// true git status && git diff --stat
	// false find . -name '*.tmp' -delete
	// false grep -rn TODO . > todos.txt
}
