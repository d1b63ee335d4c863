package targets

import (
	"fmt"
	"net"
	"net/netip"
	"strings"

	"github.com/toolcert/toolcert/protocol"
)

// What the error of an instance that started but never became ready says
// beyond the probes: where its processes listen instead of the address it
// was given, the line of its output that says why, and its output.

// listenAt is a TCP socket a process of an instance listens on.
type listenAt struct {
	addr  netip.AddrPort
	owner string // the process that holds it, "pid 42: ./adapter"
}

// maxListed bounds the sockets an error names.
const maxListed = 5

// listenNote says where the processes of tree listen when none listens at
// the port of want, the address the instance was given in variable name:
// "; it listens on 127.0.0.1:45678 (pid 42: ./adapter), not on
// 127.0.0.1:4242 (TOOLCERT_LISTEN)", or "; it listens on no TCP port". It
// is "" when one listens at that port (the health check failed for
// another reason), or when where they listen cannot be told (tree is nil,
// or the system cannot list sockets).
func listenNote(tree *procTree, want, name string) string {
	if tree == nil || want == "" {
		return ""
	}
	ls, err := tree.listening()
	if err != nil && len(ls) == 0 {
		return ""
	}
	_, port, _ := net.SplitHostPort(want)
	var at []string
	for _, l := range ls {
		if fmt.Sprint(l.addr.Port()) == port {
			return ""
		}
		at = append(at, fmt.Sprintf("%s (%s)", l.addr, l.owner))
	}
	given := want
	if name != "" {
		given += " (" + name + ")"
	}
	if len(at) == 0 {
		return "; it listens on no TCP port, not on " + given
	}
	if len(at) > maxListed {
		at = append(at[:maxListed], fmt.Sprintf("%d more", len(at)-maxListed))
	}
	return "; it listens on " + strings.Join(at, ", ") + ", not on " + given
}

// listenVar is the name of the variable that gives an adapter its listen
// address, after rename; "" when rename leaves it out.
func listenVar(rename map[string]string) string {
	if to, ok := rename[protocol.VarListen]; ok {
		return to
	}
	return protocol.VarListen
}

// notReady completes err, the error of an instance that started but never
// became ready (wrapping ErrNotReady), with note (listenNote), the line
// of the instance's output that says why, and its output, on the lines
// after.
func notReady(err error, note string, logs *tailBuffer) error {
	return fmt.Errorf("%w%s%s\n%s", err, note, outputCause(logs.first()+"\n"+logs.String()), logs.describe())
}
