import { readFileSync } from 'node:fs';
import path from 'node:path';
import { IMAGE_MAX_BYTES } from '@sprout/contracts';
import { SafeFetchError } from './errors';
import { fetchImage } from './fetch-image';
import { adminUrlPolicy, mediaFetchPolicy, mmsMediaPolicy } from './fetch-policy';
import { IMAGE_SAMPLES_DIR, SAMPLE_REDIRECT_TARGET, imageSample, ownImageSamples } from './image-samples';

// Only what needs no network: the stack's own samples are read in place, and a refusal by host
// comes before DNS. Public hosts, private answers and redirects to private addresses are probed
// inside a network namespace (services/image-processor/test/ssrf-netns.test.ts).

const PUBLIC_BASE_URL = 'http://localhost:8080';
const TWILIO = ['api.twilio.com', '*.twiliocdn.com'];

/** A resolver that fails the test if anything is resolved: the fetch must not leave the process. */
const resolved: string[] = [];
const noNetwork = async (hostname: string): Promise<string[]> => {
  resolved.push(hostname);
  throw new Error(`resolved ${hostname}: the sample should have been read in place`);
};

const admin = { ...adminUrlPolicy({ publicBaseUrl: PUBLIC_BASE_URL }), timeoutMs: 2_000, resolve: noNetwork };

const codeOf = async (promise: Promise<unknown>): Promise<string> =>
  promise.then(
    () => 'ok',
    (error: unknown) => (error instanceof SafeFetchError ? error.code : String(error)),
  );

beforeEach(() => {
  resolved.length = 0;
});

describe('the stack own samples', () => {
  const own = ownImageSamples('https://sprout.example.com');

  it.each([
    'https://sprout.example.com/api/image-samples/leaf.jpg',
    'https://sprout.example.com:443/api/image-samples/leaf.jpg?v=2',
    'http://localhost:8080/api/image-samples/leaf.jpg',
    'http://127.0.0.1:3000/api/image-samples/leaf.jpg',
    'http://127.8.9.10/api/image-samples/leaf.jpg',
    'http://admin.localhost:5173/api/image-samples/leaf.jpg',
    'http://[::1]:8080/api/image-samples/leaf.jpg',
    'http://[::ffff:127.0.0.1]:8080/api/image-samples/leaf.jpg',
  ])('recognises %s', (url) => {
    expect(own(new URL(url))?.status).toBe(200);
  });

  it.each([
    // Another host serving the same path is fetched like any other.
    'https://plants.example/api/image-samples/leaf.jpg',
    'http://sprout.example.com/api/image-samples/leaf.jpg',
    'https://sprout.example.com:8443/api/image-samples/leaf.jpg',
    'http://10.0.0.1/api/image-samples/leaf.jpg',
    // Another path of the stack is not a sample: left to the network, which refuses loopback.
    'http://localhost:8080/metrics',
    'http://localhost:8080/api/image-samples-other/leaf.jpg',
  ])('leaves %s to the network', (url) => {
    expect(own(new URL(url))).toBeNull();
  });

  it('answers an unknown sample name as the endpoint does (400)', () => {
    expect(own(new URL('http://localhost:8080/api/image-samples/other.jpg'))?.status).toBe(400);
    expect(own(new URL('http://localhost:8080/api/image-samples/leaf.jpg/x'))?.status).toBe(400);
  });

  it('serves the shipped files, the page, the oversized file, the redirect and the 404', () => {
    expect(imageSample('leaf.jpg')).toEqual({
      status: 200,
      headers: { 'content-type': 'image/jpeg' },
      body: readFileSync(path.join(IMAGE_SAMPLES_DIR, 'leaf.jpg')),
    });
    expect(imageSample('leaf.png').headers['content-type']).toBe('image/png');
    expect(imageSample('not-an-image.html').headers['content-type']).toMatch(/^text\/html/);
    expect(imageSample('oversized.jpg').body.length).toBe(IMAGE_MAX_BYTES + 1);
    expect(imageSample('redirect-to-private.jpg')).toMatchObject({
      status: 302,
      headers: { location: SAMPLE_REDIRECT_TARGET },
    });
    expect(imageSample('missing.jpg').status).toBe(404);
  });
});

