package clitool

import "strconv"

// Plural counts n of word, adding an s for any count but one: "1 pool", "2 pools".
func Plural(n int, word string) string { return PluralWord(n, word, word+"s") }

// PluralWord counts n with the singular or the plural given.
func PluralWord(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.Itoa(n) + " " + many
}
