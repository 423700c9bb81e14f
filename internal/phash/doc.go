// Package phash computes 64-bit perceptual hashes of screenshots and loads
// screenshot classes: named sets of example screenshots that a contract's
// screenshot_class clause compares the final viewport against.
//
// # Algorithm
//
// The hash is the classic DCT perceptual hash:
//
//  1. Convert every pixel to luminance (Rec. 601 weights; transparent
//     pixels are composited over white, the colour of an unstyled page).
//  2. Shrink to 32x32 cells by area averaging: every cell is the exact
//     mean of the source area it covers, partial pixels weighted by the
//     fraction that falls inside. The cell values do not depend on which
//     source pixels a nearest-neighbour sampler would happen to pick.
//  3. Take the orthonormal 2-D DCT-II of the 32x32 block and keep the 8x8
//     lowest frequencies, the coarse layout of the page.
//  4. Set one bit per kept coefficient: 1 when the coefficient is greater
//     than the median of the 63 AC coefficients. The DC term (overall
//     brightness) is left out of the median because it dwarfs the others
//     and would drag the threshold; its own bit is 1 whenever the mean
//     luminance is above 1/32 (Parseval's theorem bounds the median by
//     the image's variance). With 63 values the median is one of them, so
//     apart from ties exactly 31 AC bits are set.
//
// Bit 63-k holds coefficient k in row-major order (k = 8*vertical +
// horizontal frequency), so the first hex digit of String starts with DC.
//
// # Why a DCT hash
//
// Low DCT frequencies describe where the light and dark masses of a page
// are. They survive lossless re-encoding exactly, and survive small
// rescaling, a pixel or two of shift, noise and slight colour or
// brightness changes with only a few flipped bits, so the Hamming distance
// between two hashes (Distance) is small for two screenshots of the same
// page. They do not survive crops or layout changes, and are not meant to:
// a different layout is a different page. The hash says nothing about
// text content; contracts check text with DOM clauses.
//
// # Limits
//
// The median rule sets about half the bits of any image, so unrelated
// images land about 32 bits apart, and small changes scatter bits rather
// than gather them: the hash can miss a match, but two different pages
// rarely come out close. A judge needs that side of the trade.
//
// The cost falls on images with little structure. When most AC
// coefficients are near zero, the median sits among them and a small
// change flips many bits: a smooth gradient, a blank page with noise, a
// page that is nearly mirror-symmetric (its odd frequencies nearly
// cancel) and then shifts by a pixel. A screenshot class of such pages
// needs examples that match closely. Structure that is exactly constant or
// exactly symmetric gives coefficients that are exactly zero (see dct.go),
// so a blank page of any colour hashes to the DC bit alone, on every
// platform.
//
// # Imports
//
// phash is part of the judge: it imports only the standard library and
// must not import any other package of this module.
package phash