describe('fetchImage under the admin URL policy, on the stack own samples', () => {
  it.each([
    ['http://localhost:8080/api/image-samples/leaf.jpg', 'image/jpeg'],
    ['http://127.0.0.1:43210/api/image-samples/leaf.png', 'image/png'],
  ])('reads %s in place: no DNS, no connection', async (url, type) => {
    const image = await fetchImage(url, admin);
    expect(image.contentType).toBe(type);
    expect(image.url).toBe(url);
    expect(image.body.subarray(0, 2)).toEqual(
      imageSample(type === 'image/png' ? 'leaf.png' : 'leaf.jpg').body.subarray(0, 2),
    );
    expect(resolved).toEqual([]);
  });

  it.each([
    ['not-an-image.html', 'CONTENT_TYPE_NOT_ALLOWED'],
    ['oversized.jpg', 'TOO_LARGE'],
    ['missing.jpg', 'HTTP_STATUS'],
    ['other.jpg', 'HTTP_STATUS'],
  ])('refuses %s with %s, still in place', async (name, code) => {
    expect(await codeOf(fetchImage(`${PUBLIC_BASE_URL}/api/image-samples/${name}`, admin))).toBe(code);
    expect(resolved).toEqual([]);
  });

  it('refuses credentials in a sample URL before reading it', async () => {
    const url = 'http://user:secret@localhost:8080/api/image-samples/leaf.jpg';
    expect(await codeOf(fetchImage(url, admin))).toBe('INVALID_URL');
  });

  it('refuses a picture whose bytes are not the type its header claims', async () => {
    const lying = {
      ...admin,
      local: () => ({
        status: 200,
        headers: { 'content-type': 'image/png' },
        body: imageSample('leaf.jpg').body,
      }),
    };
    expect(await codeOf(fetchImage('http://localhost:8080/api/image-samples/leaf.png', lying))).toBe(
      'CONTENT_TYPE_NOT_ALLOWED',
    );
  });
});

describe('the MMS policy', () => {
  const sandbox = '127.0.0.1:3010';
  const mms = { ...mmsMediaPolicy({ mediaHosts: TWILIO, sandboxEndpoints: [sandbox] }), timeoutMs: 2_000 };

  it('keeps to Twilio hosts and the sandbox endpoint: the stack own samples are not MMS media', async () => {
    expect(mms.allowedHosts).toEqual([...TWILIO, sandbox]);
    expect(mms.privateEndpoints).toEqual([sandbox]);
    expect(mms.local).toBeUndefined();
    for (const url of [
      'http://localhost:8080/api/image-samples/leaf.jpg',
      'https://plants.example/leaf.jpg',
      'http://127.0.0.1:3011/media/1',
    ]) {
      expect(await codeOf(fetchImage(url, { ...mms, resolve: noNetwork }))).toBe('HOST_NOT_ALLOWED');
    }
    expect(resolved).toEqual([]);
  });

  it('is the policy of media without a source; console media get the admin URL policy', () => {
    const settings = { publicBaseUrl: PUBLIC_BASE_URL, mediaHosts: TWILIO, sandboxEndpoints: [sandbox] };
    expect(mediaFetchPolicy({}, settings)).toEqual({
      allowedHosts: [...TWILIO, sandbox],
      privateEndpoints: [sandbox],
    });
    const console = mediaFetchPolicy({ source: 'admin' }, settings);
    // Any public host: no allowlist, no private endpoint; the stack own samples answered in place.
    expect(console.allowedHosts).toBeUndefined();
    expect(console.privateEndpoints).toBeUndefined();
    expect(console.local?.(new URL(`${PUBLIC_BASE_URL}/api/image-samples/leaf.jpg`))?.status).toBe(200);
  });
});
