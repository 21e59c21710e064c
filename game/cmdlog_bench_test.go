package game

import "testing"

// BenchmarkRecordRound measures what recording one round costs a match
// (saved states): four lists of 20 commands.
func BenchmarkRecordRound(b *testing.B) {
	var cmds [NumSeats][]Command[int8]
	for p := range cmds {
		for i := range 20 {
			cmds[p] = append(cmds[p], Command[int8]{ID: p*20 + i, Dir: 1})
		}
	}
	var log CommandLog[int8]
	for b.Loop() {
		if len(log.Rounds) == 200 {
			log.Rounds = nil
		}
		log.Record(&cmds)
	}
}
