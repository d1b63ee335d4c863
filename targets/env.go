package targets

import (
	"maps"
	"slices"

	"github.com/toolcert/toolcert/protocol"
)

// Env is what a lane gives its target. The zero value is valid: a driver
// fills Listen when it is empty.
type Env struct {
	// UpstreamURL is the base URL of the lane's mock upstream
	// (protocol.VarUpstreamURL).
	UpstreamURL string
	// Listen is the host:port the adapter must listen on (TOOLCERT_LISTEN).
	// When empty, the driver picks a free 127.0.0.1 port.
	Listen string
	// AuditFile is the path of the lane's audit log (TOOLCERT_AUDIT_FILE);
	// "" leaves the variable out.
	AuditFile string
	// PolicyFile is the path of the policy file (TOOLCERT_POLICY_FILE);
	// "" leaves the variable out.
	PolicyFile string
	// Dir is the lane's own folder, where files written per lane go; ""
	// for none.
	Dir string
	// Extra holds more variables by their full protocol name, e.g.
	// protocol.VarMaxBytes: "65536". An entry named like one of the fields
	// above is ignored: the field wins.
	Extra map[string]string
}

// Vars returns the environment as "NAME=value" strings: the upstream URL
// and the listen address always, the audit and policy files when set, then Extra
// sorted by name. rename maps a protocol name to the adapter's own name; a
// name mapped to "" is left out; names not in rename are kept. rename may be
// nil.
func (e Env) Vars(rename map[string]string) []string {
	fixed := []struct {
		name, value string
		always      bool
	}{
		{protocol.VarUpstreamURL, e.UpstreamURL, true},
		{protocol.VarListen, e.Listen, true},
		{protocol.VarAuditFile, e.AuditFile, false},
		{protocol.VarPolicyFile, e.PolicyFile, false},
	}
	var vars []string
	add := func(name, value string) {
		if to, ok := rename[name]; ok {
			name = to
		}
		if name != "" {
			vars = append(vars, name+"="+value)
		}
	}
	taken := make(map[string]bool, len(fixed))
	for _, f := range fixed {
		taken[f.name] = true
		if f.always || f.value != "" {
			add(f.name, f.value)
		}
	}
	for _, name := range slices.Sorted(maps.Keys(e.Extra)) {
		if !taken[name] {
			add(name, e.Extra[name])
		}
	}
	return vars
}
