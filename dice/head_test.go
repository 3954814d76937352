package dice

import "testing"

// TestAgreed: the rig's head reads a value surely only where the network leans to the same
// value at netFloor or more, and reads it surely or the head is at least th.Look sure; a 1 stays
// the network's.
func TestAgreed(t *testing.T) {
	probs := func(v int, p float64) [7]float64 {
		var out [7]float64
		out[v] = p
		for j := 1; j <= 6; j++ {
			if j != v {
				out[j] = (1 - p) / 5
			}
		}
		return out
	}
	cases := []struct {
		name      string
		head, net [7]float64
		want      float64 // the head's probability of its value, as agreed
	}{
		{"the network leans 0.8 the same way", probs(3, 0.995), probs(3, 0.8), 0.995},
		{"the network leans 0.8 the same way, the head under th.Look", probs(3, 0.98), probs(3, 0.8), 0.5},
		{"the network reads it surely, the head under th.Look", probs(3, 0.9), probs(3, 0.9), 0.9},
		{"the network reads it more surely than the head", probs(3, 0.7), probs(3, 0.95), 0.95},
		{"the network leans the same way, unsurely", probs(3, 0.7), probs(3, 0.8), 0.5},
		{"the network leans only 0.79", probs(3, 0.995), probs(3, 0.79), 0.5},
		{"the network leans only 0.6", probs(3, 0.995), probs(3, 0.6), 0.5},
		{"the network leans another way", probs(3, 0.99), probs(2, 0.9), 0.5},
		{"a 1 is the network's", probs(1, 0.99), probs(1, 0.6), 0.6},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got := agreed(tc.head, tc.net, thresholds{Face: 0.85, Look: 0.99})
			v := topValue(tc.head)
			if got[v] != tc.want {
				t.Errorf("p[%d] = %.2f, want %.2f", v, got[v], tc.want)
			}
		})
	}
}
