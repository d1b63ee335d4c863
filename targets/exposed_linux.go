package targets

import (
	"bufio"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/netip"
	"os"
	"slices"
	"strconv"
	"strings"
)

// maxFDs bounds the open files read of one process: a process that has
// more cannot be checked, which is said rather than passed over.
const maxFDs = 1 << 16

// The socket tables of a network namespace, under /proc/<pid>/net, and the
// protocol each is reported as.
var socketTables = []struct{ file, proto string }{
	{"tcp", "tcp"}, {"tcp6", "tcp"}, {"udp", "udp"}, {"udp6", "udp"},
}

// Socket states in the tables (include/net/tcp_states.h).
const (
	stateListen = "0A" // TCP_LISTEN
	stateClose  = "07" // TCP_CLOSE: for UDP, a socket that is not connected
)

// listener is one socket of a table that accepts from anyone who can
// reach its address.
type listener struct {
	proto string
	addr  netip.AddrPort
	inode uint64
}

// ownedListener is a listener and the process that holds it, described.
type ownedListener struct {
	listener
	owner string
}

// String returns "tcp 0.0.0.0:8080 (pid 42: ./adapter)".
func (l ownedListener) String() string {
	return fmt.Sprintf("%s %s (%s)", l.proto, l.addr, l.owner)
}

// exposed returns the non-loopback listeners of the instance's running
// processes, each with the process that holds it.
func (t *procTree) exposed() ([]string, error) {
	ls, err := t.sockets()
	var out []string
	for _, l := range ls {
		if !l.addr.Addr().Unmap().IsLoopback() {
			out = append(out, l.String())
		}
	}
	slices.Sort(out)
	return slices.Compact(out), err
}

// listening returns the TCP sockets the instance's running processes
// listen on, whatever their address, each with the process that holds it.
func (t *procTree) listening() ([]listenAt, error) {
	ls, err := t.sockets()
	var out []listenAt
	for _, l := range ls {
		if l.proto == "tcp" {
			out = append(out, listenAt{addr: l.addr, owner: l.owner})
		}
	}
	return out, err
}

// sockets returns the listeners of the instance's running processes, each
// with the process that holds it (the lowest pid, when several do), in
// the order of their addresses.
func (t *procTree) sockets() ([]ownedListener, error) {
	table, err := scanProcs()
	if err != nil {
		return nil, err
	}
	members := t.members(table)
	t.learn(members)
	owners := map[uint64]int{} // socket inode -> the lowest pid holding it
	nets := map[string]int{}   // network namespace -> a pid in it
	var errs []error
	for pid, p := range members {
		if p.dead() {
			continue
		}
		inodes, err := socketInodes(pid)
		if err != nil {
			if !errors.Is(err, fs.ErrNotExist) { // not one that just ended
				errs = append(errs, err)
			}
			continue
		}
		if len(inodes) == 0 {
			continue // no socket: its namespace's tables (tens of thousands of lines on a busy host) need not be read for it
		}
		for _, ino := range inodes {
			if cur, ok := owners[ino]; !ok || pid < cur {
				owners[ino] = pid
			}
		}
		ns, err := os.Readlink(procPath(pid, "ns/net"))
		if err != nil {
			ns = "pid " + strconv.Itoa(pid)
		}
		if cur, ok := nets[ns]; !ok || pid < cur {
			nets[ns] = pid
		}
	}
	var out []ownedListener
	for _, pid := range nets {
		ls, err := listeners(pid)
		errs = append(errs, err)
		for _, l := range ls {
			if owner, ok := owners[l.inode]; ok {
				out = append(out, ownedListener{listener: l, owner: t.description(members[owner].procKey)})
			}
		}
	}
	slices.SortFunc(out, func(a, b ownedListener) int {
		if c := strings.Compare(a.proto, b.proto); c != 0 {
			return c
		}
		return a.addr.Compare(b.addr)
	})
	return out, errors.Join(errs...)
}

