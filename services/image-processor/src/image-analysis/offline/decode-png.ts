import { inflateSync } from 'node:zlib';
import type { Rgb } from './rgb';

const CHANNELS: Record<number, number> = { 0: 1, 2: 3, 3: 1, 4: 2, 6: 4 };

export interface PngHeader {
  width: number;
  height: number;
  bitDepth: number;
  colorType: number;
  interlaced: boolean;
}

/** IHDR of a PNG, or null when the bytes do not start like one. */
export const readPngHeader = (body: Buffer): PngHeader | null => {
  if (body.length < 33 || body.toString('latin1', 12, 16) !== 'IHDR') return null;
  return {
    width: body.readUInt32BE(16),
    height: body.readUInt32BE(20),
    bitDepth: body[24]!,
    colorType: body[25]!,
    interlaced: body[28] === 1,
  };
};

const paeth = (a: number, b: number, c: number): number => {
  const p = a + b - c;
  const pa = Math.abs(p - a);
  const pb = Math.abs(p - b);
  const pc = Math.abs(p - c);
  return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
};

/**
 * Colours sampled on a grid of at most about `maxSamples` pixels (transparent pixels left out), or
 * null for what this decoder does not read (interlaced PNGs, unknown colour types, broken data).
 */
export const samplePng = (body: Buffer, maxSamples: number): Rgb[] | null => {
  const header = readPngHeader(body);
  if (header === null || header.interlaced) return null;
  const { width, height, bitDepth, colorType } = header;
  const channels = CHANNELS[colorType];
  if (channels === undefined || width === 0 || height === 0) return null;
  const idat: Buffer[] = [];
  let palette: Buffer | undefined;
  for (let at = 8; at + 8 <= body.length;) {
    const length = body.readUInt32BE(at);
    const type = body.toString('latin1', at + 4, at + 8);
    const data = body.subarray(at + 8, at + 8 + length);
    if (type === 'IDAT') idat.push(data);
    else if (type === 'PLTE') palette = data;
    else if (type === 'IEND') break;
    at += 12 + length;
  }
  if (colorType === 3 && palette === undefined) return null;
  const bitsPerPixel = channels * bitDepth;
  const stride = Math.ceil((width * bitsPerPixel) / 8);
  const filterStep = Math.max(1, bitsPerPixel >> 3);
  let raw: Buffer;
  try {
    raw = inflateSync(Buffer.concat(idat));
  } catch {
    return null;
  }
  if (raw.length < (stride + 1) * height) return null;
  const pixels = Buffer.alloc(stride * height);
  for (let y = 0; y < height; y += 1) {
    const filter = raw[y * (stride + 1)]!;
    const source = y * (stride + 1) + 1;
    const row = y * stride;
    for (let x = 0; x < stride; x += 1) {
      const left = x >= filterStep ? pixels[row + x - filterStep]! : 0;
      const up = y > 0 ? pixels[row - stride + x]! : 0;
      const upLeft = y > 0 && x >= filterStep ? pixels[row - stride + x - filterStep]! : 0;
      const value = raw[source + x]!;
      const predicted =
        filter === 1
          ? left
          : filter === 2
            ? up
            : filter === 3
              ? (left + up) >> 1
              : filter === 4
                ? paeth(left, up, upLeft)
                : 0;
      pixels[row + x] = (value + predicted) & 0xff;
    }
  }
  const channel = (x: number, y: number, c: number): number => {
    const index = x * channels + c;
    if (bitDepth === 8) return pixels[y * stride + index]!;
    if (bitDepth === 16) return pixels[y * stride + index * 2]!;
    const bit = index * bitDepth;
    const byte = pixels[y * stride + (bit >> 3)]!;
    const value = (byte >> (8 - bitDepth - (bit & 7))) & ((1 << bitDepth) - 1);
    return colorType === 3 ? value : Math.round((value * 255) / ((1 << bitDepth) - 1));
  };
  const step = Math.max(1, Math.ceil(Math.sqrt((width * height) / maxSamples)));
  const samples: Rgb[] = [];
  for (let y = Math.floor(step / 2); y < height; y += step) {
    for (let x = Math.floor(step / 2); x < width; x += step) {
      if (colorType === 3) {
        const i = channel(x, y, 0) * 3;
        samples.push({ r: palette![i] ?? 0, g: palette![i + 1] ?? 0, b: palette![i + 2] ?? 0 });
      } else if (colorType === 0 || colorType === 4) {
        if (colorType === 4 && channel(x, y, 1) < 16) continue;
        const v = channel(x, y, 0);
        samples.push({ r: v, g: v, b: v });
      } else {
        if (colorType === 6 && channel(x, y, 3) < 16) continue;
        samples.push({ r: channel(x, y, 0), g: channel(x, y, 1), b: channel(x, y, 2) });
      }
    }
  }
  return samples;
};
