import { apiJson } from '@sprout/ui';
import type { LocationTestResult } from './types';

export function testLocation(message: string): Promise<LocationTestResult> {
  return apiJson<LocationTestResult>('POST', '/api/test-location', { message });
}
