package variant

import (
	"strings"

	"github.com/toolcert/toolcert/protocol"
)

// syntaxOperators write what lenient parsers accept and JSON does not:
// single quotes, bare names, trailing commas, comments, unknown escapes.
func syntaxOperators() []operator {
	return []operator{
		{name: "single_quotes", describe: "the first string written in single quotes", json: singleQuotes},
		{name: "unquoted_name", describe: "the first member's name written without quotes", json: unquotedName},
		{name: "trailing_comma", describe: "a comma before the closing brace of every object", json: trailingComma},
		{name: "comment", describe: "a // line comment (#line) or a /* */ comment (#block) holding a canary before the document", json: comment},
		{name: "invalid_escape", describe: `an unknown escape \q at the end of the first string`, json: invalidEscape},
	}
}

// syntaxError is the expectation of every syntax operator.
func syntaxError() Expect { return parseFault(protocol.ReasonSyntax) }

// firstString returns the pointer of the first string leaf, or false.
func firstString(x *example) (string, bool) {
	ptrs := x.stringLeaves()
	if len(ptrs) == 0 {
		return "", false
	}
	return ptrs[0], true
}

func singleQuotes(x *example) []draft {
	ptr, ok := firstString(x)
	if !ok {
		return nil
	}
	t := x.markedHidden("")
	lit := t.at(ptr).lit
	if strings.Contains(lit, "'") {
		return nil
	}
	t.at(ptr).lit = "'" + lit[1:len(lit)-1] + "'"
	return []draft{treeDraft(ptr, "", ptr+" in single quotes", t, syntaxError())}
}

func unquotedName(x *example) []draft {
	members := x.members()
	if len(members) == 0 {
		return nil
	}
	ptr := members[0]
	t := x.markedHidden("")
	obj := t.at(parentPointer(ptr))
	m := &obj.members[obj.index(lastToken(ptr))]
	m.raw = strings.Trim(m.raw, `"`)
	return []draft{treeDraft(ptr, "", "the name of "+ptr+" without quotes", t, syntaxError())}
}

func trailingComma(x *example) []draft {
	var out []draft
	for _, ptr := range x.objects() {
		t := x.markedHidden("")
		if len(t.at(ptr).members) == 0 {
			continue
		}
		t.at(ptr).comma = true
		out = append(out, treeDraft(ptr, "", "a trailing comma in "+where(ptr), t, syntaxError()))
	}
	return out
}

func comment(x *example) []draft {
	return []draft{
		bytesDraft(x, "", "line", "a // comment before the document", "", syntaxError(), func(b []byte) []byte {
			return append([]byte("// {{canary:comment}}\n"), b...)
		}),
		bytesDraft(x, "", "block", "a /* */ comment before the document", "", syntaxError(), func(b []byte) []byte {
			return append([]byte("/* {{canary:comment}} */ "), b...)
		}),
	}
}

func invalidEscape(x *example) []draft {
	ptr, ok := firstString(x)
	if !ok {
		return nil
	}
	t := x.markedHidden("")
	t.at(ptr).lit = appendText(t.at(ptr).lit, `\q`)
	return []draft{treeDraft(ptr, "", ptr+` ends in \q`, t, syntaxError())}
}
