package targets

import (
	"bufio"
	"context"
	"encoding/binary"
	"fmt"
	"net"
	"net/http"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func TestParseStat(t *testing.T) {
	tests := []struct {
		name string
		line string
		want procInfo
	}{
		{
			"a plain name",
			"4242 (fakeadapter) S 4200 4242 4100 0 -1 4194560 100 0 0 0 1 2 0 0 20 0 5 0 869699 123 4 18446744073709551615",
			procInfo{procKey: procKey{4242, 869699}, ppid: 4200, pgid: 4242, state: 'S'},
		},
		{
			"a name with spaces and parentheses, which ends at the last one",
			"17 (a) b (c)) Z 1 17 17 0 -1 0 0 0 0 0 0 0 0 0 20 0 1 0 55 0 0",
			procInfo{procKey: procKey{17, 55}, ppid: 1, pgid: 17, state: 'Z'},
		},
	}
	for _, tt := range tests {
		got, err := parseStat([]byte(tt.line))
		if err != nil {
			t.Errorf("%s: %v", tt.name, err)
			continue
		}
		if diff := cmp.Diff(tt.want, got, cmp.AllowUnexported(procInfo{}, procKey{})); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tt.name, diff)
		}
	}
	for _, bad := range []string{"", "12 no name", "12 (x) S 1 2"} {
		if _, err := parseStat([]byte(bad)); err == nil {
			t.Errorf("parseStat(%q): no error", bad)
		}
	}
}

func TestParseSocketTable(t *testing.T) {
	// Lines as a little- or big-endian kernel prints them: each 32-bit word
	// of the address in the machine's byte order.
	word := func(a, b, c, d byte) string {
		if isLittleEndian() {
			a, b, c, d = d, c, b, a
		}
		return fmt.Sprintf("%02X%02X%02X%02X", a, b, c, d)
	}
	v4 := func(a, b, c, d byte, port uint16) string { return fmt.Sprintf("%s:%04X", word(a, b, c, d), port) }
	any6 := "00000000000000000000000000000000"
	loop6 := "000000000000000000000000" + word(0, 0, 0, 1)
	mapped := "0000000000000000" + word(0, 0, 0xff, 0xff) + word(127, 0, 0, 1)
	row := func(local, remote, state string, inode int) string {
		return fmt.Sprintf("   0: %s %s %s 00000000:00000000 00:00000000 00000000  1000        0 %d 1 0000000000000000 100 0 0 10 0", local, remote, state, inode)
	}
	tests := []struct {
		name  string
		proto string
		rows  []string
		want  []string
	}{
		{"a TCP listener on every IPv4 interface", "tcp", []string{row(v4(0, 0, 0, 0, 8080), v4(0, 0, 0, 0, 0), "0A", 11)}, []string{"tcp 0.0.0.0:8080 #11"}},
		{"a TCP listener on loopback is read as loopback", "tcp", []string{row(v4(127, 0, 0, 1, 443), v4(0, 0, 0, 0, 0), "0A", 12)}, []string{"tcp 127.0.0.1:443 #12"}},
		{"an established TCP connection is no listener", "tcp", []string{row(v4(10, 1, 2, 3, 5000), v4(10, 9, 9, 9, 443), "01", 13)}, nil},
		{"a TCP listener on every IPv6 interface", "tcp", []string{row(any6+":1F90", any6+":0000", "0A", 14)}, []string{"tcp [::]:8080 #14"}},
		{"IPv6 loopback and v4-mapped loopback", "tcp", []string{row(loop6+":0050", any6+":0000", "0A", 15), row(mapped+":0051", any6+":0000", "0A", 16)}, []string{"tcp [::1]:80 #15", "tcp [::ffff:127.0.0.1]:81 #16"}},
		{"an unconnected bound UDP socket listens", "udp", []string{row(v4(0, 0, 0, 0, 53), v4(0, 0, 0, 0, 0), "07", 17)}, []string{"udp 0.0.0.0:53 #17"}},
		{"a connected UDP socket does not", "udp", []string{row(v4(0, 0, 0, 0, 40000), v4(8, 8, 8, 8, 53), "01", 18)}, nil},
		{"an unbound UDP socket does not", "udp", []string{row(v4(0, 0, 0, 0, 0), v4(0, 0, 0, 0, 0), "07", 19)}, nil},
	}
	heading := "  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode"
	for _, tt := range tests {
		text := heading + "\n" + strings.Join(tt.rows, "\n") + "\n"
		ls, err := parseSocketTable(bufio.NewScanner(strings.NewReader(text)), tt.proto)
		if err != nil {
			t.Errorf("%s: %v", tt.name, err)
			continue
		}
		var got []string
		for _, l := range ls {
			got = append(got, fmt.Sprintf("%s %s #%d", l.proto, l.addr, l.inode))
		}
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tt.name, diff)
		}
	}
}

// isLittleEndian reports the byte order of this machine.
func isLittleEndian() bool { return binary.NativeEndian.Uint16([]byte{1, 0}) == 1 }

// TestSocketTableOfThisProcess checks the reading of /proc against the
// kernel: a listener the test opens is found with its address and inode.
func TestSocketTableOfThisProcess(t *testing.T) {
	l, err := net.Listen("tcp", "0.0.0.0:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	port := l.Addr().(*net.TCPAddr).Port
	inodes, err := socketInodes(os.Getpid())
	if err != nil {
		t.Fatal(err)
	}
	ls, err := listeners(os.Getpid())
	if err != nil {
		t.Fatal(err)
	}
	for _, got := range ls {
		// Go listens on 0.0.0.0 with one socket for IPv4 and IPv6 (::)
		// where it can.
		if got.proto == "tcp" && got.addr.Port() == uint16(port) && got.addr.Addr().IsUnspecified() {
			for _, ino := range inodes {
				if ino == got.inode {
					return
				}
			}
			t.Fatalf("listener %v found, but its inode is not among the test's open sockets %v", got, inodes)
		}
	}
	t.Fatalf("the test's listener on 0.0.0.0:%d is not in %v", port, ls)
}

// waitGone waits up to d for k to end, reaping it when it is the test's
// child, and reports whether it did.
func waitGone(k procKey, d time.Duration) bool {
	deadline := time.Now().Add(d)
	for {
		p, err := readStat(k.pid)
		if err != nil || p.start != k.start {
			return true
		}
		if p.dead() {
			if p.ppid == os.Getpid() {
				reap(k.pid)
			}
			return true
		}
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// watchProcess returns the key of pid, which must be running, and makes
// sure it is gone at the end of the test.
func watchProcess(tb testing.TB, pid int) procKey {
	tb.Helper()
	p, err := readStat(pid)
	if err != nil || p.dead() {
		tb.Fatalf("process %d is not running: %v", pid, err)
	}
	tb.Cleanup(func() {
		kill(p.procKey)
		if !waitGone(p.procKey, 5*time.Second) {
			tb.Errorf("process %d still running at the end of the test", pid)
		}
	})
	return p.procKey
}

// spawnedPid asks the fake adapter at base for the pid of the process it
// spawned.
func spawnedPid(tb testing.TB, base string) int {
	tb.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, base+"/spawned", nil)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		tb.Fatalf("GET /spawned: %v", err)
	}
	defer resp.Body.Close()
	var pid int
	if _, err := fmt.Fscan(resp.Body, &pid); err != nil || pid <= 0 {
		tb.Fatalf("GET /spawned: %d, %v", pid, err)
	}
	return pid
}
