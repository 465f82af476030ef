import { Inject, Injectable } from '@nestjs/common';
import type { MessageMedia } from '@sprout/domain';
import {
  CONFIG,
  type FetchedImage,
  HttpStatusError,
  type MediaFetchSettings,
  SafeFetchError,
  fetchImage,
  hostPortOf,
  mediaFetchPolicy,
} from '@sprout/platform';
import { type ImageProcessorConfig } from '../config';

const TWILIO_API_ORIGIN = 'https://api.twilio.com';

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
 * Downloads message images through the SSRF-safe fetcher, with size and type limits, under the
 * item's policy: an MMS's media only from Twilio's media hosts (and the sandbox's own host:port);
 * a URL typed in the console (image test, simulator) from any public host, the stack's own
 * samples read in place. Twilio media URLs need the account's basic auth; it is sent only to
 * Twilio's own API origin (or the configured sandbox) for an MMS, never to another host, and
 * safeFetch drops it when a redirect leaves it.
 */
@Injectable()
export class ImageSource {
  private readonly twilioOrigins: ReadonlySet<string>;
  private readonly authorization: string;
  private readonly settings: MediaFetchSettings;

  constructor(@Inject(CONFIG) private readonly config: ImageProcessorConfig) {
    const origins = [TWILIO_API_ORIGIN];
    const sandbox = [...config.imageFetchSandboxMediaHosts];
    if (config.twilioApiBaseUrl !== undefined) {
      origins.push(new URL(config.twilioApiBaseUrl).origin);
      sandbox.push(hostPortOf(config.twilioApiBaseUrl));
    }
    this.twilioOrigins = new Set(origins);
    this.settings = {
      publicBaseUrl: config.publicBaseUrl,
      mediaHosts: config.imageFetchAllowedHosts,
      sandboxEndpoints: sandbox,
    };
    this.authorization = `Basic ${Buffer.from(`${config.twilioAccountSid}:${config.twilioAuthToken}`).toString('base64')}`;
  }

  private headersFor(media: Pick<MessageMedia, 'url' | 'source'>): Record<string, string> {
    if (media.source === 'admin') return {};
    let origin: string;
    try {
      origin = new URL(media.url).origin;
    } catch {
      return {};
    }
    return this.twilioOrigins.has(origin) ? { Authorization: this.authorization } : {};
  }

  async fetch(media: Pick<MessageMedia, 'url' | 'source'>): Promise<FetchedImage> {
    return fetchImage(media.url, {
      ...mediaFetchPolicy(media, this.settings),
      maxBytes: this.config.imageFetchMaxBytes,
      timeoutMs: this.config.imageFetchTimeoutMs,
      headers: this.headersFor(media),
    });
  }
}
