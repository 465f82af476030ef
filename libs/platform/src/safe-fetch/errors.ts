export type SafeFetchErrorCode =
  | 'INVALID_URL'
  | 'PROTOCOL_NOT_ALLOWED'
  | 'BLOCKED_ADDRESS'
  | 'HOST_NOT_ALLOWED'
  | 'DNS_FAILURE'
  | 'TOO_MANY_REDIRECTS'
  | 'TIMEOUT'
  | 'TOO_LARGE'
  | 'CONTENT_TYPE_NOT_ALLOWED'
  | 'HTTP_STATUS'
  | 'NETWORK'
  | 'ABORTED';

/** Every failure of safeFetch; `code` tells them apart, `url` is the hop that failed. */
export class SafeFetchError extends Error {
  constructor(
    readonly code: SafeFetchErrorCode,
    message: string,
    readonly url: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = new.target.name;
  }
}

export class InvalidUrlError extends SafeFetchError {
  constructor(url: string, reason: string) {
    super('INVALID_URL', `Invalid URL: ${reason}`, url);
  }
}

export class ProtocolNotAllowedError extends SafeFetchError {
  constructor(
    url: string,
    readonly protocol: string,
  ) {
    super('PROTOCOL_NOT_ALLOWED', `Protocol ${protocol} is not allowed (only http and https)`, url);
  }
}

export class BlockedAddressError extends SafeFetchError {
  constructor(
    url: string,
    readonly hostname: string,
    readonly address: string,
    readonly reason: string,
  ) {
    super('BLOCKED_ADDRESS', `Refused to fetch ${hostname}: ${address} is a ${reason} address`, url);
  }
}

export class HostNotAllowedError extends SafeFetchError {
  constructor(
    url: string,
    readonly host: string,
  ) {
    super('HOST_NOT_ALLOWED', `Refused to fetch ${host}: not an allowed host`, url);
  }
}

export class DnsResolutionError extends SafeFetchError {
  constructor(
    url: string,
    readonly hostname: string,
    cause: unknown,
  ) {
    super('DNS_FAILURE', `Could not resolve ${hostname}`, url, { cause });
  }
}

export class TooManyRedirectsError extends SafeFetchError {
  constructor(
    url: string,
    readonly maxRedirects: number,
  ) {
    super('TOO_MANY_REDIRECTS', `More than ${maxRedirects} redirects`, url);
  }
}

export class FetchTimeoutError extends SafeFetchError {
  constructor(
    url: string,
    readonly timeoutMs: number,
  ) {
    super('TIMEOUT', `No complete response within ${timeoutMs} ms`, url);
  }
}

export class ResponseTooLargeError extends SafeFetchError {
  constructor(
    url: string,
    readonly maxBytes: number,
  ) {
    super('TOO_LARGE', `Response is larger than ${maxBytes} bytes`, url);
  }
}

export class ContentTypeNotAllowedError extends SafeFetchError {
  constructor(
    url: string,
    readonly contentType: string | null,
    readonly allowed: readonly string[],
  ) {
    super(
      'CONTENT_TYPE_NOT_ALLOWED',
      `Content type ${contentType ?? '(none)'} is not allowed (expected ${allowed.join(', ')})`,
      url,
    );
  }
}

export class HttpStatusError extends SafeFetchError {
  constructor(
    url: string,
    readonly status: number,
  ) {
    super('HTTP_STATUS', `HTTP ${status}`, url);
  }
}

export class FetchNetworkError extends SafeFetchError {
  constructor(url: string, cause: unknown) {
    super('NETWORK', `Network error: ${cause instanceof Error ? cause.message : String(cause)}`, url, {
      cause,
    });
  }
}

export class FetchAbortedError extends SafeFetchError {
  constructor(url: string) {
    super('ABORTED', 'Fetch aborted', url);
  }
}
