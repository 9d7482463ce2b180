// A step's screenshot with its hotspots marked (an outline in the demo's colour, numbered when there are several), drawn with sharp.
import sharp from 'sharp';
import { AppError } from '../core/errors';

export interface MarkBox {
  n: number;
  /** Fractions (0..1) of the picture, as hotspots are. */
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface MarkedPicture {
  png: Buffer;
  width: number;
  height: number;
}

/** Wider screenshots (a retina capture) are scaled down to this: plenty for a help-centre page, a fraction of the bytes. */
export const GUIDE_IMAGE_MAX_WIDTH = 1600;
/** Larger images are refused rather than decoded (as redactions refuse them). */
const MAX_PIXELS = 40_000_000;

const xmlEscape = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * The picture as a PNG at most {@link GUIDE_IMAGE_MAX_WIDTH} wide, each box outlined in `color` over a white
 * halo (readable on dark and light pages), drawn just outside the box so the marked element stays visible;
 * with a numbered badge on each box when `numbered`. sharp does the decoding, drawing and encoding on libuv's
 * threads, never on the event loop; the caller bounds how many run at once.
 *
 * @example
 * ```ts
 * const marked = await markPicture(pngBytes, [{ n: 1, x: 0.1, y: 0.2, width: 0.3, height: 0.1 }], '#4f46e5', false);
 * marked.png; // PNG bytes, the outline around 10%..40% × 20%..30%
 * ```
 */
export async function markPicture(bytes: Buffer, boxes: MarkBox[], color: string, numbered: boolean): Promise<MarkedPicture> {
  let base: { data: Buffer; info: { width: number; height: number } };
  try {
    base = await sharp(bytes, { failOn: 'error', limitInputPixels: MAX_PIXELS })
      .rotate()
      .resize({ width: GUIDE_IMAGE_MAX_WIDTH, withoutEnlargement: true })
      .png()
      .toBuffer({ resolveWithObject: true });
  } catch (error) {
    throw new AppError('validation_error', 'A step image could not be decoded: replace it, or remove the step, and export again', {
      cause: error,
      details: [{ field: 'steps', message: 'has an image that is not a decodable PNG, JPEG or WebP' }],
    });
  }
  const { width, height } = base.info;
  if (boxes.length === 0) return { png: base.data, width, height };
  const stroke = Math.max(3, Math.round(width / 320));
  const radius = Math.max(10, Math.round(width / 70));
  const shapes = boxes.map((b) => {
    const pad = stroke + 2;
    const left = Math.max(stroke / 2, b.x * width - pad);
    const top = Math.max(stroke / 2, b.y * height - pad);
    const right = Math.min(width - stroke / 2, (b.x + b.width) * width + pad);
    const bottom = Math.min(height - stroke / 2, (b.y + b.height) * height + pad);
    const w = Math.max(stroke, right - left);
    const h = Math.max(stroke, bottom - top);
    const rx = Math.min(8, w / 4, h / 4);
    const rect = (extra: string) => `<rect x="${left}" y="${top}" width="${w}" height="${h}" rx="${rx}" ry="${rx}" fill="none" ${extra}/>`;
    let svg = rect(`stroke="#ffffff" stroke-opacity="0.9" stroke-width="${stroke + 4}"`) + rect(`stroke="${color}" stroke-width="${stroke}"`);
    if (numbered) {
      // Top-left corner of the box, kept inside the picture.
      const cx = Math.min(width - radius - 1, Math.max(radius + 1, left));
      const cy = Math.min(height - radius - 1, Math.max(radius + 1, top));
      svg +=
        `<circle cx="${cx}" cy="${cy}" r="${radius}" fill="${color}" stroke="#ffffff" stroke-width="2"/>` +
        `<text x="${cx}" y="${cy}" dy="0.35em" text-anchor="middle" font-family="DejaVu Sans, Liberation Sans, Arial, sans-serif" ` +
        `font-weight="bold" font-size="${Math.round(radius * 1.2)}" fill="#ffffff">${xmlEscape(String(b.n))}</text>`;
    }
    return svg;
  });
  const overlay = Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">${shapes.join('')}</svg>`);
  const png = await sharp(base.data)
    .composite([{ input: overlay, top: 0, left: 0 }])
    .png({ compressionLevel: 6 })
    .toBuffer();
  return { png, width, height };
}
