import { IMAGE_CONTENT_TYPES, IMAGE_MAX_BYTES, IMAGE_MAX_REDIRECTS, sniffImageType } from '@sprout/contracts';
import { ContentTypeNotAllowedError } from './errors';
import type { FetchPolicy } from './fetch-policy';
import { type SafeFetchOptions, safeFetch } from './safe-fetch';

export interface FetchedImage {
  /** The URL finally fetched (after redirects). */
  url: string;
  contentType: (typeof IMAGE_CONTENT_TYPES)[number];
  body: Buffer;
}

export type ImageFetchOptions = FetchPolicy &
  Pick<SafeFetchOptions, 'timeoutMs' | 'headers' | 'resolve' | 'signal'> & {
    /** Default IMAGE_MAX_BYTES (Twilio's 5 MB). */
    maxBytes?: number;
  };

/**
 * One picture through safeFetch under a policy, with the image rules (types, size, redirects) and
 * the bytes checked to be the picture the header claims. The analyser and the console's
 * validation suite fetch with it.
 */
export const fetchImage = async (url: string, options: ImageFetchOptions): Promise<FetchedImage> => {
  const { maxBytes = IMAGE_MAX_BYTES, headers, ...rest } = options;
  const response = await safeFetch(url, {
    ...rest,
    maxBytes,
    maxRedirects: IMAGE_MAX_REDIRECTS,
    allowedContentTypes: IMAGE_CONTENT_TYPES,
    headers: { Accept: IMAGE_CONTENT_TYPES.join(', '), ...headers },
  });
  const actual = sniffImageType(response.body);
  if (actual === null || actual !== response.contentType) {
    throw new ContentTypeNotAllowedError(
      response.url,
      `${response.contentType ?? '(none)'} whose content is not that image`,
      IMAGE_CONTENT_TYPES,
    );
  }
  return { url: response.url, contentType: actual, body: response.body };
};
