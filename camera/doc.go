// Package camera holds every piece of OpenCV code of the companion except calibration: frame
// sources (V4L2 webcams, Pi cameras through rpicam-vid, GStreamer, files, folders, videos,
// synthetic frames) and the dice reader.
//
// The reader turns one BGR frame into a Reading: every die found, its value, box, pips and
// confidence, and an overall Status. It is built to refuse rather than guess:
//
//  0. With no calibrated tray colour, a dim picture (its brightest half percent below 190 of 255)
//     is first stretched up to that level, at most threefold: the contrasts below are in
//     absolute levels, and a dim rig's dice should read as a well-lit rig's do. An overexposed
//     one (1% of it or more clipped white) cannot be made up: a white die on a pale tray has no
//     edge left. A reading that is not StatusRead, or of no dice at all, then says so in its
//     Why (Overexposed).
//  1. Dice are found in a downscaled copy as regions that stand out from the tray. The tray
//     is modelled from the picture's border (a smooth quadratic per Lab channel) and from its
//     commonest colour; a pixel is foreground when its colour or gradient exceeds the border's
//     own noise. Light falling unevenly (a lamp at one side, a lens darker in its corners)
//     leaves the middle of a tray lighter than the border's surface says: where that leaves
//     much of the tray in the foreground, the same quadratic fitted over the whole picture
//     takes it back, but only away from every edge, so a pale face keeps its outline (lit.go).
//     The die size is estimated from the blobs
//     (twice their inscribed radius, which leaves shadows out); when the blobs not cut by the
//     picture's edge (clutter there hides its size) say another size, both are read and the
//     one with fewer unreadable dice, then more pips per die, wins (dice found where the first
//     size found none must be read surely); so is the size said by each blob voting once (a
//     huddle of dice outweighs the lone dice by area). Such other sizes are tried only from
//     2% of the picture up: a lone speck's vote is no die size. A blob too big for nine dice (a box's
//     frame with its walls in shade) is peeled: the tray's hue with less light is taken out,
//     and dice read there with three or more pips are kept (a 1 or 2 there is refused); one
//     peeled smaller than the picture's dice and unread is read again at their size.
//     Blobs too big for one die are split several ways and the faces decide which split is
//     right (two complete readings that differ make the blob unreadable); a blob with pips
//     that no way of splitting reads is refused when it is no longer than three dice, or a
//     row of die-sized parts up to six long (blobs.go's rowOfDice; a face read from its pips
//     inside such a row replaces it, and a row overlapping a die read is that die's side
//     faces); longer ones are clutter, left out. Holes in the foreground up
//     to a sixth of the picture are faces and pips and are filled; larger ones are a tray's
//     inside, unless nothing was read: then holes up to half the picture are filled and read
//     again (a single die's face from close up, overexposed, taken for a second surface).
//  2. Each die is resampled to a fixed size in its own axes, turned by the 4-fold average of
//     its edge directions when those edges stand out from the tray's texture (else by the
//     blob's rectangle alone). Faces of at most three pips (whose layout says little about
//     the turn) must line up with trusted edges; when the blob's axes and the edges' differ
//     by 15° or more, such a face is read at both angles and two different values make it
//     unreadable. Pips are compact blobs that contrast with the face's own median
//     colour, darker or lighter, any hue; holes from glare are filled; elongated blobs
//     (pips on a foreshortened side face) are dropped. Pips are sought at three thresholds
//     (and in a hue-only map when those read nothing, then in its part along the pips' own
//     hue, for coloured pips on a marbled face); every valid reading must agree.
//  3. The pips must fit one of the canonical 1-6 layouts (any rotation, either orientation of
//     2, 3 and 6), the free places of the 3×3 pip grid must be clear, and in an oblique view
//     the pips left out must lie off the fitted face. A lone pip read as a 1 is refused when
//     a similar blob lies within about half a die side of the face's centre (the partner of a
//     2 or 3 seen turned). A face that fits nothing is unreadable, never rounded to a value.
//     A split of touching dice whose fitted faces overlap (one face's pips taken for two dice)
//     is not a way to cut the blob, and what it read still counts against any other cut.
//     A face on a blob that meets the picture's edge is refused (the die may be cut off, the
//     part left fitting a smaller face, or show a side face whose top face is cut off) unless
//     the blob was taken whole as one die, the face has two pips or more and lies a quarter
//     of its side inside the picture, and along the edge the picture shows nothing but the
//     tray and its shade: a die's shadow reaching the edge (edge.go).
//  4. Dice that do not stand out from the tray (ivory on pale wood) are proposed from their
//     pips: dark spots (a black-hat of the lightness) in groups that fit a layout, away from
//     the dice found. Such a face is kept only when it is paler than its surroundings and
//     ends in an outline on three sides at least (or fits four or more pips and shows no
//     top face beyond an edge: overexposed, face and tray are both white), is no smaller
//     than a blob the finder keeps, holds no pip off its layout, and reads 2 to 6 surely
//     with as many pips as proposed it. A cluster that fits no layout gives the faces inside
//     it (each pair of spots taken as a face's diagonal corners), and a lone spot centred in
//     a square outline proposes a 1 (ones.go). A face read surely replaces the unread blob
//     of its own die (an ambiguous one only for four or more pips, off the picture's edge),
//     unless that blob was refused at the picture's edge (the die may be cut, its pips left
//     fitting a smaller face); a face proposed so must lie a tenth of a side inside the
//     picture, a 1's outline too (beyond the edge no outline can be seen). Any 1 near the
//     edge on a blob too narrow for a whole die's face is refused (half a 2 keeps one pip).
//     When nothing at all was read, the same is done on the picture's negative: dark dice
//     with light pips, as pale as the tray, show there as dark pips on a pale face (a 1
//     only when read surely: a printed dark square's paler centre is no pip).
//  5. A reading must not be part of something bigger: two faces cut from one blob with no
//     seam between them are one die seen obliquely (seam.go), the smaller one straight below
//     the other its side face, left out, else both refused; a 4 whose rows, or a 2 or 3
//     whose line of pips, run on into pips like its own is part of a bigger face
//     (continued.go), and so is a 1 whose pip has pips like it just beyond; a face whose own
//     top face lies beyond one of its edges is a side face (beyond.go). Those pips are sought
//     as dark spots, or as light ones for a die whose pips are lighter than its face; two
//     dice read on one body, one hue and no seam between, are one die's top and side face,
//     both refused unless
//     one is smaller and straight below the other (a camera over the tray sees side faces
//     below their top faces): that one is left out. The pips of one face look alike
//     (contrast, size, roundness, all darker or all lighter than the face, no wider than
//     their spacing allows, a 3's in one line), or the layout fails. Unread
//     candidates with no die's colour or outline, or unlike the dice read when those are all
//     alike, are left out as clutter; without a calibrated tray, a die read unlike three or
//     more alike dice is refused. Alike is judged as seen and with each face's lightness
//     scaled by the tray's round it (alike.go's relit), so dice under a lamp at one side,
//     whose faces differ by the light itself, still count as alike.
//  6. A die on which pips were found that fit no layout is read again with the thin lines
//     lighter than its face taken out of its contrast map (a grey opening by a disc a tenth
//     of the face wide; glare.go): a glossy or translucent die mirrors a lamp's edge as a
//     streak through its pips. The value is kept, marked Glare, when one of the face
//     networks below reads it too (laptop keys' letters, their strokes taken out, leave
//     spots that fit a 2), and not for a candidate unlike the dice read, which step 5 leaves
//     out. A die still refused so (small dice whose coloured pips merge
//     or break up, marbled and translucent bodies, glare), or a lone pip read as a 1 at some
//     pip thresholds only (glare may hide its partner), gets a second look from two small
//     convolutional networks trained alike from different random seeds (facenet.go,
//     netrun.go, netread.go; weights built in, run through OpenCV's dnn, trained offline
//     by scripts/facenet on photos changed as other rigs would). They may overturn only
//     those refusals, and only while the die still carries one: a die refused as a side
//     face, a split read two ways or cut by the picture's edge stays refused, and so does a
//     part of a die read (its candidate within half a side of that die's pip: a blob cut
//     through a die). Its value is taken when, for
//     both networks, all but netDissent of the eight turns and mirrors of the crop pick it
//     (glare does not turn with the die) with a mean probability of netSure, in the square
//     and in one a little wider and one a little narrower. By the same rule, but at netBlankSure with every turn
//     agreeing, it reads the die-sized candidates left out for showing no pips at all (a dark
//     die with dark red pips), or pips in no layout on a way of cutting their blob that lost,
//     a die's side away from every die found (netblank.go). Such a die is marked Net; the
//     checks below still apply to it. ReaderOpts.PipsOnly leaves the network out.
//  7. Every die read is read again in a square a little wider and in one a little narrower
//     (stable.go): a face that reads otherwise in both was read from part of a face, or a face
//     with a side face's pips, and is refused. This costs one face read per die, spent only on
//     a reading that would otherwise be trusted.
//  8. In a photo the networks completed (a die marked Net), each die read from its pips must
//     be read the same by both networks, by the rule of step 6 at netConfirm with no turn
//     dissenting, in its square and the narrower one (the refusal they overturned also hid
//     its errors), or it is refused (netConfirm, also spent only on a reading that would be
//     trusted).
//  9. In a photo the networks did not complete, a 1 or a 6, or a loosely fitted 2 or 3, read
//     from its pips that both networks see as one other value (each glancing at its square
//     first, then over the eight turns at netDoubtSure) is refused: a 2 whose other pip glare
//     took, one pip of a 4, an oblique 5 whose front face's row makes a 6 (netdoubt.go).
//  10. When the only dice refused were refused as ambiguous (pips that fit two faces), steps 4
//     to 9 are run again from the pips alone, with no blob: an ivory die seen obliquely on
//     pale wood has a blob taking in its side faces, and its pips alone propose the top
//     face. That reading is taken only when it reads every die, one to each ambiguous die
//     and one of the same value to each die read, and none elsewhere (resolve.go).
//
// Settle and WatchRolls read a live Source only once consecutive frames are still and agree,
// each read as a running average of the still frames so far (the sensor's noise averaged out); a
// refusal waits for the clearer frames after it, and a die the frames read two ways, or refuse
// for the value the others read, is refused.
// Bench scores the reader on folders of labelled photos (cantstop dice bench), each read once
// or, as the companion reads a still tray, settled over frames with their own sensor noise.
package camera
