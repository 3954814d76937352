package engine

import "fmt"

var reasonNames = [...]string{
	ReasonNone:            "none",
	ReasonClaimed:         "claimed",
	ReasonTop:             "top",
	ReasonNoRunner:        "no_runner",
	ReasonMustUseBoth:     "must_use_both",
	ReasonOneRunnerLeft:   "one_runner_left",
	ReasonForcedPlacement: "forced_placement",
	ReasonGameOver:        "game_over",
	ReasonStopOnOccupied:  "stop_on_occupied",
	ReasonNoRunnersToStop: "no_runners_to_stop",
}

// String returns a stable English identifier for logs and JSON ("claimed"),
// not a sentence: displays translate reasons themselves.
func (r Reason) String() string {
	if r >= 0 && int(r) < len(reasonNames) {
		return reasonNames[r]
	}
	return fmt.Sprintf("reason(%d)", int(r))
}

// MarshalText writes the identifier, so JSON carries "claimed" rather than 1.
func (r Reason) MarshalText() ([]byte, error) {
	if r < 0 || int(r) >= len(reasonNames) {
		return nil, fmt.Errorf("unknown reason %d", int(r))
	}
	return []byte(reasonNames[r]), nil
}

// UnmarshalText reads an identifier written by MarshalText.
func (r *Reason) UnmarshalText(b []byte) error {
	for i, n := range reasonNames {
		if n == string(b) {
			*r = Reason(i)
			return nil
		}
	}
	return fmt.Errorf("unknown reason %q", b)
}
