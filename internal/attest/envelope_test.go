package attest

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/secure-systems-lab/go-securesystemslib/dsse"
)

func TestSignOpenRoundTrip(t *testing.T) {
	key, _, _ := testKey(t)
	want := testStatement(Passed, StringDigest("adapter"), "v1")
	env, err := Sign(t.Context(), want, key)
	if err != nil {
		t.Fatal(err)
	}
	got, err := Open(t.Context(), env, key)
	if err != nil {
		t.Fatalf("Open: %v\n%s", err, env)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Open returned another statement (-want +got):\n%s", diff)
	}
	var raw dsse.Envelope
	if err := json.Unmarshal(env, &raw); err != nil {
		t.Fatal(err)
	}
	if raw.PayloadType != PayloadType || len(raw.Signatures) != 1 || raw.Signatures[0].KeyID != key.ID() {
		t.Errorf("envelope = %+v, want payload type %s and one signature by %s", raw, PayloadType, key.ID())
	}
	// The signature is over the DSSE pre-authentication encoding, checked
	// here apart from the library: "DSSEv1 <len> <type> <len> <payload>".
	payload, _ := base64.StdEncoding.DecodeString(raw.Payload)
	sig, _ := base64.StdEncoding.DecodeString(raw.Signatures[0].Sig)
	pae := []byte("DSSEv1 " + strconv.Itoa(len(PayloadType)) + " " + PayloadType + " " + strconv.Itoa(len(payload)) + " ")
	if err := key.Verify(t.Context(), append(pae, payload...), sig); err != nil {
		t.Errorf("the signature is not over the PAE of the payload: %v", err)
	}
}

func TestOpenRefusesAnotherKey(t *testing.T) {
	key, _, _ := testKey(t)
	other, _, _ := testKey(t)
	env, err := Sign(t.Context(), testStatement(Passed, StringDigest("a"), ""), key)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Open(t.Context(), env, other); !errors.Is(err, ErrSignature) {
		t.Errorf("Open with another key: %v, want ErrSignature", err)
	}
}

// TestOpenRefusesEveryBitFlip flips each bit of every byte of an envelope
// in turn: no change may leave an envelope that opens.
func TestOpenRefusesEveryBitFlip(t *testing.T) {
	key, _, _ := testKey(t)
	env, err := Sign(t.Context(), testStatement(Passed, StringDigest("a"), "v1"), key)
	if err != nil {
		t.Fatal(err)
	}
	for i := range env {
		for bit := range 8 {
			flipped := bytes.Clone(env)
			flipped[i] ^= 1 << bit
			if _, err := Open(t.Context(), flipped, key); err == nil {
				t.Fatalf("the envelope with bit %d of byte %d (%q) flipped still opens", bit, i, env[i])
			}
		}
	}
}

// TestOpenRefusesMalformed: envelopes that differ from a signed one in
// ways a lenient reader would accept.
func TestOpenRefusesMalformed(t *testing.T) {
	key, _, _ := testKey(t)
	env, err := Sign(t.Context(), testStatement(Passed, StringDigest("a"), "v1"), key)
	if err != nil {
		t.Fatal(err)
	}
	var e dsse.Envelope
	if err := json.Unmarshal(env, &e); err != nil {
		t.Fatal(err)
	}
	sig := e.Signatures[0].Sig
	last := strings.IndexByte(sig, '=') - 1
	tests := []struct {
		name, envelope string
		want           error
	}{
		{"member name in another case", strings.Replace(string(env), `"payloadType"`, `"PayloadType"`, 1), ErrMalformed},
		{"keyid in another case", strings.Replace(string(env), `"keyid"`, `"keyID"`, 1), ErrMalformed},
		{"unknown member", strings.Replace(string(env), `"payloadType"`, `"extra": 1, "payloadType"`, 1), ErrMalformed},
		{"repeated member", strings.Replace(string(env), `"payloadType"`, `"payload": "e30=", "payloadType"`, 1), ErrMalformed},
		{"non-zero trailing bits in the signature", strings.Replace(string(env), sig, sig[:last]+string(sig[last]^1)+sig[last+1:], 1), ErrMalformed},
		{"signature in URL-safe base64", strings.Replace(string(env), sig, base64.URLEncoding.EncodeToString(mustB64(t, sig)), 1), nil},
		{"line break in the payload", strings.Replace(string(env), e.Payload, e.Payload[:8]+`\n`+e.Payload[8:], 1), ErrMalformed},
		{"no signature", strings.Replace(string(env), `"signatures"`, `"signatures": [], "x"`, 1), ErrMalformed},
		{"not JSON", "{", ErrMalformed},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.envelope == string(env) {
				if tt.want == nil {
					t.Skip("this signature has no '+' or '/': its URL-safe form is the same")
				}
				t.Fatal("the edit did not change the envelope: the case tests nothing")
			}
			_, err := Open(t.Context(), []byte(tt.envelope), key)
			if err == nil || (tt.want != nil && !errors.Is(err, tt.want)) {
				t.Errorf("Open: %v, want an error wrapping %v", err, tt.want)
			}
		})
	}
}

func mustB64(tb testing.TB, s string) []byte {
	tb.Helper()
	b, err := base64.StdEncoding.DecodeString(s)
	if err != nil {
		tb.Fatal(err)
	}
	return b
}

// TestOpenRefusesOtherStatements: signed envelopes of other payloads.
func TestOpenRefusesOtherStatements(t *testing.T) {
	key, _, _ := testKey(t)
	good := testStatement(Passed, StringDigest("a"), "")
	goodJSON, _ := json.Marshal(good)
	tests := []struct {
		name, payloadType, payload string
	}{
		{"another payload type", "application/json", string(goodJSON)},
		{"a Statement v0.1", PayloadType, strings.Replace(string(goodJSON), StatementType, "https://in-toto.io/Statement/v0.1", 1)},
		{"a provenance predicate", PayloadType, strings.Replace(string(goodJSON), PredicateType, "https://slsa.dev/provenance/v1", 1)},
		{"no subject", PayloadType, strings.Replace(string(goodJSON), `"subject":[`, `"subject":[],"x":[`, 1)},
		{"not JSON", PayloadType, "not json"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			signer, _ := dsse.NewEnvelopeSigner(key)
			e, err := signer.SignPayload(t.Context(), tt.payloadType, []byte(tt.payload))
			if err != nil {
				t.Fatal(err)
			}
			env, _ := json.Marshal(e)
			if _, err := Open(t.Context(), env, key); !errors.Is(err, ErrNotTestResult) {
				t.Errorf("Open: %v, want ErrNotTestResult", err)
			}
		})
	}
}
