//go:build race

package canary

// raceEnabled makes the big tests smaller under the race detector, which
// slows them tenfold.
const raceEnabled = true
