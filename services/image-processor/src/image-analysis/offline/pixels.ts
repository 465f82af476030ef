import { readJpegHeader, sampleJpeg } from './decode-jpeg';
import { readPngHeader, samplePng } from './decode-png';
import type { Rgb } from './rgb';

export interface ImageReading {
  format: 'JPEG' | 'PNG' | 'GIF' | 'WebP';
  width: number | null;
  height: number | null;
  bytes: number;
  /** Colours sampled across the picture, or null when the format or variant is not decoded. */
  samples: Rgb[] | null;
}

/** Pictures beyond this are not decoded (memory); their header is still read. */
const MAX_DECODED_PIXELS = 40_000_000;
const MAX_SAMPLES = 10_000;

const webpSize = (body: Buffer): { width: number; height: number } | null => {
  const chunk = body.toString('latin1', 12, 16);
  if (chunk === 'VP8 ' && body.length >= 30)
    return { width: body.readUInt16LE(26) & 0x3fff, height: body.readUInt16LE(28) & 0x3fff };
  if (chunk === 'VP8L' && body.length >= 25) {
    const bits = body.readUInt32LE(21);
    return { width: (bits & 0x3fff) + 1, height: ((bits >> 14) & 0x3fff) + 1 };
  }
  if (chunk === 'VP8X' && body.length >= 30)
    return { width: body.readUIntLE(24, 3) + 1, height: body.readUIntLE(27, 3) + 1 };
  return null;
};

/** What can be read from the bytes of an image the fetcher accepted (type already sniffed). */
export const readImage = (body: Buffer, contentType: string): ImageReading => {
  const bytes = body.length;
  if (contentType === 'image/png') {
    const header = readPngHeader(body);
    const decodable = header !== null && header.width * header.height <= MAX_DECODED_PIXELS;
    return {
      format: 'PNG',
      width: header?.width ?? null,
      height: header?.height ?? null,
      bytes,
      samples: decodable ? samplePng(body, MAX_SAMPLES) : null,
    };
  }
  if (contentType === 'image/jpeg') {
    const header = readJpegHeader(body);
    const decodable =
      header !== null && header.sequential && header.width * header.height <= MAX_DECODED_PIXELS;
    return {
      format: 'JPEG',
      width: header?.width ?? null,
      height: header?.height ?? null,
      bytes,
      samples: decodable ? sampleJpeg(body) : null,
    };
  }
  if (contentType === 'image/gif') {
    const known = body.length >= 10;
    return {
      format: 'GIF',
      width: known ? body.readUInt16LE(6) : null,
      height: known ? body.readUInt16LE(8) : null,
      bytes,
      samples: null,
    };
  }
  const size = webpSize(body);
  return { format: 'WebP', width: size?.width ?? null, height: size?.height ?? null, bytes, samples: null };
};
