package display

import (
	"strings"
	"testing"

	"periph.io/x/devices/v3/ssd1306/image1bit"
)

// TestRenderReportsProblems: text too wide, a body too long to fit and a
// rune the font lacks are errors, and the screen is drawn all the same.
func TestRenderReportsProblems(t *testing.T) {
	for _, c := range []struct {
		name string
		s    Screen
		want string
	}{
		{"long title", Screen{Kind: KindTurn, Players: []Player{{Name: "Maximilian-Alexander"}}}, "title"},
		{"long item", Screen{Kind: KindRollOff, Players: []Player{{Name: "Maximilian-Alexander"}}, RollOff: RollOff{Rolls: [][2]int{{1, 2}}}}, "item"},
		{"long word", Screen{Kind: KindBust, Players: []Player{{Name: "A"}, {Name: "Maximilian-Alexander-Friedrich"}}, Next: 1}, "word"},
		{"big text", Screen{Kind: KindWinner, Players: []Player{{Name: "Maximiliane"}}}, "big text"},
		{"missing glyph", Screen{Kind: KindTurn, Players: []Player{{Name: "A\U0010FFF0"}}}, "no glyph"},
		{"too many rows", Screen{Kind: KindRules, Players: []Player{{Name: strings.Repeat("Ann ", 20)}}, Refusals: sampleNamed(t, "rules").Refusals}, "rows"},
		{"unknown kind", Screen{Kind: numKinds}, "unknown"},
	} {
		img, err := Render(c.s, English)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one about %q", c.name, err, c.want)
		}
		if img == nil || img.Bounds().Dx() != Width || img.Bounds().Dy() != Height {
			t.Errorf("%s: no 128×64 image drawn", c.name)
		}
	}
}

// TestRenderIsOneBit: every glyph pixel is either set or not, so the
// image has exactly the ink of the font's mask at threshold.
func TestRenderIsOneBit(t *testing.T) {
	img, err := Render(Screen{Kind: KindDice, Dice: [4]int{1, 2, 3, 4}, DiceRead: true}, English)
	if err != nil {
		t.Fatal(err)
	}
	on := 0
	for y := 0; y < Height; y++ {
		for x := 0; x < Width; x++ {
			if img.BitAt(x, y) == image1bit.On {
				on++
			}
		}
	}
	if on == 0 || on == Width*Height {
		t.Fatalf("%d pixels on: nothing drawn", on)
	}
}

func TestWrap(t *testing.T) {
	rows, err := wrap("Place a runner in 10, space 1", textWidth, false)
	if err != nil || len(rows) != 2 || rows[0] != "Place a runner" || rows[1] != "in 10, space 1" {
		t.Errorf("wrap: %q, %v", rows, err)
	}
	rows, err = wrap("/a/very/long/path/that/does/not/fit/anywhere", textWidth, true)
	if err != nil || len(rows) != 3 || measure(rows[0]) > textWidth {
		t.Errorf("hard wrap: %q, %v", rows, err)
	}
	if _, err := wrap("/a/very/long/path/that/does/not/fit/anywhere", textWidth, false); err == nil {
		t.Error("a word wider than a row: no error")
	}
}

func TestChoiceText(t *testing.T) {
	ch := sampleNamed(t, "choices-one").Choices // 6+8, 5 (not 9), 9 (not 5), 7+7
	en, _ := translator(English)
	want := []string{"6+8", "5 (not 9)", "9 (not 5)", "7+7"}
	for i, c := range ch {
		if got := choiceText(c, ch, en); got != want[i] {
			t.Errorf("choice %d: %q, want %q", i, got, want[i])
		}
	}
	if got := choiceText(ch[1], ch[1:2], en); got != "5 only" {
		t.Errorf("lone single sum: %q", got)
	}
}

func TestPercent(t *testing.T) {
	en, _ := translator(English)
	for _, c := range []struct {
		bust, rolls int
		want        string
	}{{0, 1296, "0%"}, {4, 1296, "<1%"}, {104, 1296, "8%"}, {648, 1296, "50%"}, {1295, 1296, ">99%"}, {1296, 1296, "100%"}} {
		if got := percent(c.bust, c.rolls, en); got != c.want {
			t.Errorf("%d/%d: %q, want %q", c.bust, c.rolls, got, c.want)
		}
	}
}

func TestWrapKeepsNumbersWithTheirWord(t *testing.T) {
	rows, err := wrap("Le marqueur du 6 monte en case 2 tout de suite", textWidth, false)
	if err != nil || rows[0] != "Le marqueur du 6" || !strings.HasPrefix(rows[1], "monte en case 2") {
		t.Errorf("%q, %v", rows, err)
	}
	rows, _ = wrap("Jeton du 8 : colonne remportée par Anna !", textWidth, false)
	if last := rows[len(rows)-1]; last == "!" {
		t.Errorf("%q: a lone punctuation row", rows)
	}
}

func TestWrapArrowStaysWithItsTarget(t *testing.T) {
	rows, _ := wrap("Segnalino in 6 → spazio 2", textWidth, false)
	if len(rows) != 2 || strings.HasSuffix(rows[0], "→") || !hasGlyph('\u00a0') {
		t.Errorf("%q", rows)
	}
}

// TestDrawLongNames: three tied players with names of the longest advised
// length (8 runes) still fit: the names wrap and the per-player count gives
// way, in every language.
func TestDrawLongNames(t *testing.T) {
	long := []Player{{Name: "Мария-Ан", Claimed: []int{2, 3, 4}}, {Name: "Giuseppe", Claimed: []int{5, 6, 7}},
		{Name: "Françoi", Claimed: []int{8, 9, 10}}, {Name: "Wolfgang", Claimed: []int{11, 12}}}
	s := Screen{Kind: KindWinner, Draw: true, Players: long}
	for _, l := range Languages() {
		if _, err := Render(s, l); err != nil {
			t.Errorf("%s: %v", l, err)
		}
		tl, _ := translator(l)
		c, _ := compose(s, tl)
		f, _ := fit(c)
		var shown []string
		for _, r := range f.rows {
			shown = append(shown, r.text)
		}
		got := strings.Join(shown, " ")
		for _, name := range []string{"Мария-Ан", "Giuseppe", "Françoi"} {
			if !strings.Contains(got, name) {
				t.Errorf("%s: %s not shown: %q", l, name, shown)
			}
		}
		if strings.Contains(got, "Wolfgang") {
			t.Errorf("%s: Wolfgang (2 columns) shown among the tied: %q", l, shown)
		}
	}
}
