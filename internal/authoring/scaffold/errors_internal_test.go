package scaffold

import "testing"

// TestMarkText: the members that carry text in the error shapes of a code
// host, a cluster API and an issue tracker are marked, and nothing else;
// with no such member, the first string; with no string, an added message.
func TestMarkText(t *testing.T) {
	tests := []struct{ name, in, want, where string }{
		{"code host", `{"message": "Not Found", "documentation_url": "https://docs.github.com/rest", "status": "404"}`,
			`{"message":"{{text}}","documentation_url":"https://docs.github.com/rest","status":"404"}`, "/message"},
		{"cluster Status", `{"kind": "Status", "apiVersion": "v1", "status": "Failure", "message": "pods \"web\" not found", "reason": "NotFound", "details": {"name": "web", "kind": "pods"}, "code": 404}`,
			`{"kind":"Status","apiVersion":"v1","status":"Failure","message":"{{text}}","reason":"NotFound","details":{"name":"web","kind":"pods"},"code":404}`, "/message"},
		{"issue tracker", `{"errorMessages": ["Issue does not exist or you do not have permission to see it."], "errors": {"summary": "Summary is required"}}`,
			`{"errorMessages":["{{text}}"],"errors":{"summary":"{{text}}"}}`, "/errorMessages/0, /errors/summary"},
		{"codes only", `{"code": "E404", "id": "x1"}`, `{"code":"{{text}}","id":"x1"}`, "/code (its first string: no member is named for text)"},
		{"no string", `{"code": 404}`, `{"code":404,"message":"{{text}}"}`, "/message (added: the answer has no string)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v, err := parse([]byte(tt.in))
			if err != nil {
				t.Fatal(err)
			}
			got, where := markText(v)
			e := encoder{}
			e.writeLine(got)
			compact := e.b.String()
			// writeLine puts a space after ":" and ","; compare without.
			var b []byte
			inString := false
			for i := 0; i < len(compact); i++ {
				c := compact[i]
				if c == '"' && (i == 0 || compact[i-1] != '\\') {
					inString = !inString
				}
				if c == ' ' && !inString {
					continue
				}
				b = append(b, c)
			}
			if string(b) != tt.want || where != tt.where {
				t.Errorf("markText = %s (%s), want %s (%s)", b, where, tt.want, tt.where)
			}
		})
	}
}
