package camera

import (
	"image"
	"math"

	"gocv.io/x/gocv"
)

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

// shadowMargin is how far inside the picture, in sides, a face read on a blob that meets the
// picture's edge must lie for that blob to be taken whole (see wholeAtEdge). A 6 cut through
// its column leaves three pips in a line, a 4 cut so leaves two, that fit a 3 or a 2 turned
// by 45°: the face fitted to them reaches to within 0.1 of its side of the cut.
const shadowMargin = 0.25

// edgeChordMax is the longest stretch of the picture's edge, in die sides, along which a
// blob taken whole may show anything but the tray or its shade (see bodyChord). A die cut by
// the edge meets it along a chord of its body (0.6 of a side or more where 0.3 of it is cut
// off, corner first); a die whose shadow alone reaches the edge shows none of it there.
const edgeChordMax = 0.2

// wholeAtEdge says whether face f, read with value v on candidate c whose blob meets the
// picture's edge, is a whole die all the same: its blob was taken whole as one die (one die's
// area, square and filled), the face has two pips or more (a 1 is what half a 2 leaves), it
// lies shadowMargin sides inside the picture, and along the edge the blob meets, the
// picture shows no more than edgeChordMax sides of anything but the tray or its shade: what
// reaches the edge is the die's shadow. A die lit from the side throws its shadow a long way;
// one near the view's edge is then read instead of refused (IMG_20191209_095545's black 4).
func wholeAtEdge(img gocv.Mat, c cand, f rotRect, v int) bool {
	if !c.lone || v < 2 || !inPicture(f.grown(shadowMargin*f.side()), img.Cols(), img.Rows()) {
		return false
	}
	side := f.side()
	runs := edgesMet(c.r, img.Cols(), img.Rows())
	for _, e := range runs {
		if bodyChord(img, e) > edgeChordMax*side {
			return false
		}
	}
	return len(runs) > 0 // else no edge to look along: refused as before
}

// edgeRun is a stretch of one of the picture's four edges: the pixels (x, y0..y1) of a
// column or (x0..x1, y) of a row, as an image.Rectangle one pixel thick, with the length of
// edge beside it (the same row or column, a side before and after) that shows the tray.
type edgeRun struct {
	at, around image.Rectangle
}

// edgesMet returns the stretches of the picture's edges that rectangle r reaches, within a
// tenth of its side (3 px at least): a blob's rectangle, found in the downscaled copy the
// dice are searched in, ends up to a pixel of that copy short of the edge it touches.
func edgesMet(r rotRect, w, h int) []edgeRun {
	x0, y0, x1, y1 := r.bounds()
	lo := func(a float64) int { return max(0, int(math.Floor(a))) }
	hi := func(a, n float64) int { return min(int(n), int(math.Ceil(a))+1) }
	d := r.side()
	tol := math.Max(3, d/10)
	var out []edgeRun
	add := func(at, around image.Rectangle) { out = append(out, edgeRun{at: at, around: around}) }
	if x0 <= tol {
		add(image.Rect(0, lo(y0), 1, hi(y1, float64(h))), image.Rect(0, lo(y0-d), 1, hi(y1+d, float64(h))))
	}
	if x1 >= float64(w-1)-tol {
		add(image.Rect(w-1, lo(y0), w, hi(y1, float64(h))), image.Rect(w-1, lo(y0-d), w, hi(y1+d, float64(h))))
	}
	if y0 <= tol {
		add(image.Rect(lo(x0), 0, hi(x1, float64(w)), 1), image.Rect(lo(x0-d), 0, hi(x1+d, float64(w)), 1))
	}
	if y1 >= float64(h-1)-tol {
		add(image.Rect(lo(x0), h-1, hi(x1, float64(w)), h), image.Rect(lo(x0-d), h-1, hi(x1+d, float64(w)), h))
	}
	return out
}

// bodyChord returns how many pixels of stretch e show something other than the tray or
// the tray in shade: the tray's colour is the median of the edge beside the stretch, and
// shade keeps its hue with less light, down to shadeMin of it (as the tray model's shade
// does). A die's shadow darkens the tray; a die's body, a top face paler than the tray or a
// dark die, is neither.
func bodyChord(img gocv.Mat, e edgeRun) float64 {
	strip := labOf(img, e.around)
	w := e.around.Dx()
	at := func(i int) bool { return e.around.Min.Add(image.Pt(i%w, i/w)).In(e.at) }
	var tray [3]byteHist
	for i := 0; i < len(strip)/3; i++ {
		if !at(i) {
			for ch := range tray {
				tray[ch].add(strip[3*i+ch])
			}
		}
	}
	if tray[0].n == 0 {
		return float64(e.at.Dx() * e.at.Dy()) // no tray beside it to tell the body from
	}
	t := [3]float64{tray[0].median(), tray[1].median(), tray[2].median()}
	body := 0.0
	for i := 0; i < len(strip)/3; i++ {
		if !at(i) {
			continue
		}
		dL := float64(strip[3*i]) - t[0]
		da, db := float64(strip[3*i+1])-t[1], float64(strip[3*i+2])-t[2]
		if da*da+db*db > edgeHueTol*edgeHueTol || dL > edgeLightTol || dL < -(1-shadeMin)*t[0] {
			body++
		}
	}
	return body
}

// edgeHueTol and edgeLightTol are how far, in 8-bit Lab levels, a pixel of the picture's edge
// may differ from the tray beside it in hue, and be lighter, and still be the tray. Where the
// shadows of IMG_20191209_095545 and 095721 reach the edge they shift the tray's hue by up to
// 6 levels and lighten it by 3 at most; the ivory dice of matteop65 cut through their top
// faces (dice bench --cut) show the edge 23 to 48 levels lighter than the wood beside it.
const (
	edgeHueTol   = 8
	edgeLightTol = 10
)

// labOf returns the 8-bit Lab bytes of region r of BGR picture img.
func labOf(img gocv.Mat, r image.Rectangle) []byte {
	if r.Empty() {
		return nil
	}
	part := img.Region(r)
	defer part.Close()
	return toLab(part).p
}
