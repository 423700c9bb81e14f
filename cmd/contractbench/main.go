// Command contractbench measures whether an LLM agent driving a real browser
// completes web tasks, judged by outcome contracts on the browser's final
// state. See internal/cli for the subcommands.
package main

import (
	"os"

	"contractbench/internal/cli"
)

func main() {
	os.Exit(cli.Main(os.Args[1:], cli.OSState()))
}
