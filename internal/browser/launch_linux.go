package browser

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
	"unsafe"

	"contractbench/internal/cdpconn"
)

// Launch starts Chromium with a fresh profile and waits until its DevTools
// endpoint answers. ctx bounds the start only; the browser lives until Close
// (or until this process dies: Chromium gets SIGKILL then).
//
// Chromium picks a free port itself (--remote-debugging-port=0) and writes
// it to DevToolsActivePort in the profile, so parallel launches never race
// for a port.
func Launch(ctx context.Context, opts Options) (*Browser, error) {
	execPath, err := findExecPath(opts.ExecPath, opts.Headful, DefaultExecPaths)
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(ctx, startupTimeout)
	defer cancel()

	// Leftovers of killed launches are not this launch's business to
	// report; a failure to remove one does not stop this launch.
	_ = sweepStale(opts.TempDir)
	dir, lock, err := makeLaunchDir(opts.TempDir)
	if err != nil {
		return nil, err
	}
	p, err := startProcess(execPath, opts, dir, lock)
	if err != nil {
		err = errors.Join(err, os.RemoveAll(dir))
		lock.Close()
		return nil, err
	}
	b := &Browser{done: make(chan struct{}), proc: p, stop: p.stop, shell: isHeadlessShell(execPath)}
	go func() {
		<-p.exited
		var reason error
		if !b.closing.Load() {
			reason = &crashError{ExecPath: execPath, Err: p.waitErr, Stderr: p.stderrTail()}
		}
		b.end(reason)
	}()

	port, path, err := p.awaitActivePort(ctx)
	if err == nil {
		b.httpURL = "http://127.0.0.1:" + strconv.Itoa(port)
		b.wsURL, err = awaitEndpoint(ctx, b.httpURL, path)
	}
	if err != nil {
		if cerr := b.Close(); cerr != nil {
			err = errors.Join(err, cerr)
		}
		return nil, fmt.Errorf("launching %s: %w", execPath, err)
	}
	return b, nil
}

// singletonSocket is the longest name Chromium puts under TMPDIR: a Unix
// socket, whose whole path must fit in sun_path (108 bytes with the NUL).
const (
	singletonSocket = "/org.chromium.Chromium.XXXXXX/SingletonSocket"
	maxSocketPath   = 107
)

// makeLaunchDir creates and locks the per-launch directory, with the
// subdirectories that stand in for the profile, TMPDIR and HOME.
func makeLaunchDir(parent string) (dir string, lock *os.File, err error) {
	dir, err = os.MkdirTemp(parent, launchDirPrefix)
	if err != nil {
		return "", nil, fmt.Errorf("creating browser directory: %w", err)
	}
	fail := func(err error) (string, *os.File, error) {
		if lock != nil {
			lock.Close()
		}
		return "", nil, errors.Join(err, os.RemoveAll(dir))
	}
	if lock, err = lockLaunchDir(dir); err != nil {
		return fail(err)
	}
	// Chromium aborts at start when its socket path is too long; say why
	// here instead of showing its crash.
	if n := len(filepath.Join(dir, "tmp") + singletonSocket); n > maxSocketPath {
		return fail(fmt.Errorf("browser directory %s is too deep: Chromium's socket path under it would be %d bytes, over the %d a Unix socket allows; use a shorter temporary directory", dir, n, maxSocketPath))
	}
	for _, sub := range []string{"profile", "tmp", "home/.cache", "home/.config"} {
		if err := os.MkdirAll(filepath.Join(dir, sub), 0o700); err != nil {
			return fail(fmt.Errorf("creating browser directory: %w", err))
		}
	}
	return dir, lock, nil
}

// process is one launched Chromium and everything it started.
type process struct {
	cmd  *exec.Cmd
	dir  string
	lock *os.File // held while dir is in use; see sweepStale

	// reapMu orders Wait, which frees the process-group id for reuse,
	// against killing that group: a group is only signalled while its
	// leader is known not to have been reaped.
	reapMu sync.Mutex
	reaped bool

	exited  chan struct{} // closed after Wait returned
	waitErr error

	tail       *tailBuffer
	outputDone chan struct{} // closed when every writer of the output pipe is gone
}

func startProcess(execPath string, opts Options, dir string, lock *os.File) (*process, error) {
	r, w, err := os.Pipe()
	if err != nil {
		return nil, fmt.Errorf("creating output pipe: %w", err)
	}
	home := filepath.Join(dir, "home")
	cmd := exec.Command(execPath, commandLine(opts, isHeadlessShell(execPath), filepath.Join(dir, "profile"))...)
	// Later entries win, so these override the inherited ones: whatever
	// Chromium and its helpers write outside the profile lands in dir.
	env := opts.Env
	if env == nil {
		env = []string{"PATH=/usr/local/bin:/usr/bin:/bin"}
	}
	cmd.Env = append(slices.Clone(env),
		"TMPDIR="+filepath.Join(dir, "tmp"),
		"HOME="+home,
		"XDG_CACHE_HOME="+filepath.Join(home, ".cache"),
		"XDG_CONFIG_HOME="+filepath.Join(home, ".config"),
	)
	// The pipe is an *os.File, so exec hands it over directly and Wait
	// does not wait for Chromium's helpers to close it.
	cmd.Stdout, cmd.Stderr = w, w
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	if err := cmd.Start(); err != nil {
		r.Close()
		w.Close()
		return nil, fmt.Errorf("starting %s: %w", execPath, err)
	}
	w.Close()

	p := &process{
		cmd:        cmd,
		dir:        dir,
		lock:       lock,
		exited:     make(chan struct{}),
		tail:       newTailBuffer(stderrTailBytes),
		outputDone: make(chan struct{}),
	}
	go func() {
		defer close(p.outputDone)
		defer r.Close()
		var sink io.Writer = p.tail
		if opts.Stderr != nil {
			sink = io.MultiWriter(p.tail, opts.Stderr)
		}
		_, _ = io.Copy(sink, r)
	}()
	go func() {
		waitExited(cmd.Process.Pid)
		p.reapMu.Lock()
		p.waitErr = cmd.Wait()
		p.reaped = true
		p.reapMu.Unlock()
		close(p.exited)
	}()
	return p, nil
}

