package corpus

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/toolcert/toolcert/protocol"
)

// ApprovalTTL returns how long an approval lives under the corpus's policy
// (PolicyFile): its approval_ttl, a positive Go duration, or
// protocol.DefaultApprovalTTL when the policy leaves it out. A corpus
// without a policy, or a policy that is not a JSON object with a valid
// approval_ttl, is an error.
func (c *Corpus) ApprovalTTL() (time.Duration, error) {
	raw, err := c.Fixture(PolicyFile)
	if err != nil {
		return 0, fmt.Errorf("the corpus has no policy: %w", err)
	}
	var p struct {
		ApprovalTTL *string `json:"approval_ttl"`
	}
	if err := json.Unmarshal(raw, &p); err != nil {
		return 0, fmt.Errorf("the corpus's %s: %w", PolicyFile, err)
	}
	if p.ApprovalTTL == nil {
		return protocol.DefaultApprovalTTL, nil
	}
	ttl, err := time.ParseDuration(*p.ApprovalTTL)
	if err != nil || ttl <= 0 {
		return 0, fmt.Errorf("the corpus's %s: approval_ttl %q is not a positive duration", PolicyFile, *p.ApprovalTTL)
	}
	return ttl, nil
}
