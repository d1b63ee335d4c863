package protocol_test

import (
	"fmt"

	"github.com/toolcert/toolcert/protocol"
)

// An adapter that got a 503 after its last attempt records gate transport
// with the status's reason, and answers the agent with the code the
// protocol gives that reason.
func ExampleCodeFor() {
	reason := protocol.StatusReason(503)
	code, retryable := protocol.CodeFor(protocol.GateTransport, reason)
	fmt.Println(reason, code, retryable)
	// Output: status_5xx UPSTREAM_UNAVAILABLE true
}

func ExampleReasons() {
	fmt.Println(protocol.Reasons(protocol.GateSchema))
	// Output: [schema_violation unsupported_version]
}
