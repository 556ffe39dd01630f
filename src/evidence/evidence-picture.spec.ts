import { crc32 } from 'node:zlib';
import sharp from 'sharp';
import { EVIDENCE_NAME_PATTERN, MAX_EVIDENCE_BYTES, PictureRefused, type PictureProblem, preparePicture, sniffPictureType } from './evidence-picture';

/** A small opaque picture of `format`, 8 × 6. */
async function picture(format: 'png' | 'jpeg' | 'webp' | 'gif', size = { width: 8, height: 6 }): Promise<Buffer> {
  return sharp({ create: { ...size, channels: 3, background: { r: 200, g: 40, b: 40 } } })
    .toFormat(format)
    .toBuffer();
}

/** A PNG chunk (length, type, data, CRC over type and data). */
function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** `png` with a tEXt chunk inserted after IHDR (8-byte signature, then 25 bytes of IHDR). */
function withPngText(png: Buffer, keyword: string, text: string): Buffer {
  const at = 8 + 25;
  return Buffer.concat([png.subarray(0, at), pngChunk('tEXt', Buffer.from(`${keyword}\0${text}`, 'latin1')), png.subarray(at)]);
}

async function refusal(body: Buffer): Promise<PictureProblem | 'accepted'> {
  try {
    await preparePicture(body);
    return 'accepted';
  } catch (error) {
    if (error instanceof PictureRefused) {
      return error.problem;
    }
    throw error;
  }
}

