package generator_test

import (
	"os/exec"
	"syscall"
)

// maxRSS is the peak resident memory, in bytes, of a finished command and
// the processes it waited for (the compiler, for go build).
func maxRSS(cmd *exec.Cmd) (int64, bool) {
	ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage)
	if !ok {
		return 0, false
	}
	return ru.Maxrss * 1024, true
}
