package simulation

import "fmt"

// SteadyLabel names the state honestly: Karpenter's steady state after how long on the
// simulated clock, or which bound ended the run before one.
func SteadyLabel(v *SteadyState) string {
	switch {
	case v.Steady:
		return fmt.Sprintf("Karpenter's steady state, reached %s after the start (provisioning, emptiness, drift and consolidation emulated; simulated clock)", v.TimeToSteady)
	case v.HitBound:
		return fmt.Sprintf("Karpenter after %d steps, stopped at the iteration bound before a steady state", v.Iterations)
	default:
		return fmt.Sprintf("Karpenter at the horizon, %s after the start, not yet steady", v.TimeToSteady)
	}
}
