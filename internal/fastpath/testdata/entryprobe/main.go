// Command entryprobe is a minimal program linked with fastpath's entry
// point, for the entry's tests on every architecture that has one.
package main

import (
	"fmt"

	_ "reins/internal/fastpath"
)

func main() { fmt.Println("runtime started") }
