package attest

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"

	jsonv2 "github.com/go-json-experiment/json"
	"github.com/secure-systems-lab/go-securesystemslib/dsse"
)

// Errors a reader of an envelope branches on with errors.Is.
var (
	// ErrMalformed means the bytes are not a DSSE envelope as toolcert
	// writes one: strict JSON with exactly its members, spelled exactly,
	// standard base64 in its canonical form.
	ErrMalformed = errors.New("not a well-formed DSSE envelope")
	// ErrSignature means no signature of the envelope verifies with the
	// key.
	ErrSignature = errors.New("the signature does not verify with the key")
	// ErrNotTestResult means the payload is not an in-toto Statement v1
	// with a test-result predicate and a subject with a sha256 digest.
	ErrNotTestResult = errors.New("not an in-toto test-result statement")
)

// MaxEnvelopeBytes bounds an envelope file.
const MaxEnvelopeBytes = 16 << 20

// Sign returns the DSSE envelope of st signed with key: indented JSON
// whose payload is the statement's JSON, payload type PayloadType.
func Sign(ctx context.Context, st *Statement, key *Key) ([]byte, error) {
	payload, err := json.Marshal(st)
	if err != nil {
		return nil, fmt.Errorf("sign: %w", err)
	}
	signer, err := dsse.NewEnvelopeSigner(key)
	if err != nil {
		return nil, fmt.Errorf("sign: %w", err)
	}
	env, err := signer.SignPayload(ctx, PayloadType, payload)
	if err != nil {
		return nil, fmt.Errorf("sign: %w", err)
	}
	b, err := json.MarshalIndent(env, "", "  ")
	if err != nil {
		return nil, fmt.Errorf("sign: %w", err)
	}
	return append(b, '\n'), nil
}

// Open returns the statement of the envelope in data once a signature
// verifies with key over the DSSE pre-authentication encoding of its
// payload type and payload. The error wraps ErrMalformed, ErrSignature or
// ErrNotTestResult.
func Open(ctx context.Context, data []byte, key *Key) (*Statement, error) {
	env, payload, err := parseEnvelope(data)
	if err != nil {
		return nil, err
	}
	verifier, err := dsse.NewEnvelopeVerifier(key)
	if err != nil {
		return nil, fmt.Errorf("verify: %w", err)
	}
	if _, err := verifier.Verify(ctx, env); err != nil {
		return nil, fmt.Errorf("%w (key %s): %w", ErrSignature, key.ID(), err)
	}
	return decodeStatement(env.PayloadType, payload)
}

// Decode returns the statement of the envelope in data WITHOUT checking
// its signature: for showing what an envelope says, never for trusting
// it. The error wraps ErrMalformed or ErrNotTestResult.
func Decode(data []byte) (*Statement, error) {
	env, payload, err := parseEnvelope(data)
	if err != nil {
		return nil, err
	}
	return decodeStatement(env.PayloadType, payload)
}

// parseEnvelope reads data strictly as an envelope and returns it with
// its decoded payload. Strict, so that no change to the bytes leaves an
// envelope that still verifies: member names match exactly (not without
// regard to case), none is unknown or repeated, the UTF-8 is valid, and
// every base64 string is the canonical standard encoding of its bytes.
func parseEnvelope(data []byte) (*dsse.Envelope, []byte, error) {
	if len(data) > MaxEnvelopeBytes {
		return nil, nil, fmt.Errorf("%w: larger than %d bytes", ErrMalformed, MaxEnvelopeBytes)
	}
	var env dsse.Envelope
	if err := jsonv2.Unmarshal(data, &env, jsonv2.RejectUnknownMembers(true)); err != nil {
		return nil, nil, fmt.Errorf("%w: %w", ErrMalformed, err)
	}
	payload, err := canonicalBase64("payload", env.Payload)
	if err != nil {
		return nil, nil, err
	}
	if len(env.Signatures) == 0 {
		return nil, nil, fmt.Errorf("%w: %w", ErrSignature, dsse.ErrNoSignature)
	}
	for i, s := range env.Signatures {
		if _, err := canonicalBase64(fmt.Sprintf("signatures[%d].sig", i), s.Sig); err != nil {
			return nil, nil, err
		}
	}
	return &env, payload, nil
}

// canonicalBase64 decodes s, which must be the standard base64 encoding
// of its bytes exactly as an encoder writes it (padding, zero trailing
// bits, no line breaks).
func canonicalBase64(field, s string) ([]byte, error) {
	b, err := base64.StdEncoding.DecodeString(s)
	if err != nil || base64.StdEncoding.EncodeToString(b) != s {
		return nil, fmt.Errorf("%w: %s is not canonical standard base64", ErrMalformed, field)
	}
	return b, nil
}

// decodeStatement reads the payload of an envelope of payloadType as a
// test-result statement.
func decodeStatement(payloadType string, payload []byte) (*Statement, error) {
	if payloadType != PayloadType {
		return nil, fmt.Errorf("%w: payload type %q, want %q", ErrNotTestResult, payloadType, PayloadType)
	}
	var st Statement
	if err := jsonv2.Unmarshal(bytes.TrimSpace(payload), &st); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrNotTestResult, err)
	}
	switch {
	case st.Type != StatementType:
		return nil, fmt.Errorf("%w: _type %q, want %q", ErrNotTestResult, st.Type, StatementType)
	case st.PredicateType != PredicateType:
		return nil, fmt.Errorf("%w: predicateType %q, want %q", ErrNotTestResult, st.PredicateType, PredicateType)
	case len(st.Subject) == 0 || st.Subject[0].SHA256() == "":
		return nil, fmt.Errorf("%w: no subject with a sha256 digest", ErrNotTestResult)
	}
	return &st, nil
}
