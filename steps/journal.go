package steps

import (
	"fmt"
	"slices"

	"github.com/toolcert/toolcert/mocks"
	"github.com/toolcert/toolcert/reports"
)

// requests counts the requests the lane's upstream received since the
// scenario began, including any past the journal's bounds, but for those
// a side route answered: a client's discovery or whoami is its own, not
// an attempt of the tool's call (docs/fixtures.md, "Side routes").
func (w *world) requests() int {
	return w.lane.Upstream.Received() - w.lane.Upstream.SideReceived()
}

// toolJournal is the lane's journal without the requests side routes
// answered.
func (w *world) toolJournal() []mocks.Entry {
	return slices.DeleteFunc(w.lane.Upstream.Journal(), mocks.Entry.Side)
}

// ownRequests counts the requests of the scenario's own call; the lane's
// journal holds only the last generated variant's when the scenario ran
// variants and made no call of its own.
func (w *world) ownRequests() int {
	if w.call == nil {
		return 0
	}
	return w.requests()
}

func (w *world) received(n int) error {
	if got := w.requests(); got != n {
		return w.note(reports.EvidenceJournal, "the upstream received %d request(s), want %d", got, n)
	}
	return nil
}

// receivedNone asserts that nothing reached the upstream so far, and
// counts the scenario (and what reached anyway) for the run's summary.
func (w *world) receivedNone() error {
	w.mustNotReach = true
	w.blockedRequests = max(w.blockedRequests, w.requests())
	return w.received(0)
}

func (w *world) receivedBudget() error { return w.received(w.suite.Profile.MaxAttempts) }

func (w *world) receivedAtMostBudget() error {
	got, budget := w.requests(), w.suite.Profile.MaxAttempts
	if got > budget {
		return w.note(reports.EvidenceJournal, "the upstream received %d requests, above the adapter's attempt budget of %d", got, budget)
	}
	if got == 0 {
		return w.note(reports.EvidenceJournal, "the upstream received no request at all (%s)%s", connected(w.lane.Upstream.Connections()), machineNote(w.call))
	}
	return nil
}

// connected says how many connections reached the mock.
func connected(n int) string {
	switch n {
	case 0:
		return "no connection reached it either: the adapter never dialled it, or its dial did not get through"
	case 1:
		return "1 connection reached it, and sent no whole request"
	}
	return fmt.Sprintf("%d connections reached it, and sent no whole request", n)
}

// stoppedReading checks that the adapter hung up before the mock could
// write the whole body of its last answer: it read with a limit.
func (w *world) stoppedReading() error {
	j := w.toolJournal()
	if len(j) == 0 {
		return w.note(reports.EvidenceJournal, "the upstream received no request")
	}
	last := j[len(j)-1]
	size := int64(0)
	if w.last != nil {
		size = max(w.last.Generate, int64(len(w.last.Body)))
	}
	if last.Served.BodyBytes >= size {
		return w.note(reports.EvidenceJournal, "the adapter read the whole body (%d of %d bytes written) instead of stopping at its byte limit", last.Served.BodyBytes, size)
	}
	return nil
}

// journalSteps registers the Then steps that read the mock upstream's
// journal. How many attempts an adapter makes within its budget is
// protocol v1's retry policy (strict only); at most the budget, and none
// for a call that is refused, hold at every level.
func journalSteps(r *registrar) {
	r.strictAssert(`^the upstream received (\d+) requests?$`, on((*world).received))
	r.assert(`^the upstream received no request$`, on((*world).receivedNone))
	r.strictAssert(`^the upstream received exactly the adapter's attempt budget of requests$`, on((*world).receivedBudget))
	r.assert(`^the upstream received at most the adapter's attempt budget of requests$`, on((*world).receivedAtMostBudget))
	r.assert(`^the adapter stopped reading before the end of the body$`, on((*world).stoppedReading))
}
