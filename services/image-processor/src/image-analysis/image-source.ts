import { Inject, Injectable } from '@nestjs/common';
import { IMAGE_CONTENT_TYPES, IMAGE_MAX_REDIRECTS, sniffImageType } from '@sprout/contracts';
import {
  CONFIG,
  ContentTypeNotAllowedError,
  HttpStatusError,
  SafeFetchError,
  hostPortOf,
  safeFetch,
} from '@sprout/platform';
import { type ImageProcessorConfig } from '../config';

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
    case 'HOST_NOT_ALLOWED':
    case 'TOO_MANY_REDIRECTS':
    case 'TOO_LARGE':
    case 'CONTENT_TYPE_NOT_ALLOWED':
      return true;
  }
};

/**
 * Downloads MMS images through safeFetch: only from Twilio's media hosts (and the sandbox's own
 * host:port), never an internal address otherwise, with size and type limits. Twilio
 * media URLs need the account's basic auth; it is sent only to Twilio's own API origin (or the
 * configured sandbox), never to another host, and safeFetch drops it when a redirect leaves it.
 */
@Injectable()
export class ImageSource {
  private readonly twilioOrigins: ReadonlySet<string>;
  private readonly authorization: string;
  /** Every host a media URL may name: Twilio's media hosts and the sandbox's own endpoints. */
  readonly allowedHosts: readonly string[];
  /** The sandbox's own endpoints (host:port), the only ones fetched on a private address. */
  readonly privateEndpoints: readonly string[];

  constructor(@Inject(CONFIG) private readonly config: ImageProcessorConfig) {
    const origins = [TWILIO_API_ORIGIN];
    const sandbox = [...config.imageFetchSandboxMediaHosts];
    if (config.twilioApiBaseUrl !== undefined) {
      origins.push(new URL(config.twilioApiBaseUrl).origin);
      sandbox.push(hostPortOf(config.twilioApiBaseUrl));
    }
    this.twilioOrigins = new Set(origins);
    this.privateEndpoints = sandbox;
    this.allowedHosts = [...config.imageFetchAllowedHosts, ...sandbox];
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
      maxRedirects: IMAGE_MAX_REDIRECTS,
      allowedContentTypes: IMAGE_CONTENT_TYPES,
      headers: { Accept: IMAGE_CONTENT_TYPES.join(', '), ...this.headersFor(url) },
      allowedHosts: this.allowedHosts,
      privateEndpoints: this.privateEndpoints,
    });
    // The bytes must be the picture the header claims (the validator the console's suite runs too).
    const actual = sniffImageType(response.body);
    if (actual === null || actual !== response.contentType) {
      throw new ContentTypeNotAllowedError(
        response.url,
        `${response.contentType ?? '(none)'} whose content is not that image`,
        IMAGE_CONTENT_TYPES,
      );
    }
    return { url: response.url, contentType: actual, body: response.body };
  }
}
