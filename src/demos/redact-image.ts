// Obscuring regions of a step image (blurred or solid), with sharp.
import sharp from 'sharp';
import type { ImageType } from '../core/image-sniff';

/** A rectangle in fractions (0..1) of the image, as hotspots are. */
export interface FractionBox {
  x: number;
  y: number;
  width: number;
  height: number;
}

export type RedactionStyle = 'blur' | 'solid';

export interface RedactedImage {
  bytes: Buffer;
  contentType: ImageType;
  width: number;
  height: number;
}

/** What a `solid` region is filled with: an unmistakable redaction bar, not a colour of the page. */
export const SOLID_FILL = { r: 31, g: 41, b: 55, alpha: 1 };

/** Thrown when the stored bytes are not an image sharp can decode (a header-only upload, say). */
export class UndecodableImage extends Error {}

interface PixelBox {
  left: number;
  top: number;
  width: number;
  height: number;
}

/** Whole pixels covering the box: a region never leaves a sliver of the edge it was drawn on unobscured. */
export function pixelBox(box: FractionBox, width: number, height: number): PixelBox {
  // Fractions carry float error (0.2 + 0.4 is 0.6000000000000001): an edge within a millionth of a pixel
  // boundary is on it, not one pixel further out.
  const down = (v: number) => Math.floor(v + 1e-6);
  const up = (v: number) => Math.ceil(v - 1e-6);
  const left = Math.min(width - 1, Math.max(0, down(box.x * width)));
  const top = Math.min(height - 1, Math.max(0, down(box.y * height)));
  const right = Math.max(left + 1, Math.min(width, up((box.x + box.width) * width)));
  const bottom = Math.max(top + 1, Math.min(height, up((box.y + box.height) * height)));
  return { left, top, width: right - left, height: bottom - top };
}

/** Larger images are refused rather than decoded: their raw pixels would not fit in memory comfortably. */
const MAX_PIXELS = 40_000_000;

interface Raw {
  data: Buffer;
  width: number;
  height: number;
  channels: 1 | 2 | 3 | 4;
}

const rawInput = (raw: Raw) => ({ raw: { width: raw.width, height: raw.height, channels: raw.channels } });

/**
 * Pixel blocks of at least 12 px (larger for larger regions), then a blur over them: text of any size a
 * screenshot shows is gone, not merely softened. Downscaling averages the pixels away, so nothing of the
 * original can be computed back from the result.
 */
async function pixelate(image: Raw, px: PixelBox): Promise<Buffer> {
  const block = Math.max(12, Math.round(Math.max(px.width, px.height) / 16));
  const small = await sharp(image.data, rawInput(image))
    .extract(px)
    .resize(Math.max(1, Math.round(px.width / block)), Math.max(1, Math.round(px.height / block)), { fit: 'fill', kernel: 'cubic' })
    .raw()
    .toBuffer({ resolveWithObject: true });
  const patch = await sharp(small.data, { raw: { width: small.info.width, height: small.info.height, channels: image.channels } })
    .resize(px.width, px.height, { fit: 'fill', kernel: 'nearest' })
    .blur(Math.max(4, block * 0.6))
    .raw()
    .toBuffer({ resolveWithObject: true });
  if (patch.info.channels !== image.channels || patch.info.width !== px.width || patch.info.height !== px.height) {
    throw new Error(`pixelated patch came back as ${patch.info.width}×${patch.info.height}×${patch.info.channels}`);
  }
  return patch.data;
}

function solid(image: Raw, px: PixelBox): Buffer {
  const grey = Math.round(0.299 * SOLID_FILL.r + 0.587 * SOLID_FILL.g + 0.114 * SOLID_FILL.b);
  const pixel = image.channels >= 3 ? [SOLID_FILL.r, SOLID_FILL.g, SOLID_FILL.b, 255] : [grey, 255];
  const patch = Buffer.alloc(px.width * px.height * image.channels);
  for (let i = 0; i < patch.length; i++) patch[i] = pixel[i % image.channels]!;
  return patch;
}

/** Writes a patch over the region, every channel (alpha too): nothing of the original shows through. */
function paste(image: Raw, px: PixelBox, patch: Buffer): void {
  const rowBytes = px.width * image.channels;
  for (let row = 0; row < px.height; row++) {
    const target = ((px.top + row) * image.width + px.left) * image.channels;
    patch.copy(image.data, target, row * rowBytes, (row + 1) * rowBytes);
  }
}

/**
 * The image with every region irreversibly obscured (`blur`: pixelated then blurred; `solid`: filled), in
 * the image's own format and size. Pixels outside the regions are kept as they are (exactly, for PNG;
 * JPEG and WebP are encoded again). Metadata (EXIF and the like) is not carried over.
 */
export async function redactImage(bytes: Buffer, contentType: ImageType, regions: FractionBox[], style: RedactionStyle): Promise<RedactedImage> {
  let image: Raw;
  try {
    const decoded = await sharp(bytes, { failOn: 'error', limitInputPixels: MAX_PIXELS }).raw().toBuffer({ resolveWithObject: true });
    image = { data: decoded.data, width: decoded.info.width, height: decoded.info.height, channels: decoded.info.channels };
  } catch (err) {
    throw new UndecodableImage('The image could not be decoded', { cause: err });
  }
  // Every patch is made from the original pixels before any is pasted, so overlapping regions do not
  // pixelate an already pixelated area twice (each region is obscured either way).
  const patches = await Promise.all(
    regions.map(async (region) => {
      const px = pixelBox(region, image.width, image.height);
      return { px, patch: style === 'solid' ? solid(image, px) : await pixelate(image, px) };
    }),
  );
  for (const { px, patch } of patches) paste(image, px, patch);
  const pipeline = sharp(image.data, rawInput(image));
  const out =
    contentType === 'image/png'
      ? pipeline.png()
      : contentType === 'image/jpeg'
        ? pipeline.jpeg({ quality: 90 })
        : pipeline.webp({ quality: 90 });
  return { bytes: await out.toBuffer(), contentType, width: image.width, height: image.height };
}
