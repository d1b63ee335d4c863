package mutant

// forwardMessage copies the upstream's free-text "message" into the agent
// data when the vendor body has one (run_status does).
func forwardMessage(_ string, vendor, data map[string]any) map[string]any {
	if msg, ok := vendor["message"].(string); ok {
		data["message"] = msg
	}
	return data
}

// upstreamRequestID returns the parsed upstream body's "request_id" when it
// is a string.
func upstreamRequestID(vendor any) (string, bool) {
	obj, ok := vendor.(map[string]any)
	if !ok {
		return "", false
	}
	id, ok := obj["request_id"].(string)
	return id, ok
}
