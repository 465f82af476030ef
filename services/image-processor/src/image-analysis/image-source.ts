import { Inject, Injectable } from '@nestjs/common';
import { CONFIG, HttpStatusError, SafeFetchError, safeFetch } from '@sprout/platform';
import { type ImageProcessorConfig } from '../config';

/** What the vision model accepts. */
export const IMAGE_CONTENT_TYPES = ['image/jpeg', 'image/png', 'image/gif', 'image/webp'] as const;
const MAX_REDIRECTS = 3;
const TWILIO_API_ORIGIN = 'https://api.twilio.com';

export interface FetchedImage {
  /** The URL finally fetched (Twilio redirects media to storage). */
  url: string;
  contentType: string;
  body: Buffer;
}

/** A fetch error that will not go away by trying again (bad URL, blocked address, wrong type...). */
export const isPermanentFetchError = (error: SafeFetchError): boolean => {
  switch (error.code) {
    case 'TIMEOUT':
    case 'NETWORK':
    case 'DNS_FAILURE':
    case 'ABORTED':
      return false;
    case 'HTTP_STATUS': {
      const status = error instanceof HttpStatusError ? error.status : 0;
      return status >= 400 && status < 500 && status !== 408 && status !== 429;
    }
    case 'INVALID_URL':
    case 'PROTOCOL_NOT_ALLOWED':
    case 'BLOCKED_ADDRESS':
    case 'TOO_MANY_REDIRECTS':
    case 'TOO_LARGE':
    case 'CONTENT_TYPE_NOT_ALLOWED':
      return true;
  }
};

/**
 * Downloads MMS images through safeFetch (no internal addresses, size and type limits). Twilio
 * media URLs need the account's basic auth; it is sent only to Twilio's own API origin (or the
 * configured sandbox), never to another host, and safeFetch drops it when a redirect leaves it.
 */
@Injectable()
export class ImageSource {
  private readonly twilioOrigins: ReadonlySet<string>;
  private readonly authorization: string;

  constructor(@Inject(CONFIG) private readonly config: ImageProcessorConfig) {
    const origins = [TWILIO_API_ORIGIN];
    if (config.twilioApiBaseUrl !== undefined) origins.push(new URL(config.twilioApiBaseUrl).origin);
    this.twilioOrigins = new Set(origins);
    this.authorization = `Basic ${Buffer.from(`${config.twilioAccountSid}:${config.twilioAuthToken}`).toString('base64')}`;
  }

  headersFor(url: string): Record<string, string> {
    let origin: string;
    try {
      origin = new URL(url).origin;
    } catch {
      return {};
    }
    return this.twilioOrigins.has(origin) ? { Authorization: this.authorization } : {};
  }

  async fetch(url: string): Promise<FetchedImage> {
    const response = await safeFetch(url, {
      maxBytes: this.config.imageFetchMaxBytes,
      timeoutMs: this.config.imageFetchTimeoutMs,
      maxRedirects: MAX_REDIRECTS,
      allowedContentTypes: IMAGE_CONTENT_TYPES,
      headers: { Accept: IMAGE_CONTENT_TYPES.join(', '), ...this.headersFor(url) },
      allowPrivateHosts: this.config.imageFetchAllowPrivateHosts,
    });
    // The allow-list guarantees a type here.
    return { url: response.url, contentType: response.contentType ?? 'image/jpeg', body: response.body };
  }
}
