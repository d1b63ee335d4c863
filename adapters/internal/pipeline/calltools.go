package pipeline

import (
	"github.com/toolcert/toolcert/protocol"
)

// callTools returns the call-side tools of docs/protocol.md: send_email
// and purge_cache act on the upstream, request_refund only proposes.
func callTools() []tool {
	return []tool{
		{name: "send_email", kind: kindSend, post: postAction{path: "/emails", status: "sent"}},
		{name: "purge_cache", kind: kindSend, post: postAction{path: "/cache/purge", status: "purged"}},
		{
			name: "request_refund", kind: kindRefund, args: []string{"order_id"},
			path:        func(a map[string]string) string { return "/orders/" + a["order_id"] },
			contentType: protocol.ContentTypeJSON,
			versions: map[string]version{"v1": {
				schema: "order.v1",
				bind:   []binding{{"/order_id", "order_id"}},
			}},
			check: plainAmount,
		},
	}
}
