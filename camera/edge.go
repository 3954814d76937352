package camera

import "gocv.io/x/gocv"

// A die cut by the picture's edge (a tray's rim, the camera's field of view) shows part of
// its face, and part of a face can fit a smaller one. The rules here keep such parts unread
// where the finder's blob cannot tell (measured by dice bench --cut); readFaceShaped also
// refuses a face that runs off the picture, and netRead leaves dice near the edge unread
// (netInside).

// whyOutside is the reason a face at the picture's edge is refused (see readFaceShaped).
// A face proposed later from pips (pipDice) beside a candidate refused so may be the part
// of that die the edge leaves (a side face whose top face is cut off): it is not read.
const whyOutside = "die partly outside the picture"

// edgeMargin is how far inside the picture, in sides, a face found from its pips alone must
// lie (see clearOfEdge).
const edgeMargin = 0.1

// clearOfEdge says whether face f lies edgeMargin sides inside the picture. A face proposed
// from its pips (pipDice) has no blob to say the die ends before the picture's edge, and its
// outline on that side is not seen: beyond the edge the picture is replicated (warpFace) or
// counts as dark (grayImg.at). Such a face there may be the part of a cut die its pips fit:
// the row of a 4 or 6 read as a 2 or 3, half a 2 read as a 1.
func clearOfEdge(f rotRect, img gocv.Mat) bool {
	return inPicture(f.grown(edgeMargin*f.side()), img.Cols(), img.Rows())
}

// oneWidthMin is the least width of a 1's blob, in its pip's diameters, that says the die
// is whole when the picture's edge is near. On the shared photos 95% of the 1s fitted have
// blobs wider than 4.8 pips; half a 2 cut through its diagonal left 3.6 to 4.3 in the cut
// photos (dice bench --cut).
const oneWidthMin = 4.5

// cutOne says whether a 1 read on a blob side wide (face f, its pip among pips at used,
// patch scale k) may be the part of a cut die: within a side of the picture's edge, on a
// blob narrower than oneWidthMin pips. A 1's face has no pip spacing to size it, so it takes
// its blob's size, and a cut die's blob is the part the edge left: half a 2 cut through its
// diagonal keeps one pip, and the face fitted to it lies inside the picture.
func cutOne(f rotRect, side float64, pips []pip, used []int, k float64, img gocv.Mat) bool {
	if inPicture(f.grown(f.side()), img.Cols(), img.Rows()) {
		return false
	}
	for _, i := range used {
		if side < oneWidthMin*pips[i].d/k {
			return true
		}
	}
	return false
}

// outlineInPicture says whether the outline of face f, found on each side by a walk from its
// pip (probeOne), lies edgeMargin sides inside the picture: beyond the picture's edge the
// walk sees dark (grayImg.at), so half a 2 cut by the edge ends there as a 1's outline.
func outlineInPicture(f rotRect, img gocv.Mat) bool {
	return sidesInPicture(f, edgeMargin*f.side(), img.Cols(), img.Rows())
}
