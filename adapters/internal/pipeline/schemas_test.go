package pipeline

import (
	"bytes"
	"testing"

	"github.com/toolcert/toolcert/protocol"
)

// TestOrderSchemaIsThePublishedOne: the order record the reference pins
// for request_refund is, byte for byte, the schema the protocol publishes
// (protocol/schemas/refund-order.json).
func TestOrderSchemaIsThePublishedOne(t *testing.T) {
	pinned, err := Schema("request_refund", "order.v1")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(pinned, protocol.RefundOrderSchema()) {
		t.Error("schemas/request_refund.order.v1.json differs from protocol/schemas/refund-order.json")
	}
}
