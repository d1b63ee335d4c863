package attest

// The type URIs and the payload type of a toolcert attestation.
const (
	// StatementType is the _type of an in-toto Statement v1.
	StatementType = "https://in-toto.io/Statement/v1"
	// PredicateType is the in-toto test-result predicate's type.
	PredicateType = "https://in-toto.io/attestation/test-result/v0.1"
	// PayloadType is the DSSE payload type of an in-toto Statement.
	PayloadType = "application/vnd.in-toto+json"
)

// Statement is an in-toto Statement v1 with a test-result predicate: what
// the envelope's payload holds.
//
// It is written here rather than taken from
// github.com/in-toto/attestation/go/v1, whose protobuf types would bring
// protobuf's reflection and protojson into the toolcert binary for two
// small structs; the JSON is the one the specification gives, and
// TestStatementReadsAsInToto reads it back with the in-toto project's own
// types (Statement v1 and the test-result v0 predicate) and their Validate.
type Statement struct {
	Type          string               `json:"_type"`
	Subject       []ResourceDescriptor `json:"subject"`
	PredicateType string               `json:"predicateType"`
	Predicate     TestResult           `json:"predicate"`
}

// ResourceDescriptor is an in-toto ResourceDescriptor: an artifact named,
// located and digested. Digest maps an algorithm ("sha256") to a hex
// value; Annotations hold what toolcert says of it besides.
type ResourceDescriptor struct {
	Name        string            `json:"name,omitempty"`
	URI         string            `json:"uri,omitempty"`
	Digest      map[string]string `json:"digest,omitempty"`
	MediaType   string            `json:"mediaType,omitempty"`
	Annotations map[string]string `json:"annotations,omitempty"`
}

// SHA256 returns the descriptor's sha256 digest, "" when it has none.
func (d ResourceDescriptor) SHA256() string { return d.Digest["sha256"] }

// Configuration returns the descriptor of the statement's configuration
// named name, and whether there is one.
func (s *Statement) Configuration(name string) (ResourceDescriptor, bool) {
	for _, d := range s.Predicate.Configuration {
		if d.Name == name {
			return d, true
		}
	}
	return ResourceDescriptor{}, false
}