// socketInodes returns the inodes of the sockets among the open files of
// pid.
func socketInodes(pid int) ([]uint64, error) {
	dir, err := os.Open(procPath(pid, "fd"))
	if err != nil {
		return nil, fmt.Errorf("open files of process %d: %w", pid, err)
	}
	defer dir.Close()
	names, err := dir.Readdirnames(maxFDs + 1)
	if err != nil && !errors.Is(err, io.EOF) {
		return nil, fmt.Errorf("open files of process %d: %w", pid, err)
	}
	if len(names) > maxFDs {
		return nil, fmt.Errorf("open files of process %d: more than %d", pid, maxFDs)
	}
	var inodes []uint64
	for _, name := range names {
		link, err := os.Readlink(procPath(pid, "fd/"+name))
		if err != nil {
			continue // closed meanwhile
		}
		if s, ok := strings.CutPrefix(link, "socket:["); ok {
			if ino, err := strconv.ParseUint(strings.TrimSuffix(s, "]"), 10, 64); err == nil {
				inodes = append(inodes, ino)
			}
		}
	}
	return inodes, nil
}

// listeners reads the socket tables of the network namespace of pid and
// returns the TCP sockets in LISTEN state and the UDP sockets bound to a
// port and not connected.
func listeners(pid int) ([]listener, error) {
	var out []listener
	for _, st := range socketTables {
		f, err := os.Open(procPath(pid, "net/"+st.file))
		if errors.Is(err, fs.ErrNotExist) {
			continue // no IPv6 on this host
		}
		if err != nil {
			return out, fmt.Errorf("socket table: %w", err)
		}
		ls, err := parseSocketTable(bufio.NewScanner(f), st.proto)
		f.Close()
		if err != nil {
			return out, fmt.Errorf("socket table %s: %w", f.Name(), err)
		}
		out = append(out, ls...)
	}
	return out, nil
}

// parseSocketTable reads a table such as /proc/net/tcp: a heading, then per
// socket "sl local rem st tx:rx tr:when retrnsmt uid timeout inode ...".
func parseSocketTable(sc *bufio.Scanner, proto string) ([]listener, error) {
	var out []listener
	sc.Buffer(make([]byte, 0, 4096), 64<<10)
	for first := true; sc.Scan(); first = false {
		if st := nthField(sc.Bytes(), 3); !first && st != stateListen && (proto != "udp" || st != stateClose) {
			continue // most lines of a busy host are connections: skipped unparsed
		}
		f := strings.Fields(sc.Text())
		if first || len(f) < 10 {
			continue
		}
		local, err := parseSocketAddr(f[1])
		if err != nil {
			return out, err
		}
		remote, err := parseSocketAddr(f[2])
		if err != nil {
			return out, err
		}
		open := f[3] == stateListen
		if proto == "udp" {
			open = f[3] == stateClose && remote.Port() == 0 && local.Port() != 0
		}
		if !open {
			continue
		}
		inode, err := strconv.ParseUint(f[9], 10, 64)
		if err != nil {
			return out, fmt.Errorf("inode %q: %w", f[9], err)
		}
		out = append(out, listener{proto: proto, addr: local, inode: inode})
	}
	return out, sc.Err()
}

// nthField returns field n (from 0) of line, fields being separated by
// spaces and tabs, or "" when it has fewer.
func nthField(line []byte, n int) string {
	i := 0
	for k := 0; ; k++ {
		for i < len(line) && (line[i] == ' ' || line[i] == '\t') {
			i++
		}
		j := i
		for j < len(line) && line[j] != ' ' && line[j] != '\t' {
			j++
		}
		if i == j {
			return ""
		}
		if k == n {
			return string(line[i:j])
		}
		i = j
	}
}

// parseSocketAddr parses an address of a socket table, "0100007F:1F90":
// the address as the kernel's 32-bit words in this machine's byte order,
// in hex, then the port in hex.
func parseSocketAddr(s string) (netip.AddrPort, error) {
	host, port, ok := strings.Cut(s, ":")
	raw, err := hex.DecodeString(host)
	if !ok || err != nil || (len(raw) != 4 && len(raw) != 16) {
		return netip.AddrPort{}, fmt.Errorf("socket address %q", s)
	}
	p, err := strconv.ParseUint(port, 16, 16)
	if err != nil {
		return netip.AddrPort{}, fmt.Errorf("socket address %q: %w", s, err)
	}
	ip := make([]byte, len(raw))
	for i := 0; i < len(raw); i += 4 {
		binary.NativeEndian.PutUint32(ip[i:], binary.BigEndian.Uint32(raw[i:]))
	}
	addr, _ := netip.AddrFromSlice(ip)
	return netip.AddrPortFrom(addr, uint16(p)), nil
}
