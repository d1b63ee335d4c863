package discover

import (
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
)

// How a server learns its upstream's URL is its own: a flag (which the
// user writes into the command as {{.UpstreamURL}}), or a variable of its
// own name. Discover sets every usual name at once, each to a port of its
// own, and the port a request comes to says which name the server read.

// maxCandidates bounds the variables tried in one start.
const maxCandidates = 400

// genericNames are variables many servers read their upstream from.
var genericNames = []string{"API_URL", "API_BASE_URL", "BASE_URL", "UPSTREAM_URL", "API_ENDPOINT", "ENDPOINT_URL", "SERVER_URL", "API_HOST", "API_BASE"}

// suffixes are the endings of a variable that names an upstream.
var suffixes = []string{"URL", "API_URL", "BASE_URL", "API_BASE_URL", "API_BASE", "HOST", "ADDRESS", "ADDR", "ENDPOINT", "API_ENDPOINT", "SERVER", "SERVER_URL", "INSTANCE_URL"}

// neverSet are variables discover does not touch: they change how every
// program of the environment reaches the network.
var neverSet = []string{"HTTP_PROXY", "HTTPS_PROXY", "NO_PROXY", "ALL_PROXY", "DOCKER_HOST", "HOST", "HOSTNAME"}

// serverWords are words of a variable that configures the server's own
// side (where it listens, how it traces or logs), not its upstream: set to
// a URL, such a variable can change how the server starts (a transport
// host that turns stdio into HTTP).
var serverWords = []string{"MCP", "TRANSPORT", "LISTEN", "BIND", "OTEL", "OTLP", "PROXY", "METRICS", "TRACING", "TRACE", "JAEGER", "ZIPKIN", "LOG", "DEBUG", "HEALTH", "PPROF", "GRPC", "REDIS", "DATABASE", "DB", "KUBERNETES", "DOCKER"}

// serverSide reports whether a variable's name has a word of serverWords,
// or names the server's own host (SERVER_HOST, HTTP_ADDR).
func serverSide(name string) bool {
	words := strings.Split(name, "_")
	for _, w := range words {
		if slices.Contains(serverWords, w) {
			return true
		}
	}
	return len(words) == 2 && (words[0] == "SERVER" || words[0] == "HTTP" || words[0] == "HTTPS")
}

// candidateNames returns the variables to try: the user's when given
// (only those); else the generic ones, those made of each prefix (from the
// executable's name and the description's title), and those the
// executable's bytes hold.
func candidateNames(user []string, prefixes []string, executable string) []string {
	if len(user) > 0 {
		return user
	}
	var out []string
	add := func(n string) {
		if len(out) < maxCandidates && n != "" && !slices.Contains(out, n) && !slices.Contains(neverSet, n) {
			out = append(out, n)
		}
	}
	for _, p := range prefixes {
		for _, s := range suffixes {
			add(p + "_" + s)
		}
	}
	for _, n := range genericNames {
		add(n)
	}
	for _, n := range scanNames(executable) {
		if !serverSide(n) {
			add(n)
		}
	}
	return out
}

// PrefixOf turns a program's or an API's name into a variable's prefix:
// "registry-mcp-server" -> "REGISTRY", "Acme CI API" -> "ACME_CI".
func PrefixOf(name string) string {
	name = strings.ToUpper(name)
	name = notVarWord.ReplaceAllString(name, "_")
	words := strings.Split(strings.Trim(name, "_"), "_")
	var kept []string
	for _, w := range words {
		switch w {
		case "MCP", "SERVER", "API", "REST", "HTTP", "OPENAPI", "V1", "V2", "V3", "":
			continue
		}
		kept = append(kept, w)
	}
	return strings.Join(kept, "_")
}

// notVarWord is what a variable's word is not made of.
var notVarWord = regexp.MustCompile(`[^A-Z0-9]+`)

// envName is a variable name that ends as an upstream's does.
var envName = regexp.MustCompile(`[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)*_(?:API_URL|BASE_URL|URL|HOST|ADDRESS|ADDR|ENDPOINT|SERVER)`)

// maxScan bounds what is read of an executable.
const maxScan = 256 << 20

// scanNames returns the variable names an executable's bytes hold that
// end as an upstream's does. A Go binary packs its strings end to end, so
// a name may follow another's last letters: each match is tried from
// every "_" on, and its first word from each of its last few letters.
func scanNames(executable string) []string {
	if executable == "" {
		return nil
	}
	path, err := exec.LookPath(executable)
	if err != nil {
		return nil
	}
	f, err := os.Open(filepath.Clean(path))
	if err != nil {
		return nil
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, maxScan))
	if err != nil {
		return nil
	}
	var out []string
	seen := map[string]bool{}
	for _, m := range envName.FindAll(b, 4096) {
		name := string(m)
		first, rest, _ := strings.Cut(name, "_")
		for i := 0; i < len(first)-2; i++ {
			if i > 0 && len(first) <= 12 || i > 10 {
				break // a first word that long is likely two glued together
			}
			if c := first[i:] + "_" + rest; !seen[c] && len(c) <= 64 {
				seen[c] = true
				out = append(out, c)
			}
		}
	}
	slices.Sort(out)
	return out
}
