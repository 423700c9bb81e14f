package browser

import "sync"

// tailBuffer keeps the last max bytes written to it. Chromium can log a lot
// over a long task; a crash report needs only the end.
type tailBuffer struct {
	mu      sync.Mutex
	max     int
	buf     []byte
	dropped bool // whether anything was cut from the front
}

func newTailBuffer(max int) *tailBuffer {
	return &tailBuffer{max: max}
}

func (t *tailBuffer) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, p...)
	if over := len(t.buf) - t.max; over > 0 {
		// Copy down rather than reslice, so the backing array stays
		// bounded instead of growing with everything ever written.
		t.buf = append(t.buf[:0], t.buf[over:]...)
		t.dropped = true
	}
	return len(p), nil
}

// String returns the kept bytes, starting at a line boundary when the start
// was cut off.
func (t *tailBuffer) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	s := t.buf
	if t.dropped {
		for i, c := range s {
			if c == '\n' {
				s = s[i+1:]
				break
			}
		}
	}
	return string(s)
}
