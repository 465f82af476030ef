import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { deflateSync } from 'node:zlib';
import { IMAGE_SAMPLES_DIR } from '@sprout/platform';
import {
  OFFLINE_IMAGE_MODEL,
  OFFLINE_IMAGE_QUESTION,
  OfflineImageAnalyzer,
  colourShares,
  describeImage,
} from '../src/image-analysis/offline/offline-image-analyzer';
import { readImage } from '../src/image-analysis/offline/pixels';
import type { Rgb } from '../src/image-analysis/offline/rgb';

const LEAF_JPG = readFileSync(join(IMAGE_SAMPLES_DIR, 'leaf.jpg'));
const LEAF_PNG = readFileSync(join(IMAGE_SAMPLES_DIR, 'leaf.png'));

const chunk = (type: string, data: Buffer): Buffer => {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  // The decoder does not check CRCs; zeros keep the helper short.
  return Buffer.concat([length, Buffer.from(type, 'latin1'), data, Buffer.alloc(4)]);
};

/** A PNG whose rows are filtered with `filter` (the decoder must undo each kind). */
const png = (
  width: number,
  height: number,
  pixel: (x: number, y: number) => number[],
  options: {
    colorType?: number;
    bitDepth?: number;
    filter?: number;
    palette?: number[];
    interlaced?: boolean;
  } = {},
): Buffer => {
  const { colorType = 2, bitDepth = 8, filter = 0, palette, interlaced = false } = options;
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = bitDepth;
  header[9] = colorType;
  header[12] = interlaced ? 1 : 0;
  const bytesPerSample = bitDepth / 8;
  const rows: Buffer[] = [];
  let previous: Buffer | undefined;
  for (let y = 0; y < height; y += 1) {
    const values = Array.from({ length: width }, (_, x) => pixel(x, y)).flat();
    const row = Buffer.alloc(Math.ceil(values.length * bytesPerSample));
    values.forEach((v, i) => {
      if (bitDepth === 16) row.writeUInt16BE(v * 257, i * 2);
      else if (bitDepth === 8) row[i] = v;
      else {
        const at = (i * bitDepth) >> 3;
        row[at] = row[at]! | (v << (8 - bitDepth - ((i * bitDepth) & 7)));
      }
    });
    const step = Math.max(1, (values.length / width) * bytesPerSample);
    const filtered = Buffer.alloc(row.length);
    for (let i = 0; i < row.length; i += 1) {
      const left = i >= step ? row[i - step]! : 0;
      const up = previous?.[i] ?? 0;
      filtered[i] =
        (row[i]! - (filter === 1 ? left : filter === 2 ? up : filter === 3 ? (left + up) >> 1 : 0)) & 0xff;
    }
    rows.push(Buffer.from([filter]), filtered);
    previous = row;
  }
  return Buffer.concat([
    Buffer.from('89504e470d0a1a0a', 'hex'),
    chunk('IHDR', header),
    ...(palette ? [chunk('PLTE', Buffer.from(palette))] : []),
    chunk('IDAT', deflateSync(Buffer.concat(rows))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
};

const GREEN = [60, 150, 50];
const YELLOW = [210, 180, 40];
const BROWN = [120, 75, 30];
const BLACK = [15, 12, 10];

describe('offline image analyser', () => {
  it('decodes the shipped JPEG and PNG samples to the same colours', () => {
    const jpeg = readImage(LEAF_JPG, 'image/jpeg');
    const fromPng = readImage(LEAF_PNG, 'image/png');
    expect(jpeg).toMatchObject({ format: 'JPEG', width: 96, height: 72, bytes: LEAF_JPG.length });
    expect(fromPng).toMatchObject({ format: 'PNG', width: 96, height: 72, bytes: LEAF_PNG.length });
    // One colour per 8×8 block of the JPEG (12×9), every pixel of the small PNG.
    expect(jpeg.samples).toHaveLength(108);
    expect(fromPng.samples).toHaveLength(96 * 72);
    const a = colourShares(jpeg.samples!);
    const b = colourShares(fromPng.samples!);
    expect(a.green).toBeGreaterThan(0.6);
    expect(Math.abs(a.green - b.green)).toBeLessThan(0.05);
    expect(Math.abs(a.brightness - b.brightness)).toBeLessThan(0.03);
    expect(a.yellowBrown).toBeLessThan(0.05);
  });

  it('describes a green leaf with its size, shares, a suggestion and the question back', () => {
    expect(describeImage(readImage(LEAF_JPG, 'image/jpeg'))).toBe(
      `Offline photo check: 96x72 JPEG, 1.4 KB. About 85% green foliage, 0% yellow or brown, 0% dark spots; well lit. The leaves look mostly green, a good sign. ${OFFLINE_IMAGE_QUESTION}`,
    );
  });

  it.each([0, 1, 2, 3])('undoes PNG row filter %i', (filter) => {
    const image = png(10, 6, (x) => (x < 5 ? GREEN : YELLOW), { filter });
    const shares = colourShares(readImage(image, 'image/png').samples!);
    expect(shares).toMatchObject({ green: 0.5, yellowBrown: 0.5, dark: 0 });
  });

  it('reads grey, palette, 16-bit and transparent PNGs', () => {
    const grey = readImage(
      png(4, 4, () => [128], { colorType: 0 }),
      'image/png',
    ).samples!;
    expect(grey[0]).toEqual({ r: 128, g: 128, b: 128 });
    const paletted = png(8, 2, (x) => [x % 2], { colorType: 3, palette: [...GREEN, ...BROWN] });
    expect(colourShares(readImage(paletted, 'image/png').samples!)).toMatchObject({
      green: 0.5,
      yellowBrown: 0.5,
    });
    const twoBit = png(8, 1, (x) => [x < 4 ? 0 : 1], {
      colorType: 3,
      bitDepth: 2,
      palette: [...BLACK, ...GREEN],
    });
    expect(colourShares(readImage(twoBit, 'image/png').samples!)).toMatchObject({ dark: 0.5, green: 0.5 });
    const deep = readImage(
      png(2, 2, () => GREEN, { bitDepth: 16 }),
      'image/png',
    ).samples!;
    expect(deep[0]).toEqual<Rgb>({ r: 60, g: 150, b: 50 });
    // Transparent pixels are background, not leaf.
    const rgba = png(4, 1, (x) => (x === 0 ? [...YELLOW, 255] : [...BLACK, 0]), { colorType: 6 });
    expect(readImage(rgba, 'image/png').samples).toEqual([{ r: 210, g: 180, b: 40 }]);
  });

  it('suggests checking the water for yellowing and fungus for dark spots', () => {
    const yellowing = describeImage(
      readImage(
        png(10, 10, (x) => (x < 6 ? GREEN : x < 8 ? YELLOW : BROWN)),
        'image/png',
      ),
    );
    expect(yellowing).toContain('About 60% green foliage, 40% yellow or brown, 0% dark spots');
    expect(yellowing).toContain('check the soil an inch down before watering');
    const spotted = describeImage(
      readImage(
        png(10, 10, (x, y) => (x < 2 && y < 5 ? BLACK : GREEN)),
        'image/png',
      ),
    );
    expect(spotted).toContain('90% green foliage, 0% yellow or brown, 10% dark spots');
    expect(spotted).toContain('fungal leaf spot');
    expect(
      describeImage(
        readImage(
          png(4, 4, () => BLACK),
          'image/png',
        ),
      ),
    ).toContain('dark photo');
    expect(
      describeImage(
        readImage(
          png(4, 4, () => [90, 110, 200]),
          'image/png',
        ),
      ),
    ).toContain('little foliage');
  });

  it('reads only the header of what it does not decode, and says so', () => {
    const interlaced = png(30, 20, () => GREEN, { interlaced: true });
    expect(readImage(interlaced, 'image/png')).toMatchObject({ width: 30, height: 20, samples: null });
    // The sample with its frame marked progressive (SOF2).
    const progressive = Buffer.from(LEAF_JPG);
    progressive[progressive.indexOf(Buffer.from([0xff, 0xc0])) + 1] = 0xc2;
    expect(readImage(progressive, 'image/jpeg')).toMatchObject({ width: 96, height: 72, samples: null });
    const gif = Buffer.concat([
      Buffer.from('GIF89a', 'latin1'),
      Buffer.from([0x40, 0x01, 0xf0, 0x00]),
      Buffer.alloc(20),
    ]);
    const text = describeImage(readImage(gif, 'image/gif'));
    expect(text).toBe(
      `Offline photo check: 320x240 GIF, 30 B. I can't read the colours of this GIF offline. ${OFFLINE_IMAGE_QUESTION}`,
    );
    const webp = Buffer.alloc(30);
    webp.write('RIFF', 0, 'latin1');
    webp.write('WEBPVP8X', 8, 'latin1');
    webp.writeUIntLE(639, 24, 3);
    webp.writeUIntLE(479, 27, 3);
    expect(readImage(webp, 'image/webp')).toMatchObject({ format: 'WebP', width: 640, height: 480 });
    expect(readImage(LEAF_JPG.subarray(0, 40), 'image/jpeg')).toMatchObject({ samples: null });
  });

  it('answers as a chat model: the inline image described, no tokens, offline', async () => {
    const result = await new OfflineImageAnalyzer().complete({
      model: 'gpt-4o-mini',
      timeoutMs: 1000,
      messages: [
        { role: 'system', content: 'You are Sprout.' },
        {
          role: 'user',
          content: [
            { type: 'text', text: 'What is wrong?' },
            { type: 'image_url', image_url: { url: `data:image/png;base64,${LEAF_PNG.toString('base64')}` } },
          ],
        },
      ],
    });
    expect(result).toEqual({
      content: expect.stringContaining('96x72 PNG, 1.8 KB. About 85% green foliage') as unknown,
      promptTokens: 0,
      completionTokens: 0,
      model: OFFLINE_IMAGE_MODEL,
      provider: 'offline',
    });
    await expect(
      new OfflineImageAnalyzer().complete({
        model: 'x',
        timeoutMs: 1000,
        messages: [{ role: 'user', content: 'hi' }],
      }),
    ).rejects.toMatchObject({ kind: 'bad_request', retryable: false });
  });
});
