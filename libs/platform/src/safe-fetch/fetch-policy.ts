import type { MessageMedia } from '@sprout/domain';
import { ownImageSamples } from './image-samples';
import type { SafeFetchOptions } from './safe-fetch';

/**
 * Where a URL may lead. Beside it every policy refuses private, loopback, link-local, CGNAT,
 * multicast, unspecified and metadata addresses (IPv4 and IPv6, IPv4-mapped included) on the
 * first URL and every redirect, and connects to the address it checked.
 */
export type FetchPolicy = Pick<SafeFetchOptions, 'allowedHosts' | 'privateEndpoints' | 'local'>;

/**
 * MMS media: only the media hosts (Twilio's API and CDN hosts), checked before DNS, and the
 * sandbox's own endpoints (host:port), the only private addresses fetched.
 */
export const mmsMediaPolicy = (options: {
  mediaHosts: readonly string[];
  sandboxEndpoints: readonly string[];
}): FetchPolicy => ({
  allowedHosts: [...options.mediaHosts, ...options.sandboxEndpoints],
  privateEndpoints: [...options.sandboxEndpoints],
});

/**
 * URLs an admin typed (the image test, the simulator): any public host, and the stack's own
 * sample images read in place (no fetch) on the public origin or loopback.
 */
export const adminUrlPolicy = (options: { publicBaseUrl: string }): FetchPolicy => ({
  local: ownImageSamples(options.publicBaseUrl),
});

export interface MediaFetchSettings {
  /** PUBLIC_BASE_URL: the origin whose sample URLs are read in place. */
  publicBaseUrl: string;
  /** IMAGE_FETCH_ALLOWED_HOSTS. */
  mediaHosts: readonly string[];
  /** The sandbox's media endpoints (host:port). */
  sandboxEndpoints: readonly string[];
}

/** The policy of one media item: the admin URL policy when the console supplied it, else MMS. */
export const mediaFetchPolicy = (
  media: Pick<MessageMedia, 'source'>,
  settings: MediaFetchSettings,
): FetchPolicy => (media.source === 'admin' ? adminUrlPolicy(settings) : mmsMediaPolicy(settings));