describe(preparePicture.name, () => {
  it('reads the type from the content: a PNG sent under another name or type is stored as a PNG', async () => {
    const prepared = await preparePicture(await picture('png'));
    expect(prepared).toMatchObject({ contentType: 'image/png', width: 8, height: 6 });
    expect(prepared.name).toMatch(EVIDENCE_NAME_PATTERN);
    expect(prepared.name).toMatch(/\.png$/);
    expect((await sharp(prepared.bytes).metadata()).format).toBe('png');
  });

  it('takes each of PNG, JPEG, WebP and GIF, named by its type', async () => {
    const extensions = { png: '.png', jpeg: '.jpg', webp: '.webp', gif: '.gif' } as const;
    for (const format of ['png', 'jpeg', 'webp', 'gif'] as const) {
      const prepared = await preparePicture(await picture(format));
      expect({ format, contentType: prepared.contentType, extension: prepared.name.slice(32) }).toEqual({ format, contentType: `image/${format}`, extension: extensions[format] });
    }
  });

  it('gives every picture a new name', async () => {
    const body = await picture('png');
    const names = new Set(await Promise.all([1, 2, 3].map(async () => (await preparePicture(body)).name)));
    expect(names.size).toBe(3);
  });

  it('refuses an SVG, whatever it is called, before any decoder reads it', async () => {
    const svg = Buffer.from('<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>alert(1)</script><rect width="10" height="10"/></svg>');
    expect(sniffPictureType(svg)).toBeUndefined();
    expect(await refusal(svg)).toBe('unsupported');
    expect(await refusal(Buffer.from(`   \n${svg.toString()}`))).toBe('unsupported');
  });

  it('refuses a text file, an empty body and a type sharp reads but the service does not take (TIFF)', async () => {
    expect(await refusal(Buffer.from('just some text, not a picture\n'))).toBe('unsupported');
    expect(await refusal(Buffer.alloc(0))).toBe('empty');
    const tiff = await sharp({ create: { width: 4, height: 4, channels: 3, background: '#000' } }).tiff().toBuffer();
    expect(await refusal(tiff)).toBe('unsupported');
  });

  it('refuses a truncated or damaged file as undecodable', async () => {
    const png = await picture('png', { width: 64, height: 64 });
    expect(await refusal(png.subarray(0, Math.floor(png.length / 2)))).toBe('undecodable');
    expect(await refusal(png.subarray(0, 20))).toBe('undecodable');
    const jpeg = await picture('jpeg', { width: 64, height: 64 });
    expect(await refusal(jpeg.subarray(0, Math.floor(jpeg.length / 2)))).toBe('undecodable');
    // PNG's signature, then an SVG: the signature alone does not make a picture.
    expect(await refusal(Buffer.concat([png.subarray(0, 8), Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>')]))).toBe('undecodable');
  });

  it('refuses a body over 5 MiB before reading it, and a picture whose header claims too many pixels', async () => {
    const big = Buffer.concat([await picture('png'), Buffer.alloc(MAX_EVIDENCE_BYTES)]);
    expect(await refusal(big)).toBe('too-large');
    // A 6000 × 6000 PNG of one colour compresses to a few kilobytes.
    const huge = await sharp({ create: { width: 6000, height: 6000, channels: 3, background: '#fff' } }).png({ compressionLevel: 9 }).toBuffer();
    expect(huge.length).toBeLessThan(MAX_EVIDENCE_BYTES);
    expect(await refusal(huge)).toBe('too-many-pixels');
  });

  it('keeps a GIF animation animated: every frame, the delays and the loop', async () => {
    const frames = 3;
    const raw = Buffer.alloc(8 * 6 * frames * 4);
    for (let index = 0; index < raw.length; index += 4) {
      const frame = Math.floor(index / (8 * 6 * 4));
      raw.set([frame * 100, 50, 200 - frame * 60, 255], index);
    }
    const gif = await sharp(raw, { raw: { width: 8, height: 6 * frames, channels: 4, pageHeight: 6 } })
      .gif({ loop: 0, delay: [100, 200, 300] })
      .toBuffer();
    const before = await sharp(gif, { animated: true }).metadata();
    expect(before.pages).toBe(frames);
    const prepared = await preparePicture(gif);
    expect({ width: prepared.width, height: prepared.height, contentType: prepared.contentType }).toEqual({ width: 8, height: 6, contentType: 'image/gif' });
    const after = await sharp(prepared.bytes, { animated: true }).metadata();
    expect({ pages: after.pages, delay: after.delay, loop: after.loop, pageHeight: after.pageHeight }).toEqual({ pages: frames, delay: [100, 200, 300], loop: 0, pageHeight: 6 });
  });

  it('keeps an animated WebP animated', async () => {
    const raw = Buffer.alloc(8 * 6 * 2 * 4, 255);
    raw.fill(0, 0, 8 * 6 * 4);
    const webp = await sharp(raw, { raw: { width: 8, height: 12, channels: 4, pageHeight: 6 } })
      .webp({ loop: 0, delay: [150, 250] })
      .toBuffer();
    const prepared = await preparePicture(webp);
    const after = await sharp(prepared.bytes, { animated: true }).metadata();
    expect({ contentType: prepared.contentType, height: prepared.height, pages: after.pages, delay: after.delay }).toEqual({ contentType: 'image/webp', height: 6, pages: 2, delay: [150, 250] });
  });

  it('removes EXIF from a JPEG (turning it upright first) and text chunks from a PNG', async () => {
    const jpeg = await sharp({ create: { width: 8, height: 4, channels: 3, background: '#36c' } })
      .jpeg()
      .withMetadata({ orientation: 6 })
      .withExif({ IFD0: { Copyright: 'secret-owner', ImageDescription: 'secret-place' } })
      .toBuffer();
    const exifBefore = await sharp(jpeg).metadata();
    expect(exifBefore.exif?.toString('latin1')).toContain('secret-owner');
    expect(exifBefore.orientation).toBe(6);
    const strippedJpeg = await preparePicture(jpeg);
    const jpegAfter = await sharp(strippedJpeg.bytes).metadata();
    expect({ exif: jpegAfter.exif, icc: jpegAfter.icc, xmp: jpegAfter.xmp, orientation: jpegAfter.orientation }).toEqual({ exif: undefined, icc: undefined, xmp: undefined, orientation: undefined });
    expect(strippedJpeg.bytes.toString('latin1')).not.toContain('secret');
    // Orientation 6 is a quarter turn: the stored picture is upright, 4 wide and 8 high.
    expect({ width: strippedJpeg.width, height: strippedJpeg.height }).toEqual({ width: 4, height: 8 });

    const png = withPngText(await picture('png'), 'Comment', 'secret-comment');
    expect((await sharp(png).metadata()).comments).toEqual([{ keyword: 'Comment', text: 'secret-comment' }]);
    const strippedPng = await preparePicture(png);
    expect((await sharp(strippedPng.bytes).metadata()).comments).toBeUndefined();
    expect(strippedPng.bytes.toString('latin1')).not.toContain('secret');
  });
});
