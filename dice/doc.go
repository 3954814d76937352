// Package dice reads the real dice in a camera frame of the tray: it finds each die and
// reads its top face with two small neural networks, and says "unreadable" rather than guess.
// The companion, calibration and `cantstop dice read` all read dice through it.
//
//	r, err := dice.NewReader(dice.Opts{Expect: 4, Tray: tray}) // Tray: the profile's box, or empty
//	if err != nil { ... }
//	defer r.Close()
//	rd := r.Read(frame)                                            // one BGR gocv.Mat
//	rd, err = dice.Settle(ctx, src, r, dice.DefaultSettleOpts())   // or: wait until a live tray is still
//	fmt.Println(rd.Status, rd.Values())                            // read [2 3 4 5]
//
// # Pipeline
//
// Read runs three stages on one frame:
//
//  1. Find (detect.go): a CenterNet-style detector looks at a 320×320 letterboxed copy of the
//     frame and gives a heat map of die centres with each die's size; its peaks are the
//     candidates, kept only inside Opts.Tray, less those on spots of the rig itself when the
//     reader has the rig's Background (background.go: the empty tray, from calibration, or
//     learnt from the scenes Settle settles on, learnbackground.go). A
//     candidate not sure enough to be a die but not faint either is looked at closer: the
//     detector runs again on a 128×128 square round it at twice the scale, where it sees a
//     small die whole.
//  2. Read faces (face.go): for each candidate a 40×40 square is cut from the full frame
//     round the die, and the face network gives the probabilities of 1–6 or "no die here",
//     averaged over the square's four quarter turns.
//  3. Decide (decide.go): a sure peak that the face network does not call bare is a die, and so
//     is a closer look that is one, with its face read surely; a die's value is read only when
//     that value's probability is high enough. A sure peak whose face leans to no value is a
//     spot of the scene (a screw head, a stain), passed over; the frame's faces must then be
//     as sure as a closer look's. A die read surely as 1–4 is read again in a square 1.6 times
//     as wide (face.go), and a sure other value there puts it in doubt: a pip of a big die
//     framed alone reads as a 1. A die whose box runs past the frame's edge may be cut off, and
//     part of a die reads as a smaller face: it is not read either. Any unsure face, or a
//     peak not taken as a die whose face the network still reads surely (it may be a missed
//     die), makes the Reading StatusUnreadable; a count other than Opts.Expect is StatusWrongCount.
//
// Settle (settle.go) is how the companion reads a live tray: it waits until the picture stops
// changing, reads each still frame averaged with the still frames before it (stillframes.go),
// and returns the reading that Agree of the last Window frames give; a die read two ways is
// refused. Annotate (annotate.go) draws boxes and values onto a copy of a frame.
//
// # Networks
//
// Both networks are ONNX files embedded in the binary (model/detector.onnx, model/face.onnx,
// with the sizes and thresholds in model/model.json; model.go loads them) and are run by
// OpenCV's dnn module. Opts.Model (--model DIR) loads another folder of the same three files.
// They are trained by `make train` (scripts/dicenet/*.py with Debian's python3-torch, on the
// shared photo sets plus frames drawn by scripts/simframes; `make train-detector` trains the
// detector alone); package dicebench and `cantstop dice bench` measure them.
//
// # Adapting to a rig
//
// The players confirm each reading by playing it, or correct it first. Label turns a reading
// and the confirmed values into Examples (each die's face square, side and value), and Adapt
// fits the rig's own copy of the face network's last layer (head.go) to the newest MaxFit of
// them, pulled back toward the network's own. It reads only once every value has MinPerValue
// examples and it reads the examples held back no worse than the network; then it reads a die
// only where the network leans the same way and the die is of the rig's size, and leaves 1s,
// and dice the network reads more surely, to the network. The examples are kept by package
// calibration (the profile's, from the calibration rolls, and those learnt in play).
//
//	ex := dice.Label(rd, []int{2, 3, 5, 5}) // rd: the reading the players played as 2 3 5 5
//	a, err := r.Adapt(append(profileExamples, ex...))
//	fmt.Println(a.Used, a.Why)
//
// A rig's camera stands still, so its empty tray looks the same in every frame: a
// BackgroundMaker makes a Background from the empty tray and confirmed rolls (their dice
// masked), and SetBackground has the reader drop each detector peak whose spot correlates with
// the background (a screw head, a stain, a printed pip on the tray), which would otherwise make
// frames unreadable. A die on such a spot changes it, so it stays. Without a calibration,
// LearnBackground has the reader make its background itself from the still scenes Settle
// settles on. In a frame where such a spot as strong as a die was dropped and the face network
// does not call it bare, faces are read only at the closer looks' threshold: such spots made
// frames unreadable where the thresholds were tuned, and so had hidden misreads from them.
//
// A Reader may be used from several goroutines (one network pass at a time); Close frees the
// networks' C memory.
package dice
