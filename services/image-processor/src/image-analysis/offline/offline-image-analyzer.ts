import type { ChatModel, ChatRequest, ChatResult } from '@sprout/llm';
import { LlmError } from '@sprout/llm';
import { type ImageReading, readImage } from './pixels';
import type { Rgb } from './rgb';

export const OFFLINE_IMAGE_MODEL = 'offline-image-analyzer';
export const OFFLINE_IMAGE_QUESTION = "I can't identify plants offline; what plant is it and what changed?";

export interface ColourShares {
  /** Shares of the sampled pixels, 0..1. */
  green: number;
  yellowBrown: number;
  dark: number;
  /** Mean luma, 0..1. */
  brightness: number;
}

export const colourShares = (samples: Rgb[]): ColourShares => {
  let green = 0;
  let yellowBrown = 0;
  let dark = 0;
  let luma = 0;
  for (const { r, g, b } of samples) {
    luma += (0.299 * r + 0.587 * g + 0.114 * b) / 255;
    const max = Math.max(r, g, b);
    const min = Math.min(r, g, b);
    const value = max / 255;
    if (value < 0.2) {
      dark += 1;
      continue;
    }
    const saturation = max === 0 ? 0 : (max - min) / max;
    if (saturation < 0.2) continue;
    const delta = max - min;
    const hue =
      max === r
        ? (60 * ((g - b) / delta) + 360) % 360
        : max === g
          ? 60 * ((b - r) / delta) + 120
          : 60 * ((r - g) / delta) + 240;
    if (hue >= 68 && hue <= 170) green += 1;
    else if (hue >= 18 && hue < 68) yellowBrown += 1;
  }
  const n = Math.max(1, samples.length);
  return { green: green / n, yellowBrown: yellowBrown / n, dark: dark / n, brightness: luma / n };
};

const percent = (share: number): string => `${Math.round(share * 100)}%`;

const size = (bytes: number): string =>
  bytes < 1024
    ? `${bytes} B`
    : bytes < 1024 * 1024
      ? `${(bytes / 1024).toFixed(1)} KB`
      : `${(bytes / 1024 / 1024).toFixed(1)} MB`;

/** The SMS-length description of what the bytes honestly show, ending with a question back. */
export const describeImage = (reading: ImageReading): string => {
  // "x", not "×": the text becomes the SMS reply, and one character outside GSM-7 makes every
  // segment hold 70 characters instead of 160.
  const dimensions =
    reading.width !== null && reading.height !== null ? `${reading.width}x${reading.height} ` : '';
  const parts = [`Offline photo check: ${dimensions}${reading.format}, ${size(reading.bytes)}.`];
  if (reading.samples === null || reading.samples.length === 0) {
    parts.push(`I can't read the colours of this ${reading.format} offline.`);
  } else {
    const shares = colourShares(reading.samples);
    const light =
      shares.brightness < 0.25 ? 'dark photo' : shares.brightness > 0.8 ? 'very bright photo' : 'well lit';
    parts.push(
      `About ${percent(shares.green)} green foliage, ${percent(shares.yellowBrown)} yellow or brown, ${percent(shares.dark)} dark spots; ${light}.`,
    );
    if (shares.brightness < 0.25) parts.push('A photo in daylight would show more.');
    else if (shares.green + shares.yellowBrown < 0.1)
      parts.push('I see little foliage; a close-up of the leaves helps.');
    else if (shares.yellowBrown >= 0.15)
      parts.push(
        'Yellow or brown leaves can mean too much or too little water, low nitrogen or old leaves dying back: check the soil an inch down before watering.',
      );
    else if (shares.dark >= 0.08)
      parts.push('Dark spots can be fungal leaf spot: remove spotted leaves and water at the base.');
    else parts.push('The leaves look mostly green, a good sign.');
  }
  parts.push(OFFLINE_IMAGE_QUESTION);
  return parts.join(' ');
};

const DATA_URL = /^data:(image\/[a-z]+);base64,(.*)$/s;

/**
 * The vision model of a stack without OPENAI_API_KEY: reads format, size and colour shares from
 * the picture itself and says what it cannot tell. No tokens, no cost (provider 'offline').
 */
export class OfflineImageAnalyzer implements ChatModel {
  readonly provider = 'offline' as const;

  complete(request: ChatRequest): Promise<ChatResult> {
    const image = request.messages
      .flatMap((message) => (typeof message.content === 'string' ? [] : message.content))
      .find((part) => part.type === 'image_url');
    const match = image?.type === 'image_url' ? DATA_URL.exec(image.image_url.url) : null;
    if (match === null) {
      return Promise.reject(
        new LlmError({ message: 'The offline image analyser needs the image inline', kind: 'bad_request' }),
      );
    }
    const content = describeImage(readImage(Buffer.from(match[2]!, 'base64'), match[1]!));
    return Promise.resolve({
      content,
      promptTokens: 0,
      completionTokens: 0,
      model: OFFLINE_IMAGE_MODEL,
      provider: 'offline',
    });
  }
}
