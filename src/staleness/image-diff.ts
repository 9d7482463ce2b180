// The perceptual difference of two pictures of a step: the same part of each, shrunk to grey, compared pixel by pixel, allowing the whole picture a one-pixel shift. Sharp does the decoding and resizing in its own threads.
import sharp from 'sharp';

/** A box in fractions (0..1) of an image, as hotspots are. */
export interface FractionBox {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** Grey levels (0..255) two pixels may differ by and still count as the same: anti-aliasing, not change. */
const TOLERANCE = 48;
/** The longer side of the pictures compared: small enough to ignore sub-pixel shifts, large enough to see a word change. */
const COMPARE_SIZE = 160;
const WHOLE: FractionBox = { x: 0, y: 0, width: 1, height: 1 };

/**
 * The share (0..1) of pixels that differ between the `boxA` part of image `a` and the `boxB` part of
 * image `b`, both resized to the same small grey picture. 0 is identical (re-rendering the same page gives
 * exactly 0); a word added to a full-width heading is about 0.03, another label on a button 0.1 or more.
 *
 * @example
 * await pictureDifference(oldPng, hotspotBox, newPng, newHotspotBox); // 0.23
 */
export async function pictureDifference(a: Buffer, boxA: FractionBox | null, b: Buffer, boxB: FractionBox | null): Promise<number> {
  const [metaA, metaB] = await Promise.all([sharp(a).metadata(), sharp(b).metadata()]);
  const regionA = pixels(boxA ?? WHOLE, metaA.width ?? 0, metaA.height ?? 0);
  if (!regionA) return 1;
  // The same number of pixels from both, placed where each box starts: a box that only moved shows the same picture.
  const regionB = placed(boxB ?? WHOLE, regionA, metaB.width ?? 0, metaB.height ?? 0);
  if (!regionB) return 1;
  const scale = Math.min(1, COMPARE_SIZE / Math.max(regionA.width, regionA.height));
  const width = Math.max(1, Math.round(regionA.width * scale));
  const height = Math.max(1, Math.round(regionA.height * scale));
  const grey = (image: Buffer, region: Region) => sharp(image).extract(region).resize(width, height, { fit: 'fill' }).greyscale().raw().toBuffer();
  const [greyA, greyB] = await Promise.all([grey(a, regionA), grey(b, regionB)]);
  const differing = bestShiftDifference(greyA, greyB, width, height);
  return round(differing / greyA.length);
}

/**
 * Pixels that differ by more than TOLERANCE with `b` laid on `a` as is, or moved by one pixel in any
 * direction, whichever fits best: the whole picture shifted by a pixel (sub-pixel layout, rounded boxes)
 * matches itself, while a changed word still differs. Pixels `b` does not cover at a shift count as differing.
 */
function bestShiftDifference(a: Buffer, b: Buffer, width: number, height: number): number {
  let best = a.length;
  for (let dy = -1; dy <= 1; dy++) {
    for (let dx = -1; dx <= 1; dx++) {
      // A shift leaves one row or column uncovered: it is not a difference of the picture.
      const uncovered = (dx !== 0 ? height : 0) + (dy !== 0 ? width : 0) - (dx !== 0 && dy !== 0 ? 1 : 0);
      let count = 0;
      for (let row = 0; row < height && count - uncovered < best; row++) {
        const r = row + dy;
        for (let col = 0; col < width; col++) {
          const c = col + dx;
          if (r < 0 || r >= height || c < 0 || c >= width || Math.abs(a[row * width + col]! - b[r * width + c]!) > TOLERANCE) count++;
        }
      }
      best = Math.min(best, Math.max(0, count - uncovered));
    }
  }
  return best;
}

interface Region {
  left: number;
  top: number;
  width: number;
  height: number;
}

/** A region of `size`'s pixel size at `box`'s rounded position, moved inside the image if it overhangs. */
function placed(box: FractionBox, size: Region, width: number, height: number): Region | null {
  if (size.width > width || size.height > height) return null;
  const left = Math.min(Math.max(0, Math.round(box.x * width)), width - size.width);
  const top = Math.min(Math.max(0, Math.round(box.y * height)), height - size.height);
  return { left, top, width: size.width, height: size.height };
}

function pixels(box: FractionBox, width: number, height: number): Region | null {
  const left = Math.max(0, Math.round(box.x * width));
  const top = Math.max(0, Math.round(box.y * height));
  const right = Math.min(width, Math.round((box.x + box.width) * width));
  const bottom = Math.min(height, Math.round((box.y + box.height) * height));
  if (right - left < 1 || bottom - top < 1) return null;
  return { left, top, width: right - left, height: bottom - top };
}

const round = (v: number) => Math.round(v * 10_000) / 10_000;
