//go:build unix

package harness_test

import (
	"context"
	"net"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/toolcert/toolcert/internal/harness"
)

// TestAuditEventRefusesSpecialFiles: a named pipe (opening it for reading
// would wait for a writer forever), a device that never ends, a socket,
// or a link to one of them, fails at once with what it is.
func TestAuditEventRefusesSpecialFiles(t *testing.T) {
	dir, err := os.MkdirTemp("", "audit") // short: a socket's path is bounded
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	fifo := filepath.Join(dir, "fifo.jsonl")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	sock := filepath.Join(dir, "s.jsonl")
	ln, err := net.Listen("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	links := map[string]string{"zero.jsonl": "/dev/zero", "tofifo.jsonl": fifo}
	for name, to := range links {
		if err := os.Symlink(to, filepath.Join(dir, name)); err != nil {
			t.Fatal(err)
		}
	}
	tests := []struct{ name, path, want string }{
		{"a named pipe", fifo, "is a named pipe, not a regular file: not read"},
		{"a socket", sock, "is a socket, not a regular file: not read"},
		{"a device", "/dev/zero", "is a character device, not a regular file: not read"},
		{"a link to a device", filepath.Join(dir, "zero.jsonl"), "is a symbolic link to a character device, not a regular file: not read"},
		{"a link to a named pipe", filepath.Join(dir, "tofifo.jsonl"), "is a symbolic link to a named pipe, not a regular file: not read"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			start := time.Now()
			lane := &harness.Lane{AuditFile: tt.path}
			_, err := lane.AuditEvent(context.Background(), &harness.Call{Started: time.Now(), AuditFrom: harness.AuditSize(tt.path)}, "req.1")
			checkAuditErr(t, tt.path, err, tt.want)
			_, err = harness.AuditEvents(tt.path, 0, "req.1")
			checkAuditErr(t, tt.path, err, tt.want)
			if d := time.Since(start); d > time.Second {
				t.Errorf("refusing it took %v", d)
			}
		})
	}
}
