package main

import (
	"testing"
	"time"
)

// make test's exit status is go test's: testprogress returns its
// command's, whatever it printed.
func TestExitStatusIsTheCommands(t *testing.T) {
	for _, code := range []int{0, 1, 3} {
		script := `echo '{"Action":"start","Package":"m/p"}'; exit ` + string(rune('0'+code))
		if got := run([]string{"sh", "-c", script}, time.Minute); got != code {
			t.Errorf("a command that exits %d: testprogress returned %d", code, got)
		}
	}
	if got := run([]string{"sh", "-c", "kill -TERM $$"}, time.Minute); got != 128+15 {
		t.Errorf("a command killed by SIGTERM: testprogress returned %d, want %d", got, 128+15)
	}
}
