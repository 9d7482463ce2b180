// The perceptual difference of two pictures of a step: the same part of each, shrunk to grey, compared pixel by pixel with a tolerance. Sharp does the decoding and resizing in its own threads.
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
 * image `b`, both resized to the same small grey picture. 0 is identical; a changed word on a button is
 * typically 0.1 or more; re-rendering the same page gives 0.
 *
 * @example
 * await pictureDifference(oldPng, hotspotBox, newPng, newHotspotBox); // 0.23
 */
export async function pictureDifference(a: Buffer, boxA: FractionBox | null, b: Buffer, boxB: FractionBox | null): Promise<number> {
  const [regionA, regionB] = await Promise.all([regionOf(a, boxA ?? WHOLE), regionOf(b, boxB ?? WHOLE)]);
  if (!regionA || !regionB) return 1;
  const scale = Math.min(1, COMPARE_SIZE / Math.max(regionA.width, regionA.height));
  const size = { width: Math.max(1, Math.round(regionA.width * scale)), height: Math.max(1, Math.round(regionA.height * scale)) };
  const grey = (image: Buffer, region: Region) =>
    sharp(image).extract(region).resize(size.width, size.height, { fit: 'fill' }).greyscale().raw().toBuffer();
  const [greyA, greyB] = await Promise.all([grey(a, regionA), grey(b, regionB)]);
  let differing = 0;
  for (let i = 0; i < greyA.length; i++) if (Math.abs(greyA[i]! - greyB[i]!) > TOLERANCE) differing++;
  return round(differing / greyA.length);
}

interface Region {
  left: number;
  top: number;
  width: number;
  height: number;
}

async function regionOf(image: Buffer, box: FractionBox): Promise<Region | null> {
  const meta = await sharp(image).metadata();
  return pixels(box, meta.width ?? 0, meta.height ?? 0);
}

function pixels(box: FractionBox, width: number, height: number): Region | null {
  const left = Math.max(0, Math.floor(box.x * width));
  const top = Math.max(0, Math.floor(box.y * height));
  const right = Math.min(width, Math.ceil((box.x + box.width) * width));
  const bottom = Math.min(height, Math.ceil((box.y + box.height) * height));
  if (right - left < 1 || bottom - top < 1) return null;
  return { left, top, width: right - left, height: bottom - top };
}

const round = (v: number) => Math.round(v * 10_000) / 10_000;