// stderrTail returns the last output of a process that has exited. Its
// helpers may still hold the pipe for a moment, so it waits a little for the
// rest of the output, but not for a helper that never lets go.
func (p *process) stderrTail() string {
	select {
	case <-p.outputDone:
	case <-time.After(time.Second):
	}
	return p.tail.String()
}

// stop kills everything the launch started, waits for it, and removes the
// launch directory.
func (p *process) stop() error {
	p.reapMu.Lock()
	if !p.reaped {
		// The leader is alive or a zombie, so the group id is still ours.
		_ = syscall.Kill(-p.cmd.Process.Pid, syscall.SIGKILL)
	}
	p.reapMu.Unlock()
	<-p.exited
	// The crash handler runs in a session of its own, and a helper can
	// outlive a leader that crashed; each names the launch directory on
	// its command line, which identifies it without doubt.
	killNaming(p.dir)
	waitGone(p.dir, 5*time.Second)
	err := removeAll(p.dir)
	p.lock.Close()
	if err != nil {
		return fmt.Errorf("removing browser directory: %w", err)
	}
	return nil
}

// awaitActivePort waits for Chromium to write DevToolsActivePort: the port
// on its first line, the browser target's path on its second.
func (p *process) awaitActivePort(ctx context.Context) (int, string, error) {
	file := filepath.Join(p.dir, "profile", "DevToolsActivePort")
	tick := time.NewTicker(10 * time.Millisecond)
	defer tick.Stop()
	for {
		if data, err := os.ReadFile(file); err == nil {
			lines := strings.Split(strings.TrimSpace(string(data)), "\n")
			if len(lines) == 2 && strings.HasPrefix(lines[1], "/devtools/browser/") {
				if port, err := strconv.Atoi(strings.TrimSpace(lines[0])); err == nil && port > 0 {
					return port, strings.TrimSpace(lines[1]), nil
				}
			}
		}
		select {
		case <-ctx.Done():
			return 0, "", fmt.Errorf("waiting for DevToolsActivePort: %w; last output:\n%s", ctx.Err(), p.tail.String())
		case <-p.exited:
			return 0, "", fmt.Errorf("chromium exited before its DevTools endpoint was ready (%v); last output:\n%s", p.waitErr, p.stderrTail())
		case <-tick.C:
		}
	}
}

// awaitEndpoint polls /json/version until it answers for the browser target
// at path, and returns that target's WebSocket URL.
func awaitEndpoint(ctx context.Context, httpURL, path string) (string, error) {
	tick := time.NewTicker(10 * time.Millisecond)
	defer tick.Stop()
	for {
		v, err := cdpconn.FetchVersion(ctx, httpURL)
		if err == nil {
			if !strings.HasSuffix(v.WebSocketDebuggerURL, path) {
				return "", fmt.Errorf("devtools endpoint %s serves %s, not the browser at %s", httpURL, v.WebSocketDebuggerURL, path)
			}
			return v.WebSocketDebuggerURL, nil
		}
		select {
		case <-ctx.Done():
			return "", fmt.Errorf("waiting for %s: %w", httpURL, errors.Join(ctx.Err(), err))
		case <-tick.C:
		}
	}
}

// waitExited blocks until the process has exited, without reaping it
// (waitid with WNOWAIT), so the caller can decide under a lock when the
// process-group id is given up.
func waitExited(pid int) {
	const pPID = 1     // P_PID in <sys/wait.h>
	var info [128]byte // siginfo_t
	for {
		_, _, errno := syscall.Syscall6(syscall.SYS_WAITID, pPID, uintptr(pid),
			uintptr(unsafe.Pointer(&info)), syscall.WEXITED|syscall.WNOWAIT, 0, 0)
		if errno != syscall.EINTR {
			return
		}
	}
}

// killNaming sends SIGKILL to every process whose command line contains dir.
func killNaming(dir string) {
	for _, pid := range pidsNaming(dir) {
		_ = syscall.Kill(pid, syscall.SIGKILL)
	}
}

// waitGone waits until no process names dir on its command line, or the
// timeout passes. A zombie has an empty command line, so one that nobody
// reaps does not hold this up.
func waitGone(dir string, timeout time.Duration) {
	deadline := time.Now().Add(timeout)
	for len(pidsNaming(dir)) > 0 && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
}

// pidsNaming lists the processes whose command line contains a path inside
// dir. (The trailing separator keeps dir-123 from matching dir-1234.)
func pidsNaming(dir string) []int {
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return nil
	}
	needle := []byte(dir + string(filepath.Separator))
	var pids []int
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || pid == os.Getpid() {
			continue
		}
		cmdline, err := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		if err == nil && bytes.Contains(cmdline, needle) {
			pids = append(pids, pid)
		}
	}
	return pids
}

// removeAll removes dir, retrying briefly: a helper that was just killed can
// still be closing files in it.
func removeAll(dir string) error {
	var err error
	for range 20 {
		if err = os.RemoveAll(dir); err == nil {
			return nil
		}
		time.Sleep(25 * time.Millisecond)
	}
	return err
}
