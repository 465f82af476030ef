import { readFileSync } from 'node:fs';
import path from 'node:path';
import { IMAGE_MAX_BYTES, IMAGE_SAMPLE_NAMES } from '@sprout/contracts';
import { blockedReason } from './address-policy';
import type { LocalResponder, LocalResponse } from './safe-fetch';

export type ImageSampleName = (typeof IMAGE_SAMPLE_NAMES)[number];

/** Where api-gateway serves the samples: GET /api/image-samples/:name. */
export const IMAGE_SAMPLES_PATH = '/api/image-samples/';

/** The two pictures, shipped with this library (reached from src/ and dist/ alike). */
export const IMAGE_SAMPLES_DIR = path.join(__dirname, '..', '..', 'assets', 'image-samples');

/** Where redirect-to-private.jpg points: the cloud metadata address, refused before any connection. */
export const SAMPLE_REDIRECT_TARGET = 'http://169.254.169.254/latest/meta-data/';

const PAGE = '<!doctype html><title>Not an image</title><p>This page is not a picture.</p>';

const cache = new Map<ImageSampleName, Buffer>();
const once = (name: ImageSampleName, make: () => Buffer): Buffer => {
  let body = cache.get(name);
  if (body === undefined) {
    body = make();
    cache.set(name, body);
  }
  return body;
};

const isSampleName = (name: string): name is ImageSampleName =>
  (IMAGE_SAMPLE_NAMES as readonly string[]).includes(name);

/** What the stack answers for one sample (served over HTTP, or read in place by the fetcher). */
export const imageSample = (name: ImageSampleName): LocalResponse => {
  switch (name) {
    case 'leaf.jpg':
    case 'leaf.png':
      return {
        status: 200,
        headers: { 'content-type': name.endsWith('.png') ? 'image/png' : 'image/jpeg' },
        body: once(name, () => readFileSync(path.join(IMAGE_SAMPLES_DIR, name))),
      };
    case 'not-an-image.html':
      return {
        status: 200,
        headers: { 'content-type': 'text/html; charset=utf-8' },
        body: Buffer.from(PAGE),
      };
    case 'oversized.jpg':
      // A JPEG header and then zeros: one byte over the limit.
      return {
        status: 200,
        headers: { 'content-type': 'image/jpeg' },
        body: once(name, () =>
          Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(IMAGE_MAX_BYTES - 3)]),
        ),
      };
    case 'redirect-to-private.jpg':
      return { status: 302, headers: { location: SAMPLE_REDIRECT_TARGET }, body: Buffer.alloc(0) };
    case 'missing.jpg':
      return { status: 404, headers: {}, body: Buffer.alloc(0) };
  }
};

/** localhost, *.localhost, 127.0.0.0/8, ::1 and IPv4-mapped loopback: this machine. */
const isLoopbackHost = (hostname: string): boolean => {
  const host = hostname.replace(/^\[(.*)\]$/, '$1').toLowerCase();
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  return blockedReason(host)?.startsWith('loopback') === true;
};

/**
 * The stack's own samples, answered from disk instead of fetched: a URL on the public origin
 * (PUBLIC_BASE_URL) or on this machine (loopback, any port: the edge's, the gateway's) whose path
 * is a sample's. Loopback is never fetched for an admin URL, so this is how they stay usable.
 * Another path on those origins is left to the network, which refuses loopback.
 */
export const ownImageSamples = (publicBaseUrl: string): LocalResponder => {
  const publicOrigin = new URL(publicBaseUrl).origin;
  return (url) => {
    if (url.origin !== publicOrigin && !isLoopbackHost(url.hostname)) return null;
    if (!url.pathname.startsWith(IMAGE_SAMPLES_PATH)) return null;
    const name = url.pathname.slice(IMAGE_SAMPLES_PATH.length);
    // An unknown name is what the endpoint answers it: 400.
    return isSampleName(name) ? imageSample(name) : { status: 400, headers: {}, body: Buffer.alloc(0) };
  };
};
