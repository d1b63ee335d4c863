package targets

import (
	"context"
	"strings"
)

// ExposureChecker is an Instance whose processes run on this host, started
// by the harness: the instances of Process (and an HTTPService over one),
// MCPStdio, MCPHTTP started per lane (NewMCPHTTPProcess) and Container.
// Use a type assertion to reach it.
type ExposureChecker interface {
	// Exposed returns every address that a process of the instance
	// listens on and that is not loopback, reachable from the network
	// while the adapter is certified: a TCP socket in LISTEN state or an
	// unconnected bound UDP socket, on 0.0.0.0, :: or any other address
	// outside 127.0.0.0/8 and ::1. Each is written as
	// "tcp 0.0.0.0:8080 (pid 4242: my-adapter --flag)" as the kernel
	// holds it (a socket for IPv4 and IPv6 at once, as Go opens for
	// "0.0.0.0:8080", is "tcp [::]:8080"), and the list is sorted; nil
	// means none. The processes of the instance are those Stop would end
	// (see LeftoverReporter; for a container, its first process and that
	// one's descendants), matched to the sockets by the inodes of their
	// open files in /proc. Listeners opened later are not seen: call it
	// right after Start.
	//
	// Where it cannot be checked the error wraps errors.ErrUnsupported
	// (every system but Linux, or a container whose processes are not on
	// this host, as under Docker Desktop or a remote engine); after Stop it
	// wraps ErrStopped. Addresses it found are returned with an error that
	// says what it could not read.
	Exposed(ctx context.Context) ([]string, error)
}

// LeftoverReporter is an Instance whose Stop looks for the processes the
// adapter left behind: the instances of Process, MCPStdio and MCPHTTP
// started per lane. Use a type assertion to reach it.
//
// On Linux the harness makes itself a child subreaper
// (PR_SET_CHILD_SUBREAPER) when it starts its first process, so that a
// process orphaned by its parent's exit (a double fork) is adopted by the
// harness instead of init. Stop first ends the adapter's process group
// (SIGTERM, the grace, SIGKILL), then kills every process of the instance
// still running: its descendants by their parent chain, the processes the
// harness adopted that still carry the lane's environment (its listen
// address, mock upstream and audit file, as the adapter was given them),
// and their descendants. Elsewhere only the process group is ended. What a
// harness killed with SIGKILL left running is no instance's: the next
// harness kills it when it starts its first process (protocol.VarOwner).
type LeftoverReporter interface {
	// Leftovers returns the processes Stop had to kill because they
	// outlived the adapter's process group, each as
	// "pid 4243: /opt/adapter/worker --daemon"; nil before Stop, or when
	// there were none. Each is evidence that the adapter does not clean up
	// after itself.
	Leftovers() []string
}

// laneMarkers returns the entries of env that only the processes of its
// lane carry: the listen address, the mock upstream and the audit file, as
// rename names them, those that have a value. An orphan adopted by the
// harness is the lane's when its environment holds them all.
func laneMarkers(env Env, rename map[string]string) []string {
	own := Env{UpstreamURL: env.UpstreamURL, Listen: env.Listen, AuditFile: env.AuditFile}
	var markers []string
	for _, kv := range own.Vars(rename) {
		if !strings.HasSuffix(kv, "=") {
			markers = append(markers, kv)
		}
	}
	return markers
}
