package companion

import (
	"os"
	"testing"
)

func TestMain(m *testing.M) {
	if dir := os.Getenv(journalHelperEnv); dir != "" {
		journalHelper(dir)
		return
	}
	if dir := os.Getenv(gameHelperEnv); dir != "" {
		gameHelper(dir)
		return
	}
	os.Exit(m.Run())
}
