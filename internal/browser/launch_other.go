//go:build !linux

package browser

import (
	"context"
	"errors"
	"fmt"
)

// Launch is only implemented on Linux, where the process-group and /proc
// handling that keeps a launch contained is available. Attach works
// everywhere.
func Launch(ctx context.Context, opts Options) (*Browser, error) {
	return nil, fmt.Errorf("launching chromium: %w on this system; start it yourself and attach with its DevTools URL", errors.ErrUnsupported)
}

// process is the launched Chromium; Launch never makes one here.
type process struct{}
