package corpus

import (
	"encoding/json"
	"path"
)

// Cases is a tool's examples, cases.json in its folder: accepted upstream
// answers with the agent data they must project to, and near-miss rejects
// with the gate and reason they must fail at.
type Cases struct {
	Accepted []Accepted `json:"accepted"`
	Rejects  []Reject   `json:"rejects"`
}

// Accepted is an upstream answer a correct adapter accepts.
type Accepted struct {
	// ID is unique within the tool; generated variants are named after it.
	ID string `json:"id"`
	// Body is the raw body file, relative to the tool's folder.
	Body string `json:"body"`
	// Versions are the upstream versions this answer belongs to.
	Versions []string `json:"versions"`
	// Arguments are the agent's arguments that the answer binds to.
	Arguments map[string]string `json:"arguments"`
	// Expect is the agent's data, exactly.
	Expect json.RawMessage `json:"expect"`
}

// Reject is an upstream answer a correct adapter rejects.
type Reject struct {
	ID string `json:"id"`
	// Body is the answer's file. A reject of a status from 300 to 599 may
	// leave it out: it is then the tool's error answer for that status
	// (tool.json "errors"), its text HostileErrorText.
	Body string `json:"body,omitempty"`
	// Status is the HTTP status the answer is served with; 0 means 200.
	// An error answer the upstream declares (a 404 with its error object)
	// is a reject at the transport gate.
	Status    int               `json:"status,omitempty"`
	Versions  []string          `json:"versions"`
	Arguments map[string]string `json:"arguments"`
	// Gate and Reason are where the rejection must happen
	// (docs/protocol.md).
	Gate   string `json:"gate"`
	Reason string `json:"reason"`
	// Why says, for a person, what is wrong with the answer.
	Why string `json:"why"`
	// Kind is what the answer is to the agent at level safe
	// (docs/protocol.md, "Levels"): "must_refuse" or "ignorable". ""
	// takes it from Gate and Reason: a transport or semantic rejection
	// and a duplicate name must be refused, every other is ignorable.
	Kind string `json:"kind,omitempty"`
}

// StatusCode returns the status r is served with: Status, or 200.
func (r Reject) StatusCode() int {
	if r.Status == 0 {
		return 200
	}
	return r.Status
}

// Cases loads the examples of tool; a tool without cases.json has none.
func (c *Corpus) Cases(tool string) (*Cases, error) {
	var cs Cases
	file := path.Join(tool, "cases.json")
	if _, err := c.Fixture(file); err != nil {
		return &cs, nil
	}
	if err := c.decode(file, &cs); err != nil {
		return nil, err
	}
	return &cs, nil
}

// Body returns the raw bytes of a tool's body file.
func (c *Corpus) Body(tool, file string) ([]byte, error) {
	return c.Fixture(path.Join(tool, file))
}
