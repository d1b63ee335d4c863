package gate

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"regexp"
	"sync"
	"time"

	"github.com/toolcert/toolcert/protocol"
)

// ApprovalIDPattern is the pattern of every approval id [Approvals.Request]
// returns.
var ApprovalIDPattern = regexp.MustCompile(`^apr\.[A-Za-z0-9]{20}$`)

// The approval statuses [Approvals.Decide] returns.
const (
	ApprovalApproved = "approved"
	ApprovalRefused  = "refused"
)

// Errors of [Approvals]; callers branch on them with errors.Is.
var (
	ErrUnknownApproval     = errors.New("unknown approval")
	ErrApprovalDecided     = errors.New("approval already decided")
	ErrApprovalExpired     = errors.New("approval expired")
	ErrApprovalNotApproved = errors.New("approval not approved yet")
	ErrApprovalRefused     = errors.New("approval refused")
	ErrApprovalUsed        = errors.New("approval already used")
	ErrApprovalMismatch    = errors.New("approval is for another tool, other arguments or another session")
)

// maxApprovals bounds the approvals an Approvals store keeps; the oldest go
// first.
const maxApprovals = 4096

// Binding is what an approval is for: the tool, the hash of the call's
// arguments ([ArgumentsHash]) and the subject of the session that asked.
// [Approvals.Redeem] lets a call through only with the same binding, so an
// approval cannot be spent on another tool, other arguments, or from
// another session that learnt its id.
type Binding struct {
	Tool     string
	ArgsHash string
	Subject  string
}

// Approvals is an in-memory store of human approvals (A5, M4, M6), safe for
// concurrent use. Each approval is bound ([Binding]) to a tool, the hash of
// the call's arguments and the session's subject, and records the
// request_id of the call that asked for it; it expires ttl after it is
// requested and lets exactly one call through. Build it with
// [NewApprovals].
type Approvals struct {
	ttl time.Duration
	now func() time.Time

	mu    sync.Mutex
	byID  map[string]*approval
	order []string // ids, oldest first
}

// approval is one entry of the store.
type approval struct {
	binding   Binding
	requestID string
	expires   time.Time
	status    string // "" pending, ApprovalApproved, ApprovalRefused
	used      bool
}

// NewApprovals returns an empty store whose approvals live ttl
// ([protocol.DefaultApprovalTTL] when ttl <= 0), on the clock now (time.Now when
// nil). It keeps at most 4096 approvals; expired ones are dropped, oldest
// first, one ttl after they expired.
func NewApprovals(ttl time.Duration, now func() time.Time) *Approvals {
	if ttl <= 0 {
		ttl = protocol.DefaultApprovalTTL
	}
	if now == nil {
		now = time.Now
	}
	return &Approvals{ttl: ttl, now: now, byID: map[string]*approval{}}
}

// Request records a pending approval for a call with binding b, asked by
// the call requestID, and returns its id: "apr." and 20 base62 characters
// from crypto/rand ([ApprovalIDPattern]).
func (a *Approvals) Request(b Binding, requestID string) (id string) {
	id = randomID("apr.", 20)
	now := a.now()
	a.mu.Lock()
	defer a.mu.Unlock()
	a.prune(now)
	a.byID[id] = &approval{binding: b, requestID: requestID, expires: now.Add(a.ttl)}
	a.order = append(a.order, id)
	return id
}

// prune drops approvals past twice their ttl, and the oldest beyond the
// store's bound. The caller holds mu.
func (a *Approvals) prune(now time.Time) {
	n := 0
	for n < len(a.order) {
		ap := a.byID[a.order[n]]
		if len(a.order)-n < maxApprovals && now.Before(ap.expires.Add(a.ttl)) {
			break
		}
		delete(a.byID, a.order[n])
		n++
	}
	a.order = a.order[n:]
}

// Decide records a human's answer to approval id and returns its status,
// ApprovalApproved or ApprovalRefused. It fails with ErrUnknownApproval,
// ErrApprovalDecided (answered before) or ErrApprovalExpired (ttl passed);
// an approval is decided once.
func (a *Approvals) Decide(id string, approve bool) (status string, err error) {
	now := a.now()
	a.mu.Lock()
	defer a.mu.Unlock()
	ap, ok := a.byID[id]
	switch {
	case !ok:
		return "", ErrUnknownApproval
	case ap.status != "":
		return "", ErrApprovalDecided
	case !now.Before(ap.expires):
		return "", ErrApprovalExpired
	}
	ap.status = ApprovalRefused
	if approve {
		ap.status = ApprovalApproved
	}
	return ap.status, nil
}

// Redeem lets one call with binding b through on approval id: it must be
// approved, not expired, not used, and bound to b exactly (an empty
// argument hash never matches); it is then used. It fails, in that order of
// checks, with ErrUnknownApproval, ErrApprovalRefused,
// ErrApprovalNotApproved, ErrApprovalExpired, ErrApprovalUsed or
// ErrApprovalMismatch. A failed Redeem changes nothing.
func (a *Approvals) Redeem(id string, b Binding) error {
	now := a.now()
	a.mu.Lock()
	defer a.mu.Unlock()
	ap, ok := a.byID[id]
	switch {
	case !ok:
		return ErrUnknownApproval
	case ap.status == ApprovalRefused:
		return ErrApprovalRefused
	case ap.status != ApprovalApproved:
		return ErrApprovalNotApproved
	case !now.Before(ap.expires):
		return ErrApprovalExpired
	case ap.used:
		return ErrApprovalUsed
	case b.ArgsHash == "" || ap.binding != b:
		return ErrApprovalMismatch
	}
	ap.used = true
	return nil
}

// ArgumentsHash returns the hex SHA-256 of args as canonical JSON: object
// keys sorted, no white space, no HTML escaping, numbers as their literal
// (a value tree from [ParseJSON] keeps them as json.Number). It returns ""
// when args cannot be marshalled; [Approvals.Redeem] never matches "".
func ArgumentsHash(args any) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(args); err != nil {
		return ""
	}
	sum := sha256.Sum256(bytes.TrimSuffix(b.Bytes(), []byte("\n")))
	return hex.EncodeToString(sum[:])
}
