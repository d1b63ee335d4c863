package main

import (
	"flag"
	"fmt"
	"net"
	"net/url"
	"strings"

	"github.com/toolcert/toolcert/adapters/reference"
	"github.com/toolcert/toolcert/target"
)

// targetFlags are the flags that choose the adapter under test, shared by
// run and replay.
type targetFlags struct {
	cmd            string
	url            string
	image          string
	upstreamListen string
	auditFile      string
	profile        string
}

func (t *targetFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&t.cmd, "target-cmd", "", "start the adapter as a local process per lane: `\"CMD ARGS\"`, split into words as a shell would\n(quotes respected; no $-expansion or pipes); it gets the TOOLCERT_* environment of docs/protocol.md")
	fs.StringVar(&t.image, "target-image", "", "start the adapter as one container per lane from the local Docker `IMAGE` (never pulled); its\nentrypoint must serve the protocol, on the host's network, with the TOOLCERT_* environment and the\naudit and policy folders mounted at their host paths (docs/containers.md). Where Ryuk's image cannot\nbe pulled, run toolcert with TESTCONTAINERS_RYUK_DISABLED=true")
	fs.StringVar(&t.url, "target-url", "", "use an adapter already running at `URL`; it must use the mock at --upstream-listen (one lane)")
	fs.StringVar(&t.upstreamListen, "upstream-listen", "", "with --target-url: loopback `ADDR` (host:port) the mock upstream listens on")
	fs.StringVar(&t.auditFile, "audit-file", "", "with --target-url: `PATH` of the running adapter's audit log, so audit steps can read it")
	fs.StringVar(&t.profile, "profile", "", "JSON `FILE` declaring the target's limits (max_bytes, max_depth, max_attempts, deadline,\nread_timeout, freshness, future_skew, token, rename); default: the reference adapter's")
}

// String returns the flags as a command line would repeat them.
func (t *targetFlags) String() string {
	var parts []string
	add := func(name, v string) {
		if v != "" {
			parts = append(parts, "--"+name+" "+shellQuote(v))
		}
	}
	add("target-cmd", t.cmd)
	add("target-url", t.url)
	add("target-image", t.image)
	add("upstream-listen", t.upstreamListen)
	add("audit-file", t.auditFile)
	add("profile", t.profile)
	return strings.Join(parts, " ")
}

// shellQuote quotes s for a POSIX shell when it needs it.
func shellQuote(s string) string {
	if s != "" && strings.IndexFunc(s, func(r rune) bool {
		return !(r == '-' || r == '_' || r == '.' || r == '/' || r == ':' || r == '=' ||
			'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9')
	}) < 0 {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// build returns the chosen target and its profile. Without --target-cmd,
// --target-url or --target-image the target is the reference adapter,
// in-process.
func (t *targetFlags) build() (target.Target, target.Profile, error) {
	profile := target.DefaultProfile()
	if t.profile != "" {
		p, err := target.LoadProfile(t.profile)
		if err != nil {
			return nil, profile, usageErr("%v", err)
		}
		profile = p
	}
	switch {
	case countSet(t.cmd, t.url, t.image) > 1:
		return nil, profile, usageErr("--target-cmd, --target-url and --target-image exclude each other")
	case t.url != "":
		if t.upstreamListen == "" {
			return nil, profile, usageErr("--target-url needs --upstream-listen: the address the running adapter sends its upstream requests to")
		}
		if err := checkLoopback(t.upstreamListen); err != nil {
			return nil, profile, usageErr("--upstream-listen: %v", err)
		}
		if u, err := url.Parse(t.url); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return nil, profile, usageErr("--target-url: want an http URL such as http://127.0.0.1:8080, got %q", t.url)
		}
		u, err := target.NewURL(t.url)
		if err != nil {
			return nil, profile, usageErr("--target-url: %v", err)
		}
		return u, profile, nil
	case t.upstreamListen != "" || t.auditFile != "":
		return nil, profile, usageErr("--upstream-listen and --audit-file go with --target-url")
	case t.cmd != "":
		argv, err := target.SplitCommand(t.cmd)
		if err != nil {
			return nil, profile, usageErr("--target-cmd: %v", err)
		}
		p, err := target.NewProcess(argv, target.WithRename(profile.Rename))
		if err != nil {
			return nil, profile, usageErr("--target-cmd: %v", err)
		}
		return p, profile, nil
	case t.image != "":
		c, err := target.NewContainer(t.image, target.WithContainerRename(profile.Rename))
		if err != nil {
			return nil, profile, usageErr("--target-image: %v", err)
		}
		return c, profile, nil
	}
	return reference.InProcess(), profile, nil
}

// countSet returns how many of values are not "".
func countSet(values ...string) int {
	n := 0
	for _, v := range values {
		if v != "" {
			n++
		}
	}
	return n
}

func checkLoopback(addr string) error {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return err
	}
	if ip := net.ParseIP(host); host != "localhost" && (ip == nil || !ip.IsLoopback()) {
		return fmt.Errorf("%q is not a loopback address", host)
	}
	return nil
}
