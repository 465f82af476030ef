import { isIP } from 'node:net';

/**
 * One entry of a host allowlist: `api.twilio.com` (that name on the scheme's default port),
 * `*.twiliocdn.com` (any subdomain, not the bare domain), or `host:port` / `[v6]:port` (that
 * host on that port only).
 */
export interface HostRule {
  host: string;
  wildcard: boolean;
  port: number | null;
}

const HOSTNAME = /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$/;

const defaultPort = (protocol: string): number => (protocol === 'https:' ? 443 : 80);

/** Parses one allowlist entry; throws naming the entry when it is not a host, `*.domain` or `host:port`. */
export const parseHostRule = (entry: string): HostRule => {
  const text = entry.trim().toLowerCase();
  let host = text;
  let port: number | null = null;
  const bracketed = /^\[([^\]]+)\](?::(\d+))?$/.exec(text);
  if (bracketed) {
    host = bracketed[1] ?? '';
    if (bracketed[2] !== undefined) port = Number(bracketed[2]);
  } else if (isIP(text) !== 6) {
    const colon = text.lastIndexOf(':');
    if (colon >= 0) {
      host = text.slice(0, colon);
      const portText = text.slice(colon + 1);
      if (!/^\d+$/.test(portText)) throw new Error(`host entry "${entry}" has an invalid port`);
      port = Number(portText);
    }
  }
  if (port !== null && (port < 1 || port > 65535))
    throw new Error(`host entry "${entry}" has an invalid port`);
  const wildcard = host.startsWith('*.');
  if (wildcard) host = host.slice(2);
  const valid = isIP(host) !== 0 ? !wildcard : HOSTNAME.test(host);
  if (!valid) throw new Error(`host entry "${entry}" is not a host name, *.domain or host:port`);
  return { host, wildcard, port };
};

/** The URL's host as rules compare it: lower case, IPv6 brackets removed. */
const urlHost = (url: URL): string => url.hostname.replace(/^\[(.*)\]$/, '$1').toLowerCase();

export const hostRuleMatches = (rule: HostRule, url: URL): boolean => {
  const port = url.port === '' ? defaultPort(url.protocol) : Number(url.port);
  if (port !== (rule.port ?? defaultPort(url.protocol))) return false;
  const host = urlHost(url);
  return rule.wildcard ? host.endsWith(`.${rule.host}`) : host === rule.host;
};

/** A predicate over URLs for a list of entries (see HostRule); an empty list matches nothing. */
export const compileHostRules = (entries: readonly string[]): ((url: URL) => boolean) => {
  const rules = entries.map(parseHostRule);
  return (url) => rules.some((rule) => hostRuleMatches(rule, url));
};

/**
 * Parses the config form of a host allowlist: comma-separated entries, blanks dropped. With
 * `requirePort`, every entry must name its port (a sandbox's own endpoint, never a whole host).
 */
export const parseHostList = (
  value: string | undefined,
  options: { requirePort?: boolean } = {},
): string[] => {
  const entries = (value ?? '')
    .split(',')
    .map((e) => e.trim().toLowerCase())
    .filter((e) => e.length > 0);
  for (const entry of entries) {
    const rule = parseHostRule(entry);
    if (options.requirePort && (rule.port === null || rule.wildcard)) {
      throw new Error(`host entry "${entry}" must be host:port`);
    }
  }
  return entries;
};

/** The `host:port` of a URL (port always written), the form sandbox allowlists take. */
export const hostPortOf = (url: string | URL): string => {
  const parsed = typeof url === 'string' ? new URL(url) : url;
  const port = parsed.port === '' ? defaultPort(parsed.protocol) : Number(parsed.port);
  return `${parsed.hostname.toLowerCase()}:${port}`;
};
