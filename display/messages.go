package display

// msg names one translatable message. Values are fmt formats; "|" separates
// plural forms (see tr.n). Explicit argument indexes (%[2]s) reorder words.
type msg int

const (
	mLangName msg = iota
	mRed          // colours, in Colour order
	mBlue
	mGreen
	mYellow
	mOrange
	mPurple
	mWhite
	mBlack
	mOn
	mOff
	mNone

	mTSetup
	mTWhoStarts
	mTTie
	mTStarts
	mTTurn
	mTDice
	mTChoose
	mTMove
	mTStop
	mTGameOver
	mTOdds
	mTWhyNot
	mTMenu
	mTCorrect

	mSetPlayers
	mSetWin
	mSetSkip
	mSetNoStop
	mSetForced
	mSetLang
	mSetStart

	mColour
	mRunnersLeft
	mColumns
	mHintRoll
	mUnreadable
	mHintChoose
	mOnly
	mInstead
	mPlace
	mAdvance
	mHintAfterMove
	mPiece
	mClaim
	mRemove
	mBust
	mBustText
	mWinsWith
	mMostColumns
	mDraw
	mEach
	mPercent
	mBustChance
	mOfRolls

	mSums
	mRClaimed
	mRTop
	mRNoRunner
	mRMustUseBoth
	mROneRunnerLeft
	mRForced
	mRGameOver
	mRStopOccupied
	mRNoRunnersStop
	mRNone
	mRNoRefusals

	mMCorrect // menu items, in MenuItem order
	mMUndo
	mMRules
	mMOdds
	mMNewGame
	mMCalibrate
	mMBack
	mCorrectHint
	mCorrectDone
	mCorrectUnsure

	mSTError // status titles, in Status order
	mSTCamera
	mSTReading
	mSTSettle
	mSTCount
	mSTSave
	mSTResumed
	mSTReady
	mSTNewGame
	mSTCalEmpty
	mSTCalTray
	mSTCalRoll
	mSTCalKeep
	mSTCalLearn
	mSTCalDone
	mSTCalibrate
	mSBError // status explanations, in Status order
	mSBCamera
	mSBReading
	mSBSettle
	mSBCount
	mSBSave
	mSBResumed
	mSBReady
	mSBNewGame
	mSBCalEmpty
	mSBCalTray
	mSBCalRoll
	mSBCalKeep
	mSBCalLearn
	mSBCalDone
	mSBCalibrate
	mBustOdds
	mHintBust
	mNextOK
	mHintOK
	mHintRollOff
	mHintStart
	mTTray
	mTEdgeLeft // in the order of EdgeLeft..EdgeBottom
	mTEdgeTop
	mTEdgeRight
	mTEdgeBottom
	mTrayUse // the tray screen's hints: a row each beside its picture, 10 characters at most
	mTrayFix
	mTrayQuit
	mTrayMove
	mTrayNext

	numMsgs
)

// catalog holds every message in every language; TestCatalogComplete fails
// on a missing one. Game terms follow each language's rule sheet in
// ../shared/rules/seeds (see the comment above each table).
var catalog = map[Lang]*[numMsgs]string{
	English: &en, Italian: &it, French: &fr, Russian: &ru, Dutch: &nl, Spanish: &es, German: &de,
}
