/**
 * An evidence picture as it is stored (docs/bans-site.md, "Evidence pictures"): its type read from
 * the content, never from a name or a header; PNG, JPEG, WebP and GIF only (never SVG, which is a
 * document that can carry script); metadata (EXIF with its GPS position, text chunks, comments,
 * colour profiles) removed by decoding and encoding again in the same format, animation kept.
 * No framework imports.
 */
import { randomBytes } from 'node:crypto';
import sharp, { type Metadata, type OutputInfo, type Sharp, type SharpOptions } from 'sharp';

// Each picture is decoded once: libvips' operation cache (up to 50 MB by default) would only hold memory.
sharp.cache(false);

export type PictureType = 'png' | 'jpeg' | 'webp' | 'gif';

const CONTENT_TYPES: Record<PictureType, string> = { png: 'image/png', jpeg: 'image/jpeg', webp: 'image/webp', gif: 'image/gif' };
const EXTENSIONS: Record<PictureType, string> = { png: 'png', jpeg: 'jpg', webp: 'webp', gif: 'gif' };

/** The largest body taken (5 MiB), as the moderation API documents it. */
export const MAX_EVIDENCE_BYTES = 5 * 1024 * 1024;
/**
 * Pixels of the whole picture, every frame counted (a decoded pixel is 4 bytes: 100 MB at most in
 * memory): a 4K screenshot is 8.3 million, a small picture that claims to be 60,000 × 60,000 is
 * refused from its header before anything is decoded.
 */
export const MAX_EVIDENCE_PIXELS = 25_000_000;
/** What is stored: a re-encoded picture can come out larger than it went in, but not without bound (MariaDB receives the bytes as hex in the statement: 12 MB, within its 16 MB packet). */
export const MAX_STORED_BYTES = 6 * 1024 * 1024;

/** A stored picture's name: 32 hex characters and its type's extension. */
export const EVIDENCE_NAME_PATTERN = /^[0-9a-f]{32}\.(?:png|jpg|webp|gif)$/;

export interface PreparedPicture {
  name: string;
  contentType: string;
  bytes: Buffer;
  width: number;
  /** The height of one frame. */
  height: number;
}

export type PictureProblem = 'empty' | 'too-large' | 'unsupported' | 'undecodable' | 'too-many-pixels';

/** Why a body is not taken; the service turns it into the HTTP answer (415, 413 or 400). */
export class PictureRefused extends Error {
  constructor(readonly problem: PictureProblem) {
    super(`evidence picture refused: ${problem}`);
  }
}

const starts = (bytes: Buffer, signature: readonly number[], at = 0): boolean => bytes.length >= at + signature.length && signature.every((byte, index) => bytes[at + index] === byte);

/**
 * The type the first bytes announce, or undefined: a gate before any decoder sees the body, so an
 * SVG (text) never reaches the SVG loader, whatever it is called.
 */
export function sniffPictureType(bytes: Buffer): PictureType | undefined {
  if (starts(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) {
    return 'png';
  }
  if (starts(bytes, [0xff, 0xd8, 0xff])) {
    return 'jpeg';
  }
  if (starts(bytes, [0x52, 0x49, 0x46, 0x46]) && starts(bytes, [0x57, 0x45, 0x42, 0x50], 8)) {
    return 'webp';
  }
  if (starts(bytes, [0x47, 0x49, 0x46, 0x38, 0x37, 0x61]) || starts(bytes, [0x47, 0x49, 0x46, 0x38, 0x39, 0x61])) {
    return 'gif';
  }
  return undefined;
}

function isPictureType(format: string | undefined): format is PictureType {
  return format === 'png' || format === 'jpeg' || format === 'webp' || format === 'gif';
}

/** A name nobody can guess or collide with (128 random bits), with the type's extension. */
export function evidenceName(type: PictureType): string {
  return `${randomBytes(16).toString('hex')}.${EXTENSIONS[type]}`;
}

export function contentTypeOf(type: PictureType): string {
  return CONTENT_TYPES[type];
}

/** sharp's refusal of `limitInputPixels`, from the header's dimensions: its message is the only sign of it. */
function overPixelLimit(error: unknown): boolean {
  return error instanceof Error && /pixel limit/i.test(error.message);
}

/** The same picture, encoded again in its own format: sharp writes no metadata unless asked to. */
function encoder(image: Sharp, type: PictureType): Sharp {
  switch (type) {
    case 'png':
      return image.png({ compressionLevel: 9 });
    case 'jpeg':
      return image.jpeg({ quality: 92, mozjpeg: true });
    case 'webp':
      return image.webp({ quality: 92 });
    case 'gif':
      return image.gif();
  }
}

/**
 * Checks a body and strips it. In order: empty, over 5 MiB (413), the first bytes (415), sharp's
 * reading of the header, which must agree (415: anything else, SVG included, is refused before
 * it is decoded), the pixel count from the header (400), then the decode and encode (400 when it
 * fails: a truncated or corrupt file). A JPEG is turned upright by its EXIF orientation before the
 * EXIF goes.
 */
export async function preparePicture(body: Buffer): Promise<PreparedPicture> {
  if (body.length === 0) {
    throw new PictureRefused('empty');
  }
  if (body.length > MAX_EVIDENCE_BYTES) {
    throw new PictureRefused('too-large');
  }
  const sniffed = sniffPictureType(body);
  if (sniffed === undefined) {
    throw new PictureRefused('unsupported');
  }
  const options: SharpOptions = { animated: true, limitInputPixels: MAX_EVIDENCE_PIXELS, failOn: 'error' };
  let metadata: Metadata;
  try {
    metadata = await sharp(body, options).metadata();
  } catch (error) {
    throw new PictureRefused(overPixelLimit(error) ? 'too-many-pixels' : 'undecodable');
  }
  if (!isPictureType(metadata.format) || metadata.format !== sniffed) {
    throw new PictureRefused('unsupported');
  }
  const frames = metadata.pages ?? 1;
  const frameHeight = metadata.pageHeight ?? metadata.height;
  if (!metadata.width || !frameHeight || metadata.width * frameHeight * frames > MAX_EVIDENCE_PIXELS) {
    throw new PictureRefused('too-many-pixels');
  }
  let output: { data: Buffer; info: OutputInfo };
  try {
    const image = sharp(body, options);
    output = await encoder(frames > 1 ? image : image.autoOrient(), sniffed).toBuffer({ resolveWithObject: true });
  } catch (error) {
    throw new PictureRefused(overPixelLimit(error) ? 'too-many-pixels' : 'undecodable');
  }
  if (output.data.length > MAX_STORED_BYTES) {
    throw new PictureRefused('too-large');
  }
  return {
    name: evidenceName(sniffed),
    contentType: contentTypeOf(sniffed),
    bytes: output.data,
    width: output.info.width,
    height: output.info.pageHeight ?? output.info.height,
  };
}
