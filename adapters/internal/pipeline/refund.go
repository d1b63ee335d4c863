package pipeline

import (
	"context"
	"encoding/json"
	"fmt"
	"math/big"
	"regexp"

	"github.com/toolcert/toolcert/gate"
	"github.com/toolcert/toolcert/protocol"
)

// refundCurrency is the only currency request_refund proposes refunds in.
const refundCurrency = "USD"

// refund checks an allowed request_refund proposal against the upstream's
// trusted order record (GET /orders/{order_id} through the read gates:
// bounded fetch, version, content type, strict parse, pinned closed
// schema, order_id binding), then the business rules: the order belongs to
// the session's account, the amount is at most the refundable balance, the
// currency is USD. A failed rule is DENIED with gate semantic. Success is
// only a proposal for a human to review; nothing is refunded.
func (a *Adapter) refund(ctx context.Context, t compiledTool, args map[string]any, s gate.Session, ev *protocol.AuditEvent) (map[string]any, error) {
	order, _, err := a.fetchChecked(ctx, t, t.stringArgs(args), ev)
	if err != nil {
		return nil, err
	}
	amount, _ := args["amount_cents"].(json.Number) // checked by plainAmount
	if err := checkOrder(order, a.s.account(args, s), amount); err != nil {
		return nil, err
	}
	return map[string]any{"status": "requires_human_review", "order_id": args["order_id"], "amount_cents": amount}, nil
}

// checkOrder applies the business rules to the schema-valid order.
func checkOrder(order map[string]any, account string, amount json.Number) error {
	owner, _ := order["account_id"].(string)
	if account == "" || owner != account {
		return refused(protocol.ReasonBindingMismatch, "order of account %.64q, the session acts for %.64q", owner, account)
	}
	balance, ok := exact(order["refundable_cents"])
	want, wok := exact(amount)
	if !ok || !wok {
		return gate.Reject(protocol.GateSchema, protocol.ReasonSchemaViolation, "refundable_cents %v or amount_cents %v is not a number", order["refundable_cents"], amount)
	}
	if want.Cmp(balance) > 0 {
		return refused(protocol.ReasonAmountExceedsBalance, "amount_cents %s exceeds refundable_cents %s", amount, order["refundable_cents"])
	}
	if currency, _ := order["currency"].(string); currency != refundCurrency {
		return refused(protocol.ReasonCurrencyMismatch, "order currency %.8q, want %s", currency, refundCurrency)
	}
	return nil
}

// exact returns a parsed JSON number as an exact rational.
func exact(v any) (*big.Rat, bool) {
	n, ok := v.(json.Number)
	if !ok {
		return nil, false
	}
	return new(big.Rat).SetString(string(n))
}

// plainAmountPattern is how an integer amount is written: no sign, no
// fraction, no exponent, no leading zero.
var plainAmountPattern = regexp.MustCompile(`^[1-9][0-9]{0,6}$`)

// plainAmount checks that amount_cents is written as a plain integer: the
// schema's "integer" also admits 500.0 and 5e2, which an amount never is.
func plainAmount(args map[string]any) error {
	n, ok := args["amount_cents"].(json.Number)
	if !ok || !plainAmountPattern.MatchString(string(n)) {
		return fmt.Errorf("amount_cents %.24v is not written as a plain integer", args["amount_cents"])
	}
	return nil
}
