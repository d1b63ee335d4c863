package openapi

import (
	"slices"
	"strings"
)

// maxCompared bounds the length of the strings closest compares.
const maxCompared = 256

// closest returns the indexes of the at most n keys nearest to want by
// edit distance, nearest first, ties in key order; empty keys are
// skipped.
func closest(want string, keys []string, n int) []int {
	want = clip(strings.ToLower(want))
	type scored struct{ i, d int }
	var all []scored
	for i, k := range keys {
		if k == "" {
			continue
		}
		all = append(all, scored{i, distance(want, clip(strings.ToLower(k)))})
	}
	slices.SortStableFunc(all, func(a, b scored) int { return a.d - b.d })
	var out []int
	for _, s := range all[:min(n, len(all))] {
		out = append(out, s.i)
	}
	return out
}

// clip cuts s to maxCompared bytes.
func clip(s string) string {
	if len(s) > maxCompared {
		return s[:maxCompared]
	}
	return s
}

// distance returns the Levenshtein distance between a and b, by bytes.
func distance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
