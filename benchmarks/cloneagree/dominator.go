package main

import (
	"bytes"
	"fmt"

	"jgym/env/dominator"
)

// dominatorGame measures Dominator's clone.
type dominatorGame struct{}

func (dominatorGame) agree(cmd []byte, seed int, bot string) (tally, error) {
	var t tally
	log, err := dominator.ParseCommandLog(bytes.NewReader(cmd))
	if err != nil {
		return t, err
	}
	f, err := dominator.LookupBot(bot)
	if err != nil {
		return t, err
	}
	g, err := dominator.New(dominator.DefaultConfig(), seed)
	if err != nil {
		return t, err
	}
	var bots [dominator.NumPlayers]dominator.Bot
	for p := range bots {
		bots[p] = f(p, seed)
	}
	var view dominator.State
	var o dominator.Orders
	for r := 0; !g.Done(); r++ {
		if !log.Complete(r) {
			return t, fmt.Errorf("round %d: the command file is incomplete", r)
		}
		for p, b := range bots {
			g.State.View(p, &view)
			o.Reset(len(g.Units))
			b.Play(&view, &o)
			compare(&t, &view, o.List(), log.Round(r)[p])
		}
		if err := g.Step(log.Round(r)); err != nil {
			return t, err
		}
	}
	return t, nil
}

// compare counts the agreement of one seat's list got with the Dummy's
// want, on the seat's view v.
func compare(t *tally, v *dominator.State, got, want []dominator.Command) {
	t.lists++
	same := len(got) == len(want)
	for i := range got {
		same = same && got[i] == want[i]
	}
	if same {
		t.ok++
	}
	dirs := func(l []dominator.Command) map[int]dominator.Dir {
		m := make(map[int]dominator.Dir, len(l))
		for _, c := range l {
			m[c.ID] = c.Dir
		}
		return m
	}
	g, w := dirs(got), dirs(want)
	units := map[int]bool{}
	for _, l := range [][]int{v.Witches[0], v.Farmers[0], v.Knights[0]} {
		for _, id := range l {
			units[id] = true
		}
	}
	for id := range g {
		units[id] = true
	}
	for id := range w {
		units[id] = true
	}
	for id := range units {
		kind := "other"
		if id >= 0 && id < len(v.Units) {
			kind = v.Units[id].Type.String()
		}
		gd, gok := g[id]
		wd, wok := w[id]
		t.unit(kind, gok == wok && gd == wd)
	}
}

func (dominatorGame) selfPlay(res []byte, seed int, bot string) (clone, course []int, same bool, err error) {
	tr, err := dominator.ParseTrace(bytes.NewReader(res))
	if err != nil {
		return nil, nil, false, err
	}
	f, err := dominator.LookupBot(bot)
	if err != nil {
		return nil, nil, false, err
	}
	var bots [dominator.NumPlayers]dominator.Bot
	for p := range bots {
		bots[p] = f(p, seed)
	}
	m, err := dominator.NewMatchWithBots(dominator.DefaultConfig(), seed, tr.Names, bots)
	if err != nil {
		return nil, nil, false, err
	}
	var buf bytes.Buffer
	m.WriteTrace(&buf)
	if err := m.Run(); err != nil {
		return nil, nil, false, err
	}
	final := tr.States[len(tr.States)-1].TotalScore
	for p := 0; p < dominator.NumPlayers; p++ {
		clone = append(clone, m.TotalScore[p])
		course = append(course, final[p])
	}
	return clone, course, bytes.Equal(buf.Bytes(), res), nil
}
