package steps

import (
	"context"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/toolcert/toolcert/internal/harness"
)

// fakeLender lends its free lanes; wanted says whether another scenario
// waits for one.
type fakeLender struct {
	mu     sync.Mutex
	free   []*harness.Lane
	lent   int
	wanted atomic.Bool
}

func (f *fakeLender) Acquire(context.Context) (*harness.Lane, error) { panic("not used") }

func (f *fakeLender) TryAcquire(context.Context) (*harness.Lane, bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.wanted.Load() || len(f.free) == 0 {
		return nil, false
	}
	l := f.free[len(f.free)-1]
	f.free = f.free[:len(f.free)-1]
	f.lent++
	return l, true
}

func (f *fakeLender) Release(l *harness.Lane) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.free = append(f.free, l)
}

func (f *fakeLender) Wanted() bool { return f.wanted.Load() }

func TestEachOnLanesDoesEveryIndexOnce(t *testing.T) {
	own := &harness.Lane{ID: 0}
	lender := &fakeLender{free: []*harness.Lane{{ID: 1}, {ID: 2}, {ID: 3}}}
	w := &world{suite: &Suite{Lanes: lender}, lane: own}
	const n = 500
	var done [n]atomic.Int32
	var mu sync.Mutex
	used := map[int]bool{}
	w.eachOnLanes(context.Background(), n, func(l *harness.Lane, i int) {
		done[i].Add(1)
		mu.Lock()
		used[l.ID] = true
		mu.Unlock()
		time.Sleep(50 * time.Microsecond) // long enough for the borrowed lanes to take a share
	})
	for i := range done {
		if got := done[i].Load(); got != 1 {
			t.Fatalf("index %d done %d times, want once", i, got)
		}
	}
	if lender.lent == 0 || len(used) < 2 {
		t.Errorf("lent %d lanes, used lanes %v: the free lanes took no share", lender.lent, used)
	}
	if len(lender.free) != 3 {
		t.Errorf("%d lanes back in the pool after the run, want all 3", len(lender.free))
	}
}

func TestEachOnLanesGivesBorrowedLanesBack(t *testing.T) {
	own := &harness.Lane{ID: 0}
	lender := &fakeLender{free: []*harness.Lane{{ID: 1}}}
	w := &world{suite: &Suite{Lanes: lender}, lane: own}
	const n = 400
	var mu sync.Mutex
	afterWanted := map[int]int{} // cases per lane once another scenario waits
	var count atomic.Int32
	w.eachOnLanes(context.Background(), n, func(l *harness.Lane, i int) {
		if count.Add(1) == n/4 {
			lender.wanted.Store(true)
		}
		if lender.wanted.Load() {
			mu.Lock()
			afterWanted[l.ID]++
			mu.Unlock()
		}
		time.Sleep(50 * time.Microsecond)
	})
	if lender.lent == 0 {
		t.Fatal("the free lane was never lent")
	}
	// A borrowed lane finishes the case it has when another scenario
	// starts to wait, and takes no more.
	if afterWanted[1] > 1 {
		t.Errorf("the borrowed lane ran %d cases after another scenario waited, want at most 1", afterWanted[1])
	}
	if afterWanted[0] == 0 {
		t.Error("the scenario's own lane stopped when another scenario waited: it must finish the cases")
	}
}

func TestEachOnLanesStopsWithItsContext(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	w := &world{suite: &Suite{Lanes: &fakeLender{}}, lane: &harness.Lane{}}
	ran := 0
	w.eachOnLanes(ctx, 100, func(*harness.Lane, int) {
		ran++
		if ran == 3 {
			cancel()
		}
	})
	if ran != 3 {
		t.Errorf("%d calls, want 3: none starts once the context ends", ran)
	}
}

func TestEachOnLanesWithoutALender(t *testing.T) {
	w := &world{suite: &Suite{}, lane: &harness.Lane{}}
	var got []int
	w.eachOnLanes(context.Background(), 20, func(_ *harness.Lane, i int) { got = append(got, i) })
	for i, v := range got {
		if v != i {
			t.Fatalf("without a lender the cases run in order on the scenario's lane; got %v", got)
		}
	}
	if len(got) != 20 {
		t.Errorf("%d calls, want 20", len(got))
	}
}
