package game

import "testing"

func TestParseSearchOptions(t *testing.T) {
	if o, err := ParseSearchOptions("4, 2,8"); err != nil || o != (SearchOptions{Candidates: 4, Rollouts: 2, Horizon: 8}) {
		t.Errorf("ParseSearchOptions(4, 2,8) = %+v, %v", o, err)
	}
	if o, err := ParseSearchOptions("2,3,30,16"); err != nil || o != (SearchOptions{Candidates: 2, Rollouts: 3, Horizon: 30, Screen: 16}) {
		t.Errorf("ParseSearchOptions(2,3,30,16) = %+v, %v", o, err)
	}
	if o, err := ParseSearchOptions("0,3,30,0,2"); err != nil || o != (SearchOptions{Rollouts: 3, Horizon: 30, Sweep: 2}) {
		t.Errorf("ParseSearchOptions(0,3,30,0,2) = %+v, %v", o, err)
	}
	if o, err := ParseSearchOptions("4,2,30,0,0,8"); err != nil || o != (SearchOptions{Candidates: 4, Rollouts: 2, Horizon: 30, Verify: 8}) {
		t.Errorf("ParseSearchOptions(4,2,30,0,0,8) = %+v, %v", o, err)
	}
	for _, bad := range []string{"", "4,2", "4,2,8,1,1,1,1", "4,2,8,0,0,65", "4,2,8,0,0,-1", "4,2,8,0,65", "4,2,8,257", "-1,2,8", "4,0,8", "4,2,0", "65,2,8", "4,2,x", "4,2,1001"} {
		if o, err := ParseSearchOptions(bad); err == nil {
			t.Errorf("ParseSearchOptions(%q) = %+v, want an error", bad, o)
		}
	}
}
