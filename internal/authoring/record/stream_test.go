package record

import (
	"bytes"
	"testing"
)

func TestKeeperBounded(t *testing.T) {
	cases := []struct {
		name, why string
		limit     int64
		chunks    []int
	}{
		{"big chunks", "a chunk larger than the limit is cut", 1000, []int{32 << 10, 32 << 10}},
		{"small chunks", "growing by doubling stops at the limit", 1000, []int{300, 300, 300, 300, 300}},
		{"exact", "a body of exactly the limit is kept whole", 1000, []int{500, 500}},
		{"nothing kept", "a limit of 0 keeps nothing but still counts", 0, []int{10, 10}},
	}
	for _, c := range cases {
		k := keeper{limit: c.limit}
		var all []byte
		for i, n := range c.chunks {
			p := bytes.Repeat([]byte{byte('a' + i)}, n)
			all = append(all, p...)
			k.keep(p)
			if int64(cap(k.kept)) > c.limit {
				t.Errorf("%s: capacity %d past the limit %d (%s)", c.name, cap(k.kept), c.limit, c.why)
			}
		}
		if k.total != int64(len(all)) || !bytes.Equal(k.kept, all[:min(int64(len(all)), c.limit)]) {
			t.Errorf("%s: kept %d of %d bytes, total %d (%s)", c.name, len(k.kept), len(all), k.total, c.why)
		}
	}
}
