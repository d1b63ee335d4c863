package steps

import (
	"context"
	"sync"
	"sync/atomic"

	"github.com/toolcert/toolcert/internal/harness"
)

// minBorrow is how many cases must still wait before a scenario borrows
// another lane for them: fewer are done sooner on the lanes it has.
const minBorrow = 8

// eachOnLanes calls do once for every index below n: on the scenario's
// lane, and on every lane the pool can lend meanwhile (a harness.Lender),
// so that one scenario of many independent cases does not leave the other
// lanes idle once their scenarios are done. A borrowed lane goes back as
// soon as another scenario waits for one. Each index is done once, on one
// lane; do must keep what it finds by index. It returns when every call
// has returned, or, once ctx ends, without starting more.
func (w *world) eachOnLanes(ctx context.Context, n int, do func(lane *harness.Lane, i int)) {
	var next atomic.Int64
	lender, _ := w.suite.Lanes.(harness.Lender)
	var wg sync.WaitGroup
	var work func(lane *harness.Lane, borrowed bool)
	work = func(lane *harness.Lane, borrowed bool) {
		for {
			if borrowed && lender.Wanted() {
				return
			}
			i := int(next.Add(1) - 1)
			if i >= n || ctx.Err() != nil {
				return
			}
			if lender != nil && n-i > minBorrow {
				if l, ok := lender.TryAcquire(ctx); ok {
					wg.Go(func() {
						defer lender.Release(l)
						work(l, true)
					})
				}
			}
			do(lane, i)
		}
	}
	work(w.lane, false)
	wg.Wait()
}
