import { fetchJson } from '@sprout/ui';
import type { PublicConfig } from './types';

export function getPublicConfig(): Promise<PublicConfig> {
  return fetchJson<PublicConfig>('/api/public-config');
}
